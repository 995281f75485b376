/*
 * prose.h (normalize, internal): what in a script's comments is prose
 * rather than a claim, for claims.c. A comment block says something of the
 * deployment when it is the script's header or stands right above a
 * service's command; a commented-out command, a number inside a larger
 * one, a word of a sentence after a flag's name, and the rows of a table
 * of alternative layouts are not claims.
 */
#ifndef SL_NORMALIZE_PROSE_H
#define SL_NORMALIZE_PROSE_H

#include "internal.h"

/* Block b is the header (before first, the offset of the script's first
 * statement: sl_prose_first_statement) or sits right above the command of
 * a service. */
uint32_t sl_prose_first_statement(const sl_script *sc);
int sl_prose_block_speaks(const sl_ctx *c, const sl_script *sc, size_t b, uint32_t first);
/* The text of a comment line is a command kept in a comment: `vllm serve
 * ...`, a line of `--flag value` pairs, a line ending in a backslash. */
int sl_prose_command_line(const char *t);
/* The text [a, b) names speculation. */
int sl_prose_spec_words(const char *a, const char *b);
/* The bare "N tokens" at p (in the line t; end is the number's end, at
 * " tokens") counts draft tokens: speculation is named before it in its
 * sentence (or, with earlier set, on an earlier line of the block or the
 * field, and the number opens its clause), and it is not a length, a
 * budget, a rate, a ratio or a range ("ISL 1024 tokens", "1024/1024 tokens",
 * "1..4 tokens", "5000 tokens/s", "8192 tokens of context"). */
int sl_prose_draft_count(const char *t, const char *p, const char *end, int earlier);
/* v (l bytes) is a word of an English sentence, not a flag's value. */
int sl_prose_word(const char *v, size_t l);
/* The parallelism claims of one block from claims[first] on: a block that
 * gives the same key different sizes for one role lists alternatives
 * ("TP4, DEP4 and DEP8 arms", "DP2/TP4 ... DP4/TP2"); they are dropped. */
void sl_prose_drop_alternatives(sl_ctx *c, size_t first);

#endif
