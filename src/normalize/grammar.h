/*
 * grammar.h (internal to normalize): engine CLI grammars, loaded from the
 * YAML data in grammars/engines/ (embedded at build time, or read from
 * $SERVELINT_GRAMMARS). See grammars/engines/README.md for the format.
 */
#ifndef SL_GRAMMAR_H
#define SL_GRAMMAR_H

#include <jansson.h>
#include "../parse/parse.h"

typedef enum {
	SL_T_STRING, SL_T_INT, SL_T_FLOAT, SL_T_HUMAN_INT, SL_T_BOOL, SL_T_LIST,
	SL_T_JSON, SL_T_PAIR,
} sl_type;

typedef struct { char *member, *key; } sl_json_key;

typedef struct sl_flag {
	char **names;        /* first is primary */
	size_t nnames;
	sl_type type;
	int optional_value;  /* its value may be left out (argparse nargs="?", from the facts):
	                      * the next word is its value only when it is not a flag */
	char *key;
	json_t *dflt;        /* may be NULL */
	json_t *same;        /* values the engine reads as another, {"fp8": "fp8_e4m3"} (grammar
	                      * `same:`), so rules compare what runs; may be NULL */
	char *since;         /* first engine version known to accept it; may be NULL */
	char *until;         /* first engine version known to reject it (removed); may be NULL */
	char *action;        /* launchers: env gpus entrypoint volume ranks; may be NULL */
	int negatable;       /* bool flags: the grammar's negation prefix applies */
	int stores_false;    /* bool flags written alone set the key false (argparse store_false,
	                      * grammar `stores: false`): matched as if negated */
	sl_json_key *jkeys;
	size_t njkeys;
	char **members;      /* json flags: the members the engine accepts (empty: not known) */
	size_t nmembers;
} sl_flag;

/* A key of the settings file an engine reads (config_keys). */
typedef struct sl_config_key {
	char *path;          /* dotted path into the YAML */
	sl_type type;
	char *key;
	json_t *dflt;        /* may be NULL */
	char *replicas_of;   /* topology: this key counts the replicas of a role; may be NULL */
	char *in;            /* the recorded releases of the engine's config facts declaring it,
			      * one character each ("01"); NULL: the facts do not know it */
} sl_config_key;

typedef struct sl_envvar {
	char *name, *key;
	sl_type type;
	/* an env var twin of a flag from the generated facts (Dynamo's DYN_*):
	 * the releases that read it, one character each of its grammar's
	 * versions ("00111"), and that grammar (borrowed); in NULL otherwise */
	char *in;
	const struct sl_grammar *of;
} sl_envvar;

/* An included engine's flag that takes other values under this grammar
 * (grammar `include_choices:`): the wrapper reads them before it hands the
 * rest of the command line on (Dynamo's SGLang worker maps
 * `--disaggregation-mode agg|pd` to SGLang's `null` and runs `encode`
 * itself). Judged by this grammar's releases (since/until), the included
 * flag's own choices by its engine's. */
typedef struct sl_choice_ext {
	char *flag;          /* a spelling of the included flag */
	char **values;
	size_t nvalues;
	int replace;         /* values are the flag's choices here (`only:`), not added to its own (`add:`) */
	char *since, *until; /* this grammar's first release taking them, first refusing them; NULL: not known */
	/* values this grammar reads as another of the flag's (`same:`, Dynamo's
	 * agg and pd as SGLang's null), in the same releases: same_from[i] is
	 * read as same_to[i] */
	char **same_from, **same_to;
	size_t nsame;
} sl_choice_ext;

struct sl_flag_index;

typedef struct sl_grammar {
	char *id, *title, *kind;
	char **include;
	size_t ninclude;
	int underscores, abbrev, dotted;
	char *negation;      /* NULL when the engine has no negated form */
	char **positionals;
	size_t npositionals;
	sl_flag *flags;
	size_t nflags;
	sl_envvar *env;
	size_t nenv;
	sl_config_key *config_keys;
	size_t nconfig_keys;
	char *config_from;   /* another grammar whose config_keys describe our config file */
	int config_wins;     /* the config file overrides the command line (TensorRT-LLM) */
	char **optional_sections; /* config sections whose absence turns a feature off
	                           * (TensorRT-LLM speculative_config): their keys' defaults
	                           * hold only where the section is written; owned */
	size_t noptional_sections;
	int config_as_flags; /* its config file holds flags by name (`max-num-seqs: 64`, vLLM --config) */
	json_t *health;      /* how `run` tells the service is ready (grammar `health:`); may be NULL */
	char **programs;     /* command names that run it (`vllm-router`), its flags after them */
	size_t nprograms;
	char **modules;      /* python modules that run it (`python3 -m atom.entrypoints.openai_server`) */
	size_t nmodules;
	char *role;          /* the role it always has (router, kv-store); may be NULL */
	json_t *images;      /* launchers: container images whose entrypoint is an engine
			      * ([{image, runs, program, source}]); may be NULL */
	sl_choice_ext *choice_ext; /* included flags' choices changed here (include_choices:) */
	size_t nchoice_ext;
	struct sl_flag_index *index;  /* every spelling, normalized and sorted */
	size_t nindex;
	/* The engine's generated facts (grammars/facts/<id>.tsv, engine_facts.c),
	 * joined the first time the grammar is matched against */
	int facts_joined;
	int config_joined;  /* the config keys its engine's source declares were added (engine_facts.c) */
	size_t nconfig_hand; /* once joined: how many of config_keys were written by hand (the first) */
	char *facts;         /* the table (grammars/facts/<id>.tsv), its fields NUL-separated; or NULL */
	json_t *versions;    /* its recorded releases, oldest first: ["0.8.5", ...] */
	json_t *config_versions; /* those of its config file's facts (<id>-config.tsv); or NULL */
	sl_flag *gen;        /* flags only the facts know (key <id>.<name>) */
	size_t ngen;
	json_t *kept;        /* what matches hand out and the grammar frees (abbreviations' candidates) */
	json_t *defaults;    /* sl_grammar_defaults' object, built on first use; or NULL */
} sl_grammar;

typedef struct sl_flag_index {
	char *name;            /* '_' read as '-' when the grammar says so */
	const sl_flag *flag;
	const char *line;      /* the spelling's line of the grammar's facts table, or NULL */
	json_t *facts;         /* that line read (engine_facts.c, on first use); owned by the grammar */
} sl_flag_index;

typedef struct sl_grammars {
	sl_grammar *g;
	size_t n;
	sl_source **srcs;    /* kept so that errors can point into them */
	size_t nsrcs;
} sl_grammars;

/* The grammars built in (neither $SERVELINT_GRAMMARS nor $SERVELINT_FACTS
 * set) are static tables, every engine's facts joined, made at build time
 * by cmake/data_ready.c: *out is then that one object, shared by every
 * load, and sl_grammars_free releases it when its last user does. */
int sl_grammars_load(sl_grammars **out, sl_error *err);
void sl_grammars_free(sl_grammars *gs);
/* The generated tables (build/generated/grammars_table.c), an image
 * (cmake/data_image.h) that sl_grammars_builtin_ready makes ready and
 * points sl_grammars_builtin at, once, before any read; and the function
 * that makes their JSON values (defaults, `same`, health, images,
 * releases), which jansson cannot hold in static data. */
extern sl_grammars sl_grammars_builtin;
void sl_grammars_builtin_ready(void);
void sl_grammars_builtin_json(void);
const sl_grammar *sl_grammar_find(const sl_grammars *gs, const char *id);
/* Makes gs safe to read from several threads at once (check -j): every
 * grammar's generated facts and config keys are joined now, not on first
 * use; what is still built on first use (a spelling's facts, the defaults,
 * an abbreviation's candidates) is built under a lock or set atomically.
 * A match gives the same answer before and after. */
void sl_grammars_share(sl_grammars *gs);
/* Canonical key -> the default g states for it: its flags' and hand-written
 * config keys' (its config_from grammar's too), then its includes'; the
 * first stated wins. Not the config keys only the generated facts know:
 * whether they were joined yet depended on the entries read before (the
 * defaults are the same whatever was read before, and on any thread).
 * Built on first use; owned by g. */
const json_t *sl_grammar_defaults(const sl_grammars *gs, const sl_grammar *g);
/* The choices g changes for a flag of an included grammar (f, matched
 * through g), or NULL. */
const sl_choice_ext *sl_grammar_choice_ext(const sl_grammar *g, const sl_flag *f);
/* The grammar whose `programs:` (modules: a python module) names name, or NULL. */
const sl_grammar *sl_grammar_by_program(const sl_grammars *gs, const char *name, int module);

typedef struct {
	const sl_flag *flag;
	const sl_grammar *grammar;  /* the grammar (or included one) that defines it */
	int negated;                /* matched through the negation prefix */
	int abbrev;                 /* matched as a unique prefix */
	int ambiguous;              /* several flags share the prefix */
	const json_t *facts;        /* the spelling's generated facts, or NULL (engine_facts.c) */
	/* an abbreviation several flags share, taken as the one a release has
	 * alone: [{"name", "in"}] of every flag it may stand for (kept by the
	 * grammar); NULL otherwise */
	const json_t *candidates;
} sl_flag_match;

/* Resolves a flag name (without any "=value") in g and its includes,
 * following the grammar's rules for underscores, negation and prefixes. */
int sl_grammar_match(const sl_grammars *gs, const sl_grammar *g, const char *name,
		     sl_flag_match *m);
/* The closest known spelling (edit distance), for "did you mean". */
const char *sl_grammar_suggest(const sl_grammars *gs, const sl_grammar *g, const char *name);
/* Whether another spelling of g is as close to name as best (a suggestion
 * of sl_grammar_suggest): the suggestion is then a guess, never a fix. */
int sl_grammar_suggest_tied(const sl_grammars *gs, const sl_grammar *g, const char *name, const char *best);
const sl_envvar *sl_grammar_env(const sl_grammars *gs, const sl_grammar *g, const char *name);
/* The grammar whose config_keys describe g's config file (g itself,
 * config_from, or an included one), or NULL when none has any. */
const sl_grammar *sl_grammar_config(const sl_grammars *gs, const sl_grammar *g);
const sl_config_key *sl_grammar_config_key(const sl_grammar *g, const char *path);
/* Whether any config key lies below path (path + "."). */
int sl_grammar_config_below(const sl_grammar *g, const char *path);

#endif
