/*
 * check_out.h (cmd, internal): check's reports, one per --format (and
 * --output), written as the entries' findings are handed back
 * (check_out.c).
 */
#ifndef SL_CMD_CHECK_OUT_H
#define SL_CMD_CHECK_OUT_H

#include <stddef.h>

#include "check/check.h"
#include "report/report.h"

/* One --format, and the file it goes to. */
typedef struct sl_check_output {
	sl_format fmt;
	int diff;           /* --format diff: the fixes, not the findings */
	const char *file;   /* NULL or "-": stdout */
} sl_check_output;

/* The reports being written: each in the order given, byte for byte as
 * if written whole one after the other at the end. */
typedef struct sl_check_outs sl_check_outs;
/* outs (n of them) and rules are borrowed until sl_check_outs_close; color
 * is standard output's. Nothing is written yet. */
sl_check_outs *sl_check_outs_open(const sl_check_output *outs, size_t n, const sl_rules *rules, sl_severity min,
				  int color);
/* The next findings (borrowed for the call: they may go after it), in the
 * reports' order, written into every findings report. */
void sl_check_outs_next(sl_check_outs *o, const sl_findings *fs);
/* The reports' ends, --format diff's of fixes (borrowed; may be NULL when
 * no --format diff was given), and each written to its place: standard
 * output in order, each file whole or not at all. Frees o. Returns 0, or
 * -1 when a report could not be written (told on stderr for a file). */
int sl_check_outs_close(sl_check_outs *o, const sl_fixes *fixes);
/* Frees o, writing nothing more (no entry was found, the config is bad). */
void sl_check_outs_drop(sl_check_outs *o);

#endif
