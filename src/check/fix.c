/*
 * fix.c (check): the findings' fixes made into files' new texts, then
 * shown as a unified diff (`check --format diff`) or written in place
 * (`check --fix`).
 *
 * A fix is a set of replacements at byte offsets of the sources the
 * checks read (findings.c's sl_finding_fix). A source is a whole file, a
 * slice of one (a section of a catalogue-form file or page), or a text
 * made from one (a here-document's body, whose lines may hold what an
 * expansion wrote and whose `<<-` tabs are gone). Each replacement is
 * carried to the file by line: the source's line must be the file's line
 * (after the removed tabs) byte for byte, else the fix is not certain
 * there and is not made. The same test against the file as it is on disk
 * when fixing is what refuses a file changed since it was read.
 *
 * Nothing is written partially: a file's new text is made whole first,
 * then written to a temporary file beside it and renamed over it
 * (sl_write_file_atomic), after one more look that the file is still
 * what was read.
 */
#define _GNU_SOURCE
#include "findings.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>


/* A text as lines: the file's (or an outer source's) starts of lines,
 * the first being file line base + 1. */
typedef struct {
	const char *text;
	size_t len;
	size_t *starts;
	size_t n;
	unsigned base;
} lines_t;

static void lines_make(lines_t *L, const char *text, size_t len, unsigned base)
{
	size_t cap = 0;
	memset(L, 0, sizeof *L);
	L->text = text;
	L->len = len;
	L->base = base;
	size_t zero = 0;
	SL_PUSH(L->starts, L->n, cap, zero);
	for (size_t i = 0; i < len; i++)
		if (text[i] == '\n' && i + 1 < len) {
			size_t at = i + 1;
			SL_PUSH(L->starts, L->n, cap, at);
		}
}

/* Byte off of source s in L's text: its line must be there, after the
 * tabs `<<-` removed, byte for byte. Returns 0 and *at, or -1. */
static int map_off(const sl_source *s, size_t li, size_t off, const lines_t *L, size_t *at)
{
	unsigned fl = (unsigned)li + 1 + s->line_base;  /* the file's line */
	if (fl <= L->base || fl - L->base > L->n)
		return -1;
	size_t fs = L->starts[fl - L->base - 1];
	size_t fe = fl - L->base < L->n ? L->starts[fl - L->base] : L->len;
	size_t shift = s->col_shift ? s->col_shift[li] : 0;
	size_t ss = s->lines[li], se = li + 1 < s->nlines ? s->lines[li + 1] : s->len;
	if (fe - fs < shift || fe - fs - shift != se - ss)
		return -1;
	for (size_t k = 0; k < shift; k++)
		if (L->text[fs + k] != '\t')
			return -1;
	if (memcmp(L->text + fs + shift, s->text + ss, se - ss))
		return -1;
	*at = fs + shift + (off - ss);
	return 0;
}

/* An edit's [start, end) in L's text, every line it touches checked. */
static int map_edit(const sl_edit *e, const lines_t *L, size_t *start, size_t *end)
{
	const sl_source *s = e->src;
	if (!s || e->off > s->len || e->len > s->len - e->off || !s->nlines)
		return -1;
	size_t a = sl_source_line_index(s, e->off), b = sl_source_line_index(s, e->off + e->len);
	for (size_t li = a; li <= b; li++) {
		size_t at;
		if (map_off(s, li, s->lines[li], L, &at))
			return -1;
	}
	if (map_off(s, a, e->off, L, start) || map_off(s, b, (size_t)e->off + e->len, L, end))
		return -1;
	return *end >= *start ? 0 : -1;
}

/* The source of the entry that holds the file s names, read as the entry
 * was (the script or file itself, or the script a here-document is in). */
static const sl_source *outer_of(const sl_entry *e, const sl_source *s)
{
	const sl_source *best = NULL;
	const sl_source *all[SL_MAX_ENTRY_FILES * 3 + 2];
	size_t n = 0;
	if (e->script)
		all[n++] = e->script;
	for (size_t i = 0; i < e->nfiles && n < sizeof all / sizeof *all; i++)
		all[n++] = e->files[i];
	for (size_t i = 0; i < e->nscripts && n < sizeof all / sizeof *all; i++)
		all[n++] = e->scripts[i];
	if (e->metadata && n < sizeof all / sizeof *all)
		all[n++] = e->metadata;
	/* files the script sources (`source env.sh`), read with it */
	for (size_t i = 0; e->script && i < e->script->nlinks && n < sizeof all / sizeof *all; i++)
		all[n++] = e->script->links[i].src;
	for (size_t i = 0; i < n; i++) {
		if (all[i] == s)
			return s;
		/* a here-document's body: the script of its path, holding its lines */
		if (!best && !strcmp(all[i]->path, s->path) && !all[i]->section && all[i]->line_base <= s->line_base &&
		    all[i]->line_base + all[i]->nlines >= s->line_base + s->nlines)
			best = all[i];
	}
	return best;
}

void sl_fix_settle(const sl_entry *e, sl_findings *fs, size_t first)
{
	for (size_t i = first; i < fs->n; i++) {
		sl_finding *f = &fs->v[i];
		int ok = f->nedits > 0;
		for (size_t k = 0; k < f->nedits && ok; k++) {
			const sl_source *o = outer_of(e, f->edits[k].src);
			if (o == f->edits[k].src)
				continue;
			lines_t L;
			size_t a, b;
			if (!o) {
				ok = 0;
				continue;
			}
			lines_make(&L, o->text, o->len, o->line_base);
			ok = !map_edit(&f->edits[k], &L, &a, &b);
			free(L.starts);
		}
		if (!ok && f->fix)
			sl_finding_fix_drop(f);
	}
}

void sl_fix_span(const sl_edit *e, unsigned *line, unsigned *col, unsigned *end_line, unsigned *end_col)
{
	sl_source_pos(e->src, e->off, line, col);
	sl_source_pos(e->src, (size_t)e->off + e->len, end_line, end_col);
}

/* ---- the fixes of a whole run -------------------------------------------- */

typedef struct {
	size_t start, end;
	const char *text;
	size_t seq;  /* the order placed: insertions at one place go in it */
} placed;

typedef struct {
	sl_fix_file *file;
	lines_t L;
	placed *p;
	size_t np, pcap;
	int bad;   /* could not be read, or changed since */
} work;

/* The path a diff names: relative to the working directory when the file
 * is below it (`./a` as `a`), as given otherwise. */
static char *shown_path(const char *path)
{
	char *real = realpath(path, NULL);
	char cwd[PATH_MAX];
	char *out = NULL;
	if (real && getcwd(cwd, sizeof cwd)) {
		size_t n = strlen(cwd);
		if (!strncmp(real, cwd, n) && real[n] == '/' && n > 1)
			out = sl_strdup(real + n + 1);
		else if (!strcmp(cwd, "/") && real[0] == '/')
			out = sl_strdup(real + 1);
	}
	free(real);
	if (!out) {
		const char *p = path;
		while (p[0] == '.' && p[1] == '/')
			p += 2;
		out = sl_strdup(p);
	}
	return out;
}

static void note(FILE *notes, const sl_finding *f, const char *why)
{
	if (!notes)
		return;
	unsigned l, c;
	sl_finding_pos(f, &l, &c);
	fprintf(notes, "servelint: ");
	sl_fputs_visible(notes, sl_finding_file(f));
	fprintf(notes, ":%u:%u: %s fix not made: %s\n", l, c, sl_rule_id(f->rule), why);
}

static int wanted(const sl_finding *f, sl_severity min, char *const *only, size_t nonly)
{
	if (!f->fix || !f->nedits || f->suppressed || f->severity < min)
		return 0;
	for (size_t i = 0; i < nonly; i++)
		if (!strcmp(only[i], sl_rule_id(f->rule)))
			return 1;
	return nonly == 0;
}

static work *work_for(work **ws, size_t *nw, size_t *wcap, const char *path, FILE *notes, int *failed)
{
	for (size_t i = 0; i < *nw; i++)
		if (!strcmp((*ws)[i].file->path, path))
			return &(*ws)[i];
	work w;
	memset(&w, 0, sizeof w);
	w.file = sl_calloc(1, sizeof *w.file);
	w.file->path = sl_strdup(path);
	w.file->shown = shown_path(path);
	struct stat st;
	sl_error err = {0};
	if (stat(path, &st) || !S_ISREG(st.st_mode)) {
		if (notes)
			fprintf(notes, "servelint: %s: not a file on disk: its fixes are not made\n", path);
		w.bad = 1;
		*failed = 1;
	} else if (sl_read_file(path, SL_MAX_FILE_BYTES, &w.file->old, &w.file->oldlen, &err)) {
		sl_error_print(&err, "servelint");
		sl_error_clear(&err);
		w.bad = 1;
		*failed = 1;
	} else {
		lines_make(&w.L, w.file->old, w.file->oldlen, 0);
	}
	SL_PUSH(*ws, *nw, *wcap, w);
	return &(*ws)[*nw - 1];
}

static int cmp_placed(const void *a, const void *b)
{
	const placed *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq ? 1 : 0;
}

int sl_fix_collect(sl_findings *fs, sl_severity min, char *const *only, size_t nonly, FILE *notes, sl_fixes *out)
{
	memset(out, 0, sizeof *out);
	work *ws = NULL;
	size_t nw = 0, wcap = 0;
	int failed = 0;
	for (size_t i = 0; i < fs->n; i++) {
		sl_finding *f = &fs->v[i];
		if (!wanted(f, min, only, nonly))
			continue;
		/* every edit of the fix placed, or none */
		placed *mine = sl_calloc(f->nedits, sizeof *mine);
		work **at = sl_calloc(f->nedits, sizeof *at);
		const char *why = NULL;
		for (size_t k = 0; k < f->nedits && !why; k++) {
			const sl_edit *e = &f->edits[k];
			/* a whole file read at the start must be the file now */
			work *w = work_for(&ws, &nw, &wcap, e->src->path, notes, &failed);
			at[k] = w;
			if (w->bad) {
				why = "its file could not be read";
				break;
			}
			if (!e->src->line_base && !e->src->section && !e->src->col_shift && e->src->len == w->file->oldlen &&
			    memcmp(e->src->text, w->file->old, w->file->oldlen)) {
				why = "the file changed since it was read";
				w->bad = failed = 1;
				break;
			}
			if (map_edit(e, &w->L, &mine[k].start, &mine[k].end)) {
				why = "the file changed since it was read";
				failed = 1;
				break;
			}
			mine[k].text = e->text;
		}
		/* another fix already changes the same bytes: the first wins,
		 * the same replacement again is the same fix; two insertions at
		 * one place (two flags moved after one word) go in the order of
		 * their findings */
		for (size_t k = 0; k < f->nedits && !why; k++) {
			work *w = at[k];
			for (size_t j = 0; j < w->np && !why; j++) {
				const placed *p = &w->p[j];
				int identical = p->start == mine[k].start && p->end == mine[k].end && !strcmp(p->text, mine[k].text);
				int inserts = p->start == p->end && mine[k].start == mine[k].end && p->start == mine[k].start;
				if (!identical && !inserts && mine[k].start < p->end + (p->start == p->end) &&
				    p->start < mine[k].end + (mine[k].start == mine[k].end))
					why = "another fix changes the same text (run again)";
			}
		}
		if (why) {
			note(notes, f, why);
			out->nskipped++;
		} else {
			for (size_t k = 0; k < f->nedits; k++) {
				work *w = at[k];
				int dup = 0;
				for (size_t j = 0; j < w->np && !dup; j++)
					dup = w->p[j].start == mine[k].start && w->p[j].end == mine[k].end &&
					      !strcmp(w->p[j].text, mine[k].text);
				if (!dup) {
					mine[k].seq = w->np;
					SL_PUSH(w->p, w->np, w->pcap, mine[k]);
				}
				if (k == 0)
					w->file->nfixed++;
			}
			f->fixed = 1;
			out->nfixed++;
		}
		free(mine);
		free(at);
	}
	/* each file's new text, made whole */
	for (size_t i = 0; i < nw; i++) {
		work *w = &ws[i];
		if (!w->bad && w->np) {
			qsort(w->p, w->np, sizeof *w->p, cmp_placed);
			sl_buf b = {0};
			size_t from = 0;
			for (size_t k = 0; k < w->np; k++) {
				sl_buf_add(&b, w->file->old + from, w->p[k].start - from);
				sl_buf_add(&b, w->p[k].text, strlen(w->p[k].text));
				from = w->p[k].end;
			}
			sl_buf_add(&b, w->file->old + from, w->file->oldlen - from);
			w->file->newlen = b.len;
			w->file->new = b.data ? sl_buf_detach(&b) : sl_strdup("");
			size_t cap = out->n;
			SL_PUSH(out->v, out->n, cap, *w->file);
		} else {
			if (w->bad && w->np) {
				/* a fix placed before the file turned out changed */
				for (size_t k = 0; k < fs->n; k++)
					if (fs->v[k].fixed && fs->v[k].nedits && !strcmp(fs->v[k].edits[0].src->path, w->file->path)) {
						fs->v[k].fixed = 0;
						out->nfixed--;
						out->nskipped++;
					}
			}
			free(w->file->path);
			free(w->file->shown);
			free(w->file->old);
			free(w->file->new);
		}
		free(w->file);
		free(w->L.starts);
		free(w->p);
	}
	free(ws);
	return failed ? -1 : 0;
}

void sl_fixes_free(sl_fixes *fx)
{
	for (size_t i = 0; i < fx->n; i++) {
		free(fx->v[i].path);
		free(fx->v[i].shown);
		free(fx->v[i].old);
		free(fx->v[i].new);
	}
	free(fx->v);
	memset(fx, 0, sizeof *fx);
}

int sl_fix_diff(FILE *f, const sl_fixes *fx)
{
	for (size_t i = 0; i < fx->n; i++) {
		const sl_fix_file *x = &fx->v[i];
		char *d = NULL;
		if (sl_git_line_diff(x->old, x->oldlen, x->shown, x->new, x->newlen, x->shown, &d))
			return -1;
		fputs(d, f);
		free(d);
	}
	return ferror(f) ? -1 : 0;
}

/* sl_write_file_atomic's writer: the new text, after one more look that
 * the file is still the one read. */
typedef struct {
	const sl_fix_file *x;
	int changed;
} writing;

static int write_new(FILE *f, void *ud)
{
	writing *w = ud;
	char *now = NULL;
	size_t n = 0;
	sl_error err = {0};
	if (sl_read_file(w->x->path, SL_MAX_FILE_BYTES, &now, &n, &err) || n != w->x->oldlen ||
	    memcmp(now, w->x->old, n)) {
		sl_error_clear(&err);
		free(now);
		w->changed = 1;
		return -1;
	}
	free(now);
	if (fwrite(w->x->new, 1, w->x->newlen, f) != w->x->newlen)
		return -1;
	return 0;
}

/* The findings fixed in a file that was not written are not fixed. */
static void unmark(sl_findings *fs, const char *path)
{
	for (size_t i = 0; fs && i < fs->n; i++)
		for (size_t k = 0; fs->v[i].fixed && k < fs->v[i].nedits; k++)
			if (!strcmp(fs->v[i].edits[k].src->path, path))
				fs->v[i].fixed = 0;
}

int sl_fix_apply(const sl_fixes *fx, sl_findings *fs, FILE *notes)
{
	int rc = 0;
	for (size_t i = 0; i < fx->n; i++) {
		const sl_fix_file *x = &fx->v[i];
		struct stat st;
		writing w = {x, 0};
		int bad = 0;
		if (stat(x->path, &st) || !S_ISREG(st.st_mode)) {
			fprintf(notes, "servelint: %s: not a regular file: not fixed\n", x->path);
			bad = 1;
		} else if (sl_write_file_atomic(x->path, write_new, &w)) {
			if (w.changed)
				fprintf(notes, "servelint: %s: the file changed since it was read: not fixed\n", x->path);
			else
				fprintf(notes, "servelint: %s: %s: not fixed\n", x->path, strerror(errno));
			bad = 1;
		}
		if (bad) {
			unmark(fs, x->path);
			rc = -1;
		}
	}
	return rc;
}

/* Whether deleting e's bytes leaves the text that deleting line li + 1
 * of its source whole leaves (SL1003 deletes `  \` + newline + a flag's
 * line up to its own ` \`: the line's deletion, written so that the
 * deletions of consecutive lines never overlap). */
static int deletes_next_line(const sl_edit *e, size_t li)
{
	const sl_source *s = e->src;
	if (e->text[0] || li + 1 >= s->nlines)
		return 0;
	size_t ls = s->lines[li + 1], le = li + 2 < s->nlines ? s->lines[li + 2] : s->len;
	size_t from = e->off, to = (size_t)e->off + e->len;
	if (from >= ls || to <= ls || to > le || le - ls != to - from || s->text[le - 1] != '\n')
		return 0;
	/* what stays of the window [from, le): text[to, le) must equal
	 * text[from, ls) */
	return !memcmp(s->text + to, s->text + from, ls - from);
}

char *sl_fix_line(const sl_finding *f, const sl_source **src, unsigned *line, int *deleted)
{
	if (!f->fix || !f->nedits)
		return NULL;
	const sl_source *s = f->edits[0].src;
	size_t li = sl_source_line_index(s, f->edits[0].off);
	if (f->nedits == 1 && deletes_next_line(&f->edits[0], li)) {
		*deleted = 1;
		*src = s;
		*line = (unsigned)li + 2 + s->line_base;
		return sl_strdup("");
	}
	size_t ls = s->lines[li], le = li + 1 < s->nlines ? s->lines[li + 1] : s->len;
	*deleted = 0;
	for (size_t k = 0; k < f->nedits; k++) {
		const sl_edit *e = &f->edits[k];
		if (e->src != s || e->off < ls || (size_t)e->off + e->len > le)
			return NULL;
		/* the line itself, newline and all, goes */
		if (e->off == ls && (size_t)e->off + e->len == le && le > ls && s->text[le - 1] == '\n' && f->nedits == 1)
			*deleted = 1;
		else if ((size_t)e->off + e->len == le && le > ls && s->text[le - 1] == '\n')
			return NULL;  /* joins the next line */
	}
	sl_buf b = {0};
	size_t from = ls, end = le > ls && s->text[le - 1] == '\n' ? le - 1 : le;
	/* the tabs `<<-` took from a here-document's line are the file's */
	for (unsigned t = 0; !*deleted && s->col_shift && t < s->col_shift[li]; t++)
		sl_buf_putc(&b, '\t');
	/* the edits in order of place (a fix's are few) */
	size_t done = 0;
	while (!*deleted && done < f->nedits) {
		const sl_edit *next = NULL;
		for (size_t k = 0; k < f->nedits; k++)
			if (f->edits[k].off >= from && (!next || f->edits[k].off < next->off))
				next = &f->edits[k];
		if (!next)
			break;
		sl_buf_add(&b, s->text + from, next->off - from);
		sl_buf_add(&b, next->text, strlen(next->text));
		from = (size_t)next->off + next->len;
		done++;
	}
	if (!*deleted && from < end)
		sl_buf_add(&b, s->text + from, end - from);
	*src = s;
	*line = (unsigned)li + 1 + s->line_base;
	return b.data ? sl_buf_detach(&b) : sl_strdup("");
}
