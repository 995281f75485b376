/*
 * coverage_checks.h (check, internal): the checks that say what could not
 * be checked (coverage_checks.c), by name; c_checks.c runs them.
 */
#ifndef SL_CHECK_COVERAGE_CHECKS_H
#define SL_CHECK_COVERAGE_CHECKS_H

#include "rules.h"

/* 1 when NAME is one of them (value_not_known). */
int sl_coverage_check_known(const char *name);
/* Runs rule r, whose check is `c: NAME` of these, over a model. */
void sl_coverage_check(const sl_rule *r, const sl_model *m, sl_findings *out);

#endif
