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
/* "N tokens" at p speaks of speculation (the words before it on its line
 * say so); sl_prose_spec_words: the text [a, b) names speculation. */
int sl_prose_spec_context(const char *t, const char *p);
int sl_prose_spec_words(const char *a, const char *b);
/* v (l bytes) is a word of an English sentence, not a flag's value. */
int sl_prose_word(const char *v, size_t l);
/* The parallelism claims of one block from claims[first] on: a block that
 * gives the same key different sizes for one role lists alternatives
 * ("TP4, DEP4 and DEP8 arms", "DP2/TP4 ... DP4/TP2"); they are dropped. */
void sl_prose_drop_alternatives(sl_ctx *c, size_t first);

#endif
