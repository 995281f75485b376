/*
 * config.h (cmd, internal): a project's .servelint.yaml, shared by check
 * and audit: `disable: [IDs]` (findings suppressed), `severity: {ID:
 * level}` (changed), `exclude: [globs]` (entry paths left out).
 */
#ifndef SL_CMD_CONFIG_H
#define SL_CMD_CONFIG_H

#include "check/check.h"
#include "parse/parse.h"

typedef struct sl_cmd_config {
	sl_source *src;
	sl_yaml_doc *doc;    /* NULL: no config */
} sl_cmd_config;

/* The nearest .servelint.yaml at or above PATH (its folder when a file);
 * the caller frees it; NULL when there is none. */
char *sl_cmd_config_find(const char *path);
/* Reads FILE (NULL: no config, *cfg empty). A file that is not a mapping
 * is an error with its place. Free *cfg with sl_cmd_config_free in any case. */
int sl_cmd_config_load(const char *file, sl_cmd_config *cfg, sl_error *err);
/* Whether the config's exclude globs match an entry's path. */
int sl_cmd_config_excludes(const sl_cmd_config *cfg, const char *path);
/* disable and severity, applied to the findings [first, fs->n). */
void sl_cmd_config_apply(const sl_cmd_config *cfg, sl_findings *fs, size_t first);
void sl_cmd_config_free(sl_cmd_config *cfg);

#endif
