/*
 * topology.h (normalize, internal): the topology steps (sl_topology, in
 * topology.c, runs them in order), each its file's, and what roles.c gives
 * the other topology files: reading a command's comments and role words.
 */
#ifndef SL_NORMALIZE_TOPOLOGY_H
#define SL_NORMALIZE_TOPOLOGY_H

#include "internal.h"

/* topology.c: after every command is read. */
void sl_topology(sl_ctx *c, const sl_script *s);

/* roles.c */
const sl_command *sl_topo_cmd_of(sl_ctx *c, const sl_script *s, size_t i);  /* service i's command */
void sl_topo_lower(char *s);
const char *sl_topo_role_from_text(const char *t);  /* the role a (lowercase) text names, or NULL */
int sl_topo_is_worker(const char *role);
void sl_topo_assign_role(sl_ctx *c, const sl_script *sc, size_t i);
void sl_topo_assign_names(sl_model *m);

/* comment_env.c */
void sl_topo_comment_env(sl_ctx *c, const sl_script *sc);

/* versioned.c: once the service's version is known */
void sl_topo_versioned(sl_ctx *c, sl_service *s);

/* gpus.c */
void sl_topo_assign_gpus(sl_service *s);

/* replicas.c */
void sl_topo_merge_loops(sl_ctx *c, const sl_script *sc);
void sl_topo_header_replicas(sl_ctx *c, const sl_script *sc);
void sl_topo_k8s_facts(sl_ctx *c);

#endif
