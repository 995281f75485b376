/*
 * plan_rules.h (check, internal): the checks on the memory and shape plan
 * (plan_rules.c), by name; c_checks.c runs them.
 */
#ifndef SL_CHECK_PLAN_RULES_H
#define SL_CHECK_PLAN_RULES_H

#include "rules.h"

/* 1 when NAME is one of them (tp_heads, ep_experts, gpus_node, tp_domain,
 * weights_memory, kv_one_request, max_len_positions, precision_native,
 * devices_node). */
int sl_plan_check_known(const char *name);
/* Runs rule r, whose check is `c: NAME` of these, over a model. The
 * model's plan is kept for the next rule until sl_plan_check_forget. */
void sl_plan_check(const sl_rule *r, const sl_model *m, sl_findings *out);
/* Frees the plan kept (the model is done with or about to be freed). */
void sl_plan_check_forget(void);

#endif
