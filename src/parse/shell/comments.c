/*
 * comments.c: comments and their blocks. Claims are read from them (a
 * header comment, the comment right above a command), so each keeps its
 * line and whether it stands on a line of its own, and each command is
 * attached to the block that ends on the line above it.
 */
#include "internal.h"

void sh_walk_comment(walker *w, TSNode node)
{
	if (w->nsourcing)
		return;  /* a sourced file's comments are no claims of the entry */
	size_t a = ts_node_start_byte(node), b = ts_node_end_byte(node);
	sl_comment c;
	c.start = sh_src_off(&w->v, a);
	c.end = sh_src_off(&w->v, b);
	unsigned col;
	sl_source_pos(w->v.src, c.start, &c.line, &col);
	c.text = sl_strndup(w->v.text + a + 1, b - a - 1);
	c.own_line = 1;
	for (size_t i = a; i > 0 && w->v.text[i - 1] != '\n'; i--)
		if (w->v.text[i - 1] != ' ' && w->v.text[i - 1] != '\t')
			c.own_line = 0;
	SL_PUSH(w->s->comments, w->s->ncomments, w->com_cap, c);
}

void sh_build_blocks(sl_script *s)
{
	size_t cap = 0;
	for (size_t i = 0; i < s->ncomments; i++) {
		sl_comment *c = &s->comments[i];
		if (!c->own_line)
			continue;
		sl_comment_block *last = s->nblocks ? &s->blocks[s->nblocks - 1] : NULL;
		if (last && last->first + last->count == i && last->last_line + 1 == c->line) {
			last->count++;
			last->last_line = c->line;
			continue;
		}
		sl_comment_block b = {i, 1, c->line, c->line, 0};
		SL_PUSH(s->blocks, s->nblocks, cap, b);
	}
	/* blocks are in line order: a binary search finds the one ending on
	 * the line above each command */
	for (size_t k = 0; k < s->ncmds; k++) {
		sl_command *c = &s->cmds[k];
		unsigned line, col;
		sl_source_pos(s->src, c->head, &line, &col);
		size_t lo = 0, hi = s->nblocks;
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;
			if (s->blocks[mid].last_line + 1 < line)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < s->nblocks && s->blocks[lo].last_line + 1 == line) {
			c->block = (int)lo;
			s->blocks[lo].attached = 1;
		}
	}
}

int sh_compare_comments(const void *a, const void *b)
{
	const sl_comment *x = a, *y = b;
	return x->start < y->start ? -1 : x->start > y->start;
}
