/*
 * entry.c: an sl_entry as a value, however it was loaded: freed, renamed
 * (its files' paths follow it), and its files looked up by name.
 */
#include "internal.h"

#include <stdlib.h>

void sl_entry_free(sl_entry *e)
{
	if (!e)
		return;
	free(e->path);
	sl_source_free(e->script);
	for (size_t i = 0; i < e->nfiles; i++)
		sl_source_free(e->files[i]);
	free(e->files);
	sl_source_free(e->metadata);
	for (size_t i = 0; i < e->nscripts; i++)
		sl_source_free(e->scripts[i]);
	free(e->scripts);
	free(e->grouped);
	free(e);
}

void sl_entry_drop_sources(sl_entry *e)
{
	sl_source_free(e->script);
	e->script = NULL;
	for (size_t i = 0; i < e->nfiles; i++)
		sl_source_free(e->files[i]);
	free(e->files);
	e->files = NULL;
	e->nfiles = 0;
	sl_source_free(e->metadata);
	e->metadata = NULL;
	for (size_t i = 0; i < e->nscripts; i++)
		sl_source_free(e->scripts[i]);
	free(e->scripts);
	e->scripts = NULL;
	e->nscripts = 0;
}

/* Strips trailing slashes: "r:a/" and "r:a" name the same folder. */
static size_t stem_len(const char *p)
{
	size_t n = strlen(p);
	while (n > 1 && p[n - 1] == '/')
		n--;
	return n;
}

static void rename_source(sl_source *s, const char *old, size_t ol, const char *path, size_t nl)
{
	if (!s || strncmp(s->path, old, ol))
		return;
	sl_buf b = {0};
	sl_buf_add(&b, path, nl);
	sl_buf_puts(&b, s->path + ol);
	free(s->path);
	s->path = sl_buf_detach(&b);
	free(s->name);
	s->name = sl_strdup(base_name(s->path));
}

void sl_entry_rename(sl_entry *e, const char *path)
{
	char *old = e->path;
	size_t ol = stem_len(old), nl = stem_len(path);
	e->listed = 0;  /* the listing was of the folder under its old name */
	rename_source(e->script, old, ol, path, nl);
	for (size_t i = 0; i < e->nfiles; i++)
		rename_source(e->files[i], old, ol, path, nl);
	rename_source(e->metadata, old, ol, path, nl);
	if (e->grouped) {
		/* a group named by its script: the others sit in the same folder */
		const char *os = strrchr(old, '/'), *ns = strrchr(path, '/');
		size_t od = os ? (size_t)(os - old) + 1 : 0, nd = ns ? (size_t)(ns - path) + 1 : 0;
		for (size_t i = 0; i < e->nfiles; i++)
			rename_source(e->files[i], old, od, path, nd);
		for (size_t i = 0; i < e->nscripts; i++)
			rename_source(e->scripts[i], old, od, path, nd);
	}
	e->path = sl_strdup(path);
	free(old);
}

const sl_source *sl_entry_file(const sl_entry *e, const char *name)
{
	const char *b = base_name(name);
	for (size_t i = 0; i < e->nfiles; i++)
		if (!strcmp(e->files[i]->section ? e->files[i]->section : e->files[i]->name, b))
			return e->files[i];
	return NULL;
}
