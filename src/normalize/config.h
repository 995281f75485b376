/*
 * config.h (normalize, internal): the config files services name
 * (TensorRT-LLM LlmArgs YAML, the disaggregated server config, vLLM's
 * --config) into their settings; topology files into replica counts
 * (config.c). Used by topology.c, which runs them in order, and by
 * normalize.c, which frees what they read.
 */
#ifndef SL_NORMALIZE_CONFIG_H
#define SL_NORMALIZE_CONFIG_H

#include "internal.h"

/* What config.c keeps in the context (sl_ctx's topo and docs). */
typedef struct sl_topo_fact {
	char *role;
	unsigned count;
	sl_origin origin;
} sl_topo_fact;
typedef struct sl_config_doc {
	const sl_source *src;
	sl_yaml_doc *doc;    /* NULL when it did not parse */
	int shared;          /* doc is the entry's cache's (sl_shell_cache_yaml), not freed here */
	int used;            /* named by a service */
} sl_config_doc;

/* The settings of the files services name, and the replica counts of
 * topology files (applied by sl_config_replicas, after the comments'). */
int sl_link_configs(sl_ctx *c);
void sl_config_replicas(sl_ctx *c);
void sl_config_free(sl_ctx *c);

/* A here-document file the script writes under path before the command
 * at offset `before`, or NULL. */
const sl_written *sl_written_file(const sl_ctx *c, const char *path, uint32_t before);

#endif
