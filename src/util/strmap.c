/*
 * strmap.c: a string-to-index map (see util.h). Catalogue commands look up
 * a key per entry (a row of the matrix, an entry's command for its
 * duplicates); a linear scan made them quadratic in entries.
 */
#include "util.h"

#include <stdlib.h>
#include <string.h>

uint64_t sl_hash_bytes(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ULL;
	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211ULL;
	}
	return h;
}


/* the slot of KEY, or the free slot where it would go */
static size_t slot(const sl_strmap *m, const char *key, size_t len)
{
	size_t i = (size_t)sl_hash_bytes(key, len) & (m->cap - 1);
	while (m->keys[i] && !(m->lens[i] == len && !memcmp(m->keys[i], key, len)))
		i = (i + 1) & (m->cap - 1);
	return i;
}

size_t sl_strmap_get(const sl_strmap *m, const char *key, size_t len)
{
	if (!m->cap)
		return SIZE_MAX;
	size_t i = slot(m, key, len);
	return m->keys[i] ? m->vals[i] : SIZE_MAX;
}

static void grow(sl_strmap *m)
{
	sl_strmap g = {0};
	g.cap = m->cap ? m->cap * 2 : 64;
	g.keys = sl_calloc(g.cap, sizeof *g.keys);
	g.lens = sl_calloc(g.cap, sizeof *g.lens);
	g.vals = sl_calloc(g.cap, sizeof *g.vals);
	for (size_t i = 0; i < m->cap; i++)
		if (m->keys[i]) {
			size_t j = slot(&g, m->keys[i], m->lens[i]);
			g.keys[j] = m->keys[i];
			g.lens[j] = m->lens[i];
			g.vals[j] = m->vals[i];
		}
	g.n = m->n;
	free(m->keys);
	free(m->lens);
	free(m->vals);
	*m = g;
}

size_t sl_strmap_put(sl_strmap *m, const char *key, size_t len, size_t val)
{
	if ((m->n + 1) * 2 > m->cap)  /* at most half full: probes stay short */
		grow(m);
	size_t i = slot(m, key, len);
	if (m->keys[i])
		return m->vals[i];
	m->keys[i] = sl_malloc(len + 1);
	memcpy(m->keys[i], key, len);
	m->keys[i][len] = '\0';
	m->lens[i] = len;
	m->vals[i] = val;
	m->n++;
	return val;
}

void sl_strmap_free(sl_strmap *m)
{
	for (size_t i = 0; i < m->cap; i++)
		free(m->keys[i]);
	free(m->keys);
	free(m->lens);
	free(m->vals);
	memset(m, 0, sizeof *m);
}
