/*
 * config.c (entry): the project's .servelint.yaml, as check and audit read
 * it (see entry.h); its disable and severity are applied by the check stage
 * (sl_check_config_apply, check/checking.c).
 */
#include "entry.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

char *sl_entry_config_find(const char *path)
{
	char *d = sl_strdup(path);
	struct stat st;
	if (stat(d, &st) == 0 && !S_ISDIR(st.st_mode)) {
		char *sl = strrchr(d, '/');
		if (sl)
			*sl = '\0';
		else
			strcpy(d, ".");
	}
	for (int depth = 0; depth < 64; depth++) {
		sl_buf p = {0};
		sl_buf_printf(&p, "%s/.servelint.yaml", d);
		if (stat(p.data, &st) == 0) {
			free(d);
			return sl_buf_detach(&p);
		}
		sl_buf_free(&p);
		char *sl = strrchr(d, '/');
		if (!strcmp(d, ".") || !strcmp(d, "/") || !*d)
			break;
		if (sl && sl != d)
			*sl = '\0';
		else if (sl)
			d[1] = '\0';
		else
			strcpy(d, ".");
	}
	free(d);
	return NULL;
}

int sl_entry_config_load(const char *file, sl_entry_config *cfg, sl_error *err)
{
	memset(cfg, 0, sizeof *cfg);
	if (!file)
		return SL_OK;
	if (sl_source_load(file, &cfg->src, err) || sl_yaml_load(cfg->src, &cfg->doc, err))
		return SL_ERR_INPUT;
	if (cfg->doc->root && cfg->doc->root->kind != SL_YAML_MAP) {
		sl_error_set(err, file, 1, 1, "configuration must be a mapping (disable, severity, exclude)");
		return SL_ERR_INPUT;
	}
	return SL_OK;
}

int sl_entry_config_listed(const sl_yaml_node *seq, const char *s, int glob)
{
	for (size_t i = 0; seq && seq->kind == SL_YAML_SEQ && i < seq->n; i++)
		if (seq->items[i]->kind == SL_YAML_SCALAR &&
		    (glob ? !fnmatch(seq->items[i]->value, s, 0) : !strcmp(seq->items[i]->value, s)))
			return 1;
	return 0;
}

int sl_entry_config_excludes(const sl_entry_config *cfg, const char *path)
{
	const sl_yaml_node *ex = cfg->doc && cfg->doc->root ? sl_yaml_get(cfg->doc->root, "exclude") : NULL;
	return sl_entry_config_listed(ex, path, 1);
}

void sl_entry_config_free(sl_entry_config *cfg)
{
	sl_yaml_free(cfg->doc);
	sl_source_free(cfg->src);
	memset(cfg, 0, sizeof *cfg);
}
