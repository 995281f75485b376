/* once.c: the engine grammars and the rules, loaded once per fuzzing
 * process. They are embedded in the binary and the same for every input,
 * and loading them is most of the time of a subcommand; the targets link
 * with -Wl,--wrap for these four functions (tests/fuzz/CMakeLists.txt), so
 * every sl_cmd_* gets the one copy and its free of it is a no-op. */
#include "check/check.h"
#include "normalize/normalize.h"

int __real_sl_normalize_grammars_load(sl_grammars **out, sl_error *err);
void __real_sl_normalize_grammars_free(sl_grammars *gs);
int __real_sl_rules_load(sl_rules **out, sl_error *err);
void __real_sl_rules_free(sl_rules *r);
int __wrap_sl_normalize_grammars_load(sl_grammars **out, sl_error *err);
void __wrap_sl_normalize_grammars_free(sl_grammars *gs);
int __wrap_sl_rules_load(sl_rules **out, sl_error *err);
void __wrap_sl_rules_free(sl_rules *r);

static sl_grammars *the_grammars;
static sl_rules *the_rules;

int __wrap_sl_normalize_grammars_load(sl_grammars **out, sl_error *err)
{
	if (!the_grammars && __real_sl_normalize_grammars_load(&the_grammars, err))
		return -1;
	*out = the_grammars;
	return 0;
}

void __wrap_sl_normalize_grammars_free(sl_grammars *gs)
{
	if (gs != the_grammars)
		__real_sl_normalize_grammars_free(gs);
}

int __wrap_sl_rules_load(sl_rules **out, sl_error *err)
{
	if (!the_rules && __real_sl_rules_load(&the_rules, err))
		return -1;
	*out = the_rules;
	return 0;
}

void __wrap_sl_rules_free(sl_rules *r)
{
	if (r != the_rules)
		__real_sl_rules_free(r);
}
