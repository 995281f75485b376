/*
 * bytes.c (util): records of numbers and strings put aside and read back
 * by the same process (sl_buf_put_u32, sl_reader: util.h). audit puts each
 * entry's catalogue summary in its store as one (issue 18: memory flat in
 * the catalogue's size); the reader checks every length against the
 * record's end, so that a store read back wrong is an error, never a read
 * out of bounds.
 */
#include "util.h"

#include <string.h>

#define NO_STRING 0xffffffffu

void sl_buf_put_u32(sl_buf *b, uint32_t v)
{
	sl_buf_add(b, (const char *)&v, sizeof v);
}

void sl_buf_put_str(sl_buf *b, const char *s)
{
	if (!s) {
		sl_buf_put_u32(b, NO_STRING);
		return;
	}
	size_t n = strlen(s);
	sl_buf_put_u32(b, (uint32_t)n);
	sl_buf_add(b, s, n + 1);  /* with its NUL: read back in place */
}

const char *sl_read_bytes(sl_reader *r, size_t n)
{
	if (r->bad || (size_t)(r->end - r->p) < n) {
		r->bad = 1;
		return NULL;
	}
	const char *at = r->p;
	r->p += n;
	return at;
}

uint32_t sl_read_u32(sl_reader *r)
{
	uint32_t v = 0;
	const char *at = sl_read_bytes(r, sizeof v);
	if (at)
		memcpy(&v, at, sizeof v);
	return v;
}

const char *sl_read_str(sl_reader *r, size_t *len)
{
	uint32_t n = sl_read_u32(r);
	if (len)
		*len = 0;
	if (r->bad || n == NO_STRING)
		return NULL;
	const char *s = sl_read_bytes(r, (size_t)n + 1);
	if (s && s[n]) {  /* written with its NUL */
		r->bad = 1;
		return NULL;
	}
	if (s && len)
		*len = n;
	return s;
}
