/* diff.c (report): a semantic diff as terminal text, JSON (jansson), markdown. */
#include "report.h"

#include <stdlib.h>
#include <string.h>

static const char *kind_name(sl_change_kind k)
{
	static const char *const n[] = {"changed", "added", "removed", "explicit default"};
	return n[k];
}

static char *vt(json_t *v)
{
	if (!v)
		return sl_strdup("(unset)");
	if (json_is_string(v))
		return sl_strdup(json_string_value(v));
	char *d = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY | JSON_REAL_PRECISION(15));
	return d ? d : sl_strdup("?");
}

static json_t *place(const sl_origin *o)
{
	unsigned l, c;
	sl_origin_pos(o, &l, &c);
	if (!o->src)
		return json_null();
	return json_pack("{s:s, s:i, s:i}", "file", o->src->path, "line", (json_int_t)l, "col", (json_int_t)c);
}

static void where(FILE *f, const sl_origin *o)
{
	unsigned l, c;
	sl_origin_pos(o, &l, &c);
	if (o->src)
		fprintf(f, "%s:%u:%u", o->src->name, l, c);
	else
		fputc('-', f);
}

void sl_report_key_facts(json_t *o, const char *key)
{
	if (!strncmp(key, "env ", 4)) {
		json_object_set_new(o, "env", json_pack("{s:s}", "name", key + 4));
		return;
	}
	if (strncmp(key, "claim ", 6))
		return;
	/* claim KEY (SOURCE) or claim KEY ROLE (SOURCE): keys and roles have no blanks */
	const char *k = key + 6, *sp = strchr(k, ' '), *par = strrchr(k, '(');
	if (!sp || !par || par < sp)
		return;
	json_t *c = json_object();
	json_object_set_new(c, "key", json_stringn(k, (size_t)(sp - k)));
	if (par > sp + 1)
		json_object_set_new(c, "role", json_stringn(sp + 1, (size_t)(par - 1 - (sp + 1))));
	const char *end = strchr(par, ')');
	json_object_set_new(c, "source", json_stringn(par + 1, end ? (size_t)(end - par - 1) : strlen(par + 1)));
	json_object_set_new(o, "claim", c);
}

json_t *sl_report_diff_json(const sl_diff *d, const char *name_a, const char *name_b)
{
	json_t *ch = json_array();
	for (size_t i = 0; i < d->n; i++) {
		const sl_change *c = &d->v[i];
		json_t *x = json_pack("{s:s, s:s, s:s}", "kind", kind_name(c->kind), "service", c->service, "key",
				      c->key);
		sl_report_key_facts(x, c->key);
		json_object_set_new(x, "old", c->a ? json_incref(c->a) : json_null());
		json_object_set_new(x, "new", c->b ? json_incref(c->b) : json_null());
		json_object_set_new(x, "old_origin", place(&c->at_a));
		json_object_set_new(x, "new_origin", place(&c->at_b));
		json_array_append_new(ch, x);
	}
	return json_pack("{s:s, s:s, s:b, s:b, s:{s:s, s:s}, s:o}", "a", name_a, "b", name_b, "equal",
			 sl_diff_equal(d), "claims_only", sl_report_diff_claims_only(d), "topology", "a", d->topology_a,
			 "b", d->topology_b, "changes", ch);
}

int sl_report_diff_claims_only(const sl_diff *d)
{
	return d->n && !sl_diff_equal(d) && sl_diff_same_command(d);
}

int sl_report_diff(FILE *f, const char *format, const sl_diff *d, const char *name_a, const char *name_b,
		   int color)
{
	return sl_report_diff_noted(f, format, d, name_a, name_b, color, 1);
}

int sl_report_diff_noted(FILE *f, const char *format, const sl_diff *d, const char *name_a, const char *name_b,
			 int color, int claims_note)
{
	if (!strcmp(format, "json")) {
		json_t *doc = sl_report_json_doc(sl_report_diff_json(d, name_a, name_b));
		int rc = json_dumpf(doc, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15));
		fputc('\n', f);
		json_decref(doc);
		return rc || ferror(f) ? -1 : 0;
	}
	int md = !strcmp(format, "markdown");
	/* said as log says it: what runs is the same, what the entry says of itself is not */
	const char *note = claims_note && sl_report_diff_claims_only(d) ? "claims changed (the command is the same)" : NULL;
	if (md) {
		fprintf(f, "### servelint diff\n\n`%s` → `%s`\n\n", name_a, name_b);
		if (note)
			fprintf(f, "**C%s.**\n\n", note + 1);
		if (strcmp(d->topology_a, d->topology_b))
			fprintf(f, "**Topology:** %s → %s\n\n", d->topology_a, d->topology_b);
		if (!d->n)
			fputs("No difference in how the model is served.\n", f);
	} else {
		fprintf(f, "%s--- %s%s\n%s+++ %s%s\n", color ? "\033[31m" : "", name_a, color ? "\033[0m" : "",
			color ? "\033[32m" : "", name_b, color ? "\033[0m" : "");
		if (strcmp(d->topology_a, d->topology_b))
			fprintf(f, "topology: %s\n       -> %s\n", d->topology_a, d->topology_b);
		if (!d->n)
			fputs("no difference in how the model is served\n", f);
		if (note)
			fprintf(f, "%s\n", note);
	}
	const char *svc = NULL;
	for (size_t i = 0; i < d->n; i++) {
		const sl_change *c = &d->v[i];
		if (!svc || strcmp(svc, c->service)) {
			svc = c->service;
			if (md)
				fprintf(f, "\n**%s**\n\n| | key | %s | %s |\n|---|---|---|---|\n", svc, name_a, name_b);
			else
				fprintf(f, "%s%s%s\n", color ? "\033[1m" : "", svc, color ? "\033[0m" : "");
		}
		char *x = vt(c->a), *y = vt(c->b);
		const char *mark = c->kind == SL_CH_ADDED ? "+" : c->kind == SL_CH_REMOVED ? "-" :
				   c->kind == SL_CH_DEFAULT ? "=" : "~";
		if (md) {
			fprintf(f, "| %s | `%s` | `%s` | `%s` |\n", mark, c->key, x, y);
		} else {
			/* as git colours its diff: - red, + green, ~ (changed) yellow */
			const char *on = !color ? "" : c->kind == SL_CH_ADDED ? "\033[32m" :
					 c->kind == SL_CH_REMOVED ? "\033[31m" : c->kind == SL_CH_DEFAULT ? "\033[2m" :
					 "\033[33m";
			fprintf(f, "%s  %s %s: %s -> %s", on, mark, c->key, *x ? x : "\"\"", *y ? y : "\"\"");
			if (c->kind == SL_CH_DEFAULT)
				fputs("  (explicit default)", f);
			fprintf(f, "%s  %s[", color ? "\033[0m" : "", color ? "\033[2m" : "");
			where(f, &c->at_a);
			fputs(" -> ", f);
			where(f, &c->at_b);
			fprintf(f, "]%s\n", color ? "\033[0m" : "");
		}
		free(x);
		free(y);
	}
	if (md && d->n)
		fputs("\n`~` changed, `+` added, `-` removed, `=` a default written out on one side only.\n", f);
	return ferror(f) ? -1 : 0;
}

/* REV: out of a JSON diff's names: a "file" (or the "a" and "b" sides)
 * that starts with r1: or r2: becomes the repository path, and the
 * revision goes beside it ("revision", "a_revision", "b_revision"). */
void sl_report_json_split_revision(json_t *v, const char *r1, const char *r2)
{
	if (json_is_array(v)) {
		size_t i;
		json_t *x;
		json_array_foreach(v, i, x)
			sl_report_json_split_revision(x, r1, r2);
		return;
	}
	if (!json_is_object(v))
		return;
	static const char *const names[][2] = {{"file", "revision"}, {"a", "a_revision"}, {"b", "b_revision"}};
	for (size_t k = 0; k < 3; k++) {
		const char *f = json_string_value(json_object_get(v, names[k][0]));
		const char *r = NULL;
		for (int side = 0; f && side < 2 && !r; side++) {
			const char *rev = side ? r2 : r1;
			if (!rev)
				continue;
			size_t n = strlen(rev);
			if (!strncmp(f, rev, n) && f[n] == ':')
				r = rev;
		}
		if (r) {
			char *path = sl_strdup(f + strlen(r) + 1);
			json_object_set_new(v, names[k][0], json_string(path));
			json_object_set_new(v, names[k][1], json_string(r));
			free(path);
		}
	}
	const char *key;
	json_t *x;
	json_object_foreach(v, key, x)
		sl_report_json_split_revision(x, r1, r2);
}
