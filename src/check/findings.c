/*
 * findings.c: a finding's making, freeing and order, and the deletion of a
 * setting (or of any arguments) that more than one fix makes: what every file of
 * the check stage that reports uses. Uses no other file of the stage
 * (only the rule's fields, rules.h).
 */
#include "findings.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *sl_finding_value_text(json_t *v)
{
	if (json_is_string(v))
		return sl_strdup(json_string_value(v));
	char *d = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY | JSON_REAL_PRECISION(15));
	return d ? d : sl_strdup("?");
}

sl_finding *sl_finding_add(sl_findings *out, const sl_rule *r, const sl_origin *where, const char *fmt, ...)
{
	sl_finding f;
	memset(&f, 0, sizeof f);
	f.rule = r;
	f.severity = r->severity;
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	f.message = sl_strdup(buf);
	sl_origin_copy(&f.where, where);
	SL_PUSH(out->v, out->n, out->cap, f);
	return &out->v[out->n - 1];
}

void sl_finding_related(sl_finding *f, const sl_origin *o, const char *msg)
{
	f->related = sl_realloc(f->related, (f->nrelated + 1) * sizeof *f->related);
	f->related_msg = sl_realloc(f->related_msg, (f->nrelated + 1) * sizeof *f->related_msg);
	sl_origin_copy(&f->related[f->nrelated], o);
	f->related_msg[f->nrelated] = sl_strdup(msg);
	f->nrelated++;
}

int sl_finding_typo_close(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t max = la >= 10 ? 2 : 1;
	if (la > 128 || lb > 128 || (la > lb ? la - lb : lb - la) > max)
		return 0;
	/* optimal string alignment distance, three rows */
	size_t r0[129], r1[129], r2[129];
	size_t *pp = r0, *p = r1, *c = r2;
	for (size_t j = 0; j <= lb; j++)
		p[j] = j;
	for (size_t i = 1; i <= la; i++) {
		c[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t cost = a[i - 1] != b[j - 1];
			size_t v = p[j] + 1;
			if (c[j - 1] + 1 < v)
				v = c[j - 1] + 1;
			if (p[j - 1] + cost < v)
				v = p[j - 1] + cost;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && pp[j - 2] + 1 < v)
				v = pp[j - 2] + 1;
			c[j] = v;
		}
		size_t *t = pp;
		pp = p;
		p = c;
		c = t;
	}
	return p[lb] <= max;
}

void sl_finding_fix_drop(sl_finding *f)
{
	for (size_t k = 0; k < f->nedits; k++)
		free(f->edits[k].text);
	free(f->edits);
	free(f->fix);
	f->edits = NULL;
	f->nedits = 0;
	f->fix = NULL;
}

int sl_finding_fix(sl_finding *f, fix_kind kind, const sl_source *src, size_t off, const char *old, size_t oldlen,
		   const char *text, const char *what)
{
	if (f->rule->fix != kind || kind == FIX_NONE)
		return -1;
	if (!src || off > src->len || oldlen > src->len - off || oldlen > UINT32_MAX ||
	    memcmp(src->text + off, old, oldlen)) {
		sl_finding_fix_drop(f);
		return -1;
	}
	/* two replacements of one fix never overlap */
	for (size_t k = 0; k < f->nedits; k++)
		if (f->edits[k].src == src && off < (size_t)f->edits[k].off + f->edits[k].len &&
		    f->edits[k].off < off + oldlen + (oldlen == 0)) {
			sl_finding_fix_drop(f);
			return -1;
		}
	if (!f->fix)
		f->fix = sl_strdup(what);
	f->edits = sl_realloc(f->edits, (f->nedits + 1) * sizeof *f->edits);
	f->edits[f->nedits].src = src;
	f->edits[f->nedits].off = (uint32_t)off;
	f->edits[f->nedits].len = (uint32_t)oldlen;
	f->edits[f->nedits].text = sl_strdup(text);
	f->nedits++;
	return 0;
}

void sl_findings_free(sl_findings *fs)
{
	for (size_t i = 0; i < fs->n; i++) {
		sl_finding *f = &fs->v[i];
		free(f->message);
		sl_origin_clear(&f->where);
		for (size_t k = 0; k < f->nrelated; k++) {
			sl_origin_clear(&f->related[k]);
			free(f->related_msg[k]);
		}
		free(f->related);
		free(f->related_msg);
		free(f->hint);
		sl_finding_fix_drop(f);
		free(f->justification);
		free(f->file);
	}
	free(fs->v);
	memset(fs, 0, sizeof *fs);
}

static char *dup_or_null(const char *s)
{
	return s ? sl_strdup(s) : NULL;
}

void sl_findings_move(sl_findings *from, sl_findings *to)
{
	sl_grow((void **)&to->v, &to->cap, to->n + from->n, sizeof *to->v);
	if (from->n)
		memcpy(to->v + to->n, from->v, from->n * sizeof *from->v);
	to->n += from->n;
	free(from->v);
	from->v = NULL;
	from->n = from->cap = 0;
}

void sl_findings_copy(const sl_findings *from, size_t first, size_t end, sl_findings *to)
{
	sl_grow((void **)&to->v, &to->cap, to->n + (end - first), sizeof *to->v);
	for (size_t i = first; i < end; i++) {
		const sl_finding *f = &from->v[i];
		sl_finding c = *f;
		c.message = dup_or_null(f->message);
		sl_origin_copy(&c.where, &f->where);
		c.related = f->nrelated ? sl_calloc(f->nrelated, sizeof *c.related) : NULL;
		c.related_msg = f->nrelated ? sl_calloc(f->nrelated, sizeof *c.related_msg) : NULL;
		for (size_t k = 0; k < f->nrelated; k++) {
			sl_origin_copy(&c.related[k], &f->related[k]);
			c.related_msg[k] = dup_or_null(f->related_msg[k]);
		}
		c.hint = dup_or_null(f->hint);
		c.fix = dup_or_null(f->fix);
		c.edits = f->nedits ? sl_calloc(f->nedits, sizeof *c.edits) : NULL;
		for (size_t k = 0; k < f->nedits; k++) {
			c.edits[k] = f->edits[k];
			c.edits[k].text = dup_or_null(f->edits[k].text);
		}
		c.justification = dup_or_null(f->justification);
		c.file = dup_or_null(f->file);
		to->v[to->n++] = c;
	}
}

const char *sl_finding_file(const sl_finding *f)
{
	return f->where.src ? f->where.src->path : f->file ? f->file : "-";
}

void sl_finding_pos(const sl_finding *f, unsigned *line, unsigned *col)
{
	if (f->where.src || !f->file) {
		sl_origin_pos(&f->where, line, col);
		return;
	}
	*line = f->line;
	*col = f->col;
}

/* A finding's sort key, its position worked out once: a column is counted
 * from its line's start, so comparing positions afresh at each of qsort's
 * n log n comparisons cost the line's length each time (3,000 repeated
 * flags on one line: seconds). */
typedef struct {
	const char *file;
	unsigned line, col;
	const char *rule;
	size_t i;  /* its index before the sort, the last key: stable (qsort is not), so findings of
		    * one place and rule keep the order their rule (or their variants) gave them */
	const sl_source *src;
	uint32_t off;
} finding_key;

/* Positions are worked out in the order of their offsets in each source,
 * where sl_source_pos goes on from the last column it counted: linear in
 * a line's length, however many findings it holds. */
static int cmp_place(const void *a, const void *b)
{
	const finding_key *x = a, *y = b;
	if (x->src != y->src)
		return (uintptr_t)x->src < (uintptr_t)y->src ? -1 : 1;
	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

static int cmp_key(const void *a, const void *b)
{
	const finding_key *x = a, *y = b;
	int k = strcmp(x->file, y->file);
	if (k)
		return k;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->col != y->col)
		return x->col < y->col ? -1 : 1;
	k = strcmp(x->rule, y->rule);
	if (k)
		return k;
	return x->i < y->i ? -1 : x->i > y->i;
}

void sl_findings_sort(sl_findings *fs, size_t first)
{
	size_t n = fs->n - first;
	if (n <= 1)
		return;
	sl_finding *v = fs->v + first;
	finding_key *k = sl_calloc(n, sizeof *k);
	for (size_t i = 0; i < n; i++) {
		k[i].file = sl_finding_file(&v[i]);
		k[i].rule = v[i].rule->id;
		k[i].i = i;
		k[i].src = v[i].where.src || !v[i].file ? v[i].where.src : NULL;
		k[i].off = v[i].where.off;
	}
	qsort(k, n, sizeof *k, cmp_place);
	for (size_t i = 0; i < n; i++)
		sl_finding_pos(&v[k[i].i], &k[i].line, &k[i].col);
	qsort(k, n, sizeof *k, cmp_key);
	/* the order applied in place, one cycle of the permutation at a time:
	 * a sorted copy of every finding was 0.6 MB at audit's peak over
	 * 3,500 entries (massif), when the catalogue's findings are sorted */
	for (size_t i = 0; i < n; i++) {
		if (k[i].i == SIZE_MAX || k[i].i == i)
			continue;
		sl_finding t = v[i];
		size_t at = i;
		while (k[at].i != i) {
			size_t from = k[at].i;
			v[at] = v[from];
			k[at].i = SIZE_MAX;
			at = from;
		}
		v[at] = t;
		k[at].i = SIZE_MAX;
	}
	free(k);
}

void sl_findings_places(sl_findings *fs, size_t first, size_t end, sl_source_place_fn *fn, void *ud)
{
	for (size_t i = first; i < end && i < fs->n; i++) {
		sl_finding *f = &fs->v[i];
		fn(&f->where.src, &f->where.off, NULL, ud);
		for (size_t k = 0; k < f->nrelated; k++)
			fn(&f->related[k].src, &f->related[k].off, NULL, ud);
		for (size_t k = 0; k < f->nedits; k++)
			fn(&f->edits[k].src, &f->edits[k].off, &f->edits[k].len, ud);
	}
}

static int blank(char c)
{
	return c == ' ' || c == '\t';
}

/* SL1003's fix, in a shell script: the repeated flag and its value (its
 * spelling as written, raw at a, on one line) go with the blanks before
 * them. A flag alone on its line goes with the continuation that led to
 * it (the previous line's ` \` and newline): its own line's ` \` takes
 * that place, so the text is the one the line's deletion leaves, and the
 * repeats on consecutive lines (a flag given three times, the last one
 * ending the command) are deletions side by side that one run makes
 * together, never two that change the same bytes. */
int sl_check_delete_span(sl_finding *f, const sl_source *src, size_t a, const char *raw, int kind, const char *what)
{
	if (!src || !raw || !*raw || strchr(raw, '\n'))
		return -1;
	/* shell words only: in a manifest's `- --x=1` list the item's dash
	 * would stay behind */
	if (src->section || sl_ends_with(src->name, ".yaml") || sl_ends_with(src->name, ".yml") ||
	    sl_ends_with(src->name, ".json"))
		return -1;
	size_t n = strlen(raw);
	if (a > src->len || n > src->len - a || memcmp(src->text + a, raw, n))
		return -1;
	const char *t = src->text;
	size_t e = a + n, ls = a, le = e, from = a, to = e;
	while (ls > 0 && t[ls - 1] != '\n')
		ls--;
	while (le < src->len && t[le] != '\n')
		le++;
	size_t p = ls;
	while (p < a && blank(t[p]))
		p++;
	size_t q = e;
	while (q < le && blank(t[q]))
		q++;
	int alone = p == a;  /* nothing before it on its line */
	int led = ls >= 2 && t[ls - 2] == '\\';  /* the previous line continues into this one */
	if (alone && q + 1 == le && t[q] == '\\' && le < src->len && led) {
		/* `A \` + `    --x 1 \`: from before A's backslash to the
		 * flag's end, A's line then ending as the flag's did; as many
		 * of A's blanks go as the flag's line has before its backslash,
		 * when they are the same, so that A's line reads as it did */
		size_t k = q - e, bs = ls - 2, pb = 0;
		while (pb < bs && blank(t[bs - pb - 1]) && t[bs - pb - 1] != '\n')
			pb++;
		from = pb >= k && !memcmp(t + bs - k, t + e, k) ? bs - k : bs - pb;
		to = e;
	} else if (alone && q + 1 == le && t[q] == '\\' && le < src->len) {
		from = ls;  /* `    --x 1 \` after no continuation: the whole line */
		to = le + 1;
	} else if (alone && q == le && led) {
		from = ls - 2;  /* the command's last line: the continuation before it goes too */
		while (from > 0 && blank(t[from - 1]))
			from--;
	} else if (!alone) {
		while (from > ls && blank(t[from - 1]))
			from--;
	} else {
		return -1;
	}
	return sl_finding_fix(f, (fix_kind)kind, src, from, t + from, to - from, "", what);
}

void sl_check_delete_setting(sl_finding *f, const sl_setting *b, int kind, const char *what_fmt)
{
	if (!b->origin.raw)
		return;
	char what[256];
	snprintf(what, sizeof what, what_fmt, b->origin.raw);
	sl_check_delete_span(f, b->origin.src, b->origin.off, b->origin.raw, kind, what);
}
