/*
 * rules.h (check, internal): a rule as rules.c loads it from its YAML file.
 * The bottom of the check stage: every other file of it reads these
 * fields, and rules.c (which makes them) uses no other file of the stage.
 */
#ifndef SL_CHECK_RULES_H
#define SL_CHECK_RULES_H

#include "check.h"

typedef enum { K_EQUAL, K_RANGE, K_REQUIRES, K_CLAIM, K_CONFLICTS, K_C, K_ENTRIES, K_FRONTEND, K_STRUCTURE } kind;

struct sl_rule {
	char *id, *name, *summary, *explanation, *bad, *good;
	sl_severity severity;
	kind kind;
	char **keys;          /* equal/frontend/claim/entries: one or more; range: several; requires: key, needs;
	                       * structure: the kinds of note (sl_structure_kinds) */
	size_t nkeys;
	double min, max;
	int has_min, has_max, min_excl, max_excl;
	char **unless;        /* equal/frontend: values that compose others (MultiConnector): either side
			       * holding one is not compared */
	size_t nunless;
	int some_worker;      /* frontend: one worker agreeing is enough (the name one of them registers) */
	char *cname;          /* K_C */
	int catalogue;        /* holds entries against each other: run by sl_check_catalogue only */
	int across_engines;   /* K_ENTRIES: one group per model, whatever the engine */
};

/* Every rule, sorted by id (check.c runs them in this order). */
struct sl_rules {
	sl_rule *v;
	size_t n;
};

#endif
