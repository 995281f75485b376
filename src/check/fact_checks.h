/*
 * fact_checks.h (check, internal): the checks that hold a flag to the facts
 * of the engine's own source, release by release (fact_checks.c).
 */
#ifndef SL_CHECK_FACT_CHECKS_H
#define SL_CHECK_FACT_CHECKS_H

#include "rules.h"

/* SL1001's part by release: a flag the entry's engine version does not accept. */
void sl_fact_version(const sl_rule *r, const sl_model *m, sl_findings *out);
/* SL1007: a value outside the flag's choices. */
void sl_fact_choices(const sl_rule *r, const sl_model *m, sl_findings *out);
/* SL1007 too, for a JSON flag's members the engine's source declares
 * (`--speculative-config`'s `method`: grammars/facts/<id>-members.tsv). */
void sl_fact_member_choices(const sl_rule *r, const sl_model *m, sl_findings *out);
/* SL1008: a value not of the flag's type; a count that is not positive. */
void sl_fact_types(const sl_rule *r, const sl_model *m, sl_findings *out);
/* SL1009: a flag that takes no value, given one. */
void sl_fact_stray(const sl_rule *r, const sl_model *m, sl_findings *out);
/* SL1014: a flag the entry's release deprecates. */
void sl_fact_deprecated(const sl_rule *r, const sl_model *m, sl_findings *out);
/* Forgets what was read of a model's facts: when its check is done. */
void sl_fact_forget(void);

#endif
