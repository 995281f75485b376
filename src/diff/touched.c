/*
 * touched.c (diff): an entry touched between two revisions, read at both
 * through the entry stage's cache and compared (see diff.h); shared by
 * `diff REV REV`, `log` and `review`.
 */
#include "diff.h"

#include <stdlib.h>
#include <string.h>

const char *const sl_diff_touched_status[] = {"changed", "reformatted only", "added", "removed", "renamed",
						"renamed, reformatted only", "renamed"};

static int same_source(const sl_source *a, const sl_source *b)
{
	if (!a || !b)
		return a == b;
	return !strcmp(a->name, b->name) && a->len == b->len && !memcmp(a->text, b->text, a->len);
}

/* Whether two entries hold the same files, name for name and byte for byte. */
static int same_files(const sl_entry *a, const sl_entry *b)
{
	if (a->nfiles != b->nfiles || !same_source(a->script, b->script) || !same_source(a->metadata, b->metadata))
		return 0;
	for (size_t i = 0; i < a->nfiles; i++)
		if (!same_source(a->files[i], b->files[i]))
			return 0;
	return 1;
}

static void memo_free(void *memo)
{
	sl_diff_free(memo);
	free(memo);
}

/* c's diff of its two sides: made once per pair of readings and kept
 * with the first (sl_entry_cached_set_pair_memo), then copied: the 99
 * entries touched of 10,000 copies of 35 (bench/lib.sh's revs_repo) are
 * 7 pairs of readings, and sl_diff_models was 9.6 M of review's 95.1 M
 * instructions. Under --only or --ignore, made each time (the memo is
 * the whole diff's). */
static void diff_memo(sl_touched_cmp *c, const sl_diff_opts *o)
{
	if (o && (o->nonly || o->nignore)) {
		sl_diff_models(c->a.model, c->b.model, o, &c->diff);
		return;
	}
	sl_diff *m = sl_entry_cached_pair_memo(&c->a, &c->b);
	if (m) {
		sl_diff_copy(m, &c->diff);
		return;
	}
	sl_diff_models(c->a.model, c->b.model, o, &c->diff);
	m = sl_calloc(1, sizeof *m);
	sl_diff_copy(&c->diff, m);
	sl_entry_cached_set_pair_memo(&c->a, &c->b, m, memo_free);
}

int sl_diff_touched_compare_named(const char *r1, const char *r2, const char *d1, const char *d2,
				  const sl_touched *t, sl_entry_cache *cache, const sl_diff_opts *o,
				  sl_touched_cmp *c, sl_error *err)
{
	memset(c, 0, sizeof *c);
	c->cache = cache;
	sl_buf a = {0}, b = {0}, sa = {0}, sb = {0};
	/* no r2: the working tree, whose entries are named by their paths */
	sl_buf_printf(&a, "%s:%s", d1, t->old_path);
	sl_buf_printf(&b, "%s%s%s", r2 ? d2 : "", r2 ? ":" : "", t->new_path);
	sl_buf_printf(&sa, "%s:%s", r1, t->old_path);
	sl_buf_printf(&sb, "%s%s%s", r2 ? r2 : "", r2 ? ":" : "", t->new_path);
	c->na = sl_buf_detach(&a);
	c->nb = sl_buf_detach(&b);
	int st;
	char ia[SL_GIT_ID_SIZE], ib[SL_GIT_ID_SIZE];
	if (!t->in_old) {
		st = 2;
	} else if (!t->in_new) {
		st = 3;
	} else if (r2 && strcmp(t->old_path, t->new_path) && !sl_git_object_id(sa.data, ia, err) &&
		   !sl_git_object_id(sb.data, ib, err) && !strcmp(ia, ib)) {
		st = 6; /* the same object under another name: moved, nothing to read */
	} else {
		sl_error_clear(err);
		if (sl_entry_cache_get(cache, sa.data, &c->a, err) ||
		    (r2 ? sl_entry_cache_get(cache, sb.data, &c->b, err)
			: sl_entry_cache_get_worktree(cache, t->new_path, &c->b, err))) {
			st = -1;
		} else {
			diff_memo(c, o);
			int renamed = strcmp(t->old_path, t->new_path) != 0;
			st = sl_diff_equal(&c->diff) ? (renamed ? 5 : 1) : (renamed ? 4 : 0);
			if ((st == 1 || st == 5) && o && (o->nonly || o->nignore)) {
				/* equal in the keys shown: the whole models tell a
				 * reformat from a change the filter hides */
				sl_diff all;
				sl_diff_opts none = {0};
				sl_diff_models(c->a.model, c->b.model, &none, &all);
				c->hidden = !sl_diff_equal(&all);
				sl_diff_free(&all);
			}
			/* the working tree has no object ids: a move with the very
			 * same files is told by their texts */
			if (!r2 && st == 5 && same_files(c->a.entry, c->b.entry))
				st = 6;
		}
	}
	sl_buf_free(&sa);
	sl_buf_free(&sb);
	return c->status = st;
}

int sl_diff_touched_compare(const char *r1, const char *r2, const sl_touched *t, sl_entry_cache *cache,
			    const sl_diff_opts *o, sl_touched_cmp *c, sl_error *err)
{
	return sl_diff_touched_compare_named(r1, r2, r1, r2, t, cache, o, c, err);
}

int sl_diff_touched_no_service(const sl_touched_cmp *c)
{
	return (c->status == 1 || c->status == 5) && c->a.model && c->b.model && !c->a.model->nservices &&
	       !c->b.model->nservices;
}

void sl_diff_touched_free(sl_touched_cmp *c)
{
	sl_diff_free(&c->diff);
	if (c->cache) {
		sl_entry_cache_release(c->cache, &c->a);
		sl_entry_cache_release(c->cache, &c->b);
	}
	free(c->na);
	free(c->nb);
	memset(c, 0, sizeof *c);
}
