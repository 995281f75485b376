/* source.c: loading and validating input files and entries (folders). */
#include "source.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

/* Length of the UTF-8 sequence starting at p (0 when invalid). */
static size_t utf8_len(const unsigned char *p, size_t left)
{
	unsigned char c = p[0];
	size_t n;
	uint32_t cp;
	if (c < 0x80)
		return 1;
	if ((c & 0xE0) == 0xC0) { n = 2; cp = c & 0x1F; }
	else if ((c & 0xF0) == 0xE0) { n = 3; cp = c & 0x0F; }
	else if ((c & 0xF8) == 0xF0) { n = 4; cp = c & 0x07; }
	else return 0;
	if (n > left)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xC0) != 0x80)
			return 0;
		cp = (cp << 6) | (p[i] & 0x3F);
	}
	/* Overlong forms, surrogates and values past U+10FFFF are not text. */
	if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF)
		return 0;
	return n;
}

static void index_lines(sl_source *s)
{
	size_t cap = 0;
	s->nlines = 0;
	SL_PUSH(s->lines, s->nlines, cap, 0);
	for (size_t i = 0; i < s->len; i++)
		if (s->text[i] == '\n' && i + 1 <= s->len)
			SL_PUSH(s->lines, s->nlines, cap, (uint32_t)(i + 1));
}

/* Takes ownership of text (len bytes plus a NUL). */
static int source_adopt(const char *path, char *text, size_t len, sl_source **out,
			sl_error *err);

int sl_source_from_memory(const char *path, const char *text, size_t len,
			  sl_source **out, sl_error *err)
{
	*out = NULL;
	if (len > SL_MAX_FILE_BYTES) {
		sl_error_set(err, path, 0, 0, "file is larger than the limit of %u bytes",
			     SL_MAX_FILE_BYTES);
		return SL_ERR_INPUT;
	}
	return source_adopt(path, sl_strndup(text, len), len, out, err);
}

static int source_adopt(const char *path, char *text, size_t len, sl_source **out,
			sl_error *err)
{
	*out = NULL;
	sl_source *s = sl_calloc(1, sizeof *s);
	s->path = sl_strdup(path);
	s->name = sl_strdup(base_name(path));
	s->text = text;
	s->len = len;
	index_lines(s);
	if (len == 0 || strspn(text, " \t\r\n") == len) {
		sl_error_set(err, path, 1, 1, "empty file: no launch command or settings");
		sl_source_free(s);
		return SL_ERR_INPUT;
	}
	const unsigned char *p = (const unsigned char *)s->text;
	for (size_t i = 0; i < len;) {
		/* eight ASCII bytes without a NUL at a time (the common case) */
		if (i + 8 <= len) {
			uint64_t x;
			memcpy(&x, p + i, 8);
			if (!(x & 0x8080808080808080ull) &&
			    !((x - 0x0101010101010101ull) & ~x & 0x8080808080808080ull)) {
				i += 8;
				continue;
			}
		}
		if (p[i] >= 0x01 && p[i] < 0x80) {
			i++;
			continue;
		}
		if (p[i] == 0) {
			unsigned l, c;
			sl_source_pos(s, i, &l, &c);
			sl_error_set(err, path, l, c, "binary file: NUL byte at offset %zu", i);
			sl_source_free(s);
			return SL_ERR_INPUT;
		}
		size_t n = utf8_len(p + i, len - i);
		if (!n) {
			unsigned l, c;
			sl_source_pos(s, i, &l, &c);
			sl_error_set(err, path, l, c,
				     "not UTF-8 text: invalid byte 0x%02x at offset %zu", p[i], i);
			sl_source_free(s);
			return SL_ERR_INPUT;
		}
		i += n;
	}
	*out = s;
	return SL_OK;
}

int sl_source_load(const char *path, sl_source **out, sl_error *err)
{
	char *text;
	size_t len;
	*out = NULL;
	int rc = sl_read_file(path, SL_MAX_FILE_BYTES, &text, &len, err);
	if (rc)
		return rc;
	return source_adopt(path, text, len, out, err);
}

void sl_source_free(sl_source *s)
{
	if (!s)
		return;
	free(s->path);
	free(s->name);
	free(s->text);
	free(s->lines);
	free(s->section);
	free(s->col_shift);
	free(s);
}

void sl_source_pos(const sl_source *s, size_t off, unsigned *line, unsigned *col)
{
	if (off > s->len)
		off = s->len;
	size_t lo = 0, hi = s->nlines;
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;
		if (s->lines[mid] <= off)
			lo = mid;
		else
			hi = mid;
	}
	unsigned c = 1;
	size_t from = s->lines[lo];
	sl_source *m = (sl_source *)s;  /* the cache only: the text never changes */
	if (m->pos_line == lo + 1 && m->pos_off >= from && m->pos_off <= off) {
		from = m->pos_off;
		c = m->pos_col;
	}
	for (size_t i = from; i < off; i++)
		if (((unsigned char)s->text[i] & 0xC0) != 0x80)
			c++;
	m->pos_line = lo + 1;
	m->pos_off = off;
	m->pos_col = c;
	*line = (unsigned)lo + 1 + s->line_base;
	*col = c + (s->col_shift && lo < s->nlines ? s->col_shift[lo] : 0);
}

size_t sl_source_offset(const sl_source *s, unsigned line, unsigned col)
{
	if (line == 0)
		return 0;
	if (line > s->nlines)
		return s->len;
	size_t off = s->lines[line - 1];
	for (unsigned c = 1; c < col && off < s->len && s->text[off] != '\n'; c++) {
		off++;
		while (off < s->len && ((unsigned char)s->text[off] & 0xC0) == 0x80)
			off++;
	}
	return off;
}

const char *sl_source_line(const sl_source *s, unsigned line, size_t *len)
{
	line -= line < s->line_base ? line : s->line_base;
	if (line == 0 || line > s->nlines) {
		*len = 0;
		return "";
	}
	size_t a = s->lines[line - 1];
	size_t b = line < s->nlines ? s->lines[line] : s->len;
	while (b > a && (s->text[b - 1] == '\n' || s->text[b - 1] == '\r'))
		b--;
	*len = b - a;
	return s->text + a;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static char *join(const char *dir, const char *name)
{
	size_t a = strlen(dir);
	sl_buf b = {0};
	sl_buf_puts(&b, dir);
	if (a && dir[a - 1] != '/')
		sl_buf_putc(&b, '/');
	sl_buf_puts(&b, name);
	return sl_buf_detach(&b);
}

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
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
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

/* A single file: a plain script, or the catalogue form (see source.h). */
static int split_file(sl_entry *e, sl_source *whole, sl_error *err);

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
 * folder's scripts in turn, and each needs the same groups. */
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
static int load_grouped(sl_entry *e, const char *path, sl_error *err)
{
	if (!sl_ends_with(path, ".sh"))
		return 0;
	char *dir = dir_of(path);
	const char *b = base_name(path);
	int ok = !fmemo_get(dir) && fmemo.many;
	free(dir);
	if (!ok)
		return 0;
	const sl_group *g = sl_source_group_of(fmemo.gs, fmemo.ng, b);
	int got = 0;
	if (g && g->n > 1) {
		sl_buf prefix = {0};
		size_t dl = (size_t)(b - path);
		sl_buf_add(&prefix, path, dl);
		int rc = build_group(e, prefix.data ? prefix.data : "", fmemo.names, fmemo.texts, fmemo.lens, fmemo.n,
				     g->names, g->n, b, g->how, err);
		sl_buf_free(&prefix);
		got = rc ? rc : 1;
	}
	return got;
}

int sl_source_folder_groups(const char *dir, sl_group **out, size_t *nout)
{
	*out = NULL;
	*nout = 0;
	if (fmemo_get(dir) || !fmemo.many)
		return 0;
	size_t cap = 0;
	for (size_t k = 0; k < fmemo.ng; k++) {
		sl_group g = {0};
		size_t gcap = 0;
		for (size_t q = 0; q < fmemo.gs[k].n; q++)
			SL_PUSH(g.names, g.n, gcap, sl_strdup(fmemo.gs[k].names[q]));
		g.how = fmemo.gs[k].how ? sl_strdup(fmemo.gs[k].how) : NULL;
		SL_PUSH(*out, *nout, cap, g);
	}
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

static int load_file(sl_entry *e, const char *path, sl_error *err)
{
	int g = load_grouped(e, path, err);
	if (g)
		return g < 0 ? g : SL_OK;
	sl_source *whole;
	int rc = sl_source_load(path, &whole, err);
	if (rc)
		return rc;
	return split_file(e, whole, err);
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
	rc = split_file(e, whole, err);
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
	int rc = split_file(e, whole, err);
	if (rc) {
		sl_entry_free(e);
		return rc;
	}
	*out = e;
	return SL_OK;
}

/* Takes ownership of whole. */
static int split_file(sl_entry *e, sl_source *whole, sl_error *err)
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

int sl_entry_load(const char *path, sl_entry **out, sl_error *err)
{
	*out = NULL;
	struct stat st;
	if (stat(path, &st) != 0) {
		sl_error_set(err, path, 0, 0, "cannot open: %s", strerror(errno));
		return SL_ERR_IO;
	}
	sl_entry *e = sl_calloc(1, sizeof *e);
	e->path = sl_strdup(path);
	int rc = S_ISDIR(st.st_mode) ? load_dir(e, path, err) : load_file(e, path, err);
	if (rc) {
		sl_entry_free(e);
		return rc;
	}
	*out = e;
	return SL_OK;
}

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

int sl_source_is_recipe(const sl_source *s)
{
	if (!sl_ends_with(s->name, ".yaml") && !sl_ends_with(s->name, ".yml"))
		return 0;
	int backend = 0, resources = 0, prefill = 0, decode = 0;
	for (size_t i = 0; i < s->nlines; i++) {
		const char *l = s->text + s->lines[i];
		backend |= !strncmp(l, "backend:", 8) || !strncmp(l, "  backend:", 10);
		resources |= !strncmp(l, "resources:", 10) || !strncmp(l, "  resources:", 12);
		prefill |= !strncmp(l, "prefill:", 8);
		decode |= !strncmp(l, "decode:", 7);
	}
	return (backend && resources) || (prefill && decode);
}

int sl_source_is_manifest(const sl_source *s)
{
	if (!sl_ends_with(s->name, ".yaml") && !sl_ends_with(s->name, ".yml"))
		return 0;
	if (sl_source_is_recipe(s))
		return 1;
	int api = 0, kind = 0;
	for (size_t i = 0; i < s->nlines; i++) {
		const char *l = s->text + s->lines[i];
		api |= !strncmp(l, "apiVersion:", 11);
		kind |= !strncmp(l, "kind:", 5);
	}
	return api && kind;
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
