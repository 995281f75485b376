/*
 * review.c (cmd): `servelint review BASE [HEAD]`, for a pull request: the
 * entries changed between two revisions with their semantic diffs, and
 * only the findings the change introduces. A finding at HEAD is new unless
 * the same rule said the same thing about the entry (at its BASE path) at
 * BASE; places are not compared, since unrelated edits move them.
 * Exit: 0, 1 when a new finding reaches --failure-threshold, 2 unreadable
 * input or unknown revision, 3 usage.
 */
#include "cmd.h"
#include "options.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check/check.h"
#include "report/report.h"
#include "diff/diff.h"
#include "entry/entry.h"

static void usage(FILE *f)
{
	fputs("usage: servelint review [--format tty|markdown|sarif|json|gcc|github|checkstyle]\n"
	      "                        [--failure-threshold LEVEL] [--color WHEN] [--quiet] BASE [HEAD]\n"
	      "\n"
	      "For a pull request: the entries changed between BASE and HEAD (default: the\n"
	      "working tree, uncommitted work included, as git diff BASE)\n"
	      "with their semantic diffs, and the findings the change introduces (those\n"
	      "already present at BASE are not repeated). Read with libgit2, no checkout.\n"
	      "\n"
	      "  -f, --format FORMAT         tty (default), markdown (a PR comment), or a\n"
	      "                              findings format of `check` (sarif...): findings only\n"
	      "      --failure-threshold L   exit 1 when a new finding is at or above L\n"
	      "                              (style, info, warning, error; default style)\n"
	      "      --color WHEN            auto (default), always, never\n"
	      "  -q, --quiet                 print nothing on standard output: the exit status only\n"
	      "      --version               servelint's version\n"
	      "  -h, --help                  this help\n"
	      "\n"
	      "Exit status: 0, 1 when a new finding reaches --failure-threshold, 2 unreadable\n"
	      "input or unknown revision, 3 usage.\n",
	      f);
}

static void memo_free(void *memo)
{
	sl_findings_free(memo);
	free(memo);
}

/* The findings of an entry at a revision, appended to fs; *h holds the
 * entry and model (the findings point into them) until released: *read's
 * when it holds them (the diff's side, then emptied), else the cache's. They
 * are worked out once per cached entry and copied after (kept as its
 * memo): the same files under another name (another copy of an entry,
 * the other side of a diff that moved it) have the same findings, their
 * places renamed with the entry. 0, or -1 with err. */
static int check_at(const char *rev, const char *path, sl_entry_cache *cache, const sl_rules *rules,
		    sl_findings *fs, sl_entry_cached *h, sl_entry_cached *read, sl_error *err)
{
	size_t first = fs->n;
	int rc = SL_OK;
	if (read->model) {
		/* the diff's side, read and normalized under the same name:
		 * taken over, not asked of the cache again */
		*h = *read;
		memset(read, 0, sizeof *read);
	} else {
		sl_buf spec = {0};
		sl_buf_printf(&spec, "%s:%s", rev ? rev : "", path);
		/* no rev: the working tree */
		rc = rev ? sl_entry_cache_get(cache, spec.data, h, err) : sl_entry_cache_get_worktree(cache, path, h, err);
		sl_buf_free(&spec);
	}
	sl_findings *memo;
	if (rc) {
		if (!h->entry || !sl_check_input_error(rules, h->entry, err, fs))
			return -1;
		sl_error_clear(err);
	} else if ((memo = sl_entry_cached_memo(h)) != NULL) {
		sl_findings_copy(memo, 0, memo->n, fs);
	} else {
		sl_check_model(rules, h->model, NULL, fs);
		sl_fix_settle(h->entry, fs, first);
		sl_check_suppress(h->entry, fs, first);
		memo = sl_calloc(1, sizeof *memo);
		sl_findings_copy(fs, first, fs->n, memo);
		sl_entry_cached_set_memo(h, memo, memo_free);
	}
	if (rc) {
		sl_fix_settle(h->entry, fs, first);
		sl_check_suppress(h->entry, fs, first);
	}
	/* the entry by its repository path: the revision is the document's
	 * own member, never glued to a path */
	const char *name = h->entry->path;
	size_t nr = rev ? strlen(rev) : 0;
	if (rev && !strncmp(name, rev, nr) && name[nr] == ':')
		name += nr + 1;
	for (size_t i = first; i < fs->n; i++)
		fs->v[i].entry = name;
	return 0;
}

/* A path without its REV: prefix. */
static const char *repo_path(const char *p, const char *rev)
{
	size_t n = rev ? strlen(rev) : 0;
	return n && !strncmp(p, rev, n) && p[n] == ':' ? p + n + 1 : p;
}

/* Whether the line a fix of x changes is one the change wrote: its text is
 * on no line of the same file at BASE (b, NULL when the entry is new). */
static int on_changed_line(const sl_finding *x, const sl_entry *b, const char *head, const char *base)
{
	const sl_source *src;
	unsigned line;
	int deleted;
	char *fixed = sl_fix_line(x, &src, &line, &deleted);
	if (!fixed)
		return 0;
	free(fixed);
	size_t len;
	const char *t = sl_source_line(src, line, &len);
	const sl_source *all[SL_MAX_ENTRY_FILES + 2];
	size_t n = 0;
	if (b && b->script)
		all[n++] = b->script;
	for (size_t i = 0; b && i < b->nfiles && n < SL_MAX_ENTRY_FILES; i++)
		all[n++] = b->files[i];
	for (size_t i = 0; i < n; i++) {
		if (strcmp(repo_path(all[i]->path, base), repo_path(src->path, head)))
			continue;
		for (unsigned l = 1; l <= all[i]->nlines; l++) {
			size_t bl;
			const char *bt = sl_source_line(all[i], l + all[i]->line_base, &bl);
			if (bl == len && !memcmp(bt, t, len))
				return 0;
		}
	}
	return 1;
}

/* A new finding's markdown suggestion: the line its fix leaves, worked
 * out while the entry's sources are whole (its places then move into kept
 * copies of their lines, which know no line beyond them). */
typedef struct suggestion {
	char *fixed;   /* the line as the fix leaves it (owned), or NULL: none */
	unsigned line;
	int deleted;
} suggestion;

/* The findings as a list; a fix on a line the change wrote follows its
 * finding as a suggestion block (a review comment on that line applies it
 * with one click; an empty block deletes the line). */
static void md_findings(FILE *f, const sl_findings *fs, const suggestion *suggest)
{
	for (size_t i = 0; i < fs->n; i++) {
		const sl_finding *x = &fs->v[i];
		if (x->suppressed)
			continue;
		char *w = sl_report_finding_where(x);
		fprintf(f, "- **%s** `%s`: %s [%s]\n", sl_severity_name(x->severity), w, x->message,
			sl_rule_id(x->rule));
		free(w);
		const char *fixed = suggest[i].fixed;
		if (fixed) {
			/* a fence longer than any run of backticks in the line */
			size_t run = 0, most = 0;
			for (const char *p = fixed; *p; p++) {
				run = *p == '`' ? run + 1 : 0;
				most = run > most ? run : most;
			}
			size_t fence = most >= 3 ? most + 1 : 3;
			fprintf(f, "\n  %s (line %u):\n\n  ", x->fix, suggest[i].line);
			for (size_t k = 0; k < fence; k++)
				fputc('`', f);
			fputs("suggestion\n", f);
			if (!suggest[i].deleted)
				fprintf(f, "  %s\n", fixed);
			fputs("  ", f);
			for (size_t k = 0; k < fence; k++)
				fputc('`', f);
			fputs("\n\n", f);
		}
	}
}

int sl_cmd_review(int argc, char **argv)
{
	static const struct option opts[] = {
		SL_OPTS_COMMON,
		{"format", required_argument, NULL, 'f'},
		{"failure-threshold", required_argument, NULL, 'T'},
		{"quiet", no_argument, NULL, 'q'},
		{"color", required_argument, NULL, 'C'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *format = "tty";
	sl_format fmt = SL_FMT_TTY;
	sl_severity fail = SL_SEV_STYLE;
	int color = -1, quiet = 0, c, fail_given = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "f:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (strcmp(optarg, "markdown") && sl_format_parse(optarg, &fmt)) {
				fprintf(stderr, "servelint review: unknown format `%s` "
						"(tty, markdown, sarif, json, gcc, github, checkstyle)\n", optarg);
				return SL_EXIT_USAGE;
			}
			format = optarg;
			break;
		case 'T':
			if (sl_severity_parse(optarg, &fail)) {
				fprintf(stderr, "servelint review: unknown level `%s` (style, info, warning, error)\n",
					optarg);
				return SL_EXIT_USAGE;
			}
			fail_given = 1;
			break;
		case 'q': quiet = 1; break;
		case 'C':
			if (sl_opt_color("review", optarg, &color))
				return SL_EXIT_USAGE;
			break;
		case SL_OPT_VERSION: return sl_cmd_version();
		case 'h': usage(stdout); return SL_EXIT_OK;
		default: usage(stderr); return SL_EXIT_USAGE;
		}
	}
	if (argc - optind < 1 || argc - optind > 2) {
		fprintf(stderr, "servelint review: BASE [HEAD] is needed\n");
		usage(stderr);
		return SL_EXIT_USAGE;
	}
	if (quiet && sl_opt_quiet())
		return SL_EXIT_ERROR;
	color = sl_color_resolve(color);
	/* no HEAD: the working tree, uncommitted work included (as `git diff
	 * BASE`; in a clean checkout the same as HEAD) */
	const char *base = argv[optind], *head = argc - optind == 2 ? argv[optind + 1] : NULL;
	int md = !strcmp(format, "markdown"), text = md || !strcmp(format, "tty");
	sl_error err = {0};
	sl_grammars *gs = NULL;
	sl_rules *rules = NULL;
	sl_touched *ts = NULL;
	size_t nt = 0, nk = 0, kcap = 0;
	sl_entry_cached *ks = NULL;
	sl_entry_cache *cache = NULL;
	sl_findings fresh = {0};
	suggestion *suggest = NULL;  /* per fresh finding: its fix's line, when on a line the change wrote */
	size_t nsuggest = 0, scap = 0;
	sl_source **keep = NULL;     /* the lines fresh findings point into (sl_check_keep_places) */
	size_t nkeep = 0, keepcap = 0;
	char **names = NULL;         /* the names of their entries, once the entries are gone */
	size_t nnames = 0, ncap = 0;
	int rc = SL_EXIT_OK;
	if (sl_normalize_grammars_load(&gs, &err) || sl_rules_load(&rules, &err) ||
	    sl_git_touched(base, head, NULL, 0, &ts, &nt, &err)) {
		rc = SL_EXIT_ERROR;
		goto done;
	}
	cache = sl_entry_cache_new(gs);
	if (md)
		printf("### servelint review `%s`..%s%s%s\n\n", base, head ? "`" : "", head ? head : "the working tree",
		       head ? "`" : "");
	for (size_t i = 0; i < nt && !rc; i++) {
		const sl_touched *t = &ts[i];
		if (!t->in_new && !t->in_old)
			continue;
		/* the semantic diff (text formats) */
		sl_diff_opts all = {NULL, 0, NULL, 0};
		sl_touched_cmp cmp;
		if (sl_diff_touched_compare(base, head, t, cache, &all, &cmp, &err) >= 0 && text &&
		    !sl_diff_touched_no_service(&cmp))
			sl_report_touched(&cmp, t, md, color);
		sl_error_clear(&err);
		if (!t->in_new) {
			sl_diff_touched_free(&cmp);
			continue;
		}
		/* the findings at HEAD less those at BASE */
		sl_entry_cached kh = {0}, kb = {0};
		sl_findings now = {0}, was = {0};
		size_t ffirst = fresh.n;
		if (check_at(head, t->new_path, cache, rules, &now, &kh, &cmp.b, &err) ||
		    (t->in_old && check_at(base, t->old_path, cache, rules, &was, &kb, &cmp.a, &err)))
			rc = SL_EXIT_ERROR;
		sl_diff_touched_free(&cmp);
		char *used = sl_calloc(was.n + 1, 1);
		for (size_t j = 0; j < now.n && !rc; j++) {
			sl_finding *x = &now.v[j];
			int old = 0;
			for (size_t k = 0; k < was.n && !old; k++)
				if (!used[k] && was.v[k].rule == x->rule && !strcmp(was.v[k].message, x->message) &&
				    was.v[k].suppressed == x->suppressed)
					old = used[k] = 1;
			if (!old) { /* moved into fresh; the slot is emptied */
				suggestion sg = {0};
				if (md && x->fix && on_changed_line(x, t->in_old ? kb.entry : NULL, head, base)) {
					const sl_source *src;
					sg.fixed = sl_fix_line(x, &src, &sg.line, &sg.deleted);
				}
				SL_PUSH(suggest, nsuggest, scap, sg);
				SL_PUSH(fresh.v, fresh.n, fresh.cap, *x);
				memset(x, 0, sizeof *x);
			}
		}
		free(used);
		sl_findings_free(&was);
		sl_findings_free(&now);
		sl_entry_cache_release(cache, &kb);
		/* the new findings' places moved into copies of their lines and
		 * the entry's name copied: then the entry goes back to the cache
		 * (another entry of the same files is not parsed again; memory
		 * does not grow with the entries changed). An entry whose script
		 * has `# servelint disable` comments stays whole to the end. */
		sl_source **kept = NULL;
		size_t nkept = 0, nown;
		if (fresh.n > ffirst &&
		    sl_check_keep_places(kh.entry, &fresh, ffirst, fresh.n, NULL, &kept, &nkept, &nown)) {
			SL_PUSH(ks, nk, kcap, kh);
			continue;
		}
		for (size_t k = 0; k < nkept; k++)
			SL_PUSH(keep, nkeep, keepcap, kept[k]);
		free(kept);
		if (fresh.n > ffirst && fresh.v[ffirst].entry) {
			char *name = sl_strdup(fresh.v[ffirst].entry);
			SL_PUSH(names, nnames, ncap, name);
			for (size_t j = ffirst; j < fresh.n; j++)
				fresh.v[j].entry = name;
		}
		sl_entry_cache_release(cache, &kh);
	}
	if (!rc) {
		size_t nnew = 0;
		for (size_t i = 0; i < fresh.n; i++)
			if (!fresh.v[i].suppressed) {
				nnew++;
				/* an advisory rule's (SL0004) as check counts it */
				if (fresh.v[i].severity >= fail && (fail_given || !sl_rule_advisory(fresh.v[i].rule)))
					rc = SL_EXIT_FINDINGS;
			}
		if (md) {
			printf("\n#### New findings (%zu)\n\n", nnew);
			if (nnew)
				md_findings(stdout, &fresh, suggest);
			else
				fputs("None: the change brings no new finding.\n", stdout);
		} else {
			if (text)
				printf("%snew findings: %zu%s\n", color ? "\033[1m" : "", nnew, color ? "\033[0m" : "");
			/* repository paths, the revision in its own field: what code
			 * scanning and annotations attach to the checkout */
			char id[SL_GIT_ID_SIZE];
			char *uri = sl_git_repository_uri();
			sl_buf prefix = {0};
			if (head)
				sl_buf_printf(&prefix, "%s:", head);
			sl_report_vcs at = {prefix.data, sl_git_commit_id(head ? head : "HEAD", id) ? NULL : id, uri};
			if (sl_report_findings_at(stdout, fmt, rules, &fresh, SL_SEV_STYLE, color, &at))
				rc = SL_EXIT_ERROR;
			sl_buf_free(&prefix);
			free(uri);
		}
		if (fflush(stdout) || ferror(stdout))
			rc = SL_EXIT_ERROR;
		/* an entry at HEAD that cannot be read is reported (SL0001) and,
		 * as in check, makes the exit 2: the review did not read it all */
		for (size_t i = 0; i < fresh.n; i++)
			if (!fresh.v[i].suppressed && fresh.v[i].rule && !strcmp(sl_rule_id(fresh.v[i].rule), "SL0001"))
				rc = SL_EXIT_ERROR;
	}
done:
	if (rc == SL_EXIT_ERROR && err.msg)
		sl_error_print(&err, "servelint");
	sl_error_clear(&err);
	for (size_t i = 0; i < nsuggest; i++)
		free(suggest[i].fixed);
	free(suggest);
	sl_findings_free(&fresh);
	for (size_t i = 0; i < nkeep; i++)
		sl_source_free(keep[i]);
	free(keep);
	for (size_t i = 0; i < nnames; i++)
		free(names[i]);
	free(names);
	for (size_t i = 0; i < nk; i++)
		sl_entry_cache_release(cache, &ks[i]);
	free(ks);
	sl_entry_cache_free(cache);
	sl_touched_free(ts, nt);
	sl_rules_free(rules);
	sl_normalize_grammars_free(gs);
	return rc;
}
