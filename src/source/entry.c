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
	sl_entry_drop_sources(e);
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

/* The revision part of a git spec ("REV:" of "REV:path"), its length, or
 * 0 for a path (entries from git are named REV:path, a path of the
 * working tree has no colon before its first slash). */
static size_t rev_len(const char *p)
{
	size_t n = strcspn(p, ":/");
	return p[n] == ':' ? n + 1 : 0;
}

/* The files a script sources from outside its entry (../lib.sh) are named
 * by their repository path at the revision the entry was read at: the id
 * that let the reading stand for another name covers their paths and
 * objects (sl_git_object_id), so only the revision changes. The entry's
 * own files (in its folder) follow the entry, as rename_source. */
static void rename_links(sl_source *s, const char *old, size_t ol, const char *path, size_t nl)
{
	if (!s)
		return;
	size_t ro = rev_len(old), rn = rev_len(path);
	for (size_t i = 0; i < s->nlinks; i++) {
		sl_source *l = s->links[i].src;
		if (!strncmp(l->path, old, ol))
			rename_source(l, old, ol, path, nl);
		else if (ro && rn && !strncmp(l->path, old, ro))
			rename_source(l, old, ro, path, rn);
	}
}

void sl_entry_rename(sl_entry *e, const char *path)
{
	char *old = e->path;
	size_t ol = stem_len(old), nl = stem_len(path);
	e->listed = 0;  /* the listing was of the folder under its old name */
	rename_links(e->script, old, ol, path, nl);
	for (size_t i = 0; i < e->nscripts; i++)
		rename_links(e->scripts[i], old, ol, path, nl);
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

/* The last component of p[0, n), as base_name takes it. */
static const char *stem_base(const char *p, size_t n, size_t *len)
{
	size_t i = n;
	while (i && p[i - 1] != '/')
		i--;
	*len = n - i;
	return p + i;
}

int sl_entry_rename_keeps_names(const sl_entry *e, const char *path)
{
	size_t ol = stem_len(e->path), nl = stem_len(path), ob, nb;
	const char *o = stem_base(e->path, ol, &ob), *n = stem_base(path, nl, &nb);
	if (ob == nb && !memcmp(o, n, ob))
		return 1;
	/* another last component: a file renamed as the entry itself (a
	 * script of a folder of many, a YAML file alone), or whose path
	 * only starts with the entry's, takes another name; the files in
	 * its folder (and a group's, renamed by their folder) keep theirs */
	const sl_source *all[2];
	size_t k = 0;
	all[k++] = e->script;
	all[k++] = e->metadata;
	for (size_t i = 0; i < k; i++)
		if (all[i] && !strncmp(all[i]->path, e->path, ol) && all[i]->path[ol] != '/')
			return 0;
	for (size_t i = 0; i < e->nfiles; i++)
		if (e->files[i] && !strncmp(e->files[i]->path, e->path, ol) && e->files[i]->path[ol] != '/')
			return 0;
	return 1;
}

const sl_source *sl_entry_file(const sl_entry *e, const char *name)
{
	const char *b = base_name(name);
	for (size_t i = 0; i < e->nfiles; i++)
		if (!strcmp(e->files[i]->section ? e->files[i]->section : e->files[i]->name, b))
			return e->files[i];
	return NULL;
}
