/*
 * c_checks.h (check, internal): the checks written in C, of one model
 * (c_checks.c).
 */
#ifndef SL_CHECK_C_CHECKS_H
#define SL_CHECK_C_CHECKS_H

#include "rules.h"

/* Runs rule r, whose check is `c: NAME`, over a model. */
void sl_check_c(const sl_rule *r, const sl_model *m, sl_findings *out);
/* A setting's flag and value deleted as f's fix of that kind, in a shell
 * script only, with the blanks and the line continuation around them (so
 * the text reads as the line's deletion would leave it); what_fmt says
 * it, with %s for the setting as written. No fix where that is not certain. */
void sl_check_delete_setting(sl_finding *f, const sl_setting *b, int kind, const char *what_fmt);
/* What sl_check_c kept of the last model for its next rule (its plan),
 * forgotten: called when every rule has run over the model. */
void sl_check_c_done(void);

#endif
