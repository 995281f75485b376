/*
 * facts.h (internal to normalize): the engines' generated facts
 * (grammars/facts/<id>.json, made by grammars/gen/facts.py from the engines'
 * own sources; see docs/engine-facts.md), joined to a hand-written grammar.
 */
#ifndef SL_FACTS_H
#define SL_FACTS_H

#include "grammar.h"

/* Reads the facts of g's engine (embedded, or $SERVELINT_FACTS/<id>.json)
 * and joins them to g: every spelling the facts know gets its facts in the
 * index, and one the hand-written grammar lacks becomes a flag of its own
 * (key <id>.<name>), or an alias of the hand-written flag it belongs to.
 * The hand-written flags stay where they are (pointers to them hold). */
void sl_facts_join(sl_grammar *g);
/* Frees what sl_facts_join added to g. */
void sl_facts_free(sl_grammar *g);

#endif
