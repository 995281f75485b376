/*
 * intern.c (util): one copy of each distinct text, shared (sl_intern,
 * util.h). audit keeps the lines its findings and summaries point into
 * (source/keep.c) for every entry of a catalogue until the report: the
 * entries of a catalogue repeat one another (the same command for other
 * systems, copies under other names), and so do the lines kept, which
 * one copy each serves. Kept for the process's life (reachable from the
 * table, never freed): what is interned lives until the report anyway.
 */
#include "util.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;  /* audit -j's threads intern */
static struct {
	char **v;       /* open addressing; NULL: a free slot */
	size_t *len;
	size_t cap, n;
} set;


static size_t slot(const char *s, size_t len)
{
	size_t i = (size_t)sl_hash_bytes(s, len) & (set.cap - 1);
	while (set.v[i] && !(set.len[i] == len && !memcmp(set.v[i], s, len)))
		i = (i + 1) & (set.cap - 1);
	return i;
}

const char *sl_intern(const char *s, size_t len)
{
	pthread_mutex_lock(&mu);
	if (2 * (set.n + 1) > set.cap) {  /* at most half full: short probes */
		char **ov = set.v;
		size_t *ol = set.len, oc = set.cap;
		set.cap = oc ? 2 * oc : 256;
		set.v = sl_calloc(set.cap, sizeof *set.v);
		set.len = sl_calloc(set.cap, sizeof *set.len);
		for (size_t i = 0; i < oc; i++)
			if (ov[i]) {
				size_t j = slot(ov[i], ol[i]);
				set.v[j] = ov[i];
				set.len[j] = ol[i];
			}
		free(ov);
		free(ol);
	}
	size_t i = slot(s, len);
	if (!set.v[i]) {
		set.v[i] = sl_strndup(s, len);
		set.len[i] = len;
		set.n++;
	}
	const char *t = set.v[i];
	pthread_mutex_unlock(&mu);
	return t;
}
