/*
 * log.c (cmd): `servelint log PATH`: the semantic history of one entry
 * through the first-parent commits from a revision (HEAD by default),
 * following renames. Each commit that touched the entry is told with its
 * id, author, date and subject, and what it did: the setting changes, or
 * "reformatted only" (hidden with --no-reformat), a rename, the entry's
 * creation. A folder of entries (the repository's top too) is every
 * entry's history under it, each commit with what it did to each.
 * Exit: 0, 2 unreadable input or unknown revision, 3 usage.
 */
#include "cmd.h"
#include "options.h"

#include <getopt.h>
#include <stdint.h>
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
	fputs("usage: servelint log [--rev REV] [-n N] [--oneline] [--no-reformat] [--format tty|markdown|json]\n"
	      "                     [--ignore KEY-GLOB]... [--only KEY-GLOB]... PATH\n"
	      "\n"
	      "The semantic history of the entry at PATH (a folder or script, or a file of\n"
	      "one, from the current folder) through the first-parent commits from REV (HEAD),\n"
	      "following renames: for each commit that touched it, the commit and what\n"
	      "changed in how the model is served. A folder of entries (`.` at the top too):\n"
	      "each commit with what it did to each entry under it. Read with libgit2.\n"
	      "\n"
	      "  -r, --rev REV         start from REV instead of HEAD\n"
	      "  -n, --max-count N     at most N commits\n"
	      "      --oneline         one line per commit: id, subject, what it did\n"
	      "      --no-reformat     leave out commits that only reformatted the entry\n"
	      "  -f, --format FORMAT   tty (default), markdown, json\n"
	      "      --ignore GLOB     leave out keys matching GLOB (repeatable)\n"
	      "      --only GLOB       only keys matching GLOB (repeatable)\n"
	      "      --color WHEN      auto (default), always, never\n"
	      "      --stats           tell on stderr how many entries were looked up and\n"
	      "                        parsed (each distinct object once)\n"
	      "      --version         servelint's version\n"
	      "  -h, --help            this help\n"
	      "\n"
	      "Exit status: 0, 2 unreadable input or unknown revision, 3 usage.\n",
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

/* PATH the script of an entry folder that adds nothing to it (no file it
 * names, no metadata): its launch.sh, or the only script of its folder
 * (recipes/x/serve.sh). The history is the folder's, as the tree diff
 * names the entry; REV:folder (caller frees), or NULL. */
static char *lone_script_folder(const char *rev, const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash || slash == path || !sl_ends_with(slash + 1, ".sh"))
		return NULL;
	char *folder = sl_strndup(path, (size_t)(slash - path));
	int many = sl_git_many_scripts(rev, folder);
	free(folder);
	if (many)
		return NULL; /* a folder of many scripts holds an entry per script */
	sl_buf dir = {0};
	sl_buf_printf(&dir, "%s:%.*s", rev, (int)(slash - path), path);
	sl_entry *e = NULL;
	sl_error err = {0};
	int ok = !sl_entry_from_git(dir.data, &e, &err) && e->script && !strcmp(e->script->name, slash + 1);
	sl_entry_free(e);
	sl_error_clear(&err);
	if (!ok) {
		sl_buf_free(&dir);
		return NULL;
	}
	return sl_buf_detach(&dir);
}

/* The tree of no files: the side before a root commit, so that a folder's
 * first commit tells the entries it added. */
#define EMPTY_TREE "4b825dc642cb6eb9a060e54bf8d69288fbee4904"

typedef struct log_opts {
	const char *rev;
	int md, json, oneline, no_reformat, color, progress;
	size_t max_count;
	const sl_diff_opts *o;
} log_opts;

/* Whether FOLDER (a repository path, "" for the top) holds entries at REV:
 * the history of a folder of entries is every entry's under it. With
 * others_only, entries other than FOLDER itself: a folder of many scripts
 * (benchmarks/, one entry per script) reads as an entry too, but its
 * history is its scripts'. */
static int holds_entries(const char *rev, const char *folder, int others_only)
{
	sl_touched *ts = NULL;
	size_t nt = 0, n = 0;
	sl_error e = {0};
	char *ps[1] = {(char *)folder};
	if (!sl_git_touched(EMPTY_TREE, rev, ps, *folder ? 1 : 0, &ts, &nt, &e))
		for (size_t i = 0; i < nt; i++)
			n += ts[i].in_new && (!others_only || strcmp(ts[i].new_path, folder));
	sl_error_clear(&e);
	sl_touched_free(ts, nt);
	return n > 0;
}

/* `log FOLDER`: each commit that touched an entry under FOLDER, with what
 * it did to each (as `diff PARENT COMMIT -- FOLDER` tells it); files that
 * start no service are left out. Returns the exit status; *unreadable
 * counts the sides that could not be read (told on stderr). */
static int log_folder(const log_opts *lo, const char *folder, const sl_commit *cs, size_t ncs, sl_entry_cache *cache,
		      json_t *commits, size_t *unreadable)
{
	size_t shown = 0;
	char *ps[1] = {(char *)folder};
	for (size_t i = 0; i < ncs && shown < lo->max_count; i++) {
		const sl_commit *k = &cs[i];
		const char *r1 = k->parent ? k->parent : EMPTY_TREE;
		if (lo->progress && i % 50 == 49)
			fprintf(stderr, "\rservelint log: %zu/%zu commits", i + 1, ncs);
		sl_touched *ts = NULL;
		size_t nt = 0;
		sl_error err = {0};
		if (sl_git_touched(r1, k->id, ps, *folder ? 1 : 0, &ts, &nt, &err)) {
			sl_error_print(&err, "servelint");
			sl_error_clear(&err);
			return SL_EXIT_ERROR;
		}
		char s1[13], s2[13], when[64];
		snprintf(s1, sizeof s1, "%.12s", r1);
		snprintf(s2, sizeof s2, "%.12s", k->id);
		date(when, sizeof when, k);
		json_t *entries = json_array();
		size_t told = 0;
		for (size_t j = 0; j < nt; j++) {
			if (!ts[j].in_old && !ts[j].in_new)
				continue;
			sl_touched_cmp cmp;
			int st = sl_diff_touched_compare_named(r1, k->id, s1, s2, &ts[j], cache, lo->o, &cmp, &err);
			const char *path = st == 2 ? ts[j].new_path : ts[j].old_path;
			const char *label = st < 0 ? "cannot be read (the error is on standard error)"
						   : sl_report_touched_label(&cmp);
			if (st < 0) {
				if (lo->progress)
					fputs("\r\033[K", stderr);
				sl_error_print(&err, "servelint");
				sl_error_clear(&err);
				(*unreadable)++;
			} else if (sl_diff_touched_no_service(&cmp) || (lo->no_reformat && (st == 1 || st == 5))) {
				sl_diff_touched_free(&cmp);
				continue;
			}
			if (lo->progress && !told)
				fputs("\r\033[K", stderr);
			if (!told && !lo->json) {
				if (lo->oneline)
					printf("%s%.12s%s %s (", lo->color ? "\033[33m" : "", k->id, lo->color ? "\033[0m" : "",
					       k->subject);
				else if (lo->md)
					printf("- `%.12s` %s, %s: **%s**\n", k->id, k->author, when, k->subject);
				else
					printf("%s%scommit %.12s%s %s  %s\n    %s\n", shown ? "\n" : "", lo->color ? "\033[33m" : "",
					       k->id, lo->color ? "\033[0m" : "", k->author, when, k->subject);
			}
			told++;
			if (lo->json) {
				json_t *e = json_pack("{s:s, s:s}", "status", st < 0 ? "unreadable" : sl_diff_touched_status[st],
						      "path", path);
				if (st >= 0)
					json_object_set_new(e, "claims_only", json_boolean(label != sl_diff_touched_status[st]));
				if (st >= 4)
					json_object_set_new(e, "new_path", json_string(ts[j].new_path));
				if (st == 0 || st == 4) {
					json_t *dj = sl_report_diff_json(&cmp.diff, cmp.na, cmp.nb);
					sl_report_json_split_revision(dj, r1, k->id);
					sl_report_json_split_revision(dj, s1, s2);
					json_object_set_new(e, "diff", dj);
				}
				json_array_append_new(entries, e);
			} else if (lo->oneline) {
				printf("%s%s: %s", told > 1 ? "; " : "", label, path);
				if (st >= 4)
					printf(" -> %s", ts[j].new_path);
			} else {
				printf(lo->md ? "  - %s `%s`" : "  %s: %s", label, path);
				if (st >= 4)
					printf(lo->md ? " → `%s`" : " -> %s", ts[j].new_path);
				fputc('\n', stdout);
				if (st >= 0)
					sl_report_touched_diff(&cmp, lo->md, lo->color);
			}
			sl_diff_touched_free(&cmp);
		}
		sl_touched_free(ts, nt);
		if (told && lo->json)
			json_array_append_new(commits, json_pack("{s:s, s:s, s:s, s:s, s:o}", "id", k->id, "author",
								 k->author, "date", when, "subject", k->subject,
								 "entries", entries));
		else
			json_decref(entries);
		if (told && lo->oneline && !lo->json)
			fputs(")\n", stdout);
		shown += told > 0;
	}
	if (lo->progress && ncs >= 50)
		fputs("\r\033[K", stderr);
	if (!shown && lo->max_count && !lo->json)
		printf("%s\n", lo->md ? "No commit changed an entry under the folder." : "no commit changed an entry under the folder");
	return SL_EXIT_OK;
}

int sl_cmd_log(int argc, char **argv)
{
	static const struct option opts[] = {
		SL_OPTS_COMMON,
		{"rev", required_argument, NULL, 'r'},
		{"no-reformat", no_argument, NULL, 'R'},
		{"max-count", required_argument, NULL, 'n'},
		{"oneline", no_argument, NULL, 'o'},
		{"format", required_argument, NULL, 'f'},
		{"ignore", required_argument, NULL, 'i'},
		{"only", required_argument, NULL, 'O'},
		{"color", required_argument, NULL, 'C'},
		{"stats", no_argument, NULL, 'S'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *rev = "HEAD", *format = "tty";
	int no_reformat = 0, color = -1, stats = 0, oneline = 0, c;
	size_t max_count = SIZE_MAX;
	sl_key_globs keys = {0};
	optind = 1;
	while ((c = getopt_long(argc, argv, "r:f:n:h", opts, NULL)) != -1) {
		switch (c) {
		case 'r': rev = optarg; break;
		case 'R': no_reformat = 1; break;
		case 'o': oneline = 1; break;
		case 'n': {
			char *end;
			unsigned long long v = strtoull(optarg, &end, 10);
			if (*end || !*optarg || *optarg == '-') {
				fprintf(stderr, "servelint log: -n takes a number of commits\n");
				return 3;
			}
			max_count = (size_t)v;
			break;
		}
		case 'S': stats = 1; break;
		case 'f':
			if (strcmp(optarg, "tty") && strcmp(optarg, "markdown") && strcmp(optarg, "json")) {
				fprintf(stderr, "servelint log: unknown format `%s` (tty, markdown, json)\n", optarg);
				return SL_EXIT_USAGE;
			}
			format = optarg;
			break;
		case 'i':
		case 'O':
			if (sl_key_globs_take(&keys, c, optarg, "log") < 0)
				return SL_EXIT_USAGE;
			break;
		case 'C':
			if (sl_opt_color("log", optarg, &color))
				return SL_EXIT_USAGE;
			break;
		case SL_OPT_VERSION: return sl_cmd_version();
		case 'h': usage(stdout); return SL_EXIT_OK;
		default: usage(stderr); return SL_EXIT_USAGE;
		}
	}
	if (argc - optind != 1) {
		fprintf(stderr, "servelint log: one entry PATH is needed\n");
		usage(stderr);
		return SL_EXIT_USAGE;
	}
	color = sl_color_resolve(color);
	int md = !strcmp(format, "markdown"), json = !strcmp(format, "json");
	json_t *commits = json_array();
	sl_error err = {0};
	sl_grammars *gs = NULL;
	sl_commit *cs = NULL;
	size_t ncs = 0;
	sl_entry_cache *cache = NULL;
	sl_diff_opts o = sl_key_globs_opts(&keys);
	/* PATH is from the current folder, as `git log PATH` takes it */
	char *cur = sl_git_path_from_cwd(argv[optind]);
	size_t len = strlen(cur);
	while (len > 1 && cur[len - 1] == '/')
		cur[--len] = 0;
	int rc = SL_EXIT_OK, progress = isatty(STDERR_FILENO), shown = 0, done = 0, unreadable = 0, folder = 0;
	if (sl_normalize_grammars_load(&gs, &err) || sl_git_log(rev, &cs, &ncs, &err)) {
		rc = SL_EXIT_ERROR;
	} else {
		cache = sl_entry_cache_new(gs);
		/* a script of a group is followed as its group (named by its first script) */
		char *lead = sl_git_entry_name(rev, cur);
		free(cur);
		cur = lead;
		/* the entry must be there at REV; a file of an entry folder
		 * (its script, a YAML file it names) is that entry's history */
		sl_buf at = {0};
		sl_buf_printf(&at, "%s:%s", rev, cur);
		char *owner = sl_entry_input_owner_git(at.data);
		if (!owner)
			owner = lone_script_folder(rev, cur);
		if (owner) {
			free(cur);
			cur = sl_strdup(strchr(owner, ':') + 1);
			free(owner);
			sl_buf_free(&at);
			sl_buf_printf(&at, "%s:%s", rev, cur);
		}
		sl_entry *e = NULL;
		if (sl_entry_from_git(at.data, &e, &err)) {
			if (holds_entries(rev, cur, 0)) {
				folder = 1; /* a folder of entries (the top, too): each one's history */
				sl_error_clear(&err);
			} else {
				rc = SL_EXIT_ERROR;
			}
		} else if (!e->script || strcmp(e->script->path, at.data)) {
			/* a folder read as an entry that holds entries of its own
			 * (a folder of many scripts): each one's history */
			folder = holds_entries(rev, cur, 1);
		}
		sl_entry_free(e);
		if (!rc && (keys.ni || keys.no)) {
			/* a key glob is told when it matches nothing at REV */
			sl_entry_cached h = {0};
			sl_error ignored = {0};
			if (!sl_entry_cache_get(cache, at.data, &h, &ignored) && h.model) {
				const sl_model *m = h.model;
				sl_key_globs_warn(&keys, &m, 1, "log");
			}
			sl_error_clear(&ignored);
			sl_entry_cache_release(cache, &h);
		}
		sl_buf_free(&at);
	}
	if (md && !rc)
		printf("### servelint log `%s`\n\n", *cur ? cur : ".");
	if (folder && !rc) {
		log_opts lo = {rev, md, json, oneline, no_reformat, color, progress, max_count, &o};
		size_t bad = 0;
		rc = log_folder(&lo, cur, cs, ncs, cache, commits, &bad);
		unreadable = bad > 0;
		done = shown = 1;
	}
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
			/* a version that cannot be read is said, located, and the
			 * history goes on past it; the exit is 2 at the end */
			if (progress)
				fputs("\r\033[K", stderr);
			sl_error_print(&err, "servelint");
			sl_error_clear(&err);
			unreadable++;
			char when[64];
			date(when, sizeof when, k);
			if (!json && (size_t)shown < max_count) {
				if (oneline)
					printf("%.12s %s (cannot be read)\n", k->id, k->subject);
				else if (md)
					printf("- `%.12s` %s, %s: **%s**: cannot be read (the error is on standard error)\n",
					       k->id, k->author, when, k->subject);
				else
					printf("%scommit %.12s %s  %s\n    %s\n  cannot be read (the error is on standard error)\n",
					       shown ? "\n" : "", k->id, k->author, when, k->subject);
				shown++;
			} else if (json) {
				json_array_append_new(commits, json_pack("{s:s, s:s, s:s, s:s, s:s, s:s}", "id", k->id,
									 "author", k->author, "date", when, "subject",
									 k->subject, "status", "unreadable", "path",
									 t.new_path));
			}
			st = t.in_old ? 0 : 2;
		} else if (!(no_reformat && st == 1) && (size_t)shown < max_count) {
			char when[64];
			date(when, sizeof when, k);
			if (progress)
				fputs("\r\033[K", stderr);
			const char *label = sl_report_touched_label(&cmp);
			int claims_only = label != sl_diff_touched_status[st];
			if (json) {
				json_t *o = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:b}", "id", k->id, "author", k->author,
						      "date", when, "subject", k->subject, "status",
						      sl_diff_touched_status[st], "path", t.new_path, "claims_only", claims_only);
				if (st >= 4)
					json_object_set_new(o, "old_path", json_string(t.old_path));
				if (st == 0 || st == 4) {
					json_t *dj = sl_report_diff_json(&cmp.diff, cmp.na, cmp.nb);
					/* origins are named by full ids, the sides by short ones */
					sl_report_json_split_revision(dj, k->parent ? k->parent : k->id, k->id);
					sl_report_json_split_revision(dj, r1, r2);
					json_object_set_new(o, "diff", dj);
				}
				json_array_append_new(commits, o);
			} else if (oneline)
				printf("%s%.12s%s %s (%s", color && !md ? "\033[33m" : "", k->id, color && !md ? "\033[0m" : "",
				       k->subject, label);
			else if (md)
				printf("- `%.12s` %s, %s: **%s**: %s", k->id, k->author, when, k->subject, label);
			else
				printf("%s%scommit %.12s%s %s  %s\n    %s\n  %s", shown ? "\n" : "", color ? "\033[33m" : "",
				       k->id, color ? "\033[0m" : "", k->author, when, k->subject, label);
			if (!json) {
				if (st >= 4)
					printf(md ? " from `%s`" : " from %s", t.old_path);
				fputs(oneline ? ")\n" : "\n", stdout);
				if (!oneline)
					sl_report_touched_diff(&cmp, md, color);
			}
			shown++;
		}
		sl_diff_touched_free(&cmp);
		/* follow the rename; the entry's creation ends its history */
		free(cur);
		cur = t.old_path;
		free(t.new_path);
		done = st == 2 || (size_t)shown >= max_count;
	}
	if (progress && ncs >= 50)
		fputs("\r\033[K", stderr);

	if (rc) {
		sl_error_print(&err, "servelint");
		sl_error_clear(&err);
	} else if (json) {
		json_t *doc = sl_report_json_doc(json_pack("{s:s, s:s, s:O}", "path", argv[optind], "rev", rev,
							   "commits", commits));
		if (json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15)))
			rc = SL_EXIT_ERROR;
		fputc('\n', stdout);
		json_decref(doc);
	} else if (!shown && max_count) {
		printf("%s\n", md ? "No commit changed how the model is served." : "no commit changed the entry");
	}
	json_decref(commits);
	if (!rc && (fflush(stdout) || ferror(stdout)))
		rc = SL_EXIT_ERROR;
	if (!rc && unreadable)
		rc = SL_EXIT_ERROR; /* the history is whole but for them */
	if (stats && cache)
		sl_entry_cache_print_stats("log", cache);
	sl_entry_cache_free(cache);
	free(cur);
	sl_commits_free(cs, ncs);
	sl_normalize_grammars_free(gs);
	return rc;
}
