/*
 * log.c (cmd): `servelint log PATH`: the semantic history of one entry
 * through the first-parent commits from a revision (HEAD by default),
 * following renames. Each commit that touched the entry is told with its
 * id, author, date and subject, and what it did: the setting changes, or
 * "reformatted only" (hidden with --no-reformat), a rename, the entry's
 * creation. Exit: 0, 2 unreadable input or unknown revision, 3 usage.
 */
#include "cmd.h"
#include "options.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "report/report.h"
#include "diff/diff.h"
#include "entry/entry.h"

static void usage(FILE *f)
{
	fputs("usage: servelint log [--rev REV] [--no-reformat] [--format tty|markdown]\n"
	      "                     [--ignore KEY-GLOB]... [--only KEY-GLOB]... PATH\n"
	      "\n"
	      "The semantic history of the entry at PATH (a folder or script, relative to\n"
	      "the repository's top) through the first-parent commits from REV (HEAD),\n"
	      "following renames: for each commit that touched it, the commit and what\n"
	      "changed in how the model is served. Read with libgit2, no checkout.\n"
	      "\n"
	      "  -r, --rev REV         start from REV instead of HEAD\n"
	      "      --no-reformat     leave out commits that only reformatted the entry\n"
	      "  -f, --format FORMAT   tty (default), markdown\n"
	      "      --ignore GLOB     leave out keys matching GLOB (repeatable)\n"
	      "      --only GLOB       only keys matching GLOB (repeatable)\n"
	      "      --color WHEN      auto (default), always, never\n"
	      "      --stats           tell on stderr how many entries were looked up and\n"
	      "                        parsed (each distinct object once)\n",
	      f);
}

/* The author date in the author's zone, as git's --date=iso does. */
static void date(char *buf, size_t n, const sl_commit *c)
{
	time_t t = (time_t)(c->time + (long long)c->tz_minutes * 60);
	struct tm tm;
	gmtime_r(&t, &tm);
	size_t k = strftime(buf, n, "%Y-%m-%d %H:%M:%S", &tm);
	int off = c->tz_minutes < 0 ? -c->tz_minutes : c->tz_minutes;
	snprintf(buf + k, n - k, " %c%02d%02d", c->tz_minutes < 0 ? '-' : '+', off / 60, off % 60);
}

/* Whether PATH names the same object at both commits: then the commit did
 * not touch the entry, and the tree diff that finds renames is spared. */
static int same_at(const char *r1, const char *r2, const char *path)
{
	char a[SL_GIT_ID_SIZE], b[SL_GIT_ID_SIZE];
	sl_error e = {0};
	sl_buf s1 = {0}, s2 = {0};
	sl_buf_printf(&s1, "%s:%s", r1, path);
	sl_buf_printf(&s2, "%s:%s", r2, path);
	int same = !sl_git_object_id(s1.data, a, &e) && !sl_git_object_id(s2.data, b, &e) && !strcmp(a, b);
	sl_error_clear(&e);
	sl_buf_free(&s1);
	sl_buf_free(&s2);
	return same;
}

int sl_cmd_log(int argc, char **argv)
{
	static const struct option opts[] = {
		{"rev", required_argument, NULL, 'r'},
		{"no-reformat", no_argument, NULL, 'n'},
		{"format", required_argument, NULL, 'f'},
		{"ignore", required_argument, NULL, 'i'},
		{"only", required_argument, NULL, 'O'},
		{"color", required_argument, NULL, 'C'},
		{"stats", no_argument, NULL, 'S'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *rev = "HEAD", *format = "tty";
	int no_reformat = 0, color = -1, stats = 0, c;
	sl_key_globs keys = {0};
	optind = 1;
	while ((c = getopt_long(argc, argv, "r:f:h", opts, NULL)) != -1) {
		switch (c) {
		case 'r': rev = optarg; break;
		case 'n': no_reformat = 1; break;
		case 'S': stats = 1; break;
		case 'f':
			if (strcmp(optarg, "tty") && strcmp(optarg, "markdown")) {
				fprintf(stderr, "servelint log: unknown format `%s` (tty, markdown)\n", optarg);
				return 3;
			}
			format = optarg;
			break;
		case 'i':
		case 'O':
			if (sl_key_globs_take(&keys, c, optarg, "log") < 0)
				return 3;
			break;
		case 'C':
			if ((color = sl_color_parse(optarg)) == -2) {
				fprintf(stderr, "servelint log: --color takes auto, always or never\n");
				return 3;
			}
			break;
		case 'h': usage(stdout); return SL_EXIT_OK;
		default: usage(stderr); return 3;
		}
	}
	if (argc - optind != 1) {
		fprintf(stderr, "servelint log: one entry PATH is needed\n");
		usage(stderr);
		return 3;
	}
	color = sl_color_resolve(color);
	int md = !strcmp(format, "markdown");
	sl_error err = {0};
	sl_grammars *gs = NULL;
	sl_commit *cs = NULL;
	size_t ncs = 0;
	sl_entry_cache *cache = NULL;
	sl_diff_opts o = sl_key_globs_opts(&keys);
	char *cur = sl_strdup(argv[optind]);
	size_t len = strlen(cur);
	while (len > 1 && cur[len - 1] == '/')
		cur[--len] = 0;
	int rc = SL_EXIT_OK, progress = isatty(STDERR_FILENO), shown = 0, done = 0;
	if (sl_normalize_grammars_load(&gs, &err) || sl_git_log(rev, &cs, &ncs, &err)) {
		rc = SL_EXIT_ERROR;
	} else {
		cache = sl_entry_cache_new(gs);
		/* the entry must be there at REV */
		sl_buf at = {0};
		sl_buf_printf(&at, "%s:%s", rev, cur);
		sl_entry *e = NULL;
		if (sl_entry_from_git(at.data, &e, &err))
			rc = SL_EXIT_ERROR;
		sl_entry_free(e);
		sl_buf_free(&at);
	}
	if (md && !rc)
		printf("### servelint log `%s`\n\n", cur);
	for (size_t i = 0; i < ncs && !rc && !done; i++) {
		const sl_commit *k = &cs[i];
		if (progress && i % 50 == 49)
			fprintf(stderr, "\rservelint log: %zu/%zu commits", i + 1, ncs);
		if (k->parent && same_at(k->parent, k->id, cur))
			continue; /* the commit left the entry's folder (or file) alone */
		sl_touched t = {NULL, sl_strdup(cur), 0, 1};
		if (k->parent) {
			sl_touched *ts = NULL;
			size_t nt = 0;
			if (sl_git_touched(k->parent, k->id, NULL, 0, &ts, &nt, &err)) {
				free(t.new_path);
				rc = SL_EXIT_ERROR;
				break;
			}
			size_t j = 0;
			while (j < nt && strcmp(ts[j].new_path, cur))
				j++;
			if (j == nt) { /* not touched by this commit */
				sl_touched_free(ts, nt);
				free(t.new_path);
				continue;
			}
			t.old_path = sl_strdup(ts[j].old_path);
			t.in_old = ts[j].in_old;
			sl_touched_free(ts, nt);
		} else {
			t.old_path = sl_strdup(cur);
		}
		/* short ids name the sides (REV:path) */
		char r1[13], r2[13];
		snprintf(r1, sizeof r1, "%.12s", k->parent ? k->parent : k->id);
		snprintf(r2, sizeof r2, "%.12s", k->id);
		sl_touched_cmp cmp;
		int st = sl_diff_touched_compare_named(k->parent ? k->parent : k->id, k->id, r1, r2, &t, cache, &o,
						       &cmp, &err);
		if (st < 0) {
			rc = SL_EXIT_ERROR;
		} else if (!(no_reformat && st == 1)) {
			char when[64];
			date(when, sizeof when, k);
			if (progress)
				fputs("\r\033[K", stderr);
			if (md)
				printf("- `%.12s` %s, %s: **%s**: %s", k->id, k->author, when, k->subject,
				       sl_diff_touched_status[st]);
			else
				printf("%scommit %.12s%s %s  %s\n    %s\n  %s", color ? "\033[33m" : "", k->id,
				       color ? "\033[0m" : "", k->author, when, k->subject, sl_diff_touched_status[st]);
			if (st >= 4)
				printf(md ? " from `%s`" : " from %s", t.old_path);
			fputs("\n", stdout);
			sl_report_touched_diff(&cmp, md, color);
			shown++;
		}
		sl_diff_touched_free(&cmp);
		/* follow the rename; the entry's creation ends its history */
		free(cur);
		cur = t.old_path;
		free(t.new_path);
		done = st == 2;
	}
	if (progress && ncs >= 50)
		fputs("\r\033[K", stderr);
	if (rc) {
		sl_error_print(&err, "servelint");
		sl_error_clear(&err);
	} else if (!shown) {
		printf("%s\n", md ? "No commit changed how the model is served." : "no commit changed the entry");
	}
	if (!rc && (fflush(stdout) || ferror(stdout)))
		rc = SL_EXIT_ERROR;
	if (stats && cache)
		sl_entry_cache_print_stats("log", cache);
	sl_entry_cache_free(cache);
	free(cur);
	sl_commits_free(cs, ncs);
	sl_normalize_grammars_free(gs);
	return rc;
}
