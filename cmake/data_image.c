/*
 * data_image.c: the image writer of cmake/data_ready.c (data_image.h says
 * what an image is). Why not C initializers with pointers, as the tables
 * were: in a position-independent executable each pointer of static data
 * is a relocation the loader applies at every start, whatever the command,
 * and its write copies the page (17,000 pointers over 94 pages: 92 of
 * check's 279 page faults; issue 18, bench/startup.sh).
 */
#include "data_image.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
	unsigned char *b;
	size_t n, cap;
} bytes;

static bytes img, pool;
/* the word indices of the image's pointers, into itself and into the pool */
static size_t *fix[2];
static size_t nfix[2], capfix[2];
/* the pool's strings, for adding each once: open addressing over offsets */
static size_t *seen, capseen, nseen;

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p) {
		fprintf(stderr, "data-ready: out of memory\n");
		exit(1);
	}
	return p;
}

static size_t grow(bytes *b, size_t n, size_t align)
{
	size_t at = (b->n + align - 1) / align * align;
	if (at + n > b->cap) {
		size_t cap = b->cap ? b->cap : 1 << 16;
		while (cap < at + n)
			cap *= 2;
		b->b = xrealloc(b->b, cap);
		memset(b->b + b->cap, 0, cap - b->cap);
		b->cap = cap;
	}
	b->n = at + n;
	return at;
}

void im_begin(void)
{
	img.n = pool.n = 0;
	/* zeroed for the next table; NULL before the first */
	if (img.b)
		memset(img.b, 0, img.cap);
	if (pool.b)
		memset(pool.b, 0, pool.cap);
	nfix[0] = nfix[1] = 0;
	free(seen);
	seen = NULL;
	capseen = nseen = 0;
	/* offset 0 of each is no target: a pointer 0 is NULL */
	grow(&img, 8, 8);
	grow(&pool, 8, 8);
}

size_t im_alloc(size_t size, size_t align)
{
	return grow(&img, size, align < 8 ? 8 : align);
}

void im_put(size_t at, const void *p, size_t n)
{
	memcpy(img.b + at, p, n);
}

static void slot(int which, size_t at, size_t target)
{
	if (at % 8) {
		fprintf(stderr, "data-ready: a pointer off its alignment\n");
		exit(1);
	}
	uint64_t v = target;
	memcpy(img.b + at, &v, 8);
	if (nfix[which] == capfix[which]) {
		capfix[which] = capfix[which] ? 2 * capfix[which] : 4096;
		fix[which] = xrealloc(fix[which], capfix[which] * sizeof **fix);
	}
	fix[which][nfix[which]++] = at / 8;
}

void im_ptr(size_t at, size_t target)
{
	if (target)
		slot(0, at, target);
}

void im_pool_ptr(size_t at, size_t target)
{
	if (target)
		slot(1, at, target);
}

static size_t hash(const char *s, size_t n)
{
	size_t h = 14695981039346656037u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211u;
	return h;
}

size_t im_pool(const char *s, size_t n)
{
	size_t at = grow(&pool, n + 1, 1);
	memcpy(pool.b + at, s, n);
	pool.b[at + n] = 0;
	return at;
}

/* s once in the pool: a string written twice is the same bytes, as the
 * compiler merged equal string literals */
static size_t pool_str(const char *s)
{
	size_t n = strlen(s);
	if (2 * (nseen + 1) > capseen) {
		size_t *was = seen, cap = capseen;
		capseen = cap ? 2 * cap : 1 << 14;
		seen = xrealloc(NULL, capseen * sizeof *seen);
		memset(seen, 0, capseen * sizeof *seen);
		for (size_t i = 0; i < cap; i++)
			if (was[i])
				for (size_t k = hash((char *)pool.b + was[i], strlen((char *)pool.b + was[i]));; k++)
					if (!seen[k & (capseen - 1)]) {
						seen[k & (capseen - 1)] = was[i];
						break;
					}
		free(was);
	}
	for (size_t k = hash(s, n);; k++) {
		size_t *e = &seen[k & (capseen - 1)];
		if (!*e) {
			*e = im_pool(s, n);
			nseen++;
			return *e;
		}
		if (!strcmp((char *)pool.b + *e, s))
			return *e;
	}
}

void im_str(size_t at, const char *s)
{
	if (s)
		im_pool_ptr(at, pool_str(s));
}

void im_strs(size_t at, char *const *v, size_t n)
{
	if (!n)
		return;
	size_t arr = im_alloc(n * sizeof(char *), sizeof(char *));
	for (size_t i = 0; i < n; i++)
		im_str(arr + i * sizeof(char *), v[i]);
	im_ptr(at, arr);
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return (x > y) - (x < y);
}

static void words(FILE *out, const unsigned char *b, size_t nwords)
{
	for (size_t i = 0; i < nwords; i++) {
		uint64_t w;
		memcpy(&w, b + 8 * i, 8);
		fprintf(out, w ? "%#llx," : "0,", (unsigned long long)w);
		if (i % 16 == 15)
			fputc('\n', out);
	}
}

/* The word indices as DT_RELR packs them (an even entry: index << 1, that
 * word fixed; an odd one: a bitmap of the 63 words after the last fixed
 * or covered), so the table of 17,000 pointers takes a few KB */
static size_t relr(FILE *out, size_t *v, size_t n)
{
	qsort(v, n, sizeof *v, cmp_size);
	for (size_t k = 1; k < n; k++)
		if (v[k] == v[k - 1]) {
			fprintf(stderr, "data-ready: a pointer written twice\n");
			exit(1);
		}
	size_t count = 0, i = 0;
	while (i < n) {
		size_t next = v[i] + 1;
		fprintf(out, "%#llx,", (unsigned long long)v[i] << 1);
		count++;
		i++;
		for (;;) {
			uint64_t bits = 0;
			while (i < n && v[i] < next + 63) {
				bits |= (uint64_t)1 << (v[i] - next);
				i++;
			}
			if (!bits)
				break;
			fprintf(out, "%#llx,", (unsigned long long)(bits << 1 | 1));
			count++;
			next += 63;
		}
		fputc('\n', out);
	}
	return count;
}

void im_write(FILE *out, const char *name)
{
	size_t ni = (img.n + 7) / 8, np = (pool.n + 7) / 8;
	/* page-aligned: sl_image_fix asks the kernel for its pages at once */
	fprintf(out, "static uint64_t %s[%zu] __attribute__((aligned(4096))) = {\n", name, ni);
	words(out, img.b, ni);
	fprintf(out, "};\nstatic const uint64_t %s_pool[%zu] = {\n", name, np);
	words(out, pool.b, np);
	fprintf(out, "};\nstatic const uint64_t %s_fix[] = {\n", name);
	size_t n0 = relr(out, fix[0], nfix[0]);
	if (!n0)
		fputs("0", out);
	fprintf(out, "};\nstatic const uint64_t %s_pool_fix[] = {\n", name);
	size_t n1 = relr(out, fix[1], nfix[1]);
	if (!n1)
		fputs("0", out);
	fprintf(out, "};\n#define AT(t, off) ((t *)(void *)((unsigned char *)%s + (off)))\n", name);
	fprintf(out, "static void %s_fix_all(void)\n{\n\tsl_image_fix(%s, %zu, %s_pool, %s_fix, %zu, %s_pool_fix, %zu);\n}\n\n",
		name, name, ni, name, name, n0, name, n1);
}
