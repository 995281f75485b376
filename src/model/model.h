/*
 * model.h: the normalized, engine-neutral model of one entry: services
 * (roles of the deployment), each with engine, replicas, GPUs, environment
 * and canonical settings, every value carrying the exact place it came from.
 *
 * Ownership: an sl_model owns all its strings and jansson values. Origins
 * point into the sl_entry's sources, which the model does not own: free the
 * model before the entry.
 */
#ifndef SL_MODEL_H
#define SL_MODEL_H

#include <jansson.h>
#include "../source/source.h"

typedef struct sl_origin {
	const sl_source *src;  /* not owned; NULL when the value has no place */
	uint32_t off;          /* byte offset in src */
	char *raw;             /* the spelling as written (`--tp 8`); owned, may be NULL */
} sl_origin;

enum {
	SL_SET_UNKNOWN = 1,      /* the flag is not in the engine's grammar */
	SL_SET_SYMBOLIC = 2,     /* the value depends on something unknown ($X) */
	SL_SET_PLACEHOLDER = 4,  /* the value holds a <placeholder> */
	SL_SET_OVERRIDDEN = 8,   /* a later or stronger setting of the same key wins */
	SL_SET_ABBREV = 16,      /* written as an abbreviation the engine resolves */
	SL_SET_NEGATED = 32,     /* written as --no-X */
	SL_SET_PER_NODE = 64,    /* an env value a comment gives "per tray" / "per node" */
	SL_SET_PER_REPLICA = 128,/* differs between replicas (a loop variable); value as written */
	SL_SET_BOUND = 256,      /* the value was given on the command line (--set NAME=VALUE) */
	SL_SET_STRAY = 512,      /* a flag that takes no value followed by one it leaves as a stray argument (value_at) */
	SL_SET_WINS = 1024,      /* the engine takes it over every other setting of its key, wherever
				  * written (vllm serve's positional model over --model) */
	SL_SET_HINT_TIED = 2048, /* another known spelling is as close as the hint: a guess, not a fix */
	SL_SET_OWN_NAME = 4096,  /* engine.config_file of an engine config file read alone: the file's own
				  * name, which the diff, matrix and duplicate key never compare */
};

typedef struct sl_setting {
	char *key;          /* canonical key (parallel.tensor); owned */
	json_t *value;      /* typed value; owned reference */
	char *flag;         /* the grammar's primary spelling, env name, or JSON path; owned */
	char *via;          /* flag | positional | json | dotted | env; static string */
	unsigned flags;
	sl_origin origin;        /* where the flag (or member, or variable) is written */
	sl_origin value_origin;  /* where the value is written when elsewhere ($VAR); src NULL if not */
	char *hint;              /* unknown flags: the nearest known spelling, or NULL; owned */
	char *since, *until;     /* engine versions that know the flag (grammar), or NULL; owned */
	json_t *dflt;            /* the engine's default for the flag (grammar), or NULL; owned reference */
	json_t *same;            /* values the engine reads as another (grammar `same:`, sl_setting_canonical),
	                          * or NULL; owned reference */
	/* The spelling's facts from the engine's own source, per release
	 * (docs/engine-facts.md): {"e": the spelling's facts, "r": the recorded
	 * releases, oldest first, "engine": grammar id, "title": engine name,
	 * "default_by_release": true when the default changed between releases,
	 * so dflt is the service's release's own (normalize's versioned.c),
	 * "rep": the facts of the flag "e"'s replacement names, when the
	 * grammar knows it (flags.c)};
	 * NULL when none; owned reference */
	json_t *facts;
	sl_origin value_at;      /* where the value word is written; src NULL when none */
} sl_setting;

typedef struct sl_env {
	char *name, *value;   /* owned */
	char *via;            /* inline | export | docker | mpirun | comment; static string */
	unsigned flags;       /* SL_SET_SYMBOLIC, SL_SET_PLACEHOLDER, SL_SET_OVERRIDDEN */
	sl_origin origin;
} sl_env;

typedef struct sl_wrapper {
	char *kind;           /* docker | mpirun | bash -c | exec | env | launcher | python -m; owned */
	json_t *detail;       /* what it set: image, volumes, ranks...; owned reference */
	sl_origin origin;
} sl_wrapper;

typedef struct sl_service {
	char *name;            /* unique within the model: role, or role-2 ... ; owned */
	char *role;            /* frontend | prefill | decode | aggregated | encode (a multimodal encode worker:
	                        * no prefill, no decode) | router | etcd | orchestrator */
	char *role_from;       /* what decided the role; owned */
	char *engine;          /* grammar id: vllm, sglang, trtllm, dynamo-vllm, etcd...; owned */
	char *program;         /* the engine command as written after unwrapping; owned */
	char *version;         /* engine version when known; owned, may be NULL */
	sl_origin version_origin;
	/* A Dynamo service's: Dynamo's own release (the tag of an ai-dynamo
	 * runtime image, nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.2.0), while
	 * version is its backend's (# TensorRT-LLM 1.3.0rc5); owned, may be NULL */
	char *dynamo_version;
	unsigned replicas;
	char *replicas_from;   /* "for loop", "comment", "single"; owned */
	sl_origin replicas_origin;
	long gpus;             /* GPUs per replica; -1 unknown, -2 "all" */
	char *gpus_from;       /* CUDA_VISIBLE_DEVICES, docker --gpus, mpirun -n...; owned */
	json_t *gpu_devices;   /* array of device names; or, per replica, array of arrays */
	int gpus_placeholder;  /* the devices are a placeholder ("<8 GPUs>") */
	sl_origin gpus_origin;
	int background;
	sl_origin command_origin;
	json_t *argv;          /* the unwrapped engine argv as strings; owned */
	/* What `run` starts, one object per replica: {"argv": [the command as
	 * written, launchers and all], "env": [[NAME, VALUE, SYMBOLIC]...] (inline
	 * and exported), "engine_at": index of the engine program in argv, or -1
	 * when it is inside a string (bash -c), "symbolic": indexes of the
	 * words the shell would compute ($X, $(..)), kept as written, "at": the
	 * command's offset in the script}; owned */
	json_t *launches;
	json_t *health;        /* the engine grammar's `health:` (see grammars/engines/README.md); owned, may be NULL */
	json_t *defaults;      /* canonical key -> the engine grammar's default (sl_grammar_defaults),
				* what it runs with where it sets nothing; owned reference, may be NULL */
	sl_env *env;
	size_t nenv;
	sl_setting *settings;
	size_t nsettings;
	sl_wrapper *wrappers;
	size_t nwrappers;
} sl_service;

typedef struct sl_note {
	char *msg;            /* owned */
	sl_origin origin;
	/* The structure this note tells of, when the script's shape changes
	 * what runs (one of sl_structure_kinds: "blank_after_backslash", a
	 * docker option that is an engine flag...): the word a `structure:`
	 * rule names. NULL for a plain note. Static string. */
	const char *kind;
	/* Where the argument at origin belongs, when normalize knows it for
	 * certain (docker_engine_flag, mpirun_option_after_program; normalize's
	 * misplaced.c): the argument and its value, the move_len bytes of
	 * origin.src at origin.off, written on one line, go right after the
	 * word that ends at move_to of the same source (the check's move fix).
	 * move_to 0: no certain place. */
	uint32_t move_len, move_to;
} sl_note;

/* The kinds of structure notes there are, NULL-terminated: a rule that
 * names another is refused when the rules are loaded. */
extern const char *const sl_structure_kinds[];
/* The entry of sl_structure_kinds equal to kind, or NULL. */
const char *sl_structure_kind(const char *kind);

/* What the entry says about itself outside the command: metadata fields
 * and header comments ("TP4", "6 draft tokens", "Accelerators used 8 of 8"). */
typedef struct sl_claim {
	char *key;            /* a canonical key (parallel.tensor) or a claim kind (gpus.total); owned */
	char *role;           /* the role it speaks of, or NULL for the entry; owned */
	json_t *value;        /* owned reference */
	char *text;           /* the statement as written ("DEP4", "8 of 72"); owned */
	char *from;           /* metadata | comment; static string */
	sl_origin origin;
} sl_claim;

/* A variable the script reads without setting it (or sets to something
 * unknown): the values that depend on it stay symbolic ($NAME), unless
 * --set gave it a value. */
typedef struct sl_model_input {
	char *name;           /* owned */
	char *value;          /* the --set value, or NULL; owned */
	int defaulted;        /* read as ${NAME:-default} and the default used */
	sl_origin origin;     /* where it is first read */
} sl_model_input;

typedef struct sl_model {
	const sl_entry *entry;   /* not owned */
	sl_service *services;
	size_t nservices;
	sl_note *notes;          /* things seen but not modelled, unresolved references */
	size_t nnotes;
	sl_claim *claims;
	size_t nclaims;
	sl_model_input *inputs;
	size_t ninputs;
	char *variant;           /* the alternatives this reading of the script took at its
				  * undecided if/case ("if [ ... ] (line 5)"), or NULL; owned */
	unsigned variant_index;  /* 1-based, of nvariants (set by whoever enumerates them) */
	unsigned nvariants;
	sl_source **files;       /* files the script writes (here-documents): path is the
				  * script's, section the file written, positions the
				  * script's; owned */
	size_t nfiles;
} sl_model;

void sl_model_free(sl_model *m);
void sl_origin_set(sl_origin *o, const sl_source *src, uint32_t off, const char *raw);
void sl_origin_copy(sl_origin *dst, const sl_origin *src);
void sl_origin_clear(sl_origin *o);
/* 1-based position of an origin (0 when it has none). */
void sl_origin_pos(const sl_origin *o, unsigned *line, unsigned *col);

/* The release a setting's generated facts (its `facts`, of grammar
 * facts_engine) are judged by: the service's version for its own engine's
 * facts; for a Dynamo service's own (dynamo-*), Dynamo's release
 * (dynamo_version; a frontend's version is Dynamo's); NULL when not known,
 * not a version, or facts of an engine the service only passes flags on to
 * (dynamo-vllm's vLLM flags run a vLLM the entry does not name). Borrowed. */
const char *sl_service_release(const sl_service *s, const char *facts_engine);
/* The winning setting for a key (not overridden), or NULL. */
const sl_setting *sl_service_get(const sl_service *s, const char *key);
/* v (the setting's value or its default) as the engine reads it: the value
 * the grammar's `same:` maps it to (vLLM reads --kv-cache-dtype fp8 as
 * fp8_e4m3), else v itself. st may be NULL. Borrowed from st or v. */
json_t *sl_setting_canonical(const sl_setting *st, json_t *v);
/* The same on service s, through its wrapper's reading too: an included
 * flag's values the wrapper reads as another (the facts' "ext" `same`,
 * Dynamo's SGLang worker reads --disaggregation-mode agg and pd as null),
 * in the wrapper's releases that do (any, when the service's is not
 * known). Borrowed from st or v. */
json_t *sl_setting_meaning(const sl_service *s, const sl_setting *st, json_t *v);

#endif
