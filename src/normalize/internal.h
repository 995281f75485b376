/*
 * internal.h (normalize, internal): the bottom of the normalize stage, which
 * every file of it includes: the context of one entry's normalizing, the
 * service being built, and the builders that add to them (build.c).
 *
 * The files of the stage, each using only those below it (and each upper
 * file's own header naming what it gives the files above):
 *   normalize.c   the order of the steps; a group's scripts
 *     -> unwrap.c, topology.c, claims.c, config.c, group.c, structure.c, build.c
 *   unwrap.c      unwrapping launchers -> flags.c, misplaced.c, structure.c, build.c
 *   structure.c   breaks of structure across commands (a foreground server) -> build.c
 *   group.c       a group's models made one -> roles.c
 *   topology.c    versions, settings from env, overrides; the steps in order
 *     -> roles.c, comment_env.c, gpus.c, replicas.c, versioned.c, config.c
 *   comment_env.c, replicas.c -> roles.c;   gpus.c, roles.c, versioned.c
 *   config.c      config files into settings -> flags.c, build.c
 *   flags.c       arguments through a grammar -> json_members.c, misplaced.c, build.c
 *   json_members.c  a JSON flag value into one setting per member -> build.c
 *   misplaced.c   arguments in the wrong place (a quote swallowing flags, after --) -> build.c
 *   claims.c      what the text claims of itself
 *   build.c       the builders
 *   grammar.c     the engine grammars (grammar.h), which any file may use
 * (tests/file_cycles.sh fails on a circle.)
 */
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

/* A group's script that another runs (`docker run ... bash inner.sh`):
 * what the running command gives it (launchers, env), kept for it. */
typedef struct sl_handoff {
	char *script;              /* the base name of the script run; owned */
	sl_service svc;            /* wrappers and env of the command that runs it; owned */
} sl_handoff;
typedef struct sl_group_run {
	sl_handoff *v;
	size_t n, cap;
} sl_group_run;

typedef struct {
	const sl_entry *entry;
	sl_group_run *group;       /* a group of scripts being read (entry->scripts), or NULL */
	const sl_grammars *gs;
	sl_model *model;
	size_t svc_cap, note_cap, claim_cap;
	sl_script **inner;         /* scripts of bash -c strings, freed at the end */
	size_t ninner, inner_cap;
	struct sl_topo_fact *topo; /* replica counts read from topology files */
	size_t ntopo, topo_cap;
	struct sl_config_doc *docs; /* YAML files of the entry, parsed once */
	sl_shell_cache *cache;     /* shared by the entry's readings (may be NULL); not owned */
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

/* build.c: a note of the model (once per place and text), and a variable,
 * setting or wrapper of the service being built. */
void sl_note_add(sl_ctx *c, const sl_source *src, uint32_t off, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* A note of a structure that changes what runs: kind is one of the model's
 * sl_structure_kinds (anything else is a plain note). */
void sl_note_kind(sl_ctx *c, const char *kind, const sl_source *src, uint32_t off, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* The script's breaks of structure (sl_shell_break), as notes of their kind. */
void sl_note_breaks(sl_ctx *c, const sl_script *s, const sl_source *src);
void sl_build_env(sl_build *b, const char *name, const char *value, unsigned flags,
		  const char *via, const sl_source *src, uint32_t off, const char *raw);
void sl_build_setting(sl_build *b, const char *key, json_t *value, const char *flag,
		      const char *via, unsigned flags, const sl_source *src, uint32_t off,
		      const char *raw);
void sl_build_wrapper(sl_build *b, const char *kind, json_t *detail, const sl_source *src,
		      uint32_t off, const char *raw);
/* A setting's facts object (model.h's `facts`): {"r": versions (a new
 * reference), "engine", "title"}, and "e": {"in": in} unless in is NULL.
 * The caller owns the result; NULL when a string is missing. */
json_t *sl_build_facts(json_t *versions, const char *engine, const char *title, const char *in);

#endif
