/*
 * parse.h: the parse stage. It turns a launch script into commands (with
 * tree-sitter-bash), engine data files into node trees (with libyaml), and
 * JSON flag values into jansson values, keeping for every byte of every value
 * the source offset it came from, so later stages can point at exact tokens.
 *
 * Ownership: sl_script and sl_yaml_doc own everything they point to and are
 * released with their _free functions. Words inside a script are owned by it.
 */
#ifndef SL_PARSE_H
#define SL_PARSE_H

#include <jansson.h>
#include "../source/source.h"

/* Explicit limits. Past them input is refused with an error, never a crash. */
#define SL_MAX_NESTING 64        /* nested expansions, substitutions, bash -c levels */
#define SL_MAX_LOOP_ITERATIONS 1024
#define SL_MAX_COMMANDS 100000
#define SL_MAX_WORD_BYTES (1u << 20)  /* one word or variable value after expansion */
#define SL_MAX_ARRAY 100000           /* elements of one array variable */
/* Bounds on the total work of one reading, whatever the script (each is
 * refused with file:line:col naming it; docs/limits.md tells why each is
 * where it is):
 * - a run of comment lines (blank lines between them do not end it): more
 *   than this crashes libtree-sitter 0.20.7, whose nodes break at 65,535
 *   children, and consecutive comments are all children of one node;
 * - for-loop iterations in all (nested loops multiply; SL_MAX_LOOP_ITERATIONS
 *   is per loop);
 * - function calls in all (depth is bounded apart: 16, then a note);
 * - statements walked in all, comments aside (loops and calls walk their
 *   bodies again);
 * - exported variables in effect, summed over every command (each command
 *   carries the set of exports it runs with). */
#define SL_MAX_COMMENT_RUN 65000
#define SL_MAX_TOTAL_ITERATIONS 10000
#define SL_MAX_CALLS 10000
#define SL_MAX_STEPS 200000
#define SL_MAX_EXPORTED 100000
/* - words handed to commands in all, after splitting and brace expansion
 *   (each costs about 100 bytes; "${A[@]}" of 10,000 elements written 300
 *   times in 52 KB of script was 3 million words, 805 MB) */
#define SL_MAX_FIELDS 1000000

enum {
	SL_WORD_SYMBOLIC = 1,      /* holds an expansion whose value is unknown ($X, $(..)) */
	SL_WORD_PLACEHOLDER = 2,   /* holds a <placeholder> such as <host-path> */
	SL_WORD_QUOTED = 4,        /* was quoted, fully or in part */
	SL_WORD_BOUND = 8,         /* holds a value given with --set NAME=VALUE */
};

/* Values given on the command line (--set NAME=VALUE) for variables the
 * script leaves unknown: a variable it never sets, or sets to something
 * unknown ($(nvidia-smi ...), an unset variable). A value the script knows
 * is never replaced. Not owned by the parser. */
typedef struct sl_binds {
	char **names;
	char **values;
	size_t n;
} sl_binds;

typedef struct sl_shell_cache sl_shell_cache;
sl_shell_cache *sl_shell_cache_new(void);
void sl_shell_cache_free(sl_shell_cache *c);

/* How to read a script: --set values, and which alternative to follow at
 * each `if` or `case` whose condition depends on something unknown. */
typedef struct sl_shell_opts {
	const sl_binds *binds;    /* may be NULL */
	const unsigned *choice;   /* choice[k]: the alternative at the k-th undecided
				   * conditional met (0 past nchoice); not owned */
	size_t nchoice;
	/* conditionals (source offsets) read at their first alternative without
	 * being points: ones whose alternatives were found to serve the same
	 * (sl_entry_models); not owned, may be NULL */
	const uint32_t *fixed;
	size_t nfixed;
	/* what one reading of the script works out that every other would too
	 * (the variables a server may read, shell/relevant.c): shared by the
	 * readings of one script's text; owned by the caller, may be NULL */
	sl_shell_cache *cache;
	/* the alternative to follow at the undecided conditional at a source
	 * offset, before choice (a covering reading names each decision by
	 * its place, shell/readings.c); not owned, may be NULL */
	const struct sl_choice_at { uint32_t off; unsigned alt; } *at;
	size_t nat;
} sl_shell_opts;

#define SL_MAX_VARIANTS 64       /* variants of one script enumerated at most */

/* One shell word after quote removal and variable expansion. */
typedef struct sl_word {
	char *text;        /* the value; owned, NUL-terminated */
	size_t len;
	uint32_t *offs;    /* offs[i]: source offset of text[i]; len+1 entries; owned */
	uint32_t start;    /* source span of the word as written */
	uint32_t end;
	unsigned flags;
} sl_word;

/* NAME=value, from a command prefix, an export or a plain assignment. */
typedef struct sl_assign {
	char *name;        /* owned */
	sl_word value;
	uint32_t start;    /* source offset of NAME */
	int exported;
} sl_assign;

typedef struct sl_command {
	sl_word *argv;          /* owned */
	size_t argc;
	sl_assign *prefix;      /* VAR=x written before the command; owned */
	size_t nprefix;
	sl_assign *exported;    /* exported variables in effect when it runs: shared with the
				 * other commands that run with the same set, owned by the
				 * script (export_sets); read only */
	size_t nexported;
	int background;         /* ended with & */
	uint32_t stmt;          /* source offset of the command; loop iterations share it */
	uint32_t head;          /* source offset of its outermost statement (a loop, or itself) */
	unsigned iteration;     /* 0-based iteration when inside a for loop */
	unsigned iterations;    /* iterations of the enclosing loop (1 when none) */
	char *loop_var;         /* loop variable name or NULL; owned */
	sl_word loop_value;     /* the loop value of this iteration (len 0 when none) */
	uint32_t start, end;
	int block;              /* index of the comment block directly above, or -1 */
} sl_command;

typedef struct sl_comment {
	char *text;       /* after '#', owned */
	uint32_t start;   /* offset of '#' */
	uint32_t end;
	unsigned line;
	int own_line;     /* nothing but blanks before it on its line */
} sl_comment;

/* Consecutive own-line comments with no blank line between them. */
typedef struct sl_comment_block {
	size_t first, count;    /* range in comments[] */
	unsigned first_line, last_line;
	int attached;           /* the next line starts a statement */
} sl_comment_block;

/* A variable the script reads but does not set: it stays symbolic ($NAME),
 * or takes a --set value. */
typedef struct sl_script_input {
	char *name;        /* owned */
	uint32_t off;      /* where it is first read (source offset) */
	char *value;       /* the --set value, or NULL; owned */
	int defaulted;     /* read as ${NAME:-default}: the default was used */
} sl_script_input;

/* An `if` or `case` the script could not decide: each alternative is a
 * variant of the entry. */
typedef struct sl_branch_point {
	uint32_t off;      /* the `if` or `case` (source offset) */
	unsigned n;        /* alternatives */
	char **labels;     /* what each alternative assumes ("if [ \"$CC\" = 10.0 ]"); owned */
	unsigned taken;    /* the alternative this reading followed */
	int stateless;     /* no alternative changes what later statements see (no
			    * assignment, export, exit, call of the script's
			    * functions, here-document...), but for variables no
			    * command that may serve reads, directly or through
			    * others (shell/relevant.c): they differ only in the
			    * commands they run and in what the harness alone
			    * reads, harness-only unless one is an engine */
} sl_branch_point;

/* A file the script writes from a here-document: `cat > config.yml <<EOF`. */
typedef struct sl_heredoc {
	char *target;      /* the file written, after expansion; owned */
	sl_word body;      /* the text, expanded unless the delimiter was quoted; owned */
	uint32_t start;    /* the `<<` (source offset) */
	uint32_t body_start;  /* the first byte of the body (source offset) */
	int symbolic;      /* an expansion in the body is unknown (kept as $NAME) */
	int strip_tabs;    /* <<-: leading tabs were removed (columns shift) */
	int append;        /* written with >>: added to the file's earlier text */
	uint32_t *spans;   /* [from, to) pairs of body bytes an unknown expansion gave
			    * (`${LIST%, }` kept as written); owned, may be NULL */
	size_t nspans;
} sl_heredoc;

/* A place where the script's structure silently changes what runs: a
 * backslash that does not continue its line, a comment line that ends a
 * continued command, a variable exported after a command read it. Found
 * in the syntax tree and the walk; normalize makes each a note of its kind
 * (the model's sl_structure_kinds). */
typedef struct sl_shell_break {
	const char *kind;  /* "blank_after_backslash", ...; static string */
	char *msg;         /* what happens, said of this place; owned */
	uint32_t off;      /* where the structure breaks (source offset) */
	uint32_t cmd;      /* export_after_use: the start of the command that read the
			    * variable before it was set (sl_command.start); else UINT32_MAX */
} sl_shell_break;

typedef struct sl_script {
	const sl_source *src;   /* not owned */
	sl_command *cmds;
	size_t ncmds;
	sl_comment *comments;
	size_t ncomments;
	sl_comment_block *blocks;
	size_t nblocks;
	sl_assign *assigns;     /* statement-level assignments and exports, in order */
	size_t nassigns;
	char **notes;           /* constructs seen but not analysed (e.g. `if`), owned */
	uint32_t *note_offs;    /* where each note points (source offset) */
	size_t nnotes;
	sl_shell_break *breaks; /* in the order met; owned */
	size_t nbreaks;
	sl_heredoc *heredocs;   /* files written by here-documents, in order; owned */
	size_t nheredocs;
	sl_branch_point *points;  /* undecided conditionals met, in order; owned */
	size_t npoints;
	int exited;             /* an `exit` was reached (later statements not read) */
	uint32_t exit_off;      /* where */
	char **functions;       /* names of the functions the script defines; owned */
	size_t nfunctions;
	sl_script_input *inputs;       /* unknown variables read, first read first; owned */
	size_t ninputs;
	struct sl_export_set {          /* the sets of exports commands point at; owned */
		sl_assign *items;
		size_t n;
	} *export_sets;
	size_t nexport_sets;
} sl_script;

/* Parses a whole script. Syntax errors (tree-sitter ERROR/MISSING nodes),
 * nesting beyond SL_MAX_NESTING and similar fail with file:line:col. */
int sl_shell_parse(const sl_source *src, sl_script **out, sl_error *err);
/* The same, with options (opts may be NULL). */
int sl_shell_parse_with(const sl_source *src, const sl_shell_opts *opts, sl_script **out,
			sl_error *err);
/* The alternatives taken, as one label ("if ..., case $GPU in b200)"); owned
 * by the caller; NULL when the script has no undecided conditional. */
char *sl_script_variant_label(const sl_script *s);
/* Where the place that ends an alternative's label starts in l: its " (line
 * N)" (a place in the script), or " (FILE:N)" (one in a file it sources),
 * or NULL. */
const char *sl_label_place(const char *l);

/* One variant of a script: the choices that read it (sl_shell_opts). */
typedef struct sl_variant {
	unsigned *choice;   /* owned */
	size_t nchoice;
	char *label;        /* owned; NULL when the script has a single reading */
	sl_script *script;  /* the reading itself, kept so that it is not parsed
			     * again (sl_normalize_entry_script takes it: set NULL
			     * then); owned */
} sl_variant;

/* Whether a program's name says it is a benchmark client, an evaluator or
 * a wait (run_benchmark_serving, wait_for_server_ready, run_eval): never
 * an engine, whatever its arguments (normalize's unknown engines, and the
 * variables a server may read, which decide the variants). */
int sl_shell_client_name(const char *name, size_t n);

/* Every variant of a script (at least one), by reading it once per
 * combination of alternatives at its undecided conditionals. When they
 * are more than SL_MAX_VARIANTS, a covering set of them instead (every
 * combination of alternatives of any three conditionals, shell/readings.c):
 * *covered is then the number of conditionals it covers, else 0; and
 * *truncated is set when even that set passes the limit. base gives the
 * --set values and the conditionals fixed at their first alternative (its
 * choice is not read); it may be NULL. Parse errors fail as sl_shell_parse
 * does. *out is the caller's (sl_variants_free). */
int sl_shell_variants(const sl_source *src, const sl_shell_opts *base, sl_variant **out, size_t *n,
		      int *truncated, size_t *covered, sl_error *err);
void sl_variants_free(sl_variant *v, size_t n);
/* Parses the value of a word as a script of its own (the string of
 * `bash -c "..."`); every offset maps back into src through w->offs.
 * cache (may be NULL; not owned): the entry's, which keeps the string's
 * tree by its text for the readings after (each reading's string is its
 * own copy of what is mostly the same text). */
int sl_shell_parse_word(const sl_source *src, const sl_word *w, sl_shell_cache *cache, sl_script **out,
			sl_error *err);
void sl_script_free(sl_script *s);

void sl_word_free(sl_word *w);
void sl_word_copy(sl_word *dst, const sl_word *src);
/* A word made of the bytes [from, to) of w, keeping their offsets. */
void sl_word_slice(sl_word *dst, const sl_word *w, size_t from, size_t to);

/* Parses a JSON flag value. On a syntax error, err points at the offending
 * character in the source through w->offs. *out is a new reference. */
int sl_json_parse_word(const sl_source *src, const sl_word *w, json_t **out, sl_error *err);

/* A JSON flag value with parts the script does not know (shell/json_holes.c):
 * `{"kv_role":"kv_producer","kv_ip":"$IP","kv_port":$PORT}`. Each hole (an
 * unknown expansion of a symbolic word, a bare `<name>` placeholder) is read
 * as a marker: inside a string, that string holds it; where a value is
 * written, the value is a string that is the marker alone. */
typedef struct sl_json_hole {
	char *text;         /* as the word holds it: "$IP", "$(hostname -i)"; owned */
	int bare;           /* written where a value is, not inside a string */
	int placeholder;    /* a <name> placeholder, not an expansion */
} sl_json_hole;
typedef struct sl_json_holes {
	sl_json_hole *holes;  /* owned */
	size_t n;
} sl_json_holes;
/* Parses w (a symbolic or placeholder word) with its holes as markers: SL_OK
 * with *out a new reference and *h the holes (free with sl_json_holes_free);
 * SL_ERR_INPUT, *out NULL and *h empty, when w has no hole or does not read
 * as JSON that way (a hole standing for several members, a value already
 * holding a marker's characters). Never reports: the caller keeps w whole. */
int sl_json_parse_holes(const sl_source *src, const sl_word *w, json_t **out, sl_json_holes *h);
/* The SL_WORD_SYMBOLIC / SL_WORD_PLACEHOLDER flags of the holes v holds at
 * any depth (keys too); 0 for none or h NULL. */
unsigned sl_json_holes_in(const sl_json_holes *h, const json_t *v);
/* s (a string or key of the parsed value) with its holes written back as
 * *restored (caller frees; may be NULL); the flags of its holes. */
unsigned sl_json_holes_str(const sl_json_holes *h, const char *s, char **restored);
/* v as compact JSON text with its holes written back as the word has them
 * (`{"kv_port":$PORT}`); caller frees. h may be NULL. */
char *sl_json_holes_text(const sl_json_holes *h, const json_t *v);
void sl_json_holes_free(sl_json_holes *h);

/* Finds a "<...>" placeholder in s; returns its length and sets *at, or 0. */
size_t sl_find_placeholder(const char *s, size_t len, size_t *at);

/* The tree-sitter-bash language compiled into the binary. */
const void *sl_tree_sitter_bash(void);

/* ---- YAML (libyaml) ------------------------------------------------------ */

#define SL_YAML_MAX_NODES 200000   /* nodes after alias expansion (billion laughs) */
#define SL_YAML_MAX_DEPTH 64

typedef enum { SL_YAML_SCALAR, SL_YAML_MAP, SL_YAML_SEQ } sl_yaml_kind;

typedef struct sl_yaml_node sl_yaml_node;
struct sl_yaml_node {
	sl_yaml_kind kind;
	char *value;            /* scalar text; owned (NULL for collections) */
	size_t len;
	int plain;              /* an unquoted scalar (so `null`, `true`, `8` are typed) */
	int style;              /* libyaml's scalar, sequence or mapping style (yaml.h) */
	char *tag;              /* the node's tag (resolved, e.g. tag:yaml.org,2002:int); owned */
	unsigned line, col;     /* 1-based start */
	sl_yaml_node **keys;    /* map keys (scalars); owned */
	sl_yaml_node **items;   /* map values or sequence items; owned */
	size_t n;
};

typedef struct sl_yaml_doc {
	sl_yaml_node *root;     /* the first document's root; NULL for an empty file */
	sl_yaml_node **roots;   /* every document of the file (--- separated), in order */
	size_t ndocs;
	const sl_source *src;   /* not owned */
} sl_yaml_doc;

/* Parses every document of src. Syntax errors, duplicate keys, nesting
 * deeper than SL_YAML_MAX_DEPTH and alias expansion past SL_YAML_MAX_NODES
 * (counted over the whole file) fail with file:line:col. */
int sl_yaml_load(const sl_source *src, sl_yaml_doc **out, sl_error *err);
void sl_yaml_free(sl_yaml_doc *d);
/* sl_yaml_load of a file of the entry whose readings share cache c: parsed
 * at the first reading, kept by c (freed with it) for the next ones. src
 * must outlive c (an entry's own files do; a here-document a reading
 * writes does not). *kept 1: *out is c's, read only; 0: the caller's (c
 * NULL or full), as with sl_yaml_load. A file that does not parse is not
 * kept (each reading says why). */
int sl_shell_cache_yaml(sl_shell_cache *c, const sl_source *src, sl_yaml_doc **out, int *kept, sl_error *err);

/* The value under key in a map node, or NULL. */
const sl_yaml_node *sl_yaml_get(const sl_yaml_node *map, const char *key);
/* A plain scalar `null`, `~` or empty. */
int sl_yaml_is_null(const sl_yaml_node *n);
/* A node as a new JSON value: mappings to objects, sequences to arrays,
 * plain scalars typed (null, true/false, integers, floats), quoted ones strings. */
json_t *sl_yaml_to_json(const sl_yaml_node *n);

/* ---- Kubernetes and Dynamo manifests (k8s.c) ------------------------------ */

/* The workload around one container command of a manifest. */
/* The counts a manifest may give (Kubernetes' replicas are an int32; no
 * node has a million GPUs): past them, a located error. A count is a
 * number, never a copy per replica. */
#define SL_K8S_MAX_REPLICAS 2147483647L
#define SL_K8S_MAX_GPUS 1048576L

typedef struct sl_k8s_workload {
	char *kind;            /* Deployment, StatefulSet, Pod, Job, DynamoGraphDeployment...; owned */
	char *name;            /* metadata.name, or the Dynamo service's key; owned, may be NULL */
	char *container;       /* the container's name; owned, may be NULL */
	char *image;           /* owned, may be NULL */
	char *component;       /* Dynamo componentType (frontend, worker...); owned, may be NULL */
	char *sub_component;   /* Dynamo subComponentType (prefill, decode); owned, may be NULL */
	long replicas;         /* -1 when the kind has none (DaemonSet, Pod) */
	uint32_t replicas_off; /* where it is written (0 for the default) */
	long gpus;             /* nvidia.com/gpu (Dynamo: resources.limits.gpu); -1 unknown */
	uint32_t gpus_off;
	const char *gpus_key;  /* the key gpus is written under ("nvidia.com/gpu", "gpu"); static, may be NULL */
	long nodes;            /* Dynamo multinode.nodeCount (gpus is per node); 0 when not multinode */
	uint32_t nodes_off;
	uint32_t image_off;    /* where image's text starts (source offset); 0: not said */
	char *version;         /* the engine's version the form states beside its image (a vLLM
				* model recipe's min_vllm_version); owned, may be NULL */
	uint32_t version_off;  /* where it is written */
} sl_k8s_workload;

/* Reads a manifest as a script: one command per container that states
 * its command (its args after it; a Dynamo frontend that states none runs
 * `python3 -m dynamo.frontend`), the ConfigMaps of the file that a
 * container mounts as files the script writes (here-documents at their
 * mount paths, so a command naming one reads it), the container's env as the command's
 * inline variables, each word with the place of each character in the
 * YAML; (*ws)[i] is the workload of (*out)->cmds[i]. What is not read is
 * a note of the script. YAML errors fail with file:line:col. */
int sl_k8s_parse(const sl_source *src, sl_script **out, sl_k8s_workload **ws, size_t *nws, sl_error *err);
void sl_k8s_workloads_free(sl_k8s_workload *w, size_t n);
/* A YAML scalar as a word: its text, and the place of each character in
 * src (quotes, escapes, block scalars and folding followed). */
void sl_k8s_word(const sl_source *src, const sl_yaml_node *n, sl_word *w);

/* ---- deployment recipes that are not Kubernetes (recipe.c) ---------------- */

/* Reads an srt-slurm recipe (resources, backend.<engine>_config per role,
 * <role>_environment, frontend) or llm-d style per-role sections (prefill:
 * {tp, extra-args, env}) as a script: one command per role, its flags as
 * words placed in the YAML, its env as inline variables; (*ws)[i] the
 * role's workload (kind "srt-slurm recipe" or "llm-d recipe", replicas
 * and GPUs per replica when the recipe says them). TensorRT-LLM sections
 * are files the script writes (here-documents), named by the command. */
int sl_recipe_parse(const sl_source *src, sl_script **out, sl_k8s_workload **ws, size_t *nws, sl_error *err);

/* ---- vLLM model recipes (vllm_recipe.c) ---------------------------------- */

/* Reads variant `variant` (0-based, in the file's order) of a vLLM model
 * recipe (vllm-project/recipes models/<Provider>/<Model>.yaml) as the one
 * command the recipe site renders for it by default: `vllm serve MODEL_ID`
 * and the items of model.base_args, the variant's extra_args, the default
 * strategy's tensor-parallel size and overrides, and the default-on
 * features' args, each item one word at its place; base_env and the
 * variant's extra_env as its inline variables. One workload (kind "vLLM
 * model recipe", the image and version the recipe states). With more
 * than one variant, the script has one point whose alternatives are the
 * variants, `taken` the one read. What changes the command per GPU
 * (hardware_overrides) or is another strategy's is a note at its place.
 * YAML errors, and a vLLM-Omni recipe (`omni:`, whose flags are not
 * vLLM's), fail with file:line:col. */
int sl_vllm_recipe_parse(const sl_source *src, unsigned variant, sl_script **out, sl_k8s_workload **ws,
			 size_t *nws, sl_error *err);
/* How many variants a vLLM model recipe has (at least 1; 1 also when the
 * file does not parse, which reading it then says). */
unsigned sl_vllm_recipe_variants(const sl_source *src);

#endif
