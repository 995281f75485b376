/* internal.h: shared by the files of the normalize stage only. */
#ifndef SL_NORMALIZE_INTERNAL_H
#define SL_NORMALIZE_INTERNAL_H

#include "normalize.h"
#include "grammar.h"

/* A service being built from one command. */
typedef struct {
	sl_service svc;
	size_t env_cap, set_cap, wrap_cap;
	const sl_command *cmd;     /* the outermost shell command */
	const sl_script *script;   /* the script holding cmd */
	const sl_grammar *grammar; /* NULL: not an engine command */
	int gpus_rank;             /* priority of the current GPU fact */
	const sl_source *args_src; /* where the args' offsets point (a config file); NULL: the script */
	const sl_word *engine_word; /* the engine program's word (in cmd->argv, or in a bash -c string) */
} sl_build;

typedef struct {
	const sl_entry *entry;
	const sl_grammars *gs;
	sl_model *model;
	size_t svc_cap, note_cap, claim_cap;
	sl_script **inner;         /* scripts of bash -c strings, freed at the end */
	size_t ninner, inner_cap;
	struct sl_topo_fact *topo; /* replica counts read from topology files */
	size_t ntopo, topo_cap;
	struct sl_config_doc *docs; /* YAML files of the entry, parsed once */
	size_t ndocs, docs_cap;
	size_t *svc_cmd;           /* services[i] came from script->cmds[svc_cmd[i]] */
	size_t svc_cmd_cap;
	const sl_script *script;   /* the entry's script */
	struct sl_written *written; /* here-document files, beside model->files */
	size_t nwritten;
	const sl_k8s_workload *ws; /* a manifest's workloads, one per command; NULL for a script */
	sl_error *err;
	int failed;
} sl_ctx;

/* A file the script writes with a here-document. */
typedef struct sl_written {
	const sl_source *src;      /* in model->files */
	const sl_heredoc *hd;      /* in the script */
} sl_written;

void sl_note_add(sl_ctx *c, const sl_source *src, uint32_t off, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void sl_build_env(sl_build *b, const char *name, const char *value, unsigned flags,
		  const char *via, const sl_source *src, uint32_t off, const char *raw);
void sl_build_setting(sl_build *b, const char *key, json_t *value, const char *flag,
		      const char *via, unsigned flags, const sl_source *src, uint32_t off,
		      const char *raw);
void sl_build_wrapper(sl_build *b, const char *kind, json_t *detail, const sl_source *src,
		      uint32_t off, const char *raw);

/* flags.c: an engine's arguments into settings. Returns SL_OK or an input error. */
int sl_parse_engine_args(sl_ctx *c, sl_build *b, const sl_grammar *g, sl_word *const *args,
			 size_t n, int positionals);
/* flags.c: runs a launcher grammar over args; returns the index of the first
 * argument after its options (the image for docker, the program for mpirun).
 * *entrypoint receives a copy of docker's --entrypoint (len 0 when none). */
size_t sl_parse_launcher_args(sl_ctx *c, sl_build *b, const sl_grammar *g, sl_word *const *args,
			      size_t n, sl_word *entrypoint);

/* topology.c: after every command is read. */
void sl_topology(sl_ctx *c, const sl_script *s);

/* config.c: the config files services name (TensorRT-LLM LlmArgs YAML, the
 * disaggregated server config) into their settings; topology files into
 * replica counts (applied by sl_config_replicas, after the comments'). */
typedef struct sl_topo_fact {
	char *role;
	unsigned count;
	sl_origin origin;
} sl_topo_fact;
typedef struct sl_config_doc {
	const sl_source *src;
	sl_yaml_doc *doc;    /* NULL when it did not parse */
	int used;            /* named by a service */
} sl_config_doc;
int sl_link_configs(sl_ctx *c);
void sl_config_replicas(sl_ctx *c);
void sl_config_free(sl_ctx *c);

/* config.c: a here-document file the script writes under path before the
 * command at offset `before`, or NULL. */
const sl_written *sl_written_file(const sl_ctx *c, const char *path, uint32_t before);
/* normalize.c: here-documents into sources of the model. */
void sl_written_load(sl_ctx *c);

/* claims.c: what the metadata and the header comments say (sl_claim). */
void sl_extract_claims(sl_ctx *c, const sl_script *s);

#endif
