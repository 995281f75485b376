/*
 * shared.c: the syntax trees of sourced files, shared by every entry a
 * process reads. A catalogue's launch scripts often source one library
 * (InferenceX's 243 benchmark scripts each source its 2,291-line
 * benchmark_lib.sh): each entry parsed it anew, 80 M instructions of a
 * 218 M check of one script, five seconds of a check of the folder.
 * An entry's own cache (cache.c) holds what its readings share; this one
 * holds, by their text, the trees of sourced files read without a syntax
 * error, and hands each entry a copy (ts_tree_copy: a reference, which is
 * how tree-sitter lets another thread read a tree).
 *
 * A script's own text is not kept here: catalogues rarely hold the same
 * script twice, and the trees would only be memory. Bounded: at most
 * SHARED_TREES files and SHARED_BYTES of their text (about 20 MB of
 * trees); past that, a file is parsed by each entry as before. The
 * threads of check -j share it under one lock.
 */
#include "internal.h"

#include <pthread.h>

#define SHARED_TREES 32
#define SHARED_BYTES (2u << 20)  /* of sourced text: its trees take about 10x that */

static struct shared_tree {
	char *text;      /* a copy: the entry that read it first goes */
	size_t len;
	uint64_t hash;
	TSTree *tree;
} g_trees[SHARED_TREES];
static size_t g_n, g_bytes;
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;

static void shared_clear(void)
{
	for (size_t i = 0; i < g_n; i++) {
		ts_tree_delete(g_trees[i].tree);
		free(g_trees[i].text);
	}
	g_n = g_bytes = 0;
}

TSTree *sh_shared_tree(const char *text, size_t len)
{
	uint64_t h = sl_hash_bytes(text, len);
	TSTree *copy = NULL;
	pthread_mutex_lock(&g_lock);
	for (size_t i = 0; i < g_n && !copy; i++)
		if (g_trees[i].hash == h && g_trees[i].len == len && !memcmp(g_trees[i].text, text, len))
			copy = ts_tree_copy(g_trees[i].tree);
	pthread_mutex_unlock(&g_lock);
	return copy;
}

void sh_shared_keep(const char *text, size_t len, const TSTree *tree)
{
	uint64_t h = sl_hash_bytes(text, len);
	pthread_mutex_lock(&g_lock);
	int there = 0;
	for (size_t i = 0; i < g_n && !there; i++)
		there = g_trees[i].hash == h && g_trees[i].len == len && !memcmp(g_trees[i].text, text, len);
	if (!there && g_n < SHARED_TREES && len <= SHARED_BYTES - g_bytes) {
		if (!g_n)
			atexit(shared_clear);
		struct shared_tree *t = &g_trees[g_n++];
		t->text = sl_malloc(len + 1);
		memcpy(t->text, text, len);
		t->text[len] = '\0';
		t->len = len;
		t->hash = h;
		t->tree = ts_tree_copy(tree);
		g_bytes += len;
	}
	pthread_mutex_unlock(&g_lock);
}
