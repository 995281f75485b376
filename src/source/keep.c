/*
 * keep.c (source): the lines places point into, kept when their sources
 * are freed (sl_source_keep, source.h). audit frees each entry once it is
 * checked and summarized (issue 18: peak memory flat in the catalogue's
 * size); its findings and the catalogue's summaries still name places in
 * it, which every format prints as path:line:col and the line's text. A
 * copy of each source pointed into holds the lines those places are on,
 * each numbered as in the original (sl_source.line_no), so that every
 * position, line text and span's end is what the original gave; places in
 * one source share one copy (a fix's edit is compared with its finding's
 * place by source). A file the source links to (`source env.sh`) is
 * copied the same way and linked to the copy at its original base, and a
 * place in it also keeps the copy's own line of the same number, which
 * the tty format quotes (sl_source_line of the place's source).
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* The lines asked of one source (its own, or of a file it links to) */
typedef struct {
	const sl_source *orig;  /* not owned */
	uint32_t *idx;          /* 0-based line indexes, sorted and unique once built */
	size_t n, cap;
	sl_source *copy;        /* made by the first move (owned until handed over, or by its parent's link) */
} lines_of;

/* One source pointed into: its own lines, then one set per link */
typedef struct {
	lines_of own;
	lines_of *links;        /* parallel to orig's links */
	size_t nlinks;          /* orig's, for freeing after orig is gone */
} kept;

struct sl_source_keep {
	kept *v;
	size_t n, cap;
	int bad;                /* a place past a text in no linked file */
};

sl_source_keep *sl_source_keep_new(void)
{
	return sl_calloc(1, sizeof(sl_source_keep));
}

/* The sources an entry has are few: found by a scan */
static kept *find(sl_source_keep *k, const sl_source *s, int add)
{
	for (size_t i = 0; i < k->n; i++)
		if (k->v[i].own.orig == s)
			return &k->v[i];
	if (!add)
		return NULL;
	kept none;
	memset(&none, 0, sizeof none);
	none.own.orig = s;
	none.links = sl_calloc(s->nlinks + 1, sizeof *none.links);
	none.nlinks = s->nlinks;
	for (size_t i = 0; i < s->nlinks; i++)
		none.links[i].orig = s->links[i].src;
	SL_PUSH(k->v, k->n, k->cap, none);
	return &k->v[k->n - 1];
}

/* The link of s holding offset off (off made the file's own), as
 * sl_source_at finds it: its index, or SIZE_MAX for s itself */
static size_t link_at(const sl_source *s, uint32_t *off)
{
	if (*off <= s->len)
		return SIZE_MAX;
	for (size_t i = s->nlinks; i-- > 0;)
		if (*off >= s->links[i].base) {
			*off -= s->links[i].base;
			return i;
		}
	return SIZE_MAX;
}

static void note(lines_of *l, size_t i)
{
	SL_PUSH(l->idx, l->n, l->cap, (uint32_t)i);
}

static void mark_point(sl_source_keep *k, const sl_source *s, uint32_t off)
{
	kept *e = find(k, s, 1);
	uint32_t o = off;
	size_t li = link_at(s, &o);
	if (li == SIZE_MAX) {
		if (off > s->len)
			k->bad = 1;  /* clamped to the text's end by sl_source_pos: not kept */
		note(&e->own, sl_source_line_index(s, off));
		return;
	}
	const sl_source *f = s->links[li].src;
	size_t i = sl_source_line_index(f, o);
	note(&e->links[li], i);
	/* the line of s of the same number, which the tty format quotes */
	unsigned line, col;
	sl_source_pos(f, o, &line, &col);
	if (line > s->line_base && line - s->line_base <= s->nlines)
		note(&e->own, line - s->line_base - 1);
}

void sl_source_keep_mark(const sl_source **src, uint32_t *off, uint32_t *len, void *ud)
{
	sl_source_keep *k = ud;
	if (!*src)
		return;
	mark_point(k, *src, *off);
	if (len)
		mark_point(k, *src, *off + *len);
}

int sl_source_keep_ok(const sl_source_keep *k)
{
	return k->bad ? -1 : 0;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

/* The copy of l->orig's lines l->idx (sorted and made unique here) */
static sl_source *copy_lines(lines_of *l)
{
	const sl_source *s = l->orig;
	qsort(l->idx, l->n, sizeof *l->idx, cmp_u32);
	size_t u = 0;
	for (size_t i = 0; i < l->n; i++)
		if (!u || l->idx[u - 1] != l->idx[i])
			l->idx[u++] = l->idx[i];
	l->n = u;
	/* one allocation: the copy, then its lines, line_no and col_shift (a
	 * copy is kept for every entry of a catalogue: six allocations each
	 * were a fifth of the copies' memory), then its path: each entry's
	 * files have paths of their own, which interned were never freed (9
	 * MB of 69,440 entries' and the intern table's growth); its other
	 * words shared (sl_intern) */
	size_t per = 2 + (s->col_shift != NULL), plen = strlen(s->path);
	sl_source *c = sl_calloc(1, sizeof *c + (u + 1) * per * sizeof(uint32_t) + plen + 1);
	uint32_t *arr = (uint32_t *)(c + 1);
	c->kept = 1;
	c->path = (char *)(arr + (u + 1) * per);
	memcpy(c->path, s->path, plen + 1);
	c->name = (char *)sl_intern(s->name, strlen(s->name));
	c->section = s->section ? (char *)sl_intern(s->section, strlen(s->section)) : NULL;
	c->line_base = s->line_base;
	c->ascii = s->ascii;
	c->lines = arr;
	c->line_no = arr + (u + 1);
	c->col_shift = s->col_shift ? arr + 2 * (u + 1) : NULL;
	c->nlines = u;
	sl_buf t = {0};
	for (size_t i = 0; i < u; i++) {
		size_t a = s->lines[l->idx[i]], b = l->idx[i] + 1 < s->nlines ? s->lines[l->idx[i] + 1] : s->len;
		c->lines[i] = (uint32_t)t.len;
		c->line_no[i] = l->idx[i] + 1;
		if (c->col_shift)
			c->col_shift[i] = s->col_shift[l->idx[i]];
		sl_buf_add(&t, s->text + a, b - a);
	}
	c->len = t.len;
	/* one copy of each text (interned): a catalogue's entries repeat one
	 * another's lines; and its own size, not a buffer's capacity (the
	 * room a buffer's growth left was 1.6 MB of 3,500 copies' text) */
	c->text = (char *)sl_intern(t.data ? t.data : "", t.len);
	sl_buf_free(&t);
	return c;
}

/* offset off of l->orig, in its copy */
static uint32_t moved(const lines_of *l, uint32_t off)
{
	uint32_t i = (uint32_t)sl_source_line_index(l->orig, off);
	const uint32_t *at = bsearch(&i, l->idx, l->n, sizeof *l->idx, cmp_u32);
	size_t j = at ? (size_t)(at - l->idx) : 0;  /* every place was marked: found */
	return l->copy->lines[j] + (off - l->orig->lines[i]);
}

/* The copy of e's source with the copies of its linked files, made once */
static sl_source *copy_of(kept *e)
{
	if (e->own.copy)
		return e->own.copy;
	const sl_source *s = e->own.orig;
	sl_source *c = copy_lines(&e->own);
	for (size_t i = 0; i < s->nlinks; i++) {
		if (!e->links[i].n)
			continue;  /* a link nothing points into: sl_source_at finds the others the same */
		e->links[i].copy = copy_lines(&e->links[i]);
		c->links = sl_realloc(c->links, (c->nlinks + 1) * sizeof *c->links);
		c->links[c->nlinks].src = e->links[i].copy;
		c->links[c->nlinks].base = s->links[i].base;
		c->links[c->nlinks].key = s->links[i].key ? sl_strdup(s->links[i].key) : NULL;
		c->nlinks++;
	}
	e->own.copy = c;
	return c;
}

static uint32_t move_point(kept *e, uint32_t off)
{
	const sl_source *s = e->own.orig;
	uint32_t o = off;
	size_t li = link_at(s, &o);
	if (li == SIZE_MAX)
		return moved(&e->own, off);
	return s->links[li].base + moved(&e->links[li], o);
}

void sl_source_keep_move(const sl_source **src, uint32_t *off, uint32_t *len, void *ud)
{
	sl_source_keep *k = ud;
	kept *e = *src ? find(k, *src, 0) : NULL;
	if (!e)
		return;
	sl_source *c = copy_of(e);
	uint32_t a = move_point(e, *off);
	if (len)
		*len = move_point(e, *off + *len) - a;
	*off = a;
	*src = c;
}

const sl_source *sl_source_keep_copy(const sl_source_keep *k, const sl_source *orig)
{
	for (size_t i = 0; i < k->n; i++)
		if (k->v[i].own.orig == orig)
			return k->v[i].own.copy;
	return NULL;
}

sl_source **sl_source_keep_done(sl_source_keep *k, size_t *n)
{
	sl_source **v = sl_calloc(k->n + 1, sizeof *v);
	*n = 0;
	for (size_t i = 0; i < k->n; i++) {
		kept *e = &k->v[i];
		if (e->own.copy)
			v[(*n)++] = e->own.copy;
		free(e->own.idx);
		for (size_t l = 0; l < e->nlinks; l++)
			free(e->links[l].idx);
		free(e->links);
	}
	free(k->v);
	free(k);
	return v;
}

/* ---- a kept copy put aside and read back (audit's store) ----------------- */

/* Depth of links read back: a copy links the files its original sourced,
 * which link none of their own in a copy (copy_of copies one level) */
enum { THAW_DEPTH = 4 };

void sl_source_kept_freeze(const sl_source *c, sl_buf *out)
{
	sl_buf_put_str(out, c->path);
	sl_buf_put_str(out, c->name);
	sl_buf_put_str(out, c->section);
	sl_buf_put_u32(out, c->line_base);
	sl_buf_put_u32(out, (uint32_t)c->ascii);
	sl_buf_put_u32(out, (uint32_t)c->nlines);
	sl_buf_put_u32(out, c->col_shift != NULL);
	for (size_t i = 0; i < c->nlines; i++) {
		sl_buf_put_u32(out, c->lines[i]);
		sl_buf_put_u32(out, c->line_no ? c->line_no[i] : (uint32_t)i + 1);
		if (c->col_shift)
			sl_buf_put_u32(out, c->col_shift[i]);
	}
	sl_buf_put_u32(out, (uint32_t)c->len);
	sl_buf_add(out, c->text, c->len);
	sl_buf_put_u32(out, (uint32_t)c->nlinks);
	for (size_t i = 0; i < c->nlinks; i++) {
		sl_buf_put_u32(out, c->links[i].base);
		sl_buf_put_str(out, c->links[i].key);
		sl_source_kept_freeze(c->links[i].src, out);
	}
}

static sl_source *thaw(sl_reader *r, int depth)
{
	const char *path = sl_read_str(r, NULL), *name = sl_read_str(r, NULL), *section = sl_read_str(r, NULL);
	unsigned line_base = sl_read_u32(r);
	int ascii = (int)sl_read_u32(r);
	size_t u = sl_read_u32(r), per = 2 + (sl_read_u32(r) != 0);
	/* the lines' numbers must be there before they are allocated for */
	if (!path || !name || depth > THAW_DEPTH || (size_t)(r->end - r->p) / (per * sizeof(uint32_t)) < u) {
		r->bad = 1;
		return NULL;
	}
	size_t plen = strlen(path);
	const char *rows = sl_read_bytes(r, u * per * sizeof(uint32_t));
	size_t len = sl_read_u32(r);
	const char *text = sl_read_bytes(r, len);
	if (!rows || !text)
		return NULL;
	/* as copy_lines lays a copy out, its text in the allocation too (not
	 * interned: read back for a moment, then freed) */
	sl_source *c = sl_calloc(1, sizeof *c + (u + 1) * per * sizeof(uint32_t) + plen + 1 + len + 1);
	uint32_t *arr = (uint32_t *)(c + 1);
	c->kept = 1;
	c->lines = arr;
	c->line_no = arr + (u + 1);
	c->col_shift = per == 3 ? arr + 2 * (u + 1) : NULL;
	c->path = (char *)(arr + (u + 1) * per);
	memcpy(c->path, path, plen + 1);
	c->text = c->path + plen + 1;
	memcpy(c->text, text, len);
	c->text[len] = 0;
	c->len = len;
	c->name = (char *)sl_intern(name, strlen(name));
	c->section = section ? (char *)sl_intern(section, strlen(section)) : NULL;
	c->line_base = line_base;
	c->ascii = ascii;
	c->nlines = u;
	for (size_t i = 0; i < u; i++) {
		memcpy(&c->lines[i], rows + (i * per) * sizeof(uint32_t), sizeof(uint32_t));
		memcpy(&c->line_no[i], rows + (i * per + 1) * sizeof(uint32_t), sizeof(uint32_t));
		if (c->col_shift)
			memcpy(&c->col_shift[i], rows + (i * per + 2) * sizeof(uint32_t), sizeof(uint32_t));
		if (c->lines[i] > len)
			r->bad = 1;
	}
	size_t nl = sl_read_u32(r);
	for (size_t i = 0; i < nl && !r->bad; i++) {
		uint32_t base = sl_read_u32(r);
		const char *key = sl_read_str(r, NULL);
		sl_source *l = thaw(r, depth + 1);
		if (!l)
			break;
		c->links = sl_realloc(c->links, (c->nlinks + 1) * sizeof *c->links);
		c->links[c->nlinks].src = l;
		c->links[c->nlinks].base = base;
		c->links[c->nlinks].key = key ? sl_strdup(key) : NULL;
		c->nlinks++;
	}
	if (r->bad) {
		sl_source_free(c);
		return NULL;
	}
	return c;
}

sl_source *sl_source_kept_thaw(sl_reader *r)
{
	return thaw(r, 0);
}
