/*
 * misplaced.h (normalize, internal): arguments in the wrong place
 * (misplaced.c), for flags.c, which reads them: each a note of its kind
 * (the model's sl_structure_kinds) that a `structure:` rule reports.
 */
#ifndef SL_NORMALIZE_MISPLACED_H
#define SL_NORMALIZE_MISPLACED_H

#include "internal.h"

/* A quoted value word w of the flag `flag` (NULL: a positional) of g that
 * holds more of g's flags (`--served-model-name "m --port 8000"`): a
 * quote_swallows_flags note at the first of them. */
void sl_misplaced_swallowed(sl_ctx *c, const sl_grammar *g, const sl_source *src, const sl_word *w,
			    const char *flag);
/* A flag g does not know, name as written (without =value) at word w: a
 * flag word holding a blank and another flag (`"--tp 8"`), or an mpirun
 * option written after the program mpirun runs (the service has an mpirun
 * wrapper). */
void sl_misplaced_unknown(sl_ctx *c, const sl_build *b, const sl_grammar *g, const sl_source *src,
			  const sl_word *w, const char *name);
/* A flag w after `--` at dd, which ends the options: read as a positional. */
void sl_misplaced_after_dashes(sl_ctx *c, const sl_grammar *g, const sl_source *src, const sl_word *w,
			       const sl_word *dd);
/* After the engine's arguments (settings [first, n) of b): the model given
 * both as the positional and by --model (vLLM serves the positional one). */
void sl_misplaced_model_twice(sl_ctx *c, sl_build *b, const sl_grammar *g, size_t first);
/* docker run: an option docker does not know, name at word w, that is a
 * flag of an engine: a docker_engine_flag note. Returns 1 when the flag
 * takes a value (the word after it is its value, not the image). */
int sl_misplaced_docker(sl_ctx *c, const sl_source *src, const sl_word *w, const char *name, int has_eq);

#endif
