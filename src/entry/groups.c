/*
 * groups.c (entry): groups of files that .servelint.yaml states as one
 * entry, where the scripts themselves do not say it (see entry.h):
 *
 *   entries:
 *     - name: qwen-disagg
 *       files: [start_p.sh, start_d.sh, engine.yaml]
 *
 * Files are relative to the folder of the .servelint.yaml; the first
 * script is the entry's script. Kept apart from config.c's keys (disable,
 * severity, exclude), which check and audit read.
 */
#include "entry.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char *folder_of(const char *file)
{
	const char *s = strrchr(file, '/');
	return s ? sl_strndup(file, (size_t)(s - file) + (s == file)) : sl_strdup(".");
}

int sl_entry_stated_groups(const char *path, sl_group **out, size_t *n, char **base, sl_error *err)
{
	*out = NULL;
	*n = 0;
	*base = NULL;
	char *cfgp = sl_entry_config_find(path);
	if (!cfgp)
		return SL_OK;
	sl_entry_config cfg;
	int rc = sl_entry_config_load(cfgp, &cfg, err);
	const sl_yaml_node *es = !rc && cfg.doc && cfg.doc->root ? sl_yaml_get(cfg.doc->root, "entries") : NULL;
	size_t cap = 0;
	if (es && es->kind != SL_YAML_SEQ) {
		sl_error_set(err, cfgp, es->line, es->col, "entries: expected a list of {name, files}");
		rc = SL_ERR_INPUT;
	}
	for (size_t i = 0; es && !rc && i < es->n; i++) {
		const sl_yaml_node *it = es->items[i], *files = sl_yaml_get(it, "files"), *nm = sl_yaml_get(it, "name");
		if (!files || files->kind != SL_YAML_SEQ || !files->n) {
			sl_error_set(err, cfgp, it->line, it->col, "entries: each needs `files:`, a list of the entry's files");
			rc = SL_ERR_INPUT;
			break;
		}
		sl_group g = {0};
		size_t gcap = 0;
		sl_buf how = {0};
		/* every file named must be there */
		char *dir = folder_of(cfgp);
		for (size_t k = 0; k < files->n && !rc; k++) {
			const sl_yaml_node *f = files->items[k];
			sl_buf fp = {0};
			sl_buf_printf(&fp, "%s/%s", dir, f->value ? f->value : "");
			struct stat st;
			if (f->kind != SL_YAML_SCALAR || stat(fp.data, &st) || !S_ISREG(st.st_mode)) {
				sl_error_set(err, cfgp, f->line, f->col, "entries: `%s` is not a file beside .servelint.yaml",
					     f->value ? f->value : "(not a name)");
				rc = SL_ERR_INPUT;
			}
			sl_buf_free(&fp);
		}
		free(dir);
		if (rc)
			break;
		/* the first script leads */
		for (int pass = 0; pass < 2; pass++)
			for (size_t k = 0; k < files->n; k++) {
				const sl_yaml_node *f = files->items[k];
				if (f->kind != SL_YAML_SCALAR || !f->value || !*f->value)
					continue;

				int lead = !g.n && sl_ends_with(f->value, ".sh");
				if (pass == 0 ? !lead : (g.n && !strcmp(g.names[0], f->value)))
					continue;
				SL_PUSH(g.names, g.n, gcap, sl_strdup(f->value));
				if (pass == 0)
					break;
			}
		for (size_t k = 0; k < g.n; k++)
			sl_buf_printf(&how, "%s%s", k ? " + " : "", g.names[k]);
		sl_buf_printf(&how, " (stated in .servelint.yaml%s%s)", nm && nm->kind == SL_YAML_SCALAR ? " as " : "",
			      nm && nm->kind == SL_YAML_SCALAR ? nm->value : "");
		g.how = sl_buf_detach(&how);
		SL_PUSH(*out, *n, cap, g);
	}
	sl_entry_config_free(&cfg);
	if (rc) {
		sl_source_groups_free(*out, *n);
		*out = NULL;
		*n = 0;
	} else {
		*base = folder_of(cfgp);
	}
	free(cfgp);
	return rc;
}

/* Whether file `name` of a group (relative to base) is path. */
static int same_file(const char *base, const char *name, const char *path)
{
	sl_buf p = {0};
	sl_buf_printf(&p, "%s/%s", base, name);
	char a[PATH_MAX], b[PATH_MAX];
	int same = realpath(p.data, a) && realpath(path, b) && !strcmp(a, b);
	sl_buf_free(&p);
	return same;
}

int sl_entry_stated_lead(const sl_group *gs, size_t n, const char *base, const char *path)
{
	for (size_t k = 0; k < n; k++)
		for (size_t q = 0; q < gs[k].n; q++)
			if (same_file(base, gs[k].names[q], path))
				return q == 0 ? 1 : -1;
	return 0;
}

int sl_entry_load_stated(const char *path, sl_entry **out, sl_error *err)
{
	*out = NULL;
	sl_group *gs;
	size_t n;
	char *base;
	int rc = sl_entry_stated_groups(path, &gs, &n, &base, err);
	if (rc)
		return rc;
	int got = 0;
	for (size_t k = 0; k < n && !got; k++)
		for (size_t q = 0; q < gs[k].n && !got; q++)
			if (same_file(base, gs[k].names[q], path)) {
				rc = sl_entry_from_group(path, base, gs[k].names, gs[k].n, gs[k].how, out, err);
				got = rc ? rc : 1;
			}
	sl_source_groups_free(gs, n);
	free(base);
	return got;
}
