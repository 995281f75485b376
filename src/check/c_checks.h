/*
 * c_checks.h (check, internal): the checks written in C, of one model
 * (c_checks.c).
 */
#ifndef SL_CHECK_C_CHECKS_H
#define SL_CHECK_C_CHECKS_H

#include "rules.h"

/* Runs rule r, whose check is `c: NAME`, over a model. */
void sl_check_c(const sl_rule *r, const sl_model *m, sl_findings *out);
/* What sl_check_c kept of the last model for its next rule (its plan),
 * forgotten: called when every rule has run over the model. */
void sl_check_c_done(void);

#endif
