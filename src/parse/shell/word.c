/*
 * word.c: words being built and finished words. A word carries, byte by
 * byte, the source offset each byte came from, because every finding and
 * every diff line points at the exact token; and while being built it
 * remembers which bytes came from an unquoted expansion (they may split) and
 * where "${A[@]}" forces a boundary, because splitting happens only after
 * the whole word is known.
 */
#include "internal.h"

#include <ctype.h>
#include <stdio.h>

static void wb_mark(wbuild *wb, size_t n)
{
	sl_grow((void **)&wb->ifs, &wb->ifs_cap, wb->b.len + n + 1, 1);
	memset(wb->ifs + wb->b.len, wb->splitting ? 1 : 0, n);
}

/* Whether n more bytes fit (A="$A$A" doubles a value each time). */
static int wb_room(wbuild *wb, size_t n)
{
	if (wb->overflow || wb->b.len + n > SL_MAX_WORD_BYTES) {
		wb->overflow = 1;
		return 0;
	}
	return 1;
}

void sh_wb_add(wbuild *wb, const char *s, size_t n, const uint32_t *offs)
{
	if (!wb_room(wb, n))
		return;
	sl_grow((void **)&wb->offs, &wb->cap, wb->b.len + n + 1, sizeof *wb->offs);
	memcpy(wb->offs + wb->b.len, offs, n * sizeof *offs);
	wb_mark(wb, n);
	sl_buf_add(&wb->b, s, n);
}

const uint32_t sh_shifted[1];

void sh_wb_add_view(wbuild *wb, const view *v, size_t i, size_t n)
{
	if (!wb_room(wb, n))
		return;
	sl_grow((void **)&wb->offs, &wb->cap, wb->b.len + n + 1, sizeof *wb->offs);
	uint32_t *o = wb->offs + wb->b.len;
	if ((!v->map || v->map == sh_shifted) && i + n <= v->len) {
		/* a file's own text: offsets in a row (a loop the compiler widens) */
		uint32_t at = (uint32_t)i + (v->map ? v->base : 0);
		for (size_t k = 0; k < n; k++)
			o[k] = at + (uint32_t)k;
	} else {
		for (size_t k = 0; k < n; k++)
			o[k] = sh_src_off(v, i + k);
	}
	wb_mark(wb, n);
	sl_buf_add(&wb->b, v->text + i, n);
}

/* Bytes with no place of their own (a --set value): all at offset off. */
void sh_wb_add_at(wbuild *wb, const char *s, size_t n, uint32_t off)
{
	if (!wb_room(wb, n))
		return;
	sl_grow((void **)&wb->offs, &wb->cap, wb->b.len + n + 1, sizeof *wb->offs);
	for (size_t k = 0; k < n; k++)
		wb->offs[wb->b.len + k] = off;
	wb_mark(wb, n);
	sl_buf_add(&wb->b, s, n);
}

void sh_wb_break(wbuild *wb)
{
	SL_PUSH(wb->brk, wb->nbrk, wb->brk_cap, wb->b.len);
}

/* Frees what sh_wb_finish does not hand over. */
static void wb_extra_free(wbuild *wb)
{
	free(wb->ifs);
	free(wb->brk);
	free(wb->els);
	wb->ifs = NULL;
	wb->brk = NULL;
	wb->els = NULL;
	wb->ifs_cap = wb->brk_cap = wb->nbrk = wb->nels = wb->els_cap = 0;
}

void sh_wb_discard(wbuild *wb)
{
	sl_buf_free(&wb->b);
	free(wb->offs);
	wb->offs = NULL;
	wb->cap = 0;
	wb_extra_free(wb);
}

void sh_wb_finish(wbuild *wb, sl_word *out, uint32_t start, uint32_t end)
{
	sl_grow((void **)&wb->offs, &wb->cap, wb->b.len + 1, sizeof *wb->offs);
	wb->offs[wb->b.len] = end;
	out->len = wb->b.len;
	out->text = sl_buf_detach(&wb->b);
	out->offs = wb->offs;
	out->start = start;
	out->end = end;
	out->flags = wb->flags;
	size_t at;
	if (sl_find_placeholder(out->text, out->len, &at))
		out->flags |= SL_WORD_PLACEHOLDER;
	wb->offs = NULL;
	wb->cap = 0;
	wb_extra_free(wb);
}

void sl_word_free(sl_word *w)
{
	free(w->text);
	free(w->offs);
	memset(w, 0, sizeof *w);
}

void sl_word_copy(sl_word *dst, const sl_word *src)
{
	*dst = *src;
	dst->text = sl_strndup(src->text ? src->text : "", src->len);
	dst->offs = sl_malloc((src->len + 1) * sizeof *dst->offs);
	if (src->offs)
		memcpy(dst->offs, src->offs, (src->len + 1) * sizeof *dst->offs);
	else
		memset(dst->offs, 0, (src->len + 1) * sizeof *dst->offs);
}

void sl_word_slice(sl_word *dst, const sl_word *w, size_t from, size_t to)
{
	if (to > w->len)
		to = w->len;
	if (from > to)
		from = to;
	dst->len = to - from;
	dst->text = sl_strndup(w->text + from, dst->len);
	dst->offs = sl_malloc((dst->len + 1) * sizeof *dst->offs);
	memcpy(dst->offs, w->offs + from, (dst->len + 1) * sizeof *dst->offs);
	dst->start = w->offs[from];
	dst->end = to < w->len ? w->offs[to] : w->end;
	dst->flags = w->flags;
	size_t at;
	dst->flags &= ~(unsigned)SL_WORD_PLACEHOLDER;
	if (sl_find_placeholder(dst->text, dst->len, &at))
		dst->flags |= SL_WORD_PLACEHOLDER;
}

static int ph_char(char c)
{
	return isalnum((unsigned char)c) || c == '-' || c == '_' || c == '.' || c == '/' || c == ',';
}

size_t sl_find_placeholder(const char *s, size_t len, size_t *at)
{
	for (size_t i = 0; i + 2 < len; i++) {
		if (s[i] != '<' || !isalnum((unsigned char)s[i + 1]))
			continue;
		if (i > 0 && (s[i - 1] == '<' || s[i - 1] == '\\'))
			continue;
		size_t j = i + 1;
		/* one inner space is allowed ("<8 GPUs>") when quoted; the caller
		 * only sees quoted text here through word values */
		while (j < len && (ph_char(s[j]) || (s[j] == ' ' && j + 1 < len && isalnum((unsigned char)s[j + 1]))))
			j++;
		if (j < len && s[j] == '>') {
			*at = i;
			return j + 1 - i;
		}
	}
	return 0;
}

void sh_add_number(wbuild *wb, long long v, uint32_t at)
{
	char num[32];
	snprintf(num, sizeof num, "%lld", v);
	sh_wb_add_at(wb, num, strlen(num), at);
}

/* The elements joined by blanks: what "${A[*]}" and the assigns list show. */
void sh_join_words(sl_word *dst, const sl_word *v, size_t n, uint32_t at)
{
	wbuild wb = {0};
	for (size_t i = 0; i < n; i++) {
		if (i)
			sh_wb_add_at(&wb, " ", 1, v[i].len ? v[i].offs[0] : v[i].start);
		sh_wb_add(&wb, v[i].text, v[i].len, v[i].offs);
		wb.flags |= v[i].flags;
	}
	sh_wb_finish(&wb, dst, n ? v[0].start : at, n ? v[n - 1].end : at);
}

void sh_words_copy(sl_word **dst, size_t *n, size_t *cap, const sl_word *src, size_t k)
{
	for (size_t i = 0; i < k; i++) {
		sl_word c;
		sl_word_copy(&c, &src[i]);
		SL_PUSH(*dst, *n, *cap, c);
	}
}

/* a followed by b, as one word. */
void sh_word_concat(sl_word *dst, const sl_word *a, const sl_word *b)
{
	wbuild wb = {0};
	sh_wb_add(&wb, a->text, a->len, a->offs);
	sh_wb_add(&wb, b->text, b->len, b->offs);
	wb.flags = a->flags | b->flags;
	sh_wb_finish(&wb, dst, a->start, b->end);
}
