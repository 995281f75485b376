/*
 * suppress.c: findings an entry's comments suppress:
 *   # servelint disable=SL2002[,SL1001] -- reason   the next command
 *   # servelint disable-file=SL2002                   the whole entry
 * Uses rules.c only, for the id of a finding's rule (sl_rule_id).
 */
#include "check.h"

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

static void suppress_in(const sl_source *src, sl_findings *fs, size_t first)
{
	for (unsigned ln = 1; ln <= src->nlines; ln++) {
		size_t len;
		const char *l = sl_source_line(src, ln + src->line_base, &len);
		const char *d = NULL;
		for (size_t i = 0; i + 18 <= len && !d; i++)
			if (!strncmp(l + i, "# servelint disable", 19))
				d = l + i + 19;
		if (!d)
			continue;
		int file = !strncmp(d, "-file=", 6);
		if (!file && *d != '=')
			continue;
		d += file ? 6 : 1;
		const char *end = l + len;
		const char *why = NULL;
		for (const char *q = d; q + 1 < end; q++)
			if (q[0] == '-' && q[1] == '-') {
				why = q + 2;
				break;
			}
		size_t idn = (size_t)((why ? why - 2 : end) - d);
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

void sl_check_suppress(const sl_entry *e, sl_findings *fs, size_t first)
{
	if (e->script)
		suppress_in(e->script, fs, first);
}
