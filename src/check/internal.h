/*
 * internal.h (check, internal): what check.c (the rules and the checks of
 * one entry) and catalogue.c (the checks that hold entries against each
 * other) share: a rule as loaded.
 */
#ifndef SL_CHECK_INTERNAL_H
#define SL_CHECK_INTERNAL_H

#include "check.h"

typedef enum { K_EQUAL, K_RANGE, K_REQUIRES, K_CLAIM, K_CONFLICTS, K_C, K_ENTRIES } kind;

struct sl_rule {
	char *id, *name, *summary, *explanation, *bad, *good;
	sl_severity severity;
	kind kind;
	char **keys;          /* equal/claim/entries: one or more; range: several; requires: key, needs */
	size_t nkeys;
	double min, max;
	int has_min, has_max, min_excl, max_excl;
	char *cname;          /* K_C */
	int catalogue;        /* holds entries against each other: run by sl_check_catalogue only */
	int across_engines;   /* K_ENTRIES: one group per model, whatever the engine */
};

/* Adds a place the finding also concerns, with what it is (copied). */
void sl_finding_related(sl_finding *f, const sl_origin *o, const char *msg);

/* The C checks of the catalogue (catalogue.c), by name: 1 when NAME is one. */
int sl_catalogue_c_known(const char *name);

#endif
