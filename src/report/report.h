/*
 * report.h: the report stage: turning models into what people and tools
 * read. Every JSON document is built and written with jansson.
 */
#ifndef SL_REPORT_H
#define SL_REPORT_H

#include <stdio.h>
#include <jansson.h>
#include "../model/model.h"
#include "../check/check.h"
#include "../diff/diff.h"

/* The model of one entry as JSON (the shape is documented in README.md).
 * Returns a new reference. */
json_t *sl_report_model_json(const sl_model *m);
/* Writes the model for a terminal; color adds ANSI colours. Returns 0, or -1
 * when writing failed. */
int sl_report_model_tty(FILE *f, const sl_model *m, int color);
/* An origin as "file:line:col" (caller frees). */
char *sl_report_where(const sl_origin *o);

/* ---- findings ---------------------------------------------------------- */

typedef enum {
	SL_FMT_TTY, SL_FMT_GCC, SL_FMT_JSON, SL_FMT_SARIF, SL_FMT_GITHUB, SL_FMT_CHECKSTYLE,
} sl_format;

int sl_format_parse(const char *s, sl_format *out);

/* Writes findings (those at or above min) in a format to f. rules is the
 * whole catalogue (SARIF lists every rule). Returns 0, or -1 on a write error. */
int sl_report_findings(FILE *f, sl_format fmt, const sl_rules *rules, const sl_findings *fs,
		       sl_severity min, int color);

/* ---- diffs ------------------------------------------------------------- */

/* A diff for a terminal (grouped by service, `key: old -> new`), as JSON,
 * or as markdown for a pull-request comment. name_a/name_b label the sides. */
/* The diff as a JSON document (a new reference), as --format json writes it. */
json_t *sl_report_diff_json(const sl_diff *d, const char *name_a, const char *name_b);
int sl_report_diff(FILE *f, const char *format, const sl_diff *d, const char *name_a, const char *name_b,
		   int color);

/* ---- matrices ---------------------------------------------------------- */

/* N entries side by side: format tty, markdown, csv or json; names label
 * the columns (m->ncols of them); all puts the same-everywhere rows in the
 * table too. Returns 0, or -1 on a write error. */
int sl_report_matrix(FILE *f, const char *format, const sl_matrix *m, char *const *names, int all, int color);

#endif
