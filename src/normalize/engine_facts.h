/*
 * engine_facts.h (internal to normalize): the engines' generated facts
 * (grammars/facts/<id>.tsv, made by grammars/gen/facts.py from the engines'
 * own sources; see docs/engine-facts.md), joined to a hand-written grammar.
 */
#ifndef SL_ENGINE_FACTS_H
#define SL_ENGINE_FACTS_H

#include "grammar.h"

/* Reads the facts of g's engine (embedded, or $SERVELINT_FACTS/<id>.tsv)
 * and joins them to g: every spelling the facts know gets its line in the
 * index, and one the hand-written grammar lacks becomes a flag of its own
 * (key <id>.<name>), or an alias of the hand-written flag it belongs to.
 * The hand-written flags stay where they are (pointers to them hold). An
 * env var twin of a flag the facts list becomes a variable of g's env (with
 * the flag's key) unless the hand-written env has it. */
void sl_engine_facts_join(sl_grammar *g);
/* A spelling's facts as JSON ({"in", "type", "bool", "of", "default",
 * "choices", "replacement", "history"}), read from its line on first use
 * and kept in the index; NULL when the spelling has none. */
json_t *sl_engine_facts_entry(const sl_flag_index *x);
/* Adds to g's config_keys every key the generated facts of its config file
 * (grammars/facts/<id>-config.tsv; dynamo-<e> reads <e>'s) declare and the
 * hand-written config_keys lack, with key <id>.<path>; once. */
void sl_engine_facts_config_join(sl_grammar *g);
/* The facts of member `member` of engine id's JSON flag `flag` (primary
 * spelling: "--speculative-config", "method"), as sl_engine_facts_entry's,
 * from grammars/facts/<id>-members.tsv; *releases the table's releases.
 * Read once and kept for the process (thread-safe); both borrowed; NULL
 * when the engine's source declares no such member. */
const json_t *sl_engine_facts_member(const char *id, const char *flag, const char *member, json_t **releases);
/* Frees what sl_engine_facts_join added to g. */
void sl_engine_facts_free(sl_grammar *g);

#endif
