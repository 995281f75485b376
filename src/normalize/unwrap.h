/*
 * unwrap.h (normalize, internal): what unwrap.c gives normalize.c.
 */
#ifndef SL_NORMALIZE_UNWRAP_H
#define SL_NORMALIZE_UNWRAP_H

#include "internal.h"

/* Peels the launchers off argv (argc words) into b until an engine command
 * remains, read through its grammar. Returns 1 when an engine command was
 * found, 0 when not, -1 on error (c->err set, c->failed). */
int sl_unwrap(sl_ctx *c, sl_build *b, sl_word *const *argv, size_t argc, unsigned depth);
/* The n assignments a (an export, a command's prefix) as env of b, each
 * told as coming `via` from src. */
void sl_unwrap_env_from(sl_build *b, const sl_assign *a, size_t n, const char *via, const sl_source *src);
/* A service of a script another runs starts with what that command gave
 * it (its wrappers and env). */
void sl_unwrap_handed(sl_ctx *c, sl_build *b);

#endif
