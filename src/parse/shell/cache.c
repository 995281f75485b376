/*
 * cache.c: sl_shell_cache, what the readings of one script share (see
 * internal.h): an entry's variants and probes read the same texts again
 * and again, each with other choices at its conditionals, and the syntax
 * trees of the script, of the other scripts of its group and of the files
 * they source, and the relevance of the script's variables, depend on the
 * text alone. A harness of 1,000 lines, read some 300 times to probe and
 * enumerate its conditionals, spent half of its time parsing anew what it
 * had parsed already.
 */
#include "internal.h"

#define MAX_TREES 256  /* texts an entry reads: scripts and sourced files */

sl_shell_cache *sl_shell_cache_new(void)
{
	return sl_calloc(1, sizeof(sl_shell_cache));
}

void sl_shell_cache_free(sl_shell_cache *c)
{
	if (!c)
		return;
	sh_relevance_free(c->rel);
	for (size_t i = 0; i < c->ntrees; i++)
		ts_tree_delete(c->trees[i].tree);
	free(c->trees);
	for (size_t i = 0; i < c->nyamls; i++)
		sl_yaml_free(c->yamls[i].doc);
	free(c->yamls);
	for (size_t i = 0; i < c->nwords; i++) {
		ts_tree_delete(c->words[i].tree);
		free(c->words[i].text);
	}
	free(c->words);
	sh_cache_memo_free(c);
	free(c);
}

TSTree *sh_cache_tree(const sl_shell_cache *c, const char *text, size_t len)
{
	for (size_t i = 0; c && i < c->ntrees; i++)
		if (c->trees[i].text == text && c->trees[i].len == len)
			return c->trees[i].tree;
	return NULL;
}

int sh_cache_keep_tree(sl_shell_cache *c, const char *text, size_t len, TSTree *tree)
{
	if (!c || c->ntrees >= MAX_TREES)
		return 0;
	struct sh_cached_tree t = {text, len, tree};
	SL_PUSH(c->trees, c->ntrees, c->trees_cap, t);
	return 1;
}

#define MAX_WORD_BYTES (4u << 20)  /* of strings' text an entry's cache keeps */

TSTree *sh_cache_word_tree(const sl_shell_cache *c, const char *text, size_t len)
{
	if (!c || !c->nwords)
		return NULL;
	uint64_t h = sl_hash_bytes(text, len);
	for (size_t i = 0; i < c->nwords; i++)
		if (c->words[i].hash == h && c->words[i].len == len && !memcmp(c->words[i].text, text, len))
			return c->words[i].tree;
	return NULL;
}

int sh_cache_keep_word_tree(sl_shell_cache *c, const char *text, size_t len, TSTree *tree)
{
	if (!c || c->nwords >= MAX_TREES || len > MAX_WORD_BYTES - c->word_bytes)
		return 0;
	struct sh_word_tree t = {sl_strndup(text, len), len, sl_hash_bytes(text, len), tree};
	SL_PUSH(c->words, c->nwords, c->words_cap, t);
	c->word_bytes += len;
	return 1;
}

int sl_shell_cache_yaml(sl_shell_cache *c, const sl_source *src, sl_yaml_doc **out, int *kept, sl_error *err)
{
	*kept = 0;
	for (size_t i = 0; c && i < c->nyamls; i++)
		if (c->yamls[i].src == src) {
			*out = c->yamls[i].doc;
			*kept = 1;
			return SL_OK;
		}
	int rc = sl_yaml_load(src, out, err);
	if (!rc && c && c->nyamls < MAX_TREES) {
		struct sh_cached_yaml y = {src, *out};
		SL_PUSH(c->yamls, c->nyamls, c->yamls_cap, y);
		*kept = 1;
	}
	return rc;
}
