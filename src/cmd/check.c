/*
 * check.c (cmd): `servelint check PATH...` and `servelint rules [ID]`.
 *
 * Every entry is read, normalized and checked before anything is printed;
 * findings print in file order. Exit: 0 clean, 1 findings at or above the
 * failure threshold, 2 an input could not be read or parsed, 3 usage.
 */
#define _GNU_SOURCE
#include "cmd.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check/check.h"
#include "normalize/normalize.h"
#include "report/report.h"

enum { FMT_TTY, FMT_GCC, FMT_JSON };

static void usage(FILE *f)
{
	fputs("usage: servelint check [--format tty|gcc|json] [--severity LEVEL]\n"
	      "                       [--failure-threshold LEVEL] [--color WHEN] PATH...\n"
	      "\n"
	      "Checks entries (folders, launch scripts, catalogue-form files) against every\n"
	      "rule in rules/ and reports findings with their exact places.\n"
	      "\n"
	      "  -f, --format FORMAT         tty (default), gcc (file:line:col: level: msg [ID]), json\n"
	      "  -S, --severity LEVEL        report findings at or above: style (default), info,\n"
	      "                              warning, error\n"
	      "      --failure-threshold L   exit 1 when a finding is at or above L (default style)\n"
	      "      --color WHEN            auto (default), always, never\n"
	      "  -h, --help                  this help\n"
	      "\n"
	      "Exit status: 0 clean, 1 findings, 2 unreadable or unparsable input, 3 usage.\n"
	      "`servelint rules` lists the rules; `servelint rules ID` explains one.\n",
	      f);
}

static void where_json(json_t *o, const sl_origin *w)
{
	unsigned l, c;
	sl_origin_pos(w, &l, &c);
	if (w->src)
		json_object_set_new(o, "location", json_pack("{s:s, s:i, s:i}", "file", w->src->path,
								"line", (json_int_t)l, "col", (json_int_t)c));
	else
		json_object_set_new(o, "location", json_null());
}

static json_t *finding_json(const sl_finding *f)
{
	json_t *o = json_pack("{s:s, s:s, s:s, s:s}", "rule", sl_rule_id(f->rule), "name",
			      sl_rule_name(f->rule), "severity", sl_severity_name(f->severity), "message",
			      f->message);
	where_json(o, &f->where);
	json_t *rel = json_array();
	for (size_t k = 0; k < f->nrelated; k++) {
		json_t *r = json_pack("{s:s}", "message", f->related_msg[k]);
		where_json(r, &f->related[k]);
		json_array_append_new(rel, r);
	}
	json_object_set_new(o, "related", rel);
	if (f->hint)
		json_object_set_new(o, "did_you_mean", json_string(f->hint));
	return o;
}

/* tty: like a compiler, the source line and a caret under the place */
static void finding_tty(FILE *out, const sl_finding *f, int color)
{
	static const char *const col_of[] = {"\033[36m", "\033[34m", "\033[33m", "\033[31m"};
	unsigned l, c;
	sl_origin_pos(&f->where, &l, &c);
	const char *path = f->where.src ? f->where.src->path : "-";
	fprintf(out, "%s%s:%u:%u:%s %s%s:%s %s [%s]\n", color ? "\033[1m" : "", path, l, c,
		color ? "\033[0m" : "", color ? col_of[f->severity] : "", sl_severity_name(f->severity),
		color ? "\033[0m" : "", f->message, sl_rule_id(f->rule));
	if (f->where.src) {
		size_t len;
		const char *line = sl_source_line(f->where.src, l, &len);
		fprintf(out, "%5u | %.*s\n      | ", l, (int)len, line);
		for (unsigned k = 1; k < c; k++)
			fputc(' ', out);
		fprintf(out, "%s^%s\n", color ? col_of[f->severity] : "", color ? "\033[0m" : "");
	}
	if (f->hint)
		fprintf(out, "      = did you mean `%s`?\n", f->hint);
	for (size_t k = 0; k < f->nrelated; k++) {
		unsigned rl, rc;
		sl_origin_pos(&f->related[k], &rl, &rc);
		fprintf(out, "  %s:%u:%u: note: %s\n", f->related[k].src ? f->related[k].src->path : "-", rl,
			rc, f->related_msg[k]);
	}
}

static void finding_gcc(FILE *out, const sl_finding *f)
{
	unsigned l, c;
	sl_origin_pos(&f->where, &l, &c);
	/* gcc's levels: error, warning, note (info and style) */
	const char *lvl = f->severity == SL_SEV_ERROR ? "error" : f->severity == SL_SEV_WARNING ? "warning" : "note";
	fprintf(out, "%s:%u:%u: %s: %s [%s]\n", f->where.src ? f->where.src->path : "-", l, c, lvl, f->message,
		sl_rule_id(f->rule));
}

int sl_cmd_check(int argc, char **argv)
{
	static const struct option opts[] = {
		{"format", required_argument, NULL, 'f'},
		{"severity", required_argument, NULL, 'S'},
		{"failure-threshold", required_argument, NULL, 'T'},
		{"color", required_argument, NULL, 'C'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int fmt = FMT_TTY, color = -1, c;
	sl_severity min = SL_SEV_STYLE, fail = SL_SEV_STYLE;
	optind = 1;
	while ((c = getopt_long(argc, argv, "f:S:h", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (!strcmp(optarg, "tty")) fmt = FMT_TTY;
			else if (!strcmp(optarg, "gcc")) fmt = FMT_GCC;
			else if (!strcmp(optarg, "json")) fmt = FMT_JSON;
			else {
				fprintf(stderr, "servelint check: unknown format `%s` (tty, gcc, json)\n", optarg);
				return 3;
			}
			break;
		case 'S':
		case 'T':
			if (sl_severity_parse(optarg, c == 'S' ? &min : &fail)) {
				fprintf(stderr, "servelint check: unknown severity `%s`\n", optarg);
				return 3;
			}
			break;
		case 'C':
			color = !strcmp(optarg, "always") ? 1 : !strcmp(optarg, "never") ? 0 : -1;
			break;
		case 'h':
			usage(stdout);
			return SL_EXIT_OK;
		default:
			usage(stderr);
			return 3;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "servelint check: no entry given\n");
		usage(stderr);
		return 3;
	}
	if (color < 0)
		color = isatty(STDOUT_FILENO) && !getenv("NO_COLOR");
	sl_error err = {0};
	sl_grammars *gs = NULL;
	sl_rules *rules = NULL;
	if (sl_normalize_grammars_load(&gs, &err) || sl_rules_load(&rules, &err)) {
		sl_error_print(&err, "servelint");
		sl_error_clear(&err);
		sl_normalize_grammars_free(gs);
		return SL_EXIT_ERROR;
	}
	size_t n = (size_t)(argc - optind);
	sl_entry **entries = sl_calloc(n, sizeof *entries);
	sl_model **models = sl_calloc(n, sizeof *models);
	sl_findings fs = {0};
	int failed = 0;
	for (size_t i = 0; i < n; i++) {
		const char *path = argv[optind + (int)i];
		if (sl_entry_load(path, &entries[i], &err) || sl_normalize_entry(entries[i], gs, &models[i], &err)) {
			sl_error_print(&err, "servelint");
			sl_error_clear(&err);
			failed = 1;
			continue;
		}
		sl_check_model(rules, models[i], NULL, &fs);
	}
	int rc = failed ? SL_EXIT_ERROR : SL_EXIT_OK;
	size_t shown = 0;
	if (!failed) {
		json_t *arr = json_array();
		for (size_t i = 0; i < fs.n; i++) {
			const sl_finding *f = &fs.v[i];
			if (f->severity < min)
				continue;
			shown++;
			if (f->severity >= fail)
				rc = SL_EXIT_FINDINGS;
			if (fmt == FMT_JSON)
				json_array_append_new(arr, finding_json(f));
			else if (fmt == FMT_GCC)
				finding_gcc(stdout, f);
			else
				finding_tty(stdout, f, color);
		}
		if (fmt == FMT_JSON) {
			json_t *doc = json_pack("{s:o}", "findings", arr);
			json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
			putchar('\n');
			json_decref(doc);
		} else {
			json_decref(arr);
			if (fmt == FMT_TTY && shown) {
				/* a footer: each rule that fired, with its summary */
				fputc('\n', stdout);
				for (size_t r = 0; r < sl_rules_count(rules); r++) {
					const sl_rule *ru = sl_rules_at(rules, r);
					size_t k = 0;
					for (size_t i = 0; i < fs.n; i++)
						k += fs.v[i].rule == ru && fs.v[i].severity >= min;
					if (k)
						printf("%s %-32s %zu: %s\n", sl_rule_id(ru), sl_rule_name(ru), k,
						       sl_rule_summary(ru));
				}
			}
		}
		if (fflush(stdout))
			rc = SL_EXIT_ERROR;
	}
	sl_findings_free(&fs);
	for (size_t i = 0; i < n; i++) {
		sl_model_free(models[i]);
		sl_entry_free(entries[i]);
	}
	free(models);
	free(entries);
	sl_rules_free(rules);
	sl_normalize_grammars_free(gs);
	return rc;
}

int sl_cmd_rules(int argc, char **argv)
{
	sl_error err = {0};
	sl_rules *rules;
	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		puts("usage: servelint rules [ID]\n\nLists every rule, or explains one with its examples.");
		return SL_EXIT_OK;
	}
	if (sl_rules_load(&rules, &err)) {
		sl_error_print(&err, "servelint");
		sl_error_clear(&err);
		return SL_EXIT_ERROR;
	}
	int rc = SL_EXIT_OK;
	if (argc > 1) {
		const sl_rule *r = sl_rules_find(rules, argv[1]);
		if (!r) {
			for (size_t i = 0; i < sl_rules_count(rules) && !r; i++)
				if (!strcmp(sl_rule_name(sl_rules_at(rules, i)), argv[1]))
					r = sl_rules_at(rules, i);
		}
		if (!r) {
			fprintf(stderr, "servelint rules: no rule `%s`\n", argv[1]);
			rc = 3;
		} else {
			printf("%s %s (%s)\n%s\n\n%s\nBad:\n%s\nGood:\n%s", sl_rule_id(r), sl_rule_name(r),
			       sl_severity_name(sl_rule_severity(r)), sl_rule_summary(r), sl_rule_explanation(r),
			       sl_rule_bad(r), sl_rule_good(r));
		}
	} else {
		for (size_t i = 0; i < sl_rules_count(rules); i++) {
			const sl_rule *r = sl_rules_at(rules, i);
			printf("%s  %-8s %-32s %s\n", sl_rule_id(r), sl_severity_name(sl_rule_severity(r)),
			       sl_rule_name(r), sl_rule_summary(r));
		}
	}
	sl_rules_free(rules);
	return rc;
}
