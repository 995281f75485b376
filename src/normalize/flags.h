/*
 * flags.h (normalize, internal): reading arguments through a grammar
 * (flags.c), for the files that find them: unwrap.c on command lines,
 * config.c in config files that hold flags by name.
 */
#ifndef SL_NORMALIZE_FLAGS_H
#define SL_NORMALIZE_FLAGS_H

#include "internal.h"

/* An engine's arguments into settings. Returns SL_OK or an input error. */
int sl_parse_engine_args(sl_ctx *c, sl_build *b, const sl_grammar *g, sl_word *const *args,
			 size_t n, int positionals);
/* Runs a launcher grammar over args; returns the index of the first
 * argument after its options (the image for docker, the program for mpirun).
 * *entrypoint receives a copy of docker's --entrypoint (len 0 when none). */
size_t sl_parse_launcher_args(sl_ctx *c, sl_build *b, const sl_grammar *g, sl_word *const *args,
			      size_t n, sl_word *entrypoint);

#endif
