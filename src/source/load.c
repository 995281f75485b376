/*
 * load.c: an entry loaded from what names it: a folder (launch.sh and its
 * files), a single file (a script of a grouped folder, or a file in
 * catalogue form), memory, a set of named texts, or stdin.
 */
#include "internal.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

static int load_dir(sl_entry *e, const char *path, sl_error *err)
{
	DIR *d = opendir(path);
	if (!d) {
		sl_error_set(err, path, 0, 0, "cannot open folder: %s", strerror(errno));
		return SL_ERR_IO;
	}
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;
	e->listed = 1;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".git"))
			e->has_git = 1;
		if (de->d_name[0] == '.')
			continue;
		if (!strcmp(de->d_name, "models"))
			e->has_models = 1;
		if (n >= SL_MAX_ENTRY_FILES * 4) {
			closedir(d);
			for (size_t i = 0; i < n; i++)
				free(names[i]);
			free(names);
			sl_error_set(err, path, 0, 0, "too many files for one entry (limit %u)",
				     SL_MAX_ENTRY_FILES);
			return SL_ERR_INPUT;
		}
		SL_PUSH(names, n, cap, sl_strdup(de->d_name));
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof *names, cmp_str);

	const char *script = NULL;
	size_t nsh = 0;
	for (size_t i = 0; i < n; i++) {
		if (!strcmp(names[i], "launch.sh")) {
			script = names[i];
			nsh = 1;
			break;
		}
		if (sl_ends_with(names[i], ".sh")) {
			script = names[i];
			nsh++;
		}
	}
	int rc = SL_OK;
	if (!nsh) {
		/* no script: a Kubernetes or Dynamo manifest launches the entry */
		for (size_t i = 0; i < n && !script; i++) {
			if (!sl_ends_with(names[i], ".yaml") && !sl_ends_with(names[i], ".yml"))
				continue;
			char *full = join(path, names[i]);
			sl_source *s = NULL;
			sl_error ignored = {0};
			if (!sl_source_load(full, &s, &ignored) && sl_source_is_manifest(s)) {
				script = names[i];
				nsh = 1;
			}
			sl_error_clear(&ignored);
			sl_source_free(s);
			free(full);
		}
	}
	if (!script || nsh != 1) {
		sl_error_set(err, path, 0, 0,
			     nsh > 1 ? "entry folder has several *.sh scripts and no launch.sh"
				     : "entry folder has no launch script (launch.sh)");
		rc = SL_ERR_INPUT;
		goto done;
	}
	size_t fcap = 0;
	for (size_t i = 0; i < n && rc == SL_OK; i++) {
		char *full = join(path, names[i]);
		sl_source *s = NULL;
		if (names[i] == script) {
			rc = sl_source_load(full, &e->script, err);
		} else if (!strcmp(names[i], "metadata.txt")) {
			rc = sl_source_load(full, &e->metadata, err);
		} else if (!strcmp(names[i], "metadata.yaml")) {
			/* the structured sidecar `servelint import` writes: not an engine file */
		} else if (sl_ends_with(names[i], ".yaml") || sl_ends_with(names[i], ".yml")) {
			if (e->nfiles >= SL_MAX_ENTRY_FILES) {
				sl_error_set(err, path, 0, 0, "too many files for one entry (limit %u)",
					     SL_MAX_ENTRY_FILES);
				rc = SL_ERR_INPUT;
			} else {
				rc = sl_source_load(full, &s, err);
				if (rc == SL_OK)
					SL_PUSH(e->files, e->nfiles, fcap, s);
			}
		}
		free(full);
	}
done:
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return rc;
}

static int load_file(sl_entry *e, const char *path, sl_error *err)
{
	int g = so_load_grouped(e, path, err);
	if (g)
		return g < 0 ? g : SL_OK;
	sl_source *whole;
	int rc = sl_source_load(path, &whole, err);
	if (rc)
		return rc;
	return so_split_file(e, whole, err);
}

int sl_entry_from_memory(const char *path, const char *text, size_t len, unsigned line_base,
			 sl_entry **out, sl_error *err)
{
	*out = NULL;
	sl_source *whole;
	int rc = sl_source_from_memory(path, text, len, &whole, err);
	if (rc)
		return rc;
	whole->line_base = line_base;
	sl_entry *e = sl_calloc(1, sizeof *e);
	e->path = sl_strdup(path);
	rc = so_split_file(e, whole, err);
	if (rc) {
		sl_entry_free(e);
		return rc;
	}
	*out = e;
	return SL_OK;
}

int sl_entry_from_source(const char *path, sl_source *whole, sl_entry **out, sl_error *err)
{
	*out = NULL;
	sl_entry *e = sl_calloc(1, sizeof *e);
	e->path = sl_strdup(path);
	int rc = so_split_file(e, whole, err);
	if (rc) {
		sl_entry_free(e);
		return rc;
	}
	*out = e;
	return SL_OK;
}

/* The entry at PATH, a folder or a file as the caller knows */
static int load_as(const char *path, int folder, sl_entry **out, sl_error *err)
{
	sl_entry *e = sl_calloc(1, sizeof *e);
	e->path = sl_strdup(path);
	int rc = folder ? load_dir(e, path, err) : load_file(e, path, err);
	if (rc) {
		sl_entry_free(e);
		return rc;
	}
	*out = e;
	return SL_OK;
}

int sl_entry_load(const char *path, sl_entry **out, sl_error *err)
{
	*out = NULL;
	struct stat st;
	if (stat(path, &st) != 0) {
		sl_error_set(err, path, 0, 0, "cannot open: %s", strerror(errno));
		return SL_ERR_IO;
	}
	return load_as(path, S_ISDIR(st.st_mode), out, err);
}

int sl_entry_load_folder(const char *path, sl_entry **out, sl_error *err)
{
	*out = NULL;
	return load_as(path, 1, out, err);
}

int sl_entry_from_files(const char *path, const char *display, char *const *names,
			char *const *texts, const size_t *lens, size_t n, sl_entry **out, sl_error *err)
{
	*out = NULL;
	sl_entry *e = sl_calloc(1, sizeof *e);
	e->path = sl_strdup(path);
	int rc = SL_OK;
	size_t script = n, nsh = 0, fcap = 0;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(names[i], "launch.sh") || (sl_ends_with(names[i], ".sh") && script == n)) {
			if (!strcmp(names[i], "launch.sh") || !nsh)
				script = i;
			nsh++;
		}
	if (script == n) {
		sl_error_set(err, path, 0, 0, "entry folder has no launch script (launch.sh)");
		rc = SL_ERR_INPUT;
	}
	for (size_t i = 0; i < n && rc == SL_OK; i++) {
		sl_buf p = {0};
		sl_buf_printf(&p, "%s%s", display, names[i]);
		sl_source *s = NULL;
		if (i == script) {
			rc = sl_source_from_memory(p.data, texts[i], lens[i], &e->script, err);
		} else if (!strcmp(names[i], "metadata.txt")) {
			rc = sl_source_from_memory(p.data, texts[i], lens[i], &e->metadata, err);
		} else if (strcmp(names[i], "metadata.yaml") &&
			   (sl_ends_with(names[i], ".yaml") || sl_ends_with(names[i], ".yml"))) {
			rc = sl_source_from_memory(p.data, texts[i], lens[i], &s, err);
			if (rc == SL_OK)
				SL_PUSH(e->files, e->nfiles, fcap, s);
		}
		sl_buf_free(&p);
	}
	/* the folder's other scripts, which `source NAME` reads (as on disk) */
	for (size_t i = 0; i < n && rc == SL_OK; i++)
		if (i != script && sl_ends_with(names[i], ".sh"))
			sl_source_offer(e->script, names[i], texts[i], lens[i]);
	if (rc) {
		sl_entry_free(e);
		return rc;
	}
	*out = e;
	return SL_OK;
}

int sl_entry_from_stdin(sl_entry **out, sl_error *err)
{
	sl_buf b = {0};
	char chunk[65536];
	size_t n;
	*out = NULL;
	while ((n = fread(chunk, 1, sizeof chunk, stdin)) > 0) {
		if (b.len + n > SL_MAX_FILE_BYTES) {
			sl_buf_free(&b);
			sl_error_set(err, "-", 0, 0, "input is larger than the limit of %u bytes", SL_MAX_FILE_BYTES);
			return SL_ERR_INPUT;
		}
		sl_buf_add(&b, chunk, n);
	}
	int rc = sl_entry_from_memory("-", b.data ? b.data : "", b.len, 0, out, err);
	sl_buf_free(&b);
	return rc;
}
