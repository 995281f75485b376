/*
 * rules.h (check, internal): a rule as rules.c loads it from its YAML file.
 * The bottom of the check stage: every other file of it reads these
 * fields, and rules.c (which makes them) uses no other file of the stage.
 */
#ifndef SL_CHECK_RULES_H
#define SL_CHECK_RULES_H

#include "check.h"

typedef enum { K_EQUAL, K_RANGE, K_REQUIRES, K_CLAIM, K_CONFLICTS, K_C, K_ENTRIES, K_FRONTEND, K_STRUCTURE } kind;

/* The fix a rule's findings carry (its file's `fix:`), made by the check
 * that finds them and only when it is certain (findings.c's
 * sl_finding_fix). */
/* equal_across_roles' direction: a difference of numbers that is a finding
 * only one way round (decode allowing less than prefill) */
enum { DIR_ANY, DIR_DECODE_BELOW, DIR_PREFILL_BELOW };

typedef enum {
	FIX_NONE,
	FIX_SPELLING,       /* a spelling (flag, member, value) becomes the one meant */
	FIX_DELETE_REPEAT,  /* the repeated flag and its value go */
	FIX_CLAIM_VALUE,    /* the claim's number becomes the command's */
	FIX_CONTINUE_LINE,  /* a backslash that meant to continue the line does */
	FIX_DELETE_STRAY,   /* a switch's stray `true` goes */
	FIX_DELETE_IGNORED, /* a setting the engine ignores for another (vLLM's --model beside the positional) goes */
	FIX_MOVE,           /* a misplaced argument and its value move where their program reads them */
} fix_kind;

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
	char **unless_engines; /* equal: engines where the roles never differ in the key's effect
	                        * (Dynamo's prefill takes decode's token IDs): either side running
	                        * one is not compared; owned */
	size_t nunless_engines;
	int some_worker;      /* frontend: one worker agreeing is enough (the name one of them registers) */
	int direction;        /* equal: DIR_* below; a difference counts only one way round */
	char *cname;          /* K_C */
	int catalogue;        /* holds entries against each other: run by sl_check_catalogue only */
	int across_engines;   /* K_ENTRIES: one group per model, whatever the engine */
	fix_kind fix;
	int advisory;         /* its findings say what was not checked, not what is wrong (its file's
	                       * `advisory: true`): reported, but they count toward check's exit
	                       * status only under a --failure-threshold given on the command line */
};

/* Every rule, sorted by id (check.c runs them in this order). */
struct sl_rules {
	sl_rule *v;
	size_t n;
};

/* The rules built in: the files of rules/ loaded at build time by
 * cmake/data_ready.c into a table (build/generated/rules_table.c), which
 * sl_rules_load hands out unless $SERVELINT_RULES names a folder; never
 * freed. An image (cmake/data_image.h): sl_rules_builtin_ready makes it
 * ready and points sl_rules_builtin at it, once, before any read. */
extern sl_rules sl_rules_builtin;
void sl_rules_builtin_ready(void);

#endif
