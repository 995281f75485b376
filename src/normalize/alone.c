/*
 * alone.c (normalize): the engine an engine config YAML given alone is
 * for, from its top-level keys (see normalize.h): TensorRT-LLM's LlmArgs
 * keys (trtllm-serve --config / --extra_llm_api_options), the names of
 * vLLM's or SGLang's flags as keys (their --config files), or the
 * disaggregated server's context_servers / generation_servers. Only exact
 * names count (no prefix abbreviations), and only a clear majority decides:
 * a file whose keys fit two engines as well is said to be undecided, never
 * guessed. Uses grammar.c's lookups and the YAML reader.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

static int trt_key(const sl_grammars *gs, const char *k)
{
	const sl_grammar *g = sl_grammar_find(gs, "trtllm");
	const sl_grammar *cg = g ? sl_grammar_config(gs, g) : NULL;
	return cg && (sl_grammar_config_key(cg, k) || sl_grammar_config_below(cg, k));
}

static int flag_key(const sl_grammars *gs, const char *id, const char *k)
{
	const sl_grammar *g = sl_grammar_find(gs, id);
	if (!g)
		return 0;
	sl_buf b = {0};
	sl_buf_printf(&b, "--%s", k);
	for (char *p = b.data + 2; *p; p++)
		if (*p == '_')
			*p = '-'; /* both engines take the field name's dashed form */
	sl_flag_match m;
	int hit = sl_grammar_match(gs, g, b.data, &m) && m.flag && !m.abbrev && !m.ambiguous;
	sl_buf_free(&b);
	return hit;
}

int sl_normalize_config_engine(const sl_grammars *gs, const sl_source *yaml, const char **engine, char **why)
{
	*engine = NULL;
	*why = NULL;
	sl_yaml_doc *d = NULL;
	sl_error err = {0};
	if (sl_yaml_load(yaml, &d, &err)) {
		sl_error_clear(&err);
		*why = sl_strdup("it does not parse as YAML");
		return -1;
	}
	const sl_yaml_node *root = d->root;
	if (!root || root->kind != SL_YAML_MAP || !root->n) {
		sl_yaml_free(d);
		*why = sl_strdup("it is not a mapping of settings");
		return -1;
	}
	if (sl_yaml_get(root, "context_servers") || sl_yaml_get(root, "generation_servers")) {
		sl_yaml_free(d);
		*engine = "trtllm-disagg";
		return 0;
	}
	static const char *const ids[] = {"trtllm", "vllm", "sglang"};
	static const char *const titles[] = {"TensorRT-LLM LlmArgs keys", "vLLM flags", "SGLang flags"};
	size_t hits[3] = {0, 0, 0}, n = root->n;
	for (size_t i = 0; i < n; i++) {
		const char *k = root->keys[i]->value ? root->keys[i]->value : "";
		hits[0] += trt_key(gs, k);
		hits[1] += flag_key(gs, "vllm", k);
		hits[2] += flag_key(gs, "sglang", k);
	}
	sl_yaml_free(d);
	size_t best = 0;
	for (size_t e = 1; e < 3; e++)
		if (hits[e] > hits[best])
			best = e;
	int tie = 0;
	for (size_t e = 0; e < 3; e++)
		tie |= e != best && hits[e] == hits[best];
	/* decided: more keys of one engine than of any other, and at least
	 * half of them its own */
	if (hits[best] && !tie && 2 * hits[best] >= n) {
		*engine = ids[best];
		return 0;
	}
	sl_buf b = {0};
	sl_buf_printf(&b, "its %zu top-level key%s: %zu TensorRT-LLM LlmArgs key%s, %zu vLLM flag%s, %zu SGLang flag%s", n,
		      n == 1 ? "" : "s", hits[0], hits[0] == 1 ? "" : "s", hits[1], hits[1] == 1 ? "" : "s", hits[2],
		      hits[2] == 1 ? "" : "s");
	if (tie && hits[best]) {
		sl_buf_puts(&b, " (as many ");
		int first = 1;
		for (size_t e = 0; e < 3; e++)
			if (hits[e] == hits[best]) {
				sl_buf_printf(&b, "%s%s", first ? "" : " as ", titles[e]);
				first = 0;
			}
		sl_buf_puts(&b, ")");
	}
	*why = sl_buf_detach(&b);
	return -1;
}
