/*
 * memo.c: what the readings of one script ask again and again of the same
 * trees, kept in its sl_shell_cache (internal.h): a node's children and
 * the names a conditional's branch assigns. Apart from cache.c, which
 * owns the trees, so that the walk asks it without standing beside what
 * the cache frees (relevant.c).
 */
#include "internal.h"

void sh_cache_memo_free(sl_shell_cache *c)
{
	free(c->kid_memo.sets);
	free(c->kid_memo.slots);
	free(c->name_memo.sets);
	free(c->name_memo.slots);
	free(c->kids);
	for (size_t i = 0; i < c->nnames; i++)
		free(c->names[i]);
	free(c->names);
}

static size_t node_hash(TSNode n)
{
	uintptr_t h = (uintptr_t)n.id ^ ((uintptr_t)n.context[0] << 32) ^ (uintptr_t)n.tree;
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9u;
	h ^= h >> 32;
	return (size_t)h;
}

/* The slot of node: the one holding it, or the empty one where it goes. */
static size_t *memo_slot(const struct sh_memo *m, TSNode node)
{
	size_t mask = m->nslots - 1;
	for (size_t i = node_hash(node) & mask;; i = (i + 1) & mask) {
		size_t *s = &m->slots[i];
		if (!*s || !memcmp(&m->sets[*s - 1].node, &node, sizeof node))
			return s;
	}
}

static const struct sh_memo_set *memo_find(const struct sh_memo *m, TSNode node)
{
	if (!m->nslots)
		return NULL;
	size_t *s = memo_slot(m, node);
	return *s ? &m->sets[*s - 1] : NULL;
}

static void memo_add(struct sh_memo *m, TSNode node, size_t at, uint32_t n)
{
	/* at most half full */
	if (2 * (m->nsets + 1) > m->nslots) {
		size_t old_n = m->nslots, *old = m->slots;
		m->nslots = old_n ? 2 * old_n : 1024;
		m->slots = sl_calloc(m->nslots, sizeof *m->slots);
		for (size_t i = 0; i < old_n; i++)
			if (old[i])
				*memo_slot(m, m->sets[old[i] - 1].node) = old[i];
		free(old);
	}
	struct sh_memo_set e = {node, at, n};
	SL_PUSH(m->sets, m->nsets, m->sets_cap, e);
	*memo_slot(m, node) = m->nsets;
}

static int tree_cached(const sl_shell_cache *c, const TSTree *t)
{
	for (size_t i = c->ntrees; i-- > 0;)
		if (c->trees[i].tree == t)
			return 1;
	return 0;
}

/* Whether c keeps what is asked of node. A node is the same when every
 * field is (its subtree, tree and place); the cached trees live as long as
 * c, so none is another's. */
static int memo_of(const sl_shell_cache *c, TSNode node)
{
	return c && c->readings >= 2 && tree_cached(c, node.tree);
}

const TSNode *sh_cache_children(sl_shell_cache *c, TSNode node, TSTreeCursor *cur, int *have_cur,
				uint32_t *n)
{
	if (!memo_of(c, node))
		return NULL;
	const struct sh_memo_set *k = memo_find(&c->kid_memo, node);
	if (k) {
		*n = k->n;
		return c->kids + k->at;
	}
	if (c->nkids + ts_node_child_count(node) > SH_MEMO_KIDS)
		return NULL;
	size_t at = c->nkids;
	if (!*have_cur) {
		*cur = ts_tree_cursor_new(node);
		*have_cur = 1;
	} else {
		ts_tree_cursor_reset(cur, node);
	}
	if (ts_tree_cursor_goto_first_child(cur)) {
		do {
			SL_PUSH(c->kids, c->nkids, c->kids_cap, ts_tree_cursor_current_node(cur));
		} while (ts_tree_cursor_goto_next_sibling(cur));
	}
	memo_add(&c->kid_memo, node, at, (uint32_t)(c->nkids - at));
	*n = (uint32_t)(c->nkids - at);
	return c->kids + at;
}

char *const *sh_cache_assigned(const sl_shell_cache *c, TSNode node, uint32_t *n)
{
	const struct sh_memo_set *k = memo_of(c, node) ? memo_find(&c->name_memo, node) : NULL;
	if (!k)
		return NULL;
	*n = k->n;
	return c->names + k->at;
}

int sh_cache_keep_assigned(sl_shell_cache *c, TSNode node, char *const *names, size_t n)
{
	if (!memo_of(c, node) || n > UINT32_MAX || c->nnames + n > SH_MEMO_KIDS)
		return 0;
	size_t at = c->nnames;
	for (size_t i = 0; i < n; i++)
		SL_PUSH(c->names, c->nnames, c->names_cap, sl_strdup(names[i]));
	memo_add(&c->name_memo, node, at, (uint32_t)n);
	return 1;
}
