/*
 * walker.c: what every part of the walk needs of the walker: a node's
 * children without a quadratic index loop or an allocation per node, and
 * errors and notes reported at a place (view offsets mapped back to the
 * source, so that `bash -c "..."` points into its string).
 */
#include "internal.h"

/*
 * The children of a node, through a tree cursor: ts_node_child(node, i)
 * walks from the first child each time, which makes plain index loops
 * quadratic over a command of many arguments. They are pushed on the
 * walker's node stack (no allocation per node); the caller reads them as
 * KID(i) and pops them with w->pool_n = kb (see KID in internal.h).
 */
size_t sh_kids(walker *w, TSNode node, int named, uint32_t *count)
{
	size_t base = w->pool_n;
	uint32_t n;
	const TSNode *kids = sh_cache_children(w->cache, node, &w->cur, &w->have_cur, &n);
	if (kids) {
		sl_grow((void **)&w->pool, &w->pool_cap, w->pool_n + n, sizeof *w->pool);
		for (uint32_t i = 0; i < n; i++)
			if (!named || ts_node_is_named(kids[i]))
				w->pool[w->pool_n++] = kids[i];
		*count = (uint32_t)(w->pool_n - base);
		return base;
	}
	if (!w->have_cur) {
		w->cur = ts_tree_cursor_new(node);
		w->have_cur = 1;
	} else {
		ts_tree_cursor_reset(&w->cur, node);
	}
	TSTreeCursor *c = &w->cur;
	if (ts_tree_cursor_goto_first_child(c)) {
		do {
			TSNode k = ts_tree_cursor_current_node(c);
			if (!named || ts_node_is_named(k))
				SL_PUSH(w->pool, w->pool_n, w->pool_cap, k);
		} while (ts_tree_cursor_goto_next_sibling(c));
	}
	*count = (uint32_t)(w->pool_n - base);
	return base;
}

/* ts_node_child(node, i), from the children of the last SH_KIDSETS nodes
 * asked of: ts_node_child walks from the first child each time, and the
 * walk of an if, a case or a branch asks for a holder's children one by
 * one (a loop over an if's body of n statements cost n * n / 2 steps: a
 * sixth of a check of a script sourcing a 2,300-line library). A node is
 * the same when every field is (its subtree, tree and place); a walker's
 * trees all live until it ends, so none can be another's. */
TSNode sh_child(walker *w, TSNode node, uint32_t i)
{
	uint32_t n;
	const TSNode *kids = sh_cache_children(w->cache, node, &w->cur, &w->have_cur, &n);
	if (kids)
		return i < n ? kids[i] : ts_node_child(node, i);
	unsigned k = 0;
	while (k < w->nkidsets && memcmp(&w->kidsets[k].node, &node, sizeof node))
		k++;
	if (k == w->nkidsets) {
		if (w->nkidsets < SH_KIDSETS)
			w->nkidsets++;
		k = w->nkidsets - 1;  /* the oldest, when all are taken */
		struct sh_kidset *e = &w->kidsets[k];
		e->node = node;
		e->n = 0;
		if (!w->have_cur) {
			w->cur = ts_tree_cursor_new(node);
			w->have_cur = 1;
		} else {
			ts_tree_cursor_reset(&w->cur, node);
		}
		if (ts_tree_cursor_goto_first_child(&w->cur)) {
			do {
				sl_grow((void **)&e->kids, &e->cap, (size_t)e->n + 1, sizeof *e->kids);
				e->kids[e->n++] = ts_tree_cursor_current_node(&w->cur);
			} while (ts_tree_cursor_goto_next_sibling(&w->cur));
		}
	}
	if (k) {  /* newest first */
		struct sh_kidset e = w->kidsets[k];
		memmove(&w->kidsets[1], &w->kidsets[0], k * sizeof e);
		w->kidsets[0] = e;
	}
	return i < w->kidsets[0].n ? w->kidsets[0].kids[i] : ts_node_child(node, i);
}

void sh_kidsets_free(walker *w)
{
	for (unsigned k = 0; k < SH_KIDSETS; k++)
		free(w->kidsets[k].kids);
}

size_t sh_node_start(const walker *w, TSNode node)
{
	size_t a = ts_node_start_byte(node), b = ts_node_end_byte(node);
	while (a < b && (w->v.text[a] == ' ' || w->v.text[a] == '\t' || w->v.text[a] == '\n'))
		a++;
	return a;
}

int sh_cursor_next(TSTreeCursor *c)
{
	if (ts_tree_cursor_goto_first_child(c))
		return 1;
	while (!ts_tree_cursor_goto_next_sibling(c))
		if (!ts_tree_cursor_goto_parent(c))
			return 0;
	return 1;
}

void sh_fail_at(walker *w, size_t view_off, const char *fmt, const char *arg)
{
	if (w->failed)
		return;
	unsigned l, c;
	sl_source_pos(w->v.src, sh_src_off(&w->v, view_off), &l, &c);
	sl_error_set(w->err, w->v.src->path, l, c, fmt, arg);
	w->failed = 1;
}

void sh_note(walker *w, TSNode node, const char *what)
{
	size_t n = w->s->nnotes;
	uint32_t off = sh_src_off(&w->v, ts_node_start_byte(node));
	SL_PUSH(w->s->notes, w->s->nnotes, w->note_cap, sl_strdup(what));
	SL_PUSH(w->s->note_offs, n, w->note_off_cap, off);
}

void sh_break_cmd(walker *w, const char *kind, uint32_t off, uint32_t cmd, const char *msg)
{
	for (size_t i = 0; i < w->s->nbreaks; i++)
		if (w->s->breaks[i].off == off && !strcmp(w->s->breaks[i].kind, kind))
			return;
	sl_shell_break b = {kind, sl_strdup(msg), off, cmd};
	SL_PUSH(w->s->breaks, w->s->nbreaks, w->break_cap, b);
}

void sh_break(walker *w, const char *kind, uint32_t off, const char *msg)
{
	sh_break_cmd(w, kind, off, UINT32_MAX, msg);
}
