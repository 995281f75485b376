/* input.c (entry): PATH arguments into entries (see entry.h). */
#include "entry.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int sl_entry_input_open(sl_entry_input *in, const char *path, sl_error *err)
{
	memset(in, 0, sizeof *in);
	in->path = path;
	struct stat st;
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return SL_OK;  /* a folder, or nothing: sl_entry_load says which */
	int rc = sl_source_load(path, &in->file, err);
	if (rc) {
		in->done = 1;
		return rc;
	}
	/* a page has several "Submitted by" lines; an entry at most one */
	const char *sb = strstr(in->file->text, "\nSubmitted by ");
	if (sb && strstr(sb + 1, "\nSubmitted by ") &&
	    (sl_page_split(in->file, &in->pes, &in->npe, NULL) != SL_OK || in->npe < 2)) {
		sl_page_entries_free(in->pes, in->npe);
		in->pes = NULL;
		in->npe = 0;
	}
	return SL_OK;
}

int sl_entry_input_next(sl_entry_input *in, sl_entry **out, sl_error *err)
{
	*out = NULL;
	if (in->done)
		return 0;
	if (in->npe) {
		if (in->next >= in->npe) {
			in->done = 1;
			return 0;
		}
		const sl_page_entry *pe = &in->pes[in->next++];
		const sl_source *p = in->file;
		size_t a = p->lines[pe->first - 1];
		size_t b = pe->last < p->nlines ? p->lines[pe->last] : p->len;
		if (sl_entry_from_memory(in->path, p->text + a, b - a, pe->first - 1, out, err))
			return -1;
		sl_buf name = {0};
		sl_buf_printf(&name, "%s:%u", in->path, pe->first);
		free((*out)->path);
		(*out)->path = sl_buf_detach(&name);
		return 1;
	}
	in->done = 1;
	int rc;
	if (in->file) {
		rc = sl_entry_from_source(in->path, in->file, out, err);
		in->file = NULL;  /* the entry owns it now */
	} else {
		rc = sl_entry_load(in->path, out, err);
	}
	return rc ? -1 : 1;
}

void sl_entry_input_close(sl_entry_input *in)
{
	sl_page_entries_free(in->pes, in->npe);
	sl_source_free(in->file);
	memset(in, 0, sizeof *in);
}

int sl_entry_input_load_one(const char *spec, sl_entry **out, sl_error *err)
{
	struct stat st;
	if (!strcmp(spec, "-"))
		return sl_entry_from_stdin(out, err);
	if (stat(spec, &st) != 0 && strchr(spec, ':'))
		return sl_entry_from_git(spec, out, err);
	return sl_entry_load(spec, out, err);
}

/* A folder that is not itself an entry is searched for entries: folders
 * holding launch.sh, loose *.sh files, and Kubernetes or Dynamo manifests. */
void sl_entry_input_discover(const char *path, char ***out, size_t *n, size_t *cap, unsigned depth)
{
	struct stat st;
	sl_buf ls = {0};
	sl_buf_printf(&ls, "%s/launch.sh", path);
	int exists = stat(path, &st) == 0, dir = exists && S_ISDIR(st.st_mode);
	int entry = exists && (!dir || stat(ls.data, &st) == 0);
	sl_buf_free(&ls);
	if (entry || !dir) {
		/* an entry, or something that is not there: loading says why */
		if (entry || depth == 0)
			SL_PUSH(*out, *n, *cap, sl_strdup(path));
		return;
	}
	if (depth > 16)
		return;
	DIR *d = opendir(path);
	if (!d)
		return;
	char **names = NULL;
	size_t nn = 0, nc = 0;
	struct dirent *de;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			SL_PUSH(names, nn, nc, sl_strdup(de->d_name));
	closedir(d);
	for (size_t i = 0; i < nn; i++) {
		/* in name order, so reports are stable */
		for (size_t j = i + 1; j < nn; j++)
			if (strcmp(names[j], names[i]) < 0) {
				char *t = names[i];
				names[i] = names[j];
				names[j] = t;
			}
		sl_buf p = {0};
		/* `corpus/` and `corpus` give the same names (no `corpus//x`) */
		sl_buf_printf(&p, "%s%s%s", path, sl_ends_with(path, "/") ? "" : "/", names[i]);
		if (stat(p.data, &st) == 0 && (S_ISDIR(st.st_mode) || sl_ends_with(names[i], ".sh")))
			sl_entry_input_discover(p.data, out, n, cap, depth + 1);
		else if (sl_ends_with(names[i], ".yaml") || sl_ends_with(names[i], ".yml")) {
			/* a Kubernetes or Dynamo manifest outside an entry folder is one */
			sl_source *src = NULL;
			sl_error ignored = {0};
			if (!sl_source_load(p.data, &src, &ignored) && sl_source_is_manifest(src))
				SL_PUSH(*out, *n, *cap, sl_strdup(p.data));
			sl_error_clear(&ignored);
			sl_source_free(src);
		}
		sl_buf_free(&p);
		free(names[i]);
	}
	free(names);
}

/* How many entries a regular file holds (a published page holds many);
 * 1 for anything else. */
size_t sl_entry_input_count(const char *path)
{
	struct stat st;
	if (stat(path, &st) || !S_ISREG(st.st_mode))
		return 1;
	sl_entry_input in;
	sl_error err = {0};
	size_t n = 0;
	if (!sl_entry_input_open(&in, path, &err)) {
		sl_entry *e = NULL;
		int k;
		while ((k = sl_entry_input_next(&in, &e, &err)) != 0) {
			n += k > 0;
			sl_entry_free(e);
			e = NULL;
			sl_error_clear(&err);
		}
		sl_entry_input_close(&in);
	}
	sl_error_clear(&err);
	return n ? n : 1;
}

int sl_entry_input_open_told(sl_entry_input *in, const char *path, int *failed)
{
	sl_error err = {0};
	if (!sl_entry_input_open(in, path, &err))
		return 0;
	sl_error_print(&err, "servelint");
	sl_error_clear(&err);
	*failed = 1;
	return -1;
}

int sl_entry_input_next_told(sl_entry_input *in, sl_entry **out, int *failed)
{
	sl_error err = {0};
	int got;
	while ((got = sl_entry_input_next(in, out, &err)) < 0) {
		sl_error_print(&err, "servelint");
		sl_error_clear(&err);
		*failed = 1;
	}
	return got;
}
