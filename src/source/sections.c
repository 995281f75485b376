/*
 * sections.c: a single file read as an entry: a plain script, or the
 * catalogue form (see source.h), in which section headers split the
 * script from the files it writes and the page's own lines about it.
 */
#include "internal.h"

#include <stdlib.h>

/* `# ---------------- gen_config.yaml (note) ----------------`: the file
 * name, or NULL. */
static char *section_header(const char *line, size_t len)
{
	if (len < 12 || strncmp(line, "# ----", 6))
		return NULL;
	const char *p = line + 2;
	const char *end = line + len;
	while (p < end && *p == '-')
		p++;
	if (p - (line + 2) < 4 || p >= end || *p != ' ')
		return NULL;
	p++;
	const char *name = p;
	while (p < end && *p != ' ')
		p++;
	size_t n = (size_t)(p - name);
	if (!(n > 5 && (!strncmp(p - 5, ".yaml", 5) || !strncmp(p - 4, ".yml", 4))))
		return NULL;
	/* the line ends with dashes */
	const char *q = end;
	while (q > p && (q[-1] == '\r' || q[-1] == ' '))
		q--;
	if (q - p < 5 || strncmp(q - 4, "----", 4))
		return NULL;
	return sl_strndup(name, n);
}

/* The catalogue page's own lines about an entry. */
static int metadata_line(const char *line, size_t len)
{
	return (len > 6 && !strncmp(line, "System", 6) && line[6] != ' ' && line[6] != '\t') ||
	       (len > 13 && !strncmp(line, "Submitted by ", 13)) ||
	       (len > 30 && !strncmp(line, "Host-specific paths are redacted", 32));
}

static int add_part(sl_entry *e, const sl_source *whole, size_t first, size_t last, const char *section,
		    sl_source **out, sl_error *err)
{
	size_t a = whole->lines[first];
	size_t b = last < whole->nlines ? whole->lines[last] : whole->len;
	/* trailing blank lines belong to nobody */
	while (b > a && (whole->text[b - 1] == '\n' || whole->text[b - 1] == ' '))
		b--;
	if (b < whole->len && whole->text[b] == '\n')
		b++;
	sl_source *s;
	int rc = sl_source_from_memory(whole->path, whole->text + a, b - a, &s, err);
	if (rc) {
		/* an empty section: say which */
		if (err && err->msg && section) {
			sl_error_set(err, whole->path, whole->line_base + (unsigned)first + 1, 1,
				     "section %s is empty", section);
		}
		return rc;
	}
	s->line_base = whole->line_base + (unsigned)first;
	s->section = section ? sl_strdup(section) : NULL;
	(void)e;
	*out = s;
	return SL_OK;
}

/* Takes ownership of whole. */
int so_split_file(sl_entry *e, sl_source *whole, sl_error *err)
{
	const char *path = whole->path;
	int rc = SL_OK;
	size_t script_end = whole->nlines, meta_at = whole->nlines;
	for (size_t i = 0; i < whole->nlines; i++) {
		size_t len;
		const char *l = sl_source_line(whole, (unsigned)i + 1 + whole->line_base, &len);
		char *sec = section_header(l, len);
		if (sec && script_end == whole->nlines)
			script_end = i;
		free(sec);
		if (metadata_line(l, len)) {
			meta_at = i;
			if (script_end == whole->nlines)
				script_end = i;
			break;
		}
	}
	if (script_end == whole->nlines && meta_at == whole->nlines) {
		e->script = whole;  /* a plain script */
		return SL_OK;
	}
	rc = add_part(e, whole, 0, script_end, NULL, &e->script, err);
	size_t fcap = 0;
	for (size_t i = script_end; i < meta_at && rc == SL_OK;) {
		size_t len;
		const char *l = sl_source_line(whole, (unsigned)i + 1 + whole->line_base, &len);
		char *sec = section_header(l, len);
		if (!sec) {
			i++;
			continue;
		}
		size_t j = i + 1;
		for (; j < meta_at; j++) {
			const char *m = sl_source_line(whole, (unsigned)j + 1 + whole->line_base, &len);
			char *next = section_header(m, len);
			int is_header = next != NULL;
			free(next);
			if (is_header)
				break;
		}
		if (sl_entry_file(e, sec)) {
			sl_error_set(err, path, whole->line_base + (unsigned)i + 1, 1, "section %s appears twice", sec);
			rc = SL_ERR_INPUT;
		} else if (e->nfiles >= SL_MAX_ENTRY_FILES) {
			sl_error_set(err, path, whole->line_base + (unsigned)i + 1, 1, "too many sections (limit %u)",
				     SL_MAX_ENTRY_FILES);
			rc = SL_ERR_INPUT;
		} else {
			sl_source *part;
			rc = add_part(e, whole, i + 1, j, sec, &part, err);
			if (rc == SL_OK)
				SL_PUSH(e->files, e->nfiles, fcap, part);
		}
		free(sec);
		i = j;
	}
	if (rc == SL_OK && meta_at < whole->nlines)
		rc = add_part(e, whole, meta_at, whole->nlines, "metadata.txt", &e->metadata, err);
	sl_source_free(whole);
	return rc;
}
