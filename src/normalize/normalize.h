/*
 * normalize.h: the normalize stage, the whole of its public interface.
 * It unwraps launchers (docker run, mpirun, bash -c, env, exec, python -m,
 * trtllm-llmapi-launch) down to engine commands, reads their flags through the
 * engine grammars, and builds the model: services with roles, replicas, GPUs,
 * environment and canonical settings.
 */
#ifndef SL_NORMALIZE_H
#define SL_NORMALIZE_H

#include "../model/model.h"
#include "../parse/parse.h"

typedef struct sl_grammars sl_grammars;

/* Loads the engine grammars (embedded, or $SERVELINT_GRAMMARS). The caller
 * owns *out and frees it with sl_normalize_grammars_free. */
int sl_normalize_grammars_load(sl_grammars **out, sl_error *err);
void sl_normalize_grammars_free(sl_grammars *gs);
/* Readies gs to be read by several threads at once (check -j, audit -j):
 * what the grammars build on first use is built now or guarded
 * (sl_grammars_share). Call before the threads start; the answers are the
 * same as without it. */
void sl_normalize_grammars_share(sl_grammars *gs);

/* Builds the model of an entry. The model points into the entry (origins):
 * free it before the entry. Input errors (shell syntax, nesting limits)
 * fail with file:line:col in *err. A flag's invalid JSON does not: the
 * value is kept as text and a note `invalid JSON: ...` is made at the bad
 * character (the entry stage makes it an error for all but check). */
int sl_normalize_entry(const sl_entry *e, const sl_grammars *gs, sl_model **out, sl_error *err);
/* The same with options (opts may be NULL; not owned): --set values for
 * the variables the script leaves unknown, and the variant to read (the
 * alternatives at its undecided conditionals; see sl_shell_variants). */
int sl_normalize_entry_with(const sl_entry *e, const sl_grammars *gs, const sl_shell_opts *opts,
			    sl_model **out, sl_error *err);
/* The same from a reading of the script already made (one variant's, from
 * sl_shell_variants), which it takes and frees in every case; NULL reads
 * the entry's script (or manifest) itself. cache (may be NULL; not owned):
 * shared by the readings of one entry, it keeps the trees of the other
 * scripts of its group, which each reading reads again. */
int sl_normalize_entry_script(const sl_entry *e, const sl_grammars *gs, sl_script *s, sl_shell_cache *cache,
			      sl_model **out, sl_error *err);

/* The engine a config YAML given alone (no script names it) is for, from
 * its top-level keys (alone.c): "trtllm" (TensorRT-LLM LlmArgs keys),
 * "vllm" or "sglang" (their flags' names as keys), "trtllm-disagg" (the
 * disaggregated server's context_servers / generation_servers). 0 with
 * *engine (static text); -1 when it cannot be decided, with *why (the
 * caller frees) counting the keys each engine knows. */
int sl_normalize_config_engine(const sl_grammars *gs, const sl_source *yaml, const char **engine, char **why);
/* The closest of n names to name, when close enough to be a typo (an edit
 * distance of at most a third of name's length; a tie keeps the first), or
 * NULL. Borrowed from names. */
const char *sl_nearest(const char *name, char *const *names, size_t n);
/* Whether another of names is as close to name as best (sl_nearest's
 * answer): the suggestion is then a guess, never a fix. */
int sl_nearest_tied(const char *name, char *const *names, size_t n, const char *best);

#endif
