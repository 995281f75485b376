/*
 * vocabulary.h (check, internal): the checks rule files write as data
 * (vocabulary.c), and the notions of them that checks written in C share.
 */
#ifndef SL_CHECK_VOCABULARY_H
#define SL_CHECK_VOCABULARY_H

#include "rules.h"

/* Runs rule r, whose check is one of the vocabulary's (equal_across_roles,
 * in_range, requires, conflicts, claim_matches), over a model. */
void sl_check_vocabulary(const sl_rule *r, const sl_model *m, sl_findings *out);

/* A role that serves requests: prefill, decode or aggregated (not a
 * multimodal encode worker, which serves the LLM neither: the rules that
 * compare workers or hold claims to them leave it out). */
int sl_check_is_worker(const char *role);
/* Equal as the rules compare: numbers as numbers, strings without case
 * ("DSPARK" and "dspark" name one method). */
int sl_check_same_value(json_t *a, json_t *b);
/* 1 when a word of s's command is one the shell computes ($X, "$@"): an
 * argument it may add or override is not known. */
int sl_check_symbolic_argv(const sl_service *s);
/* Holds one claim to the settings of the services it speaks of (its role,
 * or every worker): a finding of rule r when none agrees. */
void sl_check_hold_claim(const sl_rule *r, const sl_model *m, const sl_claim *k, sl_findings *out);

#endif
