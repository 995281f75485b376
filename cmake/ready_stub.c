/*
 * ready_stub.c: what cmake/data_ready.c (the build tool that makes them)
 * links for the built-in tables: none. The tool reads the data files
 * through the variables that name them (SERVELINT_GRAMMARS, _FACTS,
 * _RULES), so the loaders never reach these.
 */
#include "check/rules.h"
#include "normalize/grammar.h"
#include "plan/plan.h"

sl_grammars sl_grammars_builtin;
void sl_grammars_builtin_ready(void) {}
void sl_grammars_builtin_json(void) {}
sl_rules sl_rules_builtin;
void sl_rules_builtin_ready(void) {}
sl_facts sl_facts_builtin;
void sl_facts_builtin_ready(void) {}
