/*
 * suppress.c: findings an entry's comments suppress:
 *   # servelint disable=SL2002[,SL1001] -- reason   the next command
 *   # servelint disable-file=SL2002                   the whole entry
 * and SL0002, an id in such a comment that is no rule. Uses rules.c, for
 * the id of a finding's rule (sl_rule_id), and findings.c.
 */
#include "check.h"
#include "findings.h"

#include <string.h>

static int id_listed(const char *list, size_t n, const char *id)
{
	size_t il = strlen(id);
	const char *p = list, *end = list + n;
	while (p < end) {
		const char *q = p;
		while (q < end && *q != ',' && *q != ' ')
			q++;
		if ((size_t)(q - p) == il && !strncmp(p, id, il))
			return 1;
		if ((size_t)(q - p) == 3 && !strncmp(p, "all", 3))
			return 1;
		p = q + 1;
	}
	return 0;
}

/* Where the ids of a `# servelint disable` comment on a line start (after
 * `=`), how long the list is (up to `--`), and whether it is disable-file;
 * NULL when the line has none. */
static const char *ids_of(const char *l, size_t len, size_t *n, int *whole)
{
	const char *d = NULL;
	/* tried only at a `#` (a strncmp at every byte of every line was
	 * 709,000 calls, 30 M instructions, in a check of 350 entries) */
	for (size_t i = 0; i + 18 <= len && !d; i++) {
		const char *h = memchr(l + i, '#', len - 17 - i);
		if (!h)
			break;
		i = (size_t)(h - l);
		if (!strncmp(l + i, "# servelint disable", 19))
			d = l + i + 19;
	}
	if (!d)
		return NULL;
	int file = !strncmp(d, "-file=", 6);
	if (!file && *d != '=')
		return NULL;
	d += file ? 6 : 1;
	*whole = file;
	const char *end = l + len, *q = d;
	while (q + 1 < end && !(q[0] == '-' && q[1] == '-'))
		q++;
	*n = (size_t)((q + 1 < end ? q : end) - d);
	return d;
}

static void suppress_in(const sl_source *src, sl_findings *fs, size_t first)
{
	for (unsigned ln = 1; ln <= src->nlines; ln++) {
		size_t len, idn = 0;
		int file = 0;
		const char *l = sl_source_line(src, ln + src->line_base, &len);
		const char *d = ids_of(l, len, &idn, &file);
		if (!d)
			continue;
		const char *end = l + len;
		const char *why = d + idn + 1 < end && d[idn] == '-' ? d + idn + 2 : NULL;
		/* the next command: from the next line that is not a comment or
		 * blank, through its continuation lines */
		unsigned from = ln + 1, to = ln + 1;
		if (!file) {
			while (from <= src->nlines) {
				size_t n2;
				const char *t = sl_source_line(src, from + src->line_base, &n2);
				size_t k = strspn(t, " \t");
				if (k < n2 && t[k] != '#')
					break;
				from++;
			}
			to = from;
			for (;;) {
				size_t n2;
				const char *t = sl_source_line(src, to + src->line_base, &n2);
				while (n2 && (t[n2 - 1] == ' ' || t[n2 - 1] == '\r'))
					n2--;
				if (to >= src->nlines || !n2 || t[n2 - 1] != '\\')
					break;
				to++;
			}
		}
		for (size_t i = first; i < fs->n; i++) {
			sl_finding *f = &fs->v[i];
			if (f->suppressed || !id_listed(d, idn, sl_rule_id(f->rule)))
				continue;
			unsigned fl, fc;
			sl_origin_pos(&f->where, &fl, &fc);
			if (!file && (f->where.src != src || fl < from + src->line_base || fl > to + src->line_base))
				continue;
			f->suppressed = 1;
			if (why) {
				while (why < end && *why == ' ')
					why++;
				f->justification = sl_strndup(why, (size_t)(end - why));
			}
		}
	}
}

void sl_check_suppress_ids(const sl_rules *rs, const sl_rule *r, const sl_model *m, sl_findings *out)
{
	const sl_source *src = m->entry ? m->entry->script : NULL;
	if (!src)
		return;
	for (unsigned ln = 1; ln <= src->nlines; ln++) {
		size_t len, n = 0;
		int whole;
		const char *l = sl_source_line(src, ln + src->line_base, &len);
		const char *d = ids_of(l, len, &n, &whole);
		if (!d)
			continue;  /* no disable comment on the line (d + 0 on NULL is undefined) */
		for (const char *p = d, *end = d + n; p < end;) {
			const char *q = p;
			while (q < end && *q != ',' && *q != ' ')
				q++;
			char id[32];
			size_t k = (size_t)(q - p);
			if (k && k < sizeof id) {
				memcpy(id, p, k);
				id[k] = 0;
			}
			if (k && (k >= sizeof id || (strcmp(id, "all") && !sl_rules_find(rs, id)))) {
				sl_origin o;
				sl_origin_set(&o, src, (uint32_t)(p - src->text), NULL);
				sl_finding_add(out, r, &o, "%s: `%.*s` names no rule, so it suppresses nothing "
					       "(`servelint rules` lists the ids)", r->summary, (int)k, p);
				sl_origin_clear(&o);
			}
			p = q + 1;
		}
	}
}

int sl_check_suppresses(const sl_entry *e)
{
	const sl_source *src = e->script;
	for (unsigned ln = 1; src && ln <= src->nlines; ln++) {
		size_t len, n = 0;
		int whole;
		const char *l = sl_source_line(src, ln + src->line_base, &len);
		if (ids_of(l, len, &n, &whole))
			return 1;
	}
	return 0;
}

void sl_check_suppress(const sl_entry *e, sl_findings *fs, size_t first)
{
	if (e->script)
		suppress_in(e->script, fs, first);
}
