/*
 * touched.h (cmd, internal): shared by `diff REV REV` and `log` (the code is
 * diff.c's): one entry touched between two revisions, loaded at both and
 * compared.
 */
#ifndef SL_CMD_TOUCHED_H
#define SL_CMD_TOUCHED_H

#include "diff/diff.h"
#include "normalize/normalize.h"

/* Indexed by the status: 0 changed, 1 reformatted only, 2 added, 3 removed,
 * 4 renamed, 5 renamed and reformatted only. */
extern const char *const sl_touched_status[];

/* Returns the status, or -1 with err set. *na and *nb (REV:path) are the
 * caller's to free, as are the entries and models the diff's origins point
 * into (free them after the diff). */
int sl_cmd_compare_touched(const char *r1, const char *r2, const sl_touched *t, const sl_grammars *gs,
			   const sl_diff_opts *o, sl_diff *d, char **na, char **nb, sl_entry **ea, sl_entry **eb,
			   sl_model **ma, sl_model **mb, sl_error *err);

#endif
