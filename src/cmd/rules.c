/*
 * rules.c (cmd): `servelint rules [ID]`: every rule listed (id, severity,
 * name, summary), or one explained with its bad and good examples.
 */
#include "cmd.h"

#include <stdio.h>
#include <string.h>

#include "check/check.h"

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
