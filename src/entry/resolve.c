/*
 * resolve.c (entry): a file given alone that belongs to an entry (see
 * entry.h): the folder's launch script, or a YAML file that script names,
 * is read as that folder's entry, so an edit of gen_config.yaml is
 * checked, shown and diffed as part of what it configures; and a YAML file
 * that no entry names is read alone as the engine config file it is (the
 * engine from its keys: normalize's sl_normalize_config_engine), or said
 * to be none when its engine cannot be told, never read as a script of
 * zero services. On disk and at a git revision alike. Uses input.c's
 * nothing: only the source stage's loaders and that one normalize call.
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
	sl_entry *e = NULL;
	char *dir = sl_entry_input_owner_of(file, &e);
	sl_entry_free(e);
	return dir;
}

char *sl_entry_input_owner_of(const char *file, sl_entry **out)
{
	*out = NULL;
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
	sl_error_clear(&err);
	if (!ok) {
		sl_entry_free(e);
		free(dir);
		return NULL;
	}
	*out = e;
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

/* ---- an engine config YAML alone ----------------------------------------- */

/* The command line that names the file, per engine: the model a
 * placeholder ($MODEL, unknown) unless the file names it. */
static char *alone_command(const char *engine, const char *name, const sl_source *y)
{
	int model = 0;
	static const char *const keys[] = {"model:", "model-path:", "model_path:"};
	for (size_t i = 0; i < sizeof keys / sizeof *keys && !model; i++) {
		size_t n = strlen(keys[i]);
		/* a top-level key: at the file's start or a line's */
		for (const char *p = strstr(y->text, keys[i]); p && !model; p = strstr(p + n, keys[i]))
			model = p == y->text || p[-1] == '\n';
	}
	sl_buf b = {0};
	if (!strcmp(engine, "trtllm"))
		sl_buf_printf(&b, "trtllm-serve \"$MODEL\" --config '%s'\n", name);
	else if (!strcmp(engine, "trtllm-disagg"))
		sl_buf_printf(&b, "trtllm-serve disaggregated -c '%s'\n", name);
	else if (!strcmp(engine, "vllm"))
		sl_buf_printf(&b, "vllm serve %s--config '%s'\n", model ? "" : "\"$MODEL\" ", name);
	else
		sl_buf_printf(&b, "python3 -m sglang.launch_server %s--config '%s'\n",
			      model ? "" : "--model-path \"$MODEL\" ", name);
	return sl_buf_detach(&b);
}

int sl_entry_input_alone(const char *path, const char *text, size_t len, sl_entry **out, sl_error *err)
{
	*out = NULL;
	const char *base = base_of(path);
	if (!sl_entry_is_yaml_name(base) || strchr(base, '\'') || strchr(base, '\n'))
		return sl_entry_input_not_entry(path, text, len, err);
	sl_source *y = NULL;
	sl_grammars *gs = NULL;
	const char *engine = NULL;
	char *why = NULL;
	int rc = sl_source_from_memory(path, text, len, &y, err);
	if (rc)
		return rc;
	if (sl_source_is_manifest(y)) {
		sl_source_free(y);
		return SL_OK; /* an entry of its own */
	}
	if ((rc = sl_normalize_grammars_load(&gs, err)) != 0) {
		sl_source_free(y);
		return rc;
	}
	if (sl_normalize_config_engine(gs, y, &engine, &why)) {
		sl_error_set(err, path, 1, 1,
			     "not an entry, and not an engine config file servelint can tell the engine of: %s (no "
			     "launch script beside it names it; give the entry's folder or script)",
			     why);
		free(why);
		sl_normalize_grammars_free(gs);
		sl_source_free(y);
		return SL_ERR_INPUT;
	}
	sl_normalize_grammars_free(gs);
	/* an entry of the file and the command line that would name it: the
	 * script's name says it is not a file of the folder */
	char *cmd = alone_command(engine, base, y);
	sl_buf sname = {0}, display = {0};
	sl_buf_printf(&sname, "(%s alone, read as %s's config file).sh", base, engine);
	sl_buf_add(&display, path, (size_t)(base - path));
	char *names[2] = {sname.data, (char *)base};
	char *texts[2] = {cmd, y->text};
	size_t lens[2] = {strlen(cmd), y->len};
	rc = sl_entry_from_files(path, display.data ? display.data : "", names, texts, lens, 2, out, err);
	if (!rc)
		(*out)->alone = 1;
	free(cmd);
	sl_buf_free(&sname);
	sl_buf_free(&display);
	sl_source_free(y);
	return rc;
}
