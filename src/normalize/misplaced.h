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
/* A flag g does not know, name as written (without =value) at word w,
 * rest[0..nrest) the words after it: a flag word holding a blank and
 * another flag (`"--tp 8"`), or an mpirun option written after the
 * program mpirun runs (the service has an mpirun wrapper), with its move
 * to after `mpirun` where that is certain. */
void sl_misplaced_unknown(sl_ctx *c, const sl_build *b, const sl_grammar *g, const sl_source *src,
			  const sl_word *w, const char *name, sl_word *const *rest, size_t nrest);
/* A flag w after `--` at dd, which ends the options: read as a positional. */
void sl_misplaced_after_dashes(sl_ctx *c, const sl_grammar *g, const sl_source *src, const sl_word *w,
			       const sl_word *dd);
/* After the engine's arguments (settings [first, n) of b): the model given
 * both as the positional and by --model (vLLM serves the positional one). */
void sl_misplaced_model_twice(sl_ctx *c, sl_build *b, const sl_grammar *g, size_t first);
/* docker run: an option docker does not know, name at word w, that is a
 * flag of an engine: a docker_engine_flag note, with what would move
 * (move_len) when the flag and its value can be moved as written; next
 * is the word after w when it is not a flag, or NULL. Returns 1 when the
 * flag takes a value (the word after it is its value, not the image). */
int sl_misplaced_docker(sl_ctx *c, const sl_source *src, const sl_word *w, const char *name, int has_eq,
			const sl_word *next);
/* After a docker command's engine is found (b's grammar and engine word;
 * words[0..n) the image, then what it runs: its --entrypoint and the words
 * after it): the docker_engine_flag notes from first_note on get where
 * their flag goes, after the command's last word, when that is certain:
 * the engine is one of these words with no `--` after it, knows the
 * flag, and is not given it already (nor twice before the image); else
 * they get no move. */
void sl_misplaced_docker_place(sl_ctx *c, const sl_build *b, size_t first_note, const sl_word *const *words,
			       size_t n);

#endif
