/*
 * visible.c: servelint's standard output with the input's control
 * characters made visible. Reports quote the input (a flag, a path, a
 * source line); a terminal escape written in a launch script must not clear
 * the reader's screen or set its title. Every byte to stdout goes through
 * here: C0 characters but tab and LF, a CR not before LF, DEL, and the C1
 * range become \xHH (\u00HH), and only SGR sequences (ESC [ digits ; m: the
 * colours of --color) pass as they are.
 */
#define _GNU_SOURCE /* fopencookie */
#include "util.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
	unsigned char pend[24]; /* an ESC [ ... , a CR or a 0xC2 not yet decided */
	size_t npend;
	sl_buf out;
} filter;

static void put_escaped(sl_buf *b, unsigned char c)
{
	sl_buf_printf(b, "\\x%02x", c);
}

/* Settles the pending bytes when the next byte (or the end, c < 0) shows
 * they are not a sequence that passes. */
static void settle(filter *f)
{
	if (!f->npend)
		return;
	if (f->pend[0] == 0xc2)
		sl_buf_putc(&f->out, (char)0xc2);
	else
		put_escaped(&f->out, f->pend[0]);
	/* what followed an ESC ([ and digits) is plain */
	sl_buf_add(&f->out, (const char *)f->pend + 1, f->npend - 1);
	f->npend = 0;
}

static void one(filter *f, unsigned char c)
{
	if (f->npend) {
		unsigned char h = f->pend[0];
		if (h == 0x1b) {
			if (f->npend == 1 ? c == '[' : ((c >= '0' && c <= '9') || c == ';') && f->npend < sizeof f->pend - 1) {
				f->pend[f->npend++] = c;
				return;
			}
			if (f->npend > 1 && c == 'm') {
				sl_buf_add(&f->out, (const char *)f->pend, f->npend);
				sl_buf_putc(&f->out, 'm');
				f->npend = 0;
				return;
			}
		} else if (h == '\r' && c == '\n') {
			sl_buf_add(&f->out, "\r\n", 2);
			f->npend = 0;
			return;
		} else if (h == 0xc2 && c >= 0x80 && c <= 0x9f) {
			sl_buf_printf(&f->out, "\\u%04x", c);
			f->npend = 0;
			return;
		}
		settle(f);
	}
	if (c == 0x1b || c == '\r' || c == 0xc2) {
		f->pend[f->npend++] = c;
		return;
	}
	if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f)
		put_escaped(&f->out, c);
	else
		sl_buf_putc(&f->out, (char)c);
}

static int drain(filter *f)
{
	size_t off = 0;
	while (off < f->out.len) {
		ssize_t k = write(1, f->out.data + off, f->out.len - off);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			sl_buf_free(&f->out);
			return -1;
		}
		off += (size_t)k;
	}
	/* nothing held between writes: stdout is never closed, and its
	 * filter must not look like a leak at exit */
	sl_buf_free(&f->out);
	return 0;
}

/* A byte one() would copy as it is when nothing is pending. */
static int plain(unsigned char c)
{
	return (c >= 0x20 && c != 0x7f && c != 0xc2) || c == '\t' || c == '\n';
}

/* Whether one of the 16 bytes at p is not plain: below 0x20 but tab and
 * LF, DEL or 0xC2. GCC's vector extensions (SSE2 on x86-64, NEON on ARM):
 * about 10 instructions for 16 bytes, where the 8-byte word tests took 37
 * for 8 (56 M instructions for the 10 MB of `show --format json` over
 * 350 entries, a LF in every 35 bytes of it stopping the word's run). */
typedef unsigned char v16 __attribute__((vector_size(16)));
static int block_suspect(const char *p)
{
	v16 v;
	memcpy(&v, p, 16);
	v16 bad = ((v < 0x20) & (v != '\n') & (v != '\t')) | (v == 0x7f) | (v == 0xc2);
	uint64_t h[2];
	memcpy(h, &bad, 16);
	return (h[0] | h[1]) != 0;
}

static ssize_t f_write(void *cookie, const char *buf, size_t n)
{
	filter *f = cookie;
	/* runs of plain bytes are copied at once, found 16 bytes at a time:
	 * byte by byte, the filter cost 434 M instructions of a 2,366 M
	 * `show --format json` of 350 entries (its 9.8 MB of output), and
	 * 102 M of 2,023 M with a test per byte */
	for (size_t i = 0; i < n;) {
		size_t j = i;
		if (!f->npend) {
			for (;;) {
				while (j + 16 <= n && !block_suspect(buf + j))
					j += 16;
				size_t stop = j + 16 <= n ? j + 16 : n;
				while (j < stop && plain((unsigned char)buf[j]))
					j++;
				if (j < stop || j == n)
					break;
			}
		}
		if (j > i) {
			sl_buf_add(&f->out, buf + i, j - i);
			i = j;
			continue;
		}
		one(f, (unsigned char)buf[i++]);
	}
	return drain(f) ? 0 : (ssize_t)n;
}

static int f_close(void *cookie)
{
	filter *f = cookie;
	settle(f);
	return drain(f);
}

static filter the_filter; /* static: stdout lives as long as the process */

/* At exit (stdout is never closed): what is still pending goes out. */
static void at_exit(void)
{
	fflush(stdout);
	settle(&the_filter);
	drain(&the_filter);
}

void sl_stdout_visible(void)
{
	filter *f = &the_filter;
	cookie_io_functions_t io = {NULL, f_write, NULL, f_close};
	FILE *s = fopencookie(f, "w", io);
	if (!s)
		return;
	fflush(stdout);
	setvbuf(s, NULL, isatty(1) ? _IOLBF : _IOFBF, BUFSIZ);
	stdout = s;
	atexit(at_exit);
}
