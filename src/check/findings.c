/*
 * findings.c: a finding's making, freeing and order: what every file of
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
		free(f->fix);
		free(f->justification);
	}
	free(fs->v);
	memset(fs, 0, sizeof *fs);
}

static int cmp_finding(const void *a, const void *b)
{
	const sl_finding *x = a, *y = b;
	unsigned lx, cx, ly, cy;
	sl_origin_pos(&x->where, &lx, &cx);
	sl_origin_pos(&y->where, &ly, &cy);
	const char *fx = x->where.src ? x->where.src->path : "", *fy = y->where.src ? y->where.src->path : "";
	int k = strcmp(fx, fy);
	if (k)
		return k;
	if (lx != ly)
		return lx < ly ? -1 : 1;
	if (cx != cy)
		return cx < cy ? -1 : 1;
	return strcmp(x->rule->id, y->rule->id);
}

void sl_findings_sort(sl_findings *fs, size_t first)
{
	if (fs->n - first > 1)
		qsort(fs->v + first, fs->n - first, sizeof *fs->v, cmp_finding);
}
