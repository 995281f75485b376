/*
 * touched.h (cmd, internal): shared by `diff REV REV`, `log` and `review`
 * (the code is diff.c's): one entry touched between two revisions, loaded
 * at both, compared, and told.
 */
#ifndef SL_CMD_TOUCHED_H
#define SL_CMD_TOUCHED_H

#include "entry/entry.h"
#include "diff/diff.h"
#include "normalize/normalize.h"

/* Indexed by the status: 0 changed, 1 reformatted only, 2 added, 3 removed,
 * 4 renamed (and changed), 5 renamed and reformatted only, 6 renamed with
 * the same content (neither side is read). */
extern const char *const sl_touched_status[];

/* A comparison; the diff's origins point into the entries it keeps. */
typedef struct sl_touched_cmp {
	int status;            /* as above, or -1 when a side could not be read */
	sl_diff diff;          /* filled for statuses 0, 1, 4, 5 */
	char *na, *nb;         /* REV:path of each side, as printed */
	sl_entry_cached a, b;  /* each side, from the cache */
	sl_entry_cache *cache; /* borrowed */
} sl_touched_cmp;

/* Compares the entry at both revisions, read through cache (which must
 * outlive *c); returns the status, or -1 with err set. Free *c with
 * sl_cmd_touched_free in any case. */
int sl_cmd_touched_compare(const char *r1, const char *r2, const sl_touched *t, sl_entry_cache *cache,
			   const sl_diff_opts *o, sl_touched_cmp *c, sl_error *err);
/* The same, with the sides read at r1 and r2 but named d1:path and
 * d2:path in what is printed (log reads full ids, shows short ones). */
int sl_cmd_touched_compare_named(const char *r1, const char *r2, const char *d1, const char *d2,
				 const sl_touched *t, sl_entry_cache *cache, const sl_diff_opts *o,
				 sl_touched_cmp *c, sl_error *err);
/* The status line (`changed: path`, markdown `- **changed** `path``) and,
 * for a change, the diff; format tty or markdown. */
void sl_cmd_touched_print(const sl_touched_cmp *c, const sl_touched *t, int md, int color);
/* The diff alone, for a change (statuses 0 and 4). */
void sl_cmd_touched_print_diff(const sl_touched_cmp *c, int md, int color);
void sl_cmd_touched_free(sl_touched_cmp *c);

#endif
