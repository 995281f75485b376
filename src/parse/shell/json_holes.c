/*
 * json_holes.c: a JSON flag value with parts the script does not know,
 * read as JSON all the same (sl_json_parse_holes, parse.h).
 *
 * `--kv-transfer-config '{"kv_role":"kv_producer","kv_ip":"'"$IP"'"}'` or
 * `"{\"kv_port\":$PORT}"` is JSON once the script's caller fills it in; the
 * parts that are its own are known. Each unknown part (a hole: `$NAME`,
 * `${...}`, `$(...)`, `$((...))`, a backquoted command, or a bare `<name>`
 * placeholder) is replaced by a marker, the text given to jansson, and the
 * markers found again in what it returns: a hole inside a string leaves
 * that string unknown, a hole where a value is written (`$PORT`) leaves
 * that value unknown. A hole that stands for more than one value
 * (`{"a":1,$MORE}`) does not read as JSON: the caller keeps the whole flag
 * unknown, as before.
 *
 * A marker is U+E000, the hole's index in decimal, U+E001 (private-use
 * characters, written to jansson as \uE000 escapes); a value that already
 * holds one is not read this way.
 */
#include "internal.h"

#include <ctype.h>
#include <strings.h>

static const char MARK_OPEN[] = "\xEE\x80\x80";   /* U+E000 as UTF-8 */
static const char MARK_CLOSE[] = "\xEE\x80\x81";  /* U+E001 */

static int name_start(char c)
{
	return c == '_' || isalpha((unsigned char)c);
}

static int name_char(char c)
{
	return c == '_' || isalnum((unsigned char)c);
}

/* The end of a bracketed part from i (t[i] is open), skipping quoted
 * text; 0 when it does not close. */
static size_t closing(const char *t, size_t len, size_t i, char open, char close)
{
	int depth = 0;
	char q = 0;
	for (size_t k = i; k < len; k++) {
		char c = t[k];
		if (q) {
			if (c == q)
				q = 0;
			else if (c == '\\' && q == '"' && k + 1 < len)
				k++;
			continue;
		}
		if (c == '\'' || c == '"')
			q = c;
		else if (c == '\\' && k + 1 < len)
			k++;
		else if (c == open)
			depth++;
		else if (c == close && --depth == 0)
			return k + 1;
	}
	return 0;
}

/* Whether byte i of w is an expansion's `$` (or backquote) rather than one
 * escaped in the script (`\$`, whose byte points at its backslash). A
 * `$` in single quotes cannot be told from an expansion: it is taken for
 * one, which leaves its string unknown, never a wrong value. */
static int not_escaped(const sl_source *src, const sl_word *w, size_t i)
{
	if (!src || !w->offs)
		return 1;
	uint32_t off = w->offs[i];
	const sl_source *s = sl_source_at(src, &off);
	return !s || off >= s->len || s->text[off] != '\\';
}

/* The length of the hole that starts at byte i of w, or 0. */
static size_t hole_at(const sl_source *src, const sl_word *w, size_t i, int outside)
{
	const char *t = w->text;
	size_t len = w->len;
	if (t[i] == '`' && (w->flags & SL_WORD_SYMBOLIC) && not_escaped(src, w, i)) {
		const char *e = memchr(t + i + 1, '`', len - i - 1);
		return e ? (size_t)(e - t) + 1 - i : 0;
	}
	if (t[i] == '<' && outside && (w->flags & SL_WORD_PLACEHOLDER)) {
		size_t at;
		size_t n = sl_find_placeholder(t + i, len - i, &at);
		return n && at == 0 ? n : 0;
	}
	if (t[i] != '$' || i + 1 >= len || !(w->flags & SL_WORD_SYMBOLIC) || !not_escaped(src, w, i))
		return 0;
	char c = t[i + 1];
	if (c == '(' || c == '{') {
		size_t e = closing(t, len, i + 1, c, c == '(' ? ')' : '}');
		return e ? e - i : 0;
	}
	if (isdigit((unsigned char)c) || (c && strchr("@*#?!-$", c)))
		return 2;
	if (!name_start(c))
		return 0;
	/* `${HOST}x` is spelled `$HOSTx`: the name ends where its bytes stop
	 * following each other in the script (a variable set to what cannot
	 * be known, `HOST=$(...)`, is `$HOST` with every byte at HOST=) */
	size_t k = i + 2;
	while (k < len && name_char(t[k]) &&
	       (!w->offs || w->offs[k] == w->offs[k - 1] + 1 || w->offs[k] == w->offs[k - 1]))
		k++;
	return k - i;
}

/* Whether text already holds what a marker is made of: U+E000 or U+E001
 * as UTF-8, or written as a \uE00x escape. */
static int holds_markers(const char *t, size_t len)
{
	for (size_t i = 0; i + 1 < len; i++) {
		if ((unsigned char)t[i] == 0xEE && (unsigned char)t[i + 1] == 0x80)
			return 1;
		if (t[i] == '\\' && i + 5 < len && t[i + 1] == 'u' && !strncasecmp(t + i + 2, "e00", 3))
			return 1;
	}
	return 0;
}

int sl_json_parse_holes(const sl_source *src, const sl_word *w, json_t **out, sl_json_holes *h)
{
	*out = NULL;
	memset(h, 0, sizeof *h);
	const char *t = w->text;
	if (!t || holds_markers(t, w->len))
		return SL_ERR_INPUT;
	sl_buf j = {0};
	size_t cap = 0;
	int in_str = 0;
	for (size_t i = 0; i < w->len;) {
		char c = t[i];
		if (in_str && c == '\\' && i + 1 < w->len) {
			sl_buf_add(&j, t + i, 2);
			i += 2;
			continue;
		}
		size_t n = hole_at(src, w, i, !in_str);
		if (!n) {
			if (c == '"')
				in_str = !in_str;
			sl_buf_putc(&j, c);
			i++;
			continue;
		}
		sl_json_hole hole = {sl_strndup(t + i, n), !in_str, t[i] == '<'};
		sl_grow((void **)&h->holes, &cap, h->n + 1, sizeof *h->holes);
		h->holes[h->n] = hole;
		sl_buf_printf(&j, "%s\\ue000%zu\\ue001%s", in_str ? "" : "\"", h->n, in_str ? "" : "\"");
		h->n++;
		i += n;
	}
	json_error_t je;
	if (h->n)
		*out = json_loadb(j.data, j.len, JSON_DECODE_ANY | JSON_ALLOW_NUL, &je);
	sl_buf_free(&j);
	if (!*out) {
		sl_json_holes_free(h);
		return SL_ERR_INPUT;
	}
	return SL_OK;
}

/* The hole whose marker starts at s (U+E000 digits U+E001): its index,
 * *len the marker's bytes; -1 when s holds no marker there. */
static long marker(const sl_json_holes *h, const char *s, size_t *len)
{
	if (strncmp(s, MARK_OPEN, 3))
		return -1;
	size_t k = 3, idx = 0;
	while (isdigit((unsigned char)s[k]) && k < 12)
		idx = idx * 10 + (size_t)(s[k++] - '0');
	if (k == 3 || strncmp(s + k, MARK_CLOSE, 3) || idx >= h->n)
		return -1;
	*len = k + 3;
	return (long)idx;
}

static unsigned hole_flags(const sl_json_hole *hole)
{
	return hole->placeholder ? SL_WORD_PLACEHOLDER : SL_WORD_SYMBOLIC;
}

unsigned sl_json_holes_str(const sl_json_holes *h, const char *s, char **restored)
{
	unsigned f = 0;
	sl_buf b = {0};
	for (const char *p = s; *p;) {
		size_t n;
		long idx = h ? marker(h, p, &n) : -1;
		if (idx < 0) {
			sl_buf_putc(&b, *p++);
			continue;
		}
		sl_buf_puts(&b, h->holes[idx].text);
		f |= hole_flags(&h->holes[idx]);
		p += n;
	}
	if (restored)
		*restored = sl_buf_detach(&b);
	else
		sl_buf_free(&b);
	return f;
}

unsigned sl_json_holes_in(const sl_json_holes *h, const json_t *v)
{
	if (!h || !h->n)
		return 0;
	unsigned f = 0;
	const char *k;
	json_t *x;
	size_t i;
	switch (json_typeof(v)) {
	case JSON_STRING:
		return strstr(json_string_value(v), MARK_OPEN) ? sl_json_holes_str(h, json_string_value(v), NULL) : 0;
	case JSON_OBJECT:
		json_object_foreach((json_t *)v, k, x) {
			if (strstr(k, MARK_OPEN))
				f |= sl_json_holes_str(h, k, NULL);
			f |= sl_json_holes_in(h, x);
		}
		return f;
	case JSON_ARRAY:
		json_array_foreach(v, i, x)
			f |= sl_json_holes_in(h, x);
		return f;
	default:
		return 0;
	}
}

char *sl_json_holes_text(const sl_json_holes *h, const json_t *v)
{
	char *d = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY | JSON_REAL_PRECISION(15));
	if (!d)
		return sl_strdup("");
	if (!h || !h->n || !strstr(d, MARK_OPEN))
		return d;
	sl_buf b = {0};
	for (const char *p = d; *p;) {
		size_t n;
		long idx = marker(h, p, &n);
		if (idx < 0) {
			sl_buf_putc(&b, *p++);
			continue;
		}
		/* a hole written where a value is: its quotes are jansson's */
		const sl_json_hole *hole = &h->holes[idx];
		if (hole->bare && b.len && b.data[b.len - 1] == '"' && p[n] == '"') {
			b.data[--b.len] = '\0';
			n++;
		}
		sl_buf_puts(&b, hole->text);
		p += n;
	}
	free(d);
	return sl_buf_detach(&b);
}

void sl_json_holes_free(sl_json_holes *h)
{
	for (size_t i = 0; i < h->n; i++)
		free(h->holes[i].text);
	free(h->holes);
	memset(h, 0, sizeof *h);
}
