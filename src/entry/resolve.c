/*
 * resolve.c (entry): a file given alone that belongs to an entry (see
 * entry.h): the folder's launch script, or a YAML file that script names,
 * is read as that folder's entry, so an edit of gen_config.yaml is
 * checked, shown and diffed as part of what it configures; and a YAML file
 * that no entry names is said to be none, never read as a script of zero
 * services. On disk and at a git revision alike. Uses input.c's nothing:
 * only the source stage's loaders.
 */
#include "entry.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int sl_entry_is_yaml_name(const char *name)
{
	return sl_ends_with(name, ".yaml") || sl_ends_with(name, ".yml");
}

static const char *base_of(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

/* Whether entry e (read from FILE's folder) owns FILE (by base name): its
 * script, or one of its YAML files that the script names. A script owns
 * itself only when the folder adds something to it (a file it names, or
 * the metadata sidecar): else the folder is the script and nothing more.
 * metadata.txt is the entry's when it is its sidecar. */
static int owns(const sl_entry *e, const char *base)
{
	if (!e->script)
		return 0;
	if (!strcmp(e->script->name, base)) {
		if (e->metadata)
			return 1;
		for (size_t i = 0; i < e->nfiles; i++)
			if (strstr(e->script->text, e->files[i]->name))
				return 1;
		return 0;
	}
	if (!strcmp(base, "metadata.txt"))
		return e->metadata != NULL;
	return sl_entry_file(e, base) && strstr(e->script->text, base) != NULL;
}

char *sl_entry_input_owner(const char *file)
{
	struct stat st;
	if (stat(file, &st) != 0 || !S_ISREG(st.st_mode))
		return NULL;
	const char *base = base_of(file);
	if (!sl_ends_with(base, ".sh") && !sl_entry_is_yaml_name(base) && strcmp(base, "metadata.txt"))
		return NULL;
	char *dir = base == file ? sl_strdup(".") : sl_strndup(file, (size_t)(base - file - 1));
	if (!*dir) {  /* a file at / */
		free(dir);
		dir = sl_strdup("/");
	}
	sl_entry *e = NULL;
	sl_error err = {0};
	int ok = !sl_entry_load(dir, &e, &err) && owns(e, base);
	/* a manifest is an entry of its own, unless it is its folder's script */
	sl_entry_free(e);
	sl_error_clear(&err);
	if (!ok) {
		free(dir);
		return NULL;
	}
	return dir;
}

char *sl_entry_input_owner_git(const char *spec)
{
	const char *colon = strchr(spec, ':');
	if (!colon)
		return NULL;
	const char *path = colon + 1, *slash = strrchr(path, '/');
	if (!slash || slash == path)
		return NULL;  /* a file at the top: no folder to be an entry */
	const char *base = slash + 1;
	if (!sl_ends_with(base, ".sh") && !sl_entry_is_yaml_name(base) && strcmp(base, "metadata.txt"))
		return NULL;
	sl_buf dir = {0};
	sl_buf_add(&dir, spec, (size_t)(slash - spec));
	sl_entry *e = NULL;
	sl_error err = {0};
	int ok = !sl_entry_from_git(dir.data, &e, &err) && owns(e, base);
	sl_entry_free(e);
	sl_error_clear(&err);
	if (!ok) {
		sl_buf_free(&dir);
		return NULL;
	}
	return sl_buf_detach(&dir);
}

int sl_entry_input_not_entry(const char *path, const char *text, size_t len, sl_error *err)
{
	if (!sl_entry_is_yaml_name(base_of(path)))
		return SL_OK;
	sl_source *s = NULL;
	sl_error ignored = {0};
	int manifest = !sl_source_from_memory(path, text, len, &s, &ignored) && sl_source_is_manifest(s);
	sl_source_free(s);
	sl_error_clear(&ignored);
	if (manifest)
		return SL_OK;
	sl_error_set(err, path, 1, 1,
		     "not an entry: a YAML file that no launch script beside it names (give its entry's folder or script; "
		     "a Kubernetes or Dynamo manifest has apiVersion: and kind:)");
	return SL_ERR_INPUT;
}
