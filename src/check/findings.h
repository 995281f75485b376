/*
 * findings.h (check, internal): making a finding, for every file of the
 * stage that reports one (findings.c).
 */
#ifndef SL_CHECK_FINDINGS_H
#define SL_CHECK_FINDINGS_H

#include "rules.h"

/* Appends a finding of rule r at where, its message printf-formatted (up
 * to 1,023 bytes); the finding is the list's last, until the next one. */
sl_finding *sl_finding_add(sl_findings *out, const sl_rule *r, const sl_origin *where, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Adds a place the finding also concerns, with what it is (copied). */
void sl_finding_related(sl_finding *f, const sl_origin *o, const char *msg);

/* A setting's value as a message writes it: a string as is, else JSON.
 * Caller frees. */
char *sl_finding_value_text(json_t *v);

#endif
