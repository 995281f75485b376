/*
 * cache.c: sl_shell_cache, what the readings of one script share (see
 * internal.h): an entry's variants and probes read the same texts again
 * and again, each with other choices at its conditionals, and the syntax
 * trees of the script, of the other scripts of its group and of the files
 * they source, and the relevance of the script's variables, depend on the
 * text alone. A harness of 1,000 lines, read some 300 times to probe and
 * enumerate its conditionals, spent half of its time parsing anew what it
 * had parsed already.
 */
#include "internal.h"

#define MAX_TREES 256  /* texts an entry reads: scripts and sourced files */

sl_shell_cache *sl_shell_cache_new(void)
{
	return sl_calloc(1, sizeof(sl_shell_cache));
}

void sl_shell_cache_free(sl_shell_cache *c)
{
	if (!c)
		return;
	sh_relevance_free(c->rel);
	for (size_t i = 0; i < c->ntrees; i++)
		ts_tree_delete(c->trees[i].tree);
	free(c->trees);
	free(c->kid_memo.sets);
	free(c->kid_memo.slots);
	free(c->name_memo.sets);
	free(c->name_memo.slots);
	free(c->kids);
	for (size_t i = 0; i < c->nnames; i++)
		free(c->names[i]);
	free(c->names);
	free(c);
}

TSTree *sh_cache_tree(const sl_shell_cache *c, const char *text, size_t len)
{
	for (size_t i = 0; c && i < c->ntrees; i++)
		if (c->trees[i].text == text && c->trees[i].len == len)
			return c->trees[i].tree;
	return NULL;
}

int sh_cache_keep_tree(sl_shell_cache *c, const char *text, size_t len, TSTree *tree)
{
	if (!c || c->ntrees >= MAX_TREES)
		return 0;
	struct sh_cached_tree t = {text, len, tree};
	SL_PUSH(c->trees, c->ntrees, c->trees_cap, t);
	return 1;
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
