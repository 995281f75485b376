/*
 * deploy_checks.h (check, internal): the checks of a deployment's services
 * against each other on what they share (deploy_checks.c), by name;
 * c_checks.c runs them.
 */
#ifndef SL_CHECK_DEPLOY_CHECKS_H
#define SL_CHECK_DEPLOY_CHECKS_H

#include "rules.h"

/* 1 when NAME is one of them (port_collision, gpu_overlap, kv_router_events). */
int sl_deploy_check_known(const char *name);
/* Runs rule r, whose check is `c: NAME` of these, over a model. */
void sl_deploy_check(const sl_rule *r, const sl_model *m, sl_findings *out);

#endif
