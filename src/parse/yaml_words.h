/*
 * yaml_words.h (parse, internal): what k8s.c, recipe.c and vllm_recipe.c share to build
 * commands from YAML nodes (yaml_words.c); sl_k8s_word, the scalar as a
 * word, is in parse.h.
 */
#ifndef SL_PARSE_YAML_WORDS_H
#define SL_PARSE_YAML_WORDS_H

#include "parse.h"

/* The offset where a scalar's text begins: after a quote; for a block
 * scalar (| or >), the first content line after the indicator, with
 * *block_indent its indentation (else -1). */
size_t sl_yaml_content_start(const sl_source *src, const sl_yaml_node *n, int *block_indent);
/* A word the file implies (`python3`, `--tensor-parallel-size`, the
 * operator's default command): text with every character at off, its span
 * [off, end). *w owns its strings (sl_word_free). */
void sl_yaml_implied_word(sl_word *w, const char *text, uint32_t off, uint32_t end);
/* Appends a (owned by *as from then on) to the *n assignments of *as
 * (capacity *cap), or replaces the earlier one of its name, freed: a later
 * env entry of a name wins, as Kubernetes and the recipes' launchers take
 * it. */
void sl_yaml_env_put(sl_assign **as, size_t *n, size_t *cap, sl_assign a);
/* Adds the note msg (owned by s from then on) at offset off of the script. */
void sl_yaml_note(sl_script *s, uint32_t off, char *msg);
/* The start every YAML reader of a deployment makes (manifests, recipes):
 * the outputs cleared, src's YAML loaded into *doc, and *s a new empty
 * script of src. On failure *err says where (nothing to free); else *doc
 * and *s are the caller's. */
int sl_yaml_script_start(const sl_source *src, sl_script **out, sl_k8s_workload **ws, size_t *nws,
			 sl_yaml_doc **doc, sl_script **s, sl_error *err);
/* A scalar node's text; NULL for no node, a mapping or a sequence. */
const char *sl_yaml_scalar(const sl_yaml_node *n);
/* The offset of node n in src (its first character). */
uint32_t sl_yaml_at(const sl_source *src, const sl_yaml_node *n);

#endif
