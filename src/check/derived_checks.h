/*
 * derived_checks.h (check, internal): checks of limits one setting derives
 * from others and of the claims of speculative decoding, precision and
 * routing (derived_checks.c), by name; c_checks.c runs them.
 */
#ifndef SL_CHECK_DERIVED_CHECKS_H
#define SL_CHECK_DERIVED_CHECKS_H

#include "rules.h"

/* 1 when NAME is one of them (batched_tokens_model_len, capture_beyond_tokens, claim_spec_method,
 * claim_precision, tokens_draft_batch, claim_router_mode, eagle_draft_tree). */
int sl_derived_check_known(const char *name);
/* Runs rule r, whose check is `c: NAME` of these, over a model. */
void sl_derived_check(const sl_rule *r, const sl_model *m, sl_findings *out);

#endif
