/*
 * findings_fmt.h (report, internal): what the findings' formats share
 * (findings.c writes them, sarif.c SARIF's): a finding's place as reports
 * write it (where.c), and SARIF's results written as they come.
 */
#ifndef SL_REPORT_FINDINGS_FMT_H
#define SL_REPORT_FINDINGS_FMT_H

#include "report.h"

/* ---- places (where.c) ---------------------------------------------------- */

/* The revision the findings are read at, while a report is written
 * (sl_report_findings_at): its REV: prefix is left out of every path, so
 * machine formats carry repository paths, and the revision has its own
 * field. NULL (the default): paths as they are. at is borrowed until the
 * next call. */
void sl_report_vcs_use(const sl_report_vcs *at);
const sl_report_vcs *sl_report_vcs_used(void);
/* An origin's file as reports write it (without the REV: prefix), "-"
 * when it has no source; a finding's own file, also of one with no source
 * (an entry that could not be read). Not owned. */
const char *sl_report_origin_path(const sl_origin *o);
const char *sl_report_finding_path(const sl_finding *f);
/* The end of a place's span (exclusive column), its start being col. */
unsigned sl_report_end_col(const sl_origin *o, unsigned col);

/* ---- SARIF (sarif.c) ----------------------------------------------------- */

/* A SARIF 2.1.0 log written a result at a time (issue 18: memory flat in
 * the number of findings, but for one 8-byte hash per distinct
 * fingerprint, which the occurrence numbers need): every rule of rules
 * (borrowed, kept until sl_report_sarif_free), the findings at or above
 * min. The REV: prefix in use (sl_report_vcs_use) when it is made is the
 * document's. NULL when it cannot be made. */
typedef struct sl_report_sarif sl_report_sarif;
sl_report_sarif *sl_report_sarif_new(const sl_rules *rules, sl_severity min);
/* The results of fs's findings (borrowed: they may go once written), to f:
 * the log's text before them first. 0, or -1 on a write error. */
int sl_report_sarif_add(sl_report_sarif *s, FILE *f, const sl_findings *fs);
/* The rest of the log (all of it when no result was written) and a
 * newline. 0, or -1 on a write error. */
int sl_report_sarif_end(sl_report_sarif *s, FILE *f);
void sl_report_sarif_free(sl_report_sarif *s);

#endif
