/*
 * variants.h (cmd, internal): the models of one entry, one per variant of
 * its script (each combination of alternatives at the `if`s and `case`s
 * whose conditions depend on something unknown), for show, check and diff.
 */
#ifndef SL_CMD_VARIANTS_H
#define SL_CMD_VARIANTS_H

#include "normalize/normalize.h"

/* Builds the models of e: every variant (which == 0) or only the which-th
 * (1-based; past the last is an error). *out is the caller's: free each
 * model (before the entry) and the array. A script with more than
 * SL_MAX_VARIANTS variants gets a note saying the rest are not read. */
int sl_entry_models(const sl_entry *e, const sl_grammars *gs, const sl_binds *binds, unsigned which,
		    sl_model ***out, size_t *n, sl_error *err);

/* One model of e: the which-th variant, or (which == 0) the only one; a
 * script with several variants then is an error naming them. */
int sl_entry_model_one(const sl_entry *e, const sl_grammars *gs, const sl_binds *binds,
		       unsigned which, sl_model **out, sl_error *err);

#endif
