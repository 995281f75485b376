/*
 * cache.h (cmd, internal): entries read from git, parsed and normalized
 * once per run. `diff REV REV`, `log` and `review` ask for the same
 * entry content many times under different names (an entry unchanged
 * between two commits of a log, both sides of a rename, review's diff and
 * its check); the git object id of the entry (its folder's tree, or its
 * file's blob) tells when the content is the same, and then the parse is.
 */
#ifndef SL_CMD_CACHE_H
#define SL_CMD_CACHE_H

#include "normalize/normalize.h"

typedef struct sl_entry_cache sl_entry_cache;

/* One entry in use. entry is non-NULL on success; model is NULL when the
 * entry was read but could not be normalized (then get returned the
 * error). Both are the cache's: release the handle, never free them. */
typedef struct sl_cached {
	sl_entry *entry;
	sl_model *model;
	struct sl_cache_slot *slot;  /* internal */
} sl_cached;

/* A cache over the grammars gs (borrowed; it must outlive the cache).
 * The caller owns the cache (sl_entry_cache_free). */
sl_entry_cache *sl_entry_cache_new(const sl_grammars *gs);
/* The entry at SPEC (REV:path) and its model. The entry carries the name
 * SPEC in every place it reports. Returns SL_OK; or an error with *err set,
 * and h->entry still set (uncached) when only normalizing failed. Release
 * h in every case. */
int sl_entry_cache_get(sl_entry_cache *c, const char *spec, sl_cached *h, sl_error *err);
void sl_entry_cache_release(sl_entry_cache *c, sl_cached *h);
/* Counts for --stats: lookups, entries parsed, distinct object ids seen. */
void sl_entry_cache_stats(const sl_entry_cache *c, size_t *lookups, size_t *parsed, size_t *ids);
void sl_entry_cache_free(sl_entry_cache *c);

#endif
