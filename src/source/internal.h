/*
 * internal.h: what the files of the source stage share behind source.h
 * (nothing here is seen outside src/source/). The files, lowest first:
 * source.c (one file's text), entry.c (an entry as a value), sections.c
 * (a single file in catalogue form), group.c (a folder's groups, from the
 * texts), folder.c (a grouped folder read), load.c (an entry loaded from
 * what names it), page.c (a published page split), git/ (entries at a
 * revision).
 */
#ifndef SL_SOURCE_INTERNAL_H
#define SL_SOURCE_INTERNAL_H

#include "source.h"

#include <string.h>

static inline const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

/* qsort's comparison of two strings */
static inline int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* DIR/NAME (one slash between). Caller frees. */
static inline char *join(const char *dir, const char *name)
{
	size_t a = strlen(dir);
	sl_buf b = {0};
	sl_buf_puts(&b, dir);
	if (a && dir[a - 1] != '/')
		sl_buf_putc(&b, '/');
	sl_buf_puts(&b, name);
	return sl_buf_detach(&b);
}

/* sections.c: a single file, a plain script or the catalogue form (see
 * source.h), into e's script, files and metadata. Takes ownership of whole. */
int so_split_file(sl_entry *e, sl_source *whole, sl_error *err);

/* folder.c: a script in a folder of several scripts and no launch.sh
 * loaded as its group into e. Returns 1 when it loaded it, 0 when the
 * folder is not such a one (or the script is alone in its group),
 * negative (err set) on error. */
int so_load_grouped(sl_entry *e, const char *path, sl_error *err);

#endif
