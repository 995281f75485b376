/*
 * check.c: the top of the check stage: runs every rule over one model, each
 * by the file that knows its kind: vocabulary.c the checks rule files say
 * as data, c_checks.c those written in C (catalogue.c runs the catalogue's,
 * over every entry). Rules are rules.c's; findings.c sorts what they find.
 *
 * The files of the stage, each using only those below it:
 *   check.c       -> vocabulary.c, c_checks.c, findings.c
 *   c_checks.c    -> vocabulary.c, findings.c (and fact_checks.c, plan_rules.c,
 *                    deploy_checks.c, each -> vocabulary.c, findings.c;
 *                    coverage_checks.c -> findings.c)
 *   catalogue.c   -> rules.c, findings.c
 *   vocabulary.c  -> findings.c
 *   suppress.c    -> rules.c, findings.c
 *   findings.c, rules.c
 * (tests/file_cycles.sh fails on a circle.)
 */
#include "check.h"

#include "c_checks.h"
#include "findings.h"
#include "vocabulary.h"

#include <string.h>

int sl_check_model(const sl_rules *rs, const sl_model *m, const sl_rule *only, sl_findings *out)
{
	size_t first = out->n;
	for (size_t i = 0; i < rs->n; i++) {
		const sl_rule *r = &rs->v[i];
		if ((only && r != only) || r->catalogue)
			continue;  /* the catalogue's rules need every entry: sl_check_catalogue */
		switch (r->kind) {
		case K_ENTRIES: break;
		case K_EQUAL:
		case K_FRONTEND:
		case K_RANGE:
		case K_REQUIRES:
		case K_CLAIM:
		case K_CONFLICTS:
		case K_STRUCTURE: sl_check_vocabulary(r, m, out); break;
		case K_C:
			if (!strcmp(r->cname, "unknown_suppression"))
				sl_check_suppress_ids(rs, r, m, out); /* it needs every rule's id */
			else
				sl_check_c(r, m, out);
			break;
		}
	}
	sl_check_c_done();
	sl_findings_sort(out, first);
	return SL_OK;
}
