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
	      "                        [--failure-threshold LEVEL] [--color WHEN] BASE [HEAD]\n"
	      "\n"
	      "For a pull request: the entries changed between BASE and HEAD (default HEAD)\n"
	      "with their semantic diffs, and the findings the change introduces (those\n"
	      "already present at BASE are not repeated). Read with libgit2, no checkout.\n"
	      "\n"
	      "  -f, --format FORMAT         tty (default), markdown (a PR comment), or a\n"
	      "                              findings format of `check` (sarif...): findings only\n"
	      "      --failure-threshold L   exit 1 when a new finding is at or above L\n"
	      "                              (style, info, warning, error; default style)\n"
	      "      --color WHEN            auto (default), always, never\n",
	      f);
}

/* The findings of an entry at a revision, appended to fs; *h holds the
 * entry and model (the findings point into them) until released. 0, or -1
 * with err. */
static int check_at(const char *spec, sl_entry_cache *cache, const sl_rules *rules, sl_findings *fs,
		    sl_entry_cached *h, sl_error *err)
{
	size_t first = fs->n;
	if (sl_entry_cache_get(cache, spec, h, err)) {
		if (!h->entry || !sl_check_input_error(rules, h->entry, err, fs))
			return -1;
		sl_error_clear(err);
	} else {
		sl_check_model(rules, h->model, NULL, fs);
	}
	sl_check_suppress(h->entry, fs, first);
	return 0;
}

static void md_findings(FILE *f, const sl_findings *fs)
{
	for (size_t i = 0; i < fs->n; i++) {
		const sl_finding *x = &fs->v[i];
		if (x->suppressed)
			continue;
		char *w = sl_report_where(&x->where);
		fprintf(f, "- **%s** `%s`: %s [%s]\n", sl_severity_name(x->severity), w, x->message,
			sl_rule_id(x->rule));
		free(w);
	}
}

int sl_cmd_review(int argc, char **argv)
{
	static const struct option opts[] = {
		{"format", required_argument, NULL, 'f'},
		{"failure-threshold", required_argument, NULL, 'T'},
		{"color", required_argument, NULL, 'C'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *format = "tty";
	sl_format fmt = SL_FMT_TTY;
	sl_severity fail = SL_SEV_STYLE;
	int color = -1, c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "f:h", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (strcmp(optarg, "markdown") && sl_format_parse(optarg, &fmt)) {
				fprintf(stderr, "servelint review: unknown format `%s`\n", optarg);
				return 3;
			}
			format = optarg;
			break;
		case 'T':
			if (sl_severity_parse(optarg, &fail)) {
				fprintf(stderr, "servelint review: unknown level `%s` (style, info, warning, error)\n",
					optarg);
				return 3;
			}
			break;
		case 'C':
			if ((color = sl_color_parse(optarg)) == -2) {
				fprintf(stderr, "servelint review: --color takes auto, always or never\n");
				return 3;
			}
			break;
		case 'h': usage(stdout); return SL_EXIT_OK;
		default: usage(stderr); return 3;
		}
	}
	if (argc - optind < 1 || argc - optind > 2) {
		fprintf(stderr, "servelint review: BASE [HEAD] is needed\n");
		usage(stderr);
		return 3;
	}
	color = sl_color_resolve(color);
	const char *base = argv[optind], *head = argc - optind == 2 ? argv[optind + 1] : "HEAD";
	int md = !strcmp(format, "markdown"), text = md || !strcmp(format, "tty");
	sl_error err = {0};
	sl_grammars *gs = NULL;
	sl_rules *rules = NULL;
	sl_touched *ts = NULL;
	size_t nt = 0, nk = 0, kcap = 0;
	sl_entry_cached *ks = NULL;
	sl_entry_cache *cache = NULL;
	sl_findings now = {0}, fresh = {0};
	int rc = SL_EXIT_OK;
	if (sl_normalize_grammars_load(&gs, &err) || sl_rules_load(&rules, &err) ||
	    sl_git_touched(base, head, NULL, 0, &ts, &nt, &err)) {
		rc = SL_EXIT_ERROR;
		goto done;
	}
	cache = sl_entry_cache_new(gs);
	if (md)
		printf("### servelint review `%s`..`%s`\n\n", base, head);
	for (size_t i = 0; i < nt && !rc; i++) {
		const sl_touched *t = &ts[i];
		if (!t->in_new && !t->in_old)
			continue;
		/* the semantic diff (text formats) */
		sl_diff_opts all = {NULL, 0, NULL, 0};
		sl_touched_cmp cmp;
		if (sl_diff_touched_compare(base, head, t, cache, &all, &cmp, &err) >= 0 && text)
			sl_report_touched(&cmp, t, md, color);
		sl_diff_touched_free(&cmp);
		sl_error_clear(&err);
		if (!t->in_new)
			continue;
		/* the findings at HEAD less those at BASE */
		sl_entry_cached kh = {0}, kb = {0};
		sl_findings was = {0};
		size_t first = now.n;
		sl_buf sh = {0}, sb = {0};
		sl_buf_printf(&sh, "%s:%s", head, t->new_path);
		sl_buf_printf(&sb, "%s:%s", base, t->old_path);
		if (check_at(sh.data, cache, rules, &now, &kh, &err) ||
		    (t->in_old && check_at(sb.data, cache, rules, &was, &kb, &err)))
			rc = SL_EXIT_ERROR;
		SL_PUSH(ks, nk, kcap, kh);
		char *used = sl_calloc(was.n + 1, 1);
		for (size_t j = first; j < now.n && !rc; j++) {
			sl_finding *x = &now.v[j];
			int old = 0;
			for (size_t k = 0; k < was.n && !old; k++)
				if (!used[k] && was.v[k].rule == x->rule && !strcmp(was.v[k].message, x->message) &&
				    was.v[k].suppressed == x->suppressed)
					old = used[k] = 1;
			if (!old) { /* moved into fresh; the slot is emptied */
				SL_PUSH(fresh.v, fresh.n, fresh.cap, *x);
				memset(x, 0, sizeof *x);
			}
		}
		free(used);
		sl_findings_free(&was);
		sl_entry_cache_release(cache, &kb);
		sl_buf_free(&sh);
		sl_buf_free(&sb);
	}
	if (!rc) {
		size_t nnew = 0;
		for (size_t i = 0; i < fresh.n; i++)
			if (!fresh.v[i].suppressed) {
				nnew++;
				if (fresh.v[i].severity >= fail)
					rc = SL_EXIT_FINDINGS;
			}
		if (md) {
			printf("\n#### New findings (%zu)\n\n", nnew);
			if (nnew)
				md_findings(stdout, &fresh);
			else
				fputs("None: the change brings no new finding.\n", stdout);
		} else {
			if (text)
				printf("%snew findings: %zu%s\n", color ? "\033[1m" : "", nnew, color ? "\033[0m" : "");
			if (sl_report_findings(stdout, fmt, rules, &fresh, SL_SEV_STYLE, color))
				rc = SL_EXIT_ERROR;
		}
		if (fflush(stdout) || ferror(stdout))
			rc = SL_EXIT_ERROR;
	}
done:
	if (rc == SL_EXIT_ERROR && err.msg)
		sl_error_print(&err, "servelint");
	sl_error_clear(&err);
	sl_findings_free(&fresh);
	sl_findings_free(&now);
	for (size_t i = 0; i < nk; i++)
		sl_entry_cache_release(cache, &ks[i]);
	free(ks);
	sl_entry_cache_free(cache);
	sl_touched_free(ts, nt);
	sl_rules_free(rules);
	sl_normalize_grammars_free(gs);
	return rc;
}
