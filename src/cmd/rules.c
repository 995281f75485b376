/*
 * rules.c (cmd): `servelint rules [ID...]`: every rule listed (id, severity,
 * name, summary, in columns as wide as their content), or each one named
 * explained with its bad and good examples.
 */
#include "cmd.h"
#include "options.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "check/check.h"

static void usage(FILE *f)
{
	fputs("usage: servelint rules [ID|NAME]...\n"
	      "\n"
	      "Lists every rule, or explains each one named (by id, any case, or name)\n"
	      "with its examples.\n"
	      "\n"
	      "      --version   servelint's version\n"
	      "  -h, --help      this help\n"
	      "\n"
	      "Exit status: 0, 2 when the rules cannot be read, 3 no such rule or usage.\n",
	      f);
}

static const sl_rule *lookup(const sl_rules *rules, const char *s)
{
	for (size_t i = 0; i < sl_rules_count(rules); i++) {
		const sl_rule *r = sl_rules_at(rules, i);
		if (!strcasecmp(sl_rule_id(r), s) || !strcmp(sl_rule_name(r), s))
			return r;
	}
	return NULL;
}

int sl_cmd_rules(int argc, char **argv)
{
	static const struct option opts[] = {
		SL_OPTS_COMMON,
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case SL_OPT_VERSION: return sl_cmd_version();
		case 'h': usage(stdout); return SL_EXIT_OK;
		default: usage(stderr); return SL_EXIT_USAGE;
		}
	}
	sl_error err = {0};
	sl_rules *rules;
	if (sl_rules_load(&rules, &err)) {
		sl_error_print(&err, "servelint");
		sl_error_clear(&err);
		return SL_EXIT_ERROR;
	}
	int rc = SL_EXIT_OK;
	/* every name is looked up before anything is printed */
	for (int a = optind; a < argc; a++)
		if (!lookup(rules, argv[a])) {
			fprintf(stderr, "servelint rules: no rule `%s` (`servelint rules` lists them)\n", argv[a]);
			rc = SL_EXIT_USAGE;
		}
	if (!rc && optind < argc) {
		for (int a = optind; a < argc; a++) {
			const sl_rule *r = lookup(rules, argv[a]);
			printf("%s%s %s (%s)\n%s\n\n%s\n", a > optind ? "\n" : "", sl_rule_id(r), sl_rule_name(r),
			       sl_severity_name(sl_rule_severity(r)), sl_rule_summary(r), sl_rule_explanation(r));
			/* whether `check --fix` can correct its findings */
			if (sl_rule_fix(r))
				printf("Fix (%s): %s.\n`check --fix` applies it, `check --format diff` shows it, on the\n"
				       "findings where it is certain.\n\n",
				       sl_rule_fix(r), sl_rule_fix_doc(r));
			else
				printf("Fix: none; its findings are corrected by hand.\n\n");
			printf("Bad:\n%s\nGood:\n%s", sl_rule_bad(r), sl_rule_good(r));
		}
	} else if (!rc) {
		int wn = 0, ws = 0;
		for (size_t i = 0; i < sl_rules_count(rules); i++) {
			const sl_rule *r = sl_rules_at(rules, i);
			int n = (int)strlen(sl_rule_name(r)), s = (int)strlen(sl_severity_name(sl_rule_severity(r)));
			wn = n > wn ? n : wn;
			ws = s > ws ? s : ws;
		}
		for (size_t i = 0; i < sl_rules_count(rules); i++) {
			const sl_rule *r = sl_rules_at(rules, i);
			printf("%s  %-*s  %-*s  %s  %s\n", sl_rule_id(r), ws, sl_severity_name(sl_rule_severity(r)), wn,
			       sl_rule_name(r), sl_rule_fix(r) ? "fix" : "   ", sl_rule_summary(r));
		}
		printf("\n`servelint rules ID` explains a rule, with examples; `fix`: `check --fix`\n"
		       "corrects its findings where the correction is certain.\n");
	}
	if (fflush(stdout))
		rc = SL_EXIT_ERROR;
	sl_rules_free(rules);
	return rc;
}
