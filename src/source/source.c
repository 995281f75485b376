/*
 * source.c: one input file as an sl_source: loaded (or taken from memory)
 * and validated as UTF-8 text, its lines indexed, offsets turned into
 * line:column and back, and what kind of YAML it is (recipe, manifest).
 * The files a script sources are link.c's.
 */
#include "internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

/* Length of the UTF-8 sequence starting at p (0 when invalid). */
static size_t utf8_len(const unsigned char *p, size_t left)
{
	unsigned char c = p[0];
	size_t n;
	uint32_t cp;
	if (c < 0x80)
		return 1;
	if ((c & 0xE0) == 0xC0) { n = 2; cp = c & 0x1F; }
	else if ((c & 0xF0) == 0xE0) { n = 3; cp = c & 0x0F; }
	else if ((c & 0xF8) == 0xF0) { n = 4; cp = c & 0x07; }
	else return 0;
	if (n > left)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xC0) != 0x80)
			return 0;
		cp = (cp << 6) | (p[i] & 0x3F);
	}
	/* Overlong forms, surrogates and values past U+10FFFF are not text. */
	if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF)
		return 0;
	return n;
}

static void index_lines(sl_source *s)
{
	size_t cap = 0;
	s->nlines = 0;
	SL_PUSH(s->lines, s->nlines, cap, 0);
	/* memchr, not a loop over bytes: every input and every built-in YAML
	 * file is indexed, and this was a tenth of a small check's start */
	const char *p = s->text, *end = s->text + s->len;
	while (p < end && (p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
		p++;
		SL_PUSH(s->lines, s->nlines, cap, (uint32_t)(p - s->text));
	}
}

/* Takes ownership of text (len bytes plus a NUL). */
static int source_adopt(const char *path, char *text, size_t len, sl_source **out,
			sl_error *err);

int sl_source_from_memory(const char *path, const char *text, size_t len,
			  sl_source **out, sl_error *err)
{
	*out = NULL;
	if (len > SL_MAX_FILE_BYTES) {
		sl_error_set(err, path, 0, 0, "file is larger than the limit of %u bytes",
			     SL_MAX_FILE_BYTES);
		return SL_ERR_INPUT;
	}
	return source_adopt(path, sl_strndup(text, len), len, out, err);
}

static int source_adopt(const char *path, char *text, size_t len, sl_source **out,
			sl_error *err)
{
	*out = NULL;
	sl_source *s = sl_calloc(1, sizeof *s);
	s->path = sl_strdup(path);
	s->name = sl_strdup(base_name(path));
	s->text = text;
	s->len = len;
	index_lines(s);
	if (len == 0 || strspn(text, " \t\r\n") == len) {
		sl_error_set(err, path, 1, 1, "empty file: no launch command or settings");
		sl_source_free(s);
		return SL_ERR_INPUT;
	}
	const unsigned char *p = (const unsigned char *)s->text;
	int ascii = 1;
	for (size_t i = 0; i < len;) {
		/* eight ASCII bytes without a NUL at a time (the common case) */
		if (i + 8 <= len) {
			uint64_t x;
			memcpy(&x, p + i, 8);
			if (!(x & 0x8080808080808080ull) &&
			    !((x - 0x0101010101010101ull) & ~x & 0x8080808080808080ull)) {
				i += 8;
				continue;
			}
		}
		if (p[i] >= 0x01 && p[i] < 0x80) {
			i++;
			continue;
		}
		if (p[i] == 0) {
			unsigned l, c;
			sl_source_pos(s, i, &l, &c);
			sl_error_set(err, path, l, c, "binary file: NUL byte at offset %zu", i);
			sl_source_free(s);
			return SL_ERR_INPUT;
		}
		size_t n = utf8_len(p + i, len - i);
		if (!n) {
			unsigned l, c;
			sl_source_pos(s, i, &l, &c);
			sl_error_set(err, path, l, c,
				     "not UTF-8 text: invalid byte 0x%02x at offset %zu", p[i], i);
			sl_source_free(s);
			return SL_ERR_INPUT;
		}
		ascii = 0;
		i += n;
	}
	s->ascii = ascii;
	*out = s;
	return SL_OK;
}

int sl_source_load(const char *path, sl_source **out, sl_error *err)
{
	char *text;
	size_t len;
	*out = NULL;
	int rc = sl_read_file(path, SL_MAX_FILE_BYTES, &text, &len, err);
	if (rc)
		return rc;
	return source_adopt(path, text, len, out, err);
}

void sl_source_free(sl_source *s)
{
	if (!s)
		return;
	if (!s->kept) {
		free(s->path);
		free(s->name);
		free(s->text);
		free(s->lines);
		free(s->section);
		free(s->col_shift);
		free(s->line_no);
	}
	for (size_t i = 0; i < s->nlinks; i++) {
		sl_source_free(s->links[i].src);
		free(s->links[i].key);
	}
	free(s->links);
	free(s->root);
	for (size_t i = 0; i < s->noffers; i++) {
		free(s->offers[i].name);
		free(s->offers[i].text);
	}
	free(s->offers);
	free(s);
}

void sl_source_offer(sl_source *s, const char *name, const char *text, size_t len)
{
	s->offered = 1;
	s->offers = sl_realloc(s->offers, (s->noffers + 1) * sizeof *s->offers);
	s->offers[s->noffers].name = sl_strdup(name);
	s->offers[s->noffers].text = sl_strndup(text, len);
	s->offers[s->noffers].len = len;
	s->noffers++;
}

const sl_source *sl_source_at(const sl_source *s, uint32_t *off)
{
	if (!s || *off <= s->len)
		return s;
	for (size_t i = s->nlinks; i-- > 0;)
		if (*off >= s->links[i].base) {
			*off -= s->links[i].base;
			return s->links[i].src;
		}
	return s;
}

size_t sl_source_line_index(const sl_source *s, size_t off)
{
	size_t lo = 0, hi = s->nlines;
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;
		if (s->lines[mid] <= off)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

void sl_source_pos(const sl_source *s, size_t off, unsigned *line, unsigned *col)
{
	if (off > s->len && s->nlinks && off <= UINT32_MAX) {
		uint32_t o = (uint32_t)off;
		const sl_source *f = sl_source_at(s, &o);
		if (f != s) {
			sl_source_pos(f, o, line, col);
			return;
		}
	}
	if (off > s->len)
		off = s->len;
	size_t lo = sl_source_line_index(s, off);
	unsigned c = 1;
	size_t from = s->lines[lo];
	/* a kept copy's lines are some of the original's: their own numbers */
	unsigned num = s->line_no && lo < s->nlines ? s->line_no[lo] : (unsigned)lo + 1;
	if (s->ascii) {
		*line = num + s->line_base;
		*col = (unsigned)(off - from) + 1 + (s->col_shift && lo < s->nlines ? s->col_shift[lo] : 0);
		return;
	}
	sl_source *m = (sl_source *)s;  /* the cache only: the text never changes */
	if (m->pos_line == lo + 1 && m->pos_off >= from && m->pos_off <= off) {
		from = m->pos_off;
		c = m->pos_col;
	}
	for (size_t i = from; i < off; i++)
		if (((unsigned char)s->text[i] & 0xC0) != 0x80)
			c++;
	m->pos_line = lo + 1;
	m->pos_off = off;
	m->pos_col = c;
	*line = num + s->line_base;
	*col = c + (s->col_shift && lo < s->nlines ? s->col_shift[lo] : 0);
}

size_t sl_source_offset(const sl_source *s, unsigned line, unsigned col)
{
	if (line == 0)
		return 0;
	if (line > s->nlines)
		return s->len;
	size_t off = s->lines[line - 1];
	for (unsigned c = 1; c < col && off < s->len && s->text[off] != '\n'; c++) {
		off++;
		while (off < s->len && ((unsigned char)s->text[off] & 0xC0) == 0x80)
			off++;
	}
	return off;
}

const char *sl_source_line(const sl_source *s, unsigned line, size_t *len)
{
	line -= line < s->line_base ? line : s->line_base;
	if (s->line_no) {  /* a kept copy: the line's index among those it holds, if any */
		size_t lo = 0, hi = s->nlines;
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;
			if (s->line_no[mid] < line)
				lo = mid + 1;
			else
				hi = mid;
		}
		line = lo < s->nlines && s->line_no[lo] == line ? (unsigned)lo + 1 : 0;
	}
	if (line == 0 || line > s->nlines) {
		*len = 0;
		return "";
	}
	size_t a = s->lines[line - 1];
	size_t b = line < s->nlines ? s->lines[line] : s->len;
	while (b > a && (s->text[b - 1] == '\n' || s->text[b - 1] == '\r'))
		b--;
	*len = b - a;
	return s->text + a;
}

/* By its lines, as the other forms are told (the YAML is read later): a
 * top-level `model:` whose block has `model_id:` and `base_args:`, beside
 * a top-level `variants:` or `meta:` (vllm-project/recipes
 * models/<Provider>/<Model>.yaml). */
int sl_source_is_vllm_recipe(const sl_source *s)
{
	if (!sl_ends_with(s->name, ".yaml") && !sl_ends_with(s->name, ".yml"))
		return 0;
	int in_model = 0, model_id = 0, base_args = 0, beside = 0;
	for (size_t i = 0; i < s->nlines; i++) {
		const char *l = s->text + s->lines[i];
		size_t n = (i + 1 < s->nlines ? s->lines[i + 1] : s->len) - s->lines[i];
		if (n && l[0] != ' ' && l[0] != '\t' && l[0] != '#' && l[0] != '\n' && l[0] != '\r') {
			/* a top-level key: the model block ends at the next one */
			in_model = !strncmp(l, "model:", 6) && (n == 6 || strchr(" \t\r\n#", l[6]));
			beside |= !strncmp(l, "variants:", 9) || !strncmp(l, "meta:", 5);
			continue;
		}
		if (!in_model)
			continue;
		size_t k = 0;
		while (k < n && l[k] == ' ')
			k++;
		model_id |= k && n - k >= 9 && !strncmp(l + k, "model_id:", 9);
		base_args |= k && n - k >= 10 && !strncmp(l + k, "base_args:", 10);
	}
	return model_id && base_args && beside;
}

int sl_source_is_recipe(const sl_source *s)
{
	if (!sl_ends_with(s->name, ".yaml") && !sl_ends_with(s->name, ".yml"))
		return 0;
	if (sl_source_is_vllm_recipe(s))
		return 1;
	int backend = 0, resources = 0, prefill = 0, decode = 0;
	for (size_t i = 0; i < s->nlines; i++) {
		const char *l = s->text + s->lines[i];
		backend |= !strncmp(l, "backend:", 8) || !strncmp(l, "  backend:", 10);
		resources |= !strncmp(l, "resources:", 10) || !strncmp(l, "  resources:", 12);
		prefill |= !strncmp(l, "prefill:", 8);
		decode |= !strncmp(l, "decode:", 7);
	}
	return (backend && resources) || (prefill && decode);
}

int sl_source_is_manifest(const sl_source *s)
{
	if (!sl_ends_with(s->name, ".yaml") && !sl_ends_with(s->name, ".yml"))
		return 0;
	if (sl_source_is_recipe(s))
		return 1;
	int api = 0, kind = 0;
	for (size_t i = 0; i < s->nlines; i++) {
		const char *l = s->text + s->lines[i];
		api |= !strncmp(l, "apiVersion:", 11);
		kind |= !strncmp(l, "kind:", 5);
	}
	return api && kind;
}
