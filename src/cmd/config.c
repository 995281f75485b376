/*
 * config.c (cmd): the project's .servelint.yaml, as check and audit read
 * it (see config.h).
 */
#include "config.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

char *sl_cmd_config_find(const char *path)
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

int sl_cmd_config_load(const char *file, sl_cmd_config *cfg, sl_error *err)
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

static int in_list(const sl_yaml_node *seq, const char *s, int glob)
{
	for (size_t i = 0; seq && seq->kind == SL_YAML_SEQ && i < seq->n; i++)
		if (seq->items[i]->kind == SL_YAML_SCALAR &&
		    (glob ? !fnmatch(seq->items[i]->value, s, 0) : !strcmp(seq->items[i]->value, s)))
			return 1;
	return 0;
}

/* disable: [IDs] -> suppressed; severity: {ID: level} -> changed */
void sl_cmd_config_apply(const sl_cmd_config *cfg, sl_findings *fs, size_t first)
{
	if (!cfg->doc || !cfg->doc->root)
		return;
	const sl_yaml_node *dis = sl_yaml_get(cfg->doc->root, "disable");
	const sl_yaml_node *sev = sl_yaml_get(cfg->doc->root, "severity");
	for (size_t i = first; i < fs->n; i++) {
		sl_finding *f = &fs->v[i];
		if (!f->suppressed && in_list(dis, sl_rule_id(f->rule), 0)) {
			f->suppressed = 1;
			f->justification = sl_strdup("disabled in .servelint.yaml");
		}
		const sl_yaml_node *lv = sl_yaml_get(sev, sl_rule_id(f->rule));
		sl_severity s;
		if (lv && lv->kind == SL_YAML_SCALAR && !sl_severity_parse(lv->value, &s))
			f->severity = s;
	}
}

int sl_cmd_config_excludes(const sl_cmd_config *cfg, const char *path)
{
	const sl_yaml_node *ex = cfg->doc && cfg->doc->root ? sl_yaml_get(cfg->doc->root, "exclude") : NULL;
	return in_list(ex, path, 1);
}

void sl_cmd_config_free(sl_cmd_config *cfg)
{
	sl_yaml_free(cfg->doc);
	sl_source_free(cfg->src);
	memset(cfg, 0, sizeof *cfg);
}
