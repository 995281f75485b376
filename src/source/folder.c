/*
 * folder.c: the entry a script of a folder with several scripts (and no
 * launch.sh) belongs to, on disk or from texts in memory: group.c decides
 * the groups from the texts, this file reads the folder (once per state of
 * its files) and builds the entry of a group.
 */
#include "internal.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/stat.h>

/* The files of group g (texts in memory, names as in the folder): the
 * script `first` (else the group's own first) is the entry's script, the
 * other scripts its scripts, YAML files its files; prefix + name is each
 * file's path. */
static int build_group(sl_entry *e, const char *prefix, char *const *names, char *const *texts, const size_t *lens,
		       size_t n, char *const *members, size_t nmembers, const char *first, const char *how,
		       sl_error *err)
{
	size_t scap = 0, fcap = 0;
	int rc = SL_OK;
	if (!first)
		first = members[0];
	for (int pass = 0; pass < 2 && rc == SL_OK; pass++)
		for (size_t q = 0; q < nmembers && rc == SL_OK; q++) {
			const char *m = members[q];
			if ((pass == 0) != !strcmp(m, first))
				continue;
			size_t i = 0;
			while (i < n && strcmp(names[i], m))
				i++;
			if (i < n && pass == 1 && !lens[i] && sl_ends_with(m, ".sh"))
				continue;  /* unreadable (or empty): no part of the group; the
					    * script that sources it says why (its link) */
			sl_buf p = {0};
			sl_buf_printf(&p, "%s%s", prefix, m);
			if (i == n) {
				sl_error_set(err, p.data, 0, 0, "file of the group not found");
				rc = SL_ERR_INPUT;
			} else if (pass == 0) {
				rc = sl_source_from_memory(p.data, texts[i], lens[i], &e->script, err);
			} else {
				sl_source *s = NULL;
				int sh = sl_ends_with(m, ".sh");
				if ((sh ? e->nscripts : e->nfiles) >= SL_MAX_ENTRY_FILES) {
					sl_error_set(err, p.data, 0, 0, "too many files for one entry (limit %u)",
						     SL_MAX_ENTRY_FILES);
					rc = SL_ERR_INPUT;
				} else if ((rc = sl_source_from_memory(p.data, texts[i], lens[i], &s, err)) == SL_OK) {
					if (sh)
						SL_PUSH(e->scripts, e->nscripts, scap, s);
					else
						SL_PUSH(e->files, e->nfiles, fcap, s);
				}
			}
			sl_buf_free(&p);
		}
	if (rc == SL_OK && !e->script) {
		sl_error_set(err, e->path, 0, 0, "the group has no script");
		rc = SL_ERR_INPUT;
	}
	/* the folder's scripts, which `source NAME` reads (as it would on disk) */
	for (size_t i = 0; i < n && rc == SL_OK; i++)
		if (sl_ends_with(names[i], ".sh") && strcmp(names[i], e->script->name))
			sl_source_offer(e->script, names[i], texts[i], lens[i]);
	if (rc == SL_OK && how)
		e->grouped = sl_strdup(how);
	return rc;
}

/* The group files of a folder on disk (*.sh, *.yaml, *.yml), in name order. */
static int read_group_files(const char *dir, char ***names, char ***texts, size_t **lens, size_t *n, sl_error *err)
{
	*names = NULL;
	*texts = NULL;
	*lens = NULL;
	*n = 0;
	DIR *d = opendir(dir);
	if (!d) {
		sl_error_set(err, dir, 0, 0, "cannot open folder: %s", strerror(errno));
		return SL_ERR_IO;
	}
	size_t cap = 0;
	struct dirent *de;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.' && (sl_source_is_group_file(de->d_name) || !strcmp(de->d_name, "launch.sh")))
			SL_PUSH(*names, *n, cap, sl_strdup(de->d_name));
	closedir(d);
	if (*n)
		qsort(*names, *n, sizeof **names, cmp_str);
	*texts = sl_calloc(*n + 1, sizeof **texts);
	*lens = sl_calloc(*n + 1, sizeof **lens);
	if (*n > SL_MAX_ENTRY_FILES * 16) {
		sl_error_set(err, dir, 0, 0, "too many scripts in one folder (limit %u)", SL_MAX_ENTRY_FILES * 16);
		return SL_ERR_INPUT;
	}
	for (size_t i = 0; i < *n; i++) {
		char *full = join(dir, (*names)[i]);
		sl_error ignored = {0};
		struct stat st;
		/* an unreadable sibling is nobody's part (its own entry says why) */
		if (stat(full, &st) || !S_ISREG(st.st_mode) ||
		    sl_read_file(full, SL_MAX_FILE_BYTES, &(*texts)[i], &(*lens)[i], &ignored)) {
			(*texts)[i] = sl_strdup("");
			(*lens)[i] = 0;
		}
		sl_error_clear(&ignored);
		free(full);
	}
	return SL_OK;
}

static void free_files(char **names, char **texts, size_t *lens, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(names[i]);
		if (texts)
			free(texts[i]);
	}
	free(names);
	free(texts);
	free(lens);
}

static char *dir_of(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? sl_strndup(path, (size_t)(s - path) + (s == path)) : sl_strdup(".");
}

/* The last folder read for its groups, kept while its files are as they
 * were (names, sizes, modification times): show and check load each of a
 * folder's scripts in turn, and each needs the same groups. Its users hold
 * fmemo_lock: the threads of check -j read scripts of one folder at once. */
static pthread_mutex_t fmemo_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
	char *dir, *sig;
	char **names, **texts;
	size_t *lens, n;
	sl_group *gs;
	size_t ng;
	int many;
} fmemo;

static void fmemo_clear(void)
{
	free_files(fmemo.names, fmemo.texts, fmemo.lens, fmemo.n);
	sl_source_groups_free(fmemo.gs, fmemo.ng);
	free(fmemo.dir);
	free(fmemo.sig);
	memset(&fmemo, 0, sizeof fmemo);
}

/* What a folder's group files are now, as text to compare. */
static char *folder_signature(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return NULL;
	sl_buf b = {0};
	struct dirent *de;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || (!sl_source_is_group_file(de->d_name) && strcmp(de->d_name, "launch.sh")))
			continue;
		char *full = join(dir, de->d_name);
		struct stat st;
		if (!stat(full, &st))
			sl_buf_printf(&b, "%s %lld %lld.%09ld\n", de->d_name, (long long)st.st_size, (long long)st.st_mtim.tv_sec,
				      (long)st.st_mtim.tv_nsec);
		free(full);
	}
	closedir(d);
	return b.data ? sl_buf_detach(&b) : sl_strdup("");
}

static int fmemo_get(const char *dir)
{
	char *sig = folder_signature(dir);
	if (!sig)
		return -1;
	if (fmemo.dir && !strcmp(fmemo.dir, dir) && !strcmp(fmemo.sig, sig)) {
		free(sig);
		return 0;
	}
	static int registered;
	if (!registered) {
		atexit(fmemo_clear);
		registered = 1;
	}
	fmemo_clear();
	sl_error err = {0};
	if (read_group_files(dir, &fmemo.names, &fmemo.texts, &fmemo.lens, &fmemo.n, &err)) {
		sl_error_clear(&err);
		free_files(fmemo.names, fmemo.texts, fmemo.lens, fmemo.n);
		memset(&fmemo, 0, sizeof fmemo);
		free(sig);
		return -1;
	}
	fmemo.dir = sl_strdup(dir);
	fmemo.sig = sig;
	fmemo.many = sl_source_many_scripts(fmemo.names, fmemo.n);
	if (fmemo.many)
		sl_source_groups(fmemo.names, fmemo.texts, fmemo.lens, fmemo.n, &fmemo.gs, &fmemo.ng);
	return 0;
}

/* A script in a folder of several scripts and no launch.sh: its group.
 * Returns 1 when it loaded it, 0 when the folder is not such a one (or
 * the script is alone in its group), negative on error. */
int so_load_grouped(sl_entry *e, const char *path, sl_error *err)
{
	if (!sl_ends_with(path, ".sh"))
		return 0;
	char *dir = dir_of(path);
	const char *b = base_name(path);
	pthread_mutex_lock(&fmemo_lock);
	int ok = !fmemo_get(dir) && fmemo.many;
	free(dir);
	if (!ok) {
		pthread_mutex_unlock(&fmemo_lock);
		return 0;
	}
	const sl_group *g = sl_source_group_of(fmemo.gs, fmemo.ng, b);
	int got = 0;
	if (g && g->n > 1) {
		sl_buf prefix = {0};
		size_t dl = (size_t)(b - path);
		sl_buf_add(&prefix, path, dl);
		int rc = build_group(e, prefix.data ? prefix.data : "", fmemo.names, fmemo.texts, fmemo.lens, fmemo.n,
				     g->names, g->n, b, g->how, err);
		if (!rc && e->script) {
			/* on disk, what it sources is read from disk (inside the input's
			 * root, each failure said as it is), not from the folder's texts */
			for (size_t i = 0; i < e->script->noffers; i++) {
				free(e->script->offers[i].name);
				free(e->script->offers[i].text);
			}
			free(e->script->offers);
			e->script->offers = NULL;
			e->script->noffers = 0;
			e->script->offered = 0;
		}
		sl_buf_free(&prefix);
		got = rc ? rc : 1;
	}
	pthread_mutex_unlock(&fmemo_lock);
	return got;
}

int sl_source_folder_groups(const char *dir, sl_group **out, size_t *nout)
{
	*out = NULL;
	*nout = 0;
	pthread_mutex_lock(&fmemo_lock);
	if (fmemo_get(dir) || !fmemo.many) {
		pthread_mutex_unlock(&fmemo_lock);
		return 0;
	}
	size_t cap = 0;
	for (size_t k = 0; k < fmemo.ng; k++) {
		sl_group g = {0};
		size_t gcap = 0;
		for (size_t q = 0; q < fmemo.gs[k].n; q++)
			SL_PUSH(g.names, g.n, gcap, sl_strdup(fmemo.gs[k].names[q]));
		g.how = fmemo.gs[k].how ? sl_strdup(fmemo.gs[k].how) : NULL;
		SL_PUSH(*out, *nout, cap, g);
	}
	pthread_mutex_unlock(&fmemo_lock);
	return *nout > 0;
}

int sl_entry_from_group(const char *path, const char *dir, char *const *names, size_t n, const char *how,
			sl_entry **out, sl_error *err)
{
	*out = NULL;
	sl_entry *e = sl_calloc(1, sizeof *e);
	e->path = sl_strdup(path);
	char **texts = sl_calloc(n + 1, sizeof *texts);
	size_t *lens = sl_calloc(n + 1, sizeof *lens);
	int rc = SL_OK;
	for (size_t i = 0; i < n && rc == SL_OK; i++) {
		char *full = join(dir, names[i]);
		rc = sl_read_file(full, SL_MAX_FILE_BYTES, &texts[i], &lens[i], err);
		free(full);
	}
	if (rc == SL_OK) {
		sl_buf prefix = {0};
		sl_buf_puts(&prefix, dir);
		if (prefix.len && prefix.data[prefix.len - 1] != '/')
			sl_buf_putc(&prefix, '/');
		if (!strcmp(dir, "."))
			prefix.len = 0, prefix.data[0] = '\0';
		rc = build_group(e, prefix.data ? prefix.data : "", names, texts, lens, n, names, n, NULL, how, err);
		sl_buf_free(&prefix);
	}
	for (size_t i = 0; i < n; i++)
		free(texts[i]);
	free(texts);
	free(lens);
	if (rc) {
		sl_entry_free(e);
		return rc;
	}
	*out = e;
	return SL_OK;
}

int sl_entry_from_group_texts(const char *path, const char *prefix, char *const *names, char *const *texts,
			       const size_t *lens, size_t n, const sl_group *g, const char *first, sl_entry **out,
			       sl_error *err)
{
	*out = NULL;
	sl_entry *e = sl_calloc(1, sizeof *e);
	e->path = sl_strdup(path);
	int rc = build_group(e, prefix, names, texts, lens, n, g->names, g->n, first, g->how, err);
	if (rc) {
		sl_entry_free(e);
		return rc;
	}
	*out = e;
	return SL_OK;
}
