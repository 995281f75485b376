/*
 * check.c: loading rules and running their checks over the model.
 *
 * The vocabulary (rules/README.md):
 *   equal_across_roles: KEY        prefill and decode must agree on KEY
 *   in_range: {keys, min, max, min_exclusive, max_exclusive}
 *   requires: {key, needs}         KEY set (and true) needs NEEDS set
 *   claim_matches: KEY             a claim about KEY must match the setting
 *   equal_across_entries: KEY      entries of one model agree (catalogue.c)
 *   c: NAME                        a check written in C (below)
 */
#include "check.h"

#include <dirent.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../parse/parse.h"
#include "internal.h"

struct blob { const char *name; const char *data; size_t len; };
extern const struct blob sl_rule_blob[];

struct sl_rules {
	sl_rule *v;
	size_t n;
};

static const char *const sev_names[] = {"style", "info", "warning", "error"};

const char *sl_severity_name(sl_severity s)
{
	return sev_names[s];
}

int sl_severity_parse(const char *s, sl_severity *out)
{
	for (int i = 0; i < 4; i++)
		if (!strcmp(s, sev_names[i])) {
			*out = (sl_severity)i;
			return 0;
		}
	return -1;
}

/* ---- loading --------------------------------------------------------------- */

static const char *scalar(const sl_yaml_node *n)
{
	return n && n->kind == SL_YAML_SCALAR ? n->value : NULL;
}

static char *dup_or_null(const char *s)
{
	return s ? sl_strdup(s) : NULL;
}

static int rfail(sl_error *err, const sl_source *src, const sl_yaml_node *n, const char *msg)
{
	sl_error_set(err, src->path, n ? n->line + src->line_base : 0, n ? n->col : 0, "rule: %s", msg);
	return SL_ERR_INPUT;
}

static void push_key(sl_rule *r, const char *k)
{
	size_t cap = r->nkeys;
	SL_PUSH(r->keys, r->nkeys, cap, sl_strdup(k));
}

static int load_rule(const sl_source *src, sl_rule *r, sl_error *err)
{
	sl_yaml_doc *d;
	int rc = sl_yaml_load(src, &d, err);
	if (rc)
		return rc;
	const sl_yaml_node *n = d->root;
	memset(r, 0, sizeof *r);
	const char *id = scalar(sl_yaml_get(n, "id")), *sev = scalar(sl_yaml_get(n, "severity"));
	const sl_yaml_node *chk = sl_yaml_get(n, "check");
	if (!id || !sev || !chk || chk->kind != SL_YAML_MAP || chk->n != 1) {
		rc = rfail(err, src, n, "needs id, severity and one check");
		goto out;
	}
	r->id = sl_strdup(id);
	r->name = dup_or_null(scalar(sl_yaml_get(n, "name")));
	r->summary = dup_or_null(scalar(sl_yaml_get(n, "summary")));
	r->explanation = dup_or_null(scalar(sl_yaml_get(n, "explanation")));
	r->bad = dup_or_null(scalar(sl_yaml_get(n, "bad")));
	r->good = dup_or_null(scalar(sl_yaml_get(n, "good")));
	if (sl_severity_parse(sev, &r->severity)) {
		rc = rfail(err, src, sl_yaml_get(n, "severity"), "severity is one of error, warning, info, style");
		goto out;
	}
	if (!r->name || !r->summary || !r->explanation || !r->bad || !r->good) {
		rc = rfail(err, src, n, "needs name, summary, explanation, bad and good");
		goto out;
	}
	const char *k = chk->keys[0]->value;
	const sl_yaml_node *v = chk->items[0];
	if (!strcmp(k, "equal_across_roles") && (scalar(v) || (v->kind == SL_YAML_SEQ && v->n))) {
		/* one key, or several that mean the same for different engines */
		r->kind = K_EQUAL;
		if (scalar(v))
			push_key(r, scalar(v));
		for (size_t i = 0; v->kind == SL_YAML_SEQ && i < v->n; i++)
			if (scalar(v->items[i]))
				push_key(r, scalar(v->items[i]));
	} else if (!strcmp(k, "equal_across_entries") &&
		   (scalar(v) || (v->kind == SL_YAML_SEQ && v->n) || sl_yaml_get(v, "keys"))) {
		/* entries of one model (and engine, unless across_engines) must agree */
		r->kind = K_ENTRIES;
		r->catalogue = 1;
		const sl_yaml_node *ks = v->kind == SL_YAML_MAP ? sl_yaml_get(v, "keys") : v;
		if (scalar(ks))
			push_key(r, scalar(ks));
		for (size_t i = 0; ks->kind == SL_YAML_SEQ && i < ks->n; i++)
			if (scalar(ks->items[i]))
				push_key(r, scalar(ks->items[i]));
		const char *ae = v->kind == SL_YAML_MAP ? scalar(sl_yaml_get(v, "across_engines")) : NULL;
		r->across_engines = ae && !strcmp(ae, "true");
		if (!r->nkeys)
			rc = rfail(err, src, v, "equal_across_entries needs a key");
	} else if (!strcmp(k, "claim_matches") && scalar(v)) {
		r->kind = K_CLAIM;
		push_key(r, scalar(v));
	} else if (!strcmp(k, "c") && scalar(v)) {
		static const char *const known[] = {"unknown_flag", "duplicate_conflict", "duplicate_same",
						    "gpus_visible", "kv_roles", "numa_nodes", "gpus_total",
						    "capture_sizes", "graph_batch_sizes", "batched_tokens",
						    "eagle_draft_tokens", "claims_topology", "flag_version",
						    "invalid_json", "claims_flags"};
		r->kind = K_C;
		r->cname = sl_strdup(scalar(v));
		r->catalogue = sl_catalogue_c_known(r->cname);
		int ok = r->catalogue;
		for (size_t i = 0; i < sizeof known / sizeof *known; i++)
			ok |= !strcmp(known[i], r->cname);
		if (!ok)
			rc = rfail(err, src, v, "no check by that name is written in C");
	} else if (!strcmp(k, "requires") && scalar(sl_yaml_get(v, "key")) && scalar(sl_yaml_get(v, "needs"))) {
		r->kind = K_REQUIRES;
		push_key(r, scalar(sl_yaml_get(v, "key")));
		push_key(r, scalar(sl_yaml_get(v, "needs")));
	} else if (!strcmp(k, "conflicts") && scalar(sl_yaml_get(v, "key")) && scalar(sl_yaml_get(v, "with"))) {
		r->kind = K_CONFLICTS;
		push_key(r, scalar(sl_yaml_get(v, "key")));
		push_key(r, scalar(sl_yaml_get(v, "with")));
	} else if (!strcmp(k, "in_range") && sl_yaml_get(v, "keys")) {
		r->kind = K_RANGE;
		const sl_yaml_node *ks = sl_yaml_get(v, "keys");
		for (size_t i = 0; ks->kind == SL_YAML_SEQ && i < ks->n; i++)
			if (scalar(ks->items[i]))
				push_key(r, scalar(ks->items[i]));
		const char *mn = scalar(sl_yaml_get(v, "min")), *mx = scalar(sl_yaml_get(v, "max"));
		r->has_min = mn && !sl_parse_double(mn, &r->min);
		r->has_max = mx && !sl_parse_double(mx, &r->max);
		const char *e1 = scalar(sl_yaml_get(v, "min_exclusive"));
		const char *e2 = scalar(sl_yaml_get(v, "max_exclusive"));
		r->min_excl = e1 && !strcmp(e1, "true");
		r->max_excl = e2 && !strcmp(e2, "true");
		if (!r->nkeys || (!r->has_min && !r->has_max))
			rc = rfail(err, src, v, "in_range needs keys and a min or max");
	} else {
		rc = rfail(err, src, chk,
			   "unknown check (equal_across_roles, equal_across_entries, in_range, requires, conflicts, "
			   "claim_matches, c)");
	}
out:
	sl_yaml_free(d);
	return rc;
}

static void rule_free(sl_rule *r)
{
	free(r->id);
	free(r->name);
	free(r->summary);
	free(r->explanation);
	free(r->bad);
	free(r->good);
	for (size_t i = 0; i < r->nkeys; i++)
		free(r->keys[i]);
	free(r->keys);
	free(r->cname);
}

static int add_rule(sl_rules *rs, const char *path, const char *text, size_t len, sl_error *err)
{
	sl_source *src;
	int rc = sl_source_from_memory(path, text, len, &src, err);
	if (rc)
		return rc;
	sl_rule r;
	rc = load_rule(src, &r, err);
	sl_source_free(src);
	if (rc) {
		rule_free(&r);
		return rc;
	}
	if (sl_rules_find(rs, r.id)) {
		sl_error_set(err, path, 1, 1, "rule: id %s is used twice", r.id);
		rule_free(&r);
		return SL_ERR_INPUT;
	}
	size_t cap = rs->n;
	SL_PUSH(rs->v, rs->n, cap, r);
	return SL_OK;
}

static int cmp_rule(const void *a, const void *b)
{
	return strcmp(((const sl_rule *)a)->id, ((const sl_rule *)b)->id);
}

int sl_rules_load(sl_rules **out, sl_error *err)
{
	sl_rules *rs = sl_calloc(1, sizeof *rs);
	int rc = SL_OK;
	const char *dir = getenv("SERVELINT_RULES");
	if (dir && *dir) {
		DIR *d = opendir(dir);
		struct dirent *de;
		if (!d) {
			sl_error_set(err, dir, 0, 0, "SERVELINT_RULES: cannot open folder");
			rc = SL_ERR_IO;
		}
		while (d && rc == SL_OK && (de = readdir(d))) {
			if (!sl_ends_with(de->d_name, ".yaml"))
				continue;
			sl_buf p = {0};
			sl_buf_printf(&p, "%s/%s", dir, de->d_name);
			char *text;
			size_t len;
			rc = sl_read_file(p.data, 1 << 20, &text, &len, err);
			if (rc == SL_OK) {
				rc = add_rule(rs, p.data, text, len, err);
				free(text);
			}
			sl_buf_free(&p);
		}
		if (d)
			closedir(d);
	} else {
		for (size_t i = 0; sl_rule_blob[i].name && rc == SL_OK; i++) {
			sl_buf p = {0};
			sl_buf_printf(&p, "rules/%s", sl_rule_blob[i].name);
			rc = add_rule(rs, p.data, sl_rule_blob[i].data, sl_rule_blob[i].len, err);
			sl_buf_free(&p);
		}
	}
	if (rc) {
		sl_rules_free(rs);
		return rc;
	}
	if (rs->n)
		qsort(rs->v, rs->n, sizeof *rs->v, cmp_rule);
	*out = rs;
	return SL_OK;
}

void sl_rules_free(sl_rules *rs)
{
	if (!rs)
		return;
	for (size_t i = 0; i < rs->n; i++)
		rule_free(&rs->v[i]);
	free(rs->v);
	free(rs);
}

size_t sl_rules_count(const sl_rules *r) { return r->n; }
const sl_rule *sl_rules_at(const sl_rules *r, size_t i) { return i < r->n ? &r->v[i] : NULL; }
const char *sl_rule_id(const sl_rule *r) { return r->id; }
const char *sl_rule_name(const sl_rule *r) { return r->name; }
sl_severity sl_rule_severity(const sl_rule *r) { return r->severity; }
const char *sl_rule_summary(const sl_rule *r) { return r->summary; }
const char *sl_rule_explanation(const sl_rule *r) { return r->explanation; }
const char *sl_rule_bad(const sl_rule *r) { return r->bad; }
const char *sl_rule_good(const sl_rule *r) { return r->good; }

const sl_rule *sl_rules_find(const sl_rules *r, const char *id)
{
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->v[i].id, id))
			return &r->v[i];
	return NULL;
}

/* ---- findings ---------------------------------------------------------------- */

static char *vtext(json_t *v)
{
	if (json_is_string(v))
		return sl_strdup(json_string_value(v));
	char *d = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY | JSON_REAL_PRECISION(15));
	return d ? d : sl_strdup("?");
}

static sl_finding *finding(sl_findings *out, const sl_rule *r, const sl_origin *where,
			   const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static sl_finding *finding(sl_findings *out, const sl_rule *r, const sl_origin *where,
			   const char *fmt, ...)
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

/* ---- the vocabulary -------------------------------------------------------------- */

static const sl_service *first_of(const sl_model *m, const char *role)
{
	for (size_t i = 0; i < m->nservices; i++)
		if (!strcmp(m->services[i].role, role))
			return &m->services[i];
	return NULL;
}

static int is_worker(const char *role)
{
	return !strcmp(role, "prefill") || !strcmp(role, "decode") || !strcmp(role, "aggregated");
}

/* equal, with numbers compared as numbers and strings without case
 * ("DSPARK" and "dspark" name one method) */
static int same_value(json_t *a, json_t *b)
{
	if (json_is_number(a) && json_is_number(b))
		return fabs(json_number_value(a) - json_number_value(b)) < 1e-9;
	if (json_is_string(a) && json_is_string(b))
		return !strcasecmp(json_string_value(a), json_string_value(b));
	if (json_is_boolean(a) || json_is_boolean(b))
		return json_is_true(a) == json_is_true(b) && json_is_boolean(a) && json_is_boolean(b);
	return json_equal(a, b);
}

static void check_equal(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	const sl_service *p = first_of(m, "prefill"), *d = first_of(m, "decode");
	if (!p || !d)
		return;
	for (size_t k = 0; k < r->nkeys; k++) {
		const sl_setting *a = sl_service_get(p, r->keys[k]), *b = sl_service_get(d, r->keys[k]);
		if (!a || !b || same_value(a->value, b->value))
			continue;
		char *va = vtext(a->value), *vb = vtext(b->value);
		sl_finding *f = finding(out, r, &b->origin, "%s: decode has %s = %s, prefill has %s", r->summary,
					r->keys[k], vb, va);
		sl_finding_related(f, &a->origin, "prefill sets it here");
		free(va);
		free(vb);
	}
}

static void check_range(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	for (size_t i = 0; i < m->nservices; i++)
		for (size_t k = 0; k < r->nkeys; k++) {
			const sl_setting *s = sl_service_get(&m->services[i], r->keys[k]);
			if (!s || !json_is_number(s->value))
				continue;
			double v = json_number_value(s->value);
			int low = r->has_min && (r->min_excl ? v <= r->min : v < r->min);
			int high = r->has_max && (r->max_excl ? v >= r->max : v > r->max);
			if (!low && !high)
				continue;
			char *t = vtext(s->value);
			finding(out, r, &s->origin, "%s: %s = %s is outside %s%g, %g%s", r->summary, r->keys[k], t,
				r->min_excl ? "(" : "[", r->min, r->max, r->max_excl ? ")" : "]");
			free(t);
		}
}

static void check_requires(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	for (size_t i = 0; i < m->nservices; i++) {
		const sl_setting *s = sl_service_get(&m->services[i], r->keys[0]);
		if (!s || json_is_false(s->value) || json_is_null(s->value))
			continue;
		if (!sl_service_get(&m->services[i], r->keys[1]))
			finding(out, r, &s->origin, "%s: %s is set but %s is not", r->summary, r->keys[0],
				r->keys[1]);
	}
}

static void check_conflicts(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	for (size_t i = 0; i < m->nservices; i++) {
		const sl_setting *a = sl_service_get(&m->services[i], r->keys[0]);
		const sl_setting *b = sl_service_get(&m->services[i], r->keys[1]);
		if (!a || !b || json_is_false(a->value) || json_is_false(b->value))
			continue;
		sl_finding *f = finding(out, r, &b->origin, "%s: %s and %s are both set", r->summary,
					r->keys[0], r->keys[1]);
		sl_finding_related(f, &a->origin, "the other one");
	}
}

/* Holds one claim to the settings of the services it speaks of (its role,
 * or every worker); one that agrees is enough, and a claim about a setting
 * no service has is not checked. */
static void hold_claim(const sl_rule *r, const sl_model *m, const sl_claim *k, sl_findings *out)
{
	const sl_setting *seen = NULL;
	int agrees = 0;
	for (size_t i = 0; i < m->nservices && !agrees; i++) {
		const sl_service *s = &m->services[i];
		if (k->role ? strcmp(s->role, k->role) : !is_worker(s->role))
			continue;
		const sl_setting *st = sl_service_get(s, k->key);
		if (!st)
			continue;
		seen = seen ? seen : st;
		agrees = same_value(st->value, k->value);
	}
	if (!seen || agrees)
		return;
	char *cv = vtext(k->value), *sv = vtext(seen->value);
	sl_finding *f = finding(out, r, &k->origin, "%s: the %s says \"%s\" (%s), the command sets %s",
				r->summary, k->from, k->text, cv, sv);
	free(f->where.raw);  /* the span is the claim's words */
	f->where.raw = sl_strdup(k->text);
	sl_finding_related(f, &seen->origin, "the setting");
	free(cv);
	free(sv);
}

static void check_claim(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	for (size_t c = 0; c < m->nclaims; c++)
		if (!strcmp(m->claims[c].key, r->keys[0]))
			hold_claim(r, m, &m->claims[c], out);
}

/* ---- checks in C ------------------------------------------------------------------- */

static void c_unknown_flag(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	for (size_t i = 0; i < m->nservices; i++) {
		const sl_service *s = &m->services[i];
		for (size_t k = 0; k < s->nsettings; k++) {
			const sl_setting *st = &s->settings[k];
			if (!(st->flags & SL_SET_UNKNOWN) ||
			    (strcmp(st->via, "flag") && strcmp(st->via, "file") && strcmp(st->via, "json")))
				continue;
			/* a file's key is reported once, not once per service reading it */
			int again = 0;
			for (size_t j = 0; j < out->n && !again; j++)
				again = out->v[j].rule == r && out->v[j].where.src == st->origin.src &&
					out->v[j].where.off == st->origin.off;
			if (again)
				continue;
			sl_finding *f = !strcmp(st->via, "file")
					? finding(out, r, &st->origin, "%s: `%s` is not a key %s reads", r->summary,
						  st->flag, s->engine)
				: !strcmp(st->via, "json")
					? finding(out, r, &st->origin, "%s: `%s` is not a member of %.*s for %s",
						  r->summary, strchr(st->flag, ' ') ? strchr(st->flag, ' ') + 1 : st->flag,
						  (int)(strchr(st->flag, ' ') ? (size_t)(strchr(st->flag, ' ') - st->flag)
									     : strlen(st->flag)),
						  st->flag, s->engine)
					: finding(out, r, &st->origin, "%s: `%s` is not a flag of %s", r->summary,
						  st->flag, s->engine);
			if (st->hint) {
				f->hint = sl_strdup(st->hint);
				/* the fix is certain only for the name itself: a flag at
				 * its place, a member inside its quotes */
				if (!strcmp(st->via, "flag")) {
					f->fix = sl_strdup(st->hint);
					f->fix_skip = 0;
					f->fix_len = (unsigned)strlen(st->flag);
				} else if (!strcmp(st->via, "json")) {
					const char *mem = strrchr(st->flag, ' ');
					mem = mem ? mem + 1 : st->flag;
					f->fix = sl_strdup(st->hint);
					f->fix_skip = 1;
					f->fix_len = (unsigned)strlen(mem);
				}
			}
		}
	}
}

/* the same flag twice on one command line: different values or the same */
/* Whether the export e of service s is in effect for some other service. */
static int export_used(const sl_model *m, const sl_service *s, const sl_env *e)
{
	for (size_t i = 0; i < m->nservices; i++) {
		const sl_service *o = &m->services[i];
		for (size_t k = 0; o != s && k < o->nenv; k++)
			if (!strcmp(o->env[k].name, e->name) && !strcmp(o->env[k].via, "export") &&
			    !(o->env[k].flags & SL_SET_OVERRIDDEN))
				return 1;
	}
	return 0;
}

static void c_duplicate(const sl_rule *r, const sl_model *m, sl_findings *out, int want_conflict)
{
	for (size_t i = 0; i < m->nservices; i++) {
		const sl_service *s = &m->services[i];
		for (size_t k = 0; k < s->nsettings; k++) {
			const sl_setting *a = &s->settings[k];
			if (!(a->flags & SL_SET_OVERRIDDEN) || strcmp(a->via, "flag"))
				continue;
			for (size_t j = k + 1; j < s->nsettings; j++) {
				const sl_setting *b = &s->settings[j];
				if (strcmp(b->key, a->key) || strcmp(b->via, "flag"))
					continue;
				int conflict = !same_value(a->value, b->value);
				if (conflict != want_conflict)
					break;
				char *va = vtext(a->value), *vb = vtext(b->value);
				sl_finding *f = finding(out, r, &b->origin,
							conflict ? "%s: %s is given as %s and again as %s (the last wins)"
								 : "%s: %s is given twice, both %s%.0s",
							r->summary, b->flag, va, vb);
				sl_finding_related(f, &a->origin, "first given here");
				free(va);
				free(vb);
				break;
			}
		}
		/* an environment variable set twice for one command (comments apart) */
		for (size_t k = 0; k < s->nenv; k++) {
			const sl_env *a = &s->env[k];
			if (!(a->flags & SL_SET_OVERRIDDEN) || !strcmp(a->via, "comment"))
				continue;
			for (size_t j = k + 1; j < s->nenv; j++) {
				const sl_env *b = &s->env[j];
				if (strcmp(a->name, b->name) || !strcmp(b->via, "comment"))
					continue;
				/* `export X=a` for the script, `X=b cmd` for one command:
				 * the usual way to give one command its own value, when
				 * the export holds for another command */
				if (!strcmp(a->via, "export") && !strcmp(b->via, "inline") && export_used(m, s, a))
					break;
				int conflict = strcmp(a->value, b->value) != 0;
				if (conflict != want_conflict)
					break;
				sl_finding *f = finding(out, r, &b->origin,
							conflict ? "%s: %s is set to %s and again to %s (the last wins)"
								 : "%s: %s is set twice, both %s%.0s",
							r->summary, b->name, a->value, b->value);
				sl_finding_related(f, &a->origin, "first set here");
				break;
			}
		}
	}
}

/* ranks the parallelism needs against GPUs the service is given */
static void c_gpus(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	for (size_t i = 0; i < m->nservices; i++) {
		const sl_service *s = &m->services[i];
		if (!is_worker(s->role) || s->gpus < 1)
			continue;
		const sl_setting *tp = sl_service_get(s, "parallel.tensor");
		const sl_setting *pp = sl_service_get(s, "parallel.pipeline");
		const sl_setting *dp = sl_service_get(s, "parallel.data");
		const sl_setting *nn = sl_service_get(s, "parallel.nnodes");
		const sl_setting *adp = sl_service_get(s, "parallel.attention_data");
		if (!tp || !json_is_integer(tp->value) || (nn && json_integer_value(nn->value) > 1))
			continue;
		long need = (long)json_integer_value(tp->value);
		if (pp && json_is_integer(pp->value))
			need *= (long)json_integer_value(pp->value);
		/* vLLM/SGLang data parallel multiplies the ranks; TensorRT-LLM's
		 * attention DP runs within the tensor-parallel ranks */
		if (dp && json_is_integer(dp->value) && !(adp && json_is_true(adp->value)))
			need *= (long)json_integer_value(dp->value);
		if (need == s->gpus)
			continue;
		sl_finding *f = finding(out, r, &s->gpus_origin,
					"%s: %s needs %ld GPUs (tensor x pipeline x data parallel) but is given %ld (%s)",
					r->summary, s->name, need, s->gpus, s->gpus_from);
		sl_finding_related(f, &tp->origin, "tensor parallel size");
	}
}

static long ival(const sl_service *s, const char *key, long dflt)
{
	const sl_setting *st = sl_service_get(s, key);
	return st && json_is_integer(st->value) ? (long)json_integer_value(st->value) : dflt;
}

/* vLLM KV transfer roles: a prefill worker produces (or both), a decode
 * worker consumes (or both); a connector needs a role (kv_transfer.py) */
static void c_kv_roles(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	for (size_t i = 0; i < m->nservices; i++) {
		const sl_service *s = &m->services[i];
		const sl_setting *role = sl_service_get(s, "kv.transfer.role");
		const sl_setting *conn = sl_service_get(s, "kv.transfer.connector");
		if (conn && !role) {
			finding(out, r, &conn->origin, "%s: %s has a KV connector but no kv_role", r->summary, s->name);
			continue;
		}
		if (!role || !json_is_string(role->value))
			continue;
		const char *v = json_string_value(role->value);
		if ((!strcmp(s->role, "prefill") && !strcmp(v, "kv_consumer")) ||
		    (!strcmp(s->role, "decode") && !strcmp(v, "kv_producer")))
			finding(out, r, &role->origin, "%s: the %s worker has kv_role %s", r->summary, s->role, v);
	}
}

/* --numa-bind-nodes: one entry per GPU the engine uses (vllm/utils/numa_utils.py) */
static void c_numa_nodes(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	for (size_t i = 0; i < m->nservices; i++) {
		const sl_service *s = &m->services[i];
		const sl_setting *nb = sl_service_get(s, "vllm.numa_bind_nodes");
		if (!nb || !json_is_array(nb->value))
			continue;
		long ranks = ival(s, "parallel.tensor", 1) * ival(s, "parallel.pipeline", 1) * ival(s, "parallel.data", 1);
		long n = (long)json_array_size(nb->value);
		if (n != ranks)
			finding(out, r, &nb->origin, "%s: %ld NUMA nodes for %ld GPU ranks (tensor x pipeline x data)",
				r->summary, n, ranks);
	}
}

/* "Accelerators used N of M" against the GPUs the services add up to */
static void c_gpus_total(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	const sl_claim *k = NULL;
	for (size_t c = 0; c < m->nclaims && !k; c++)
		if (!strcmp(m->claims[c].key, "gpus.total") && !strcmp(m->claims[c].from, "metadata"))
			k = &m->claims[c];
	if (!k || !json_is_integer(k->value))
		return;
	long sum = 0;
	for (size_t i = 0; i < m->nservices; i++) {
		const sl_service *s = &m->services[i];
		if (!is_worker(s->role))
			continue;
		long g = s->gpus;
		if (g < 0 || (s->gpus_from && strstr(s->gpus_from, "comment")))
			return;  /* not known for every worker: nothing to hold the claim to */
		if (s->gpus == 0)
			return;
		sum += g * (long)s->replicas;
	}
	if (sum && sum != (long)json_integer_value(k->value))
		finding(out, r, &k->origin, "%s: the metadata says %lld GPUs, the services use %ld", r->summary,
			(long long)json_integer_value(k->value), sum);
}

static long max_of(json_t *a)
{
	long mx = -1;
	size_t i;
	json_t *v;
	json_array_foreach(a, i, v)
		if (json_is_integer(v) && json_integer_value(v) > mx)
			mx = (long)json_integer_value(v);
	return mx;
}

/* vLLM: --max-cudagraph-capture-size below the largest listed capture size */
static void c_capture_sizes(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	for (size_t i = 0; i < m->nservices; i++) {
		const sl_service *s = &m->services[i];
		const sl_setting *mx = sl_service_get(s, "cudagraph.max_capture_size");
		const sl_setting *ls = sl_service_get(s, "cudagraph.capture_sizes");
		if (!mx || !ls || !json_is_integer(mx->value) || !json_is_array(ls->value) ||
		    strncmp(s->engine, "vllm", 4) != 0)
			continue;
		long big = max_of(ls->value);
		if (json_integer_value(mx->value) < big) {
			sl_finding *f = finding(out, r, &mx->origin,
						"%s: the largest capture size is %lld, the list goes to %ld", r->summary,
						(long long)json_integer_value(mx->value), big);
			sl_finding_related(f, &ls->origin, "the capture sizes");
		}
	}
}

/* TensorRT-LLM: cuda_graph_config.batch_sizes beyond max_batch_size, and
 * cuda_graph_config.max_batch_size not the largest of them (llm_args.py) */
static void c_graph_batch_sizes(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	for (size_t i = 0; i < m->nservices; i++) {
		const sl_service *s = &m->services[i];
		if (!strstr(s->engine, "trtllm"))
			continue;
		const sl_setting *bs = sl_service_get(s, "cudagraph.capture_sizes");
		if (!bs || !json_is_array(bs->value))
			continue;
		long big = max_of(bs->value);
		const sl_setting *mb = sl_service_get(s, "limits.max_seqs");
		const sl_setting *gm = sl_service_get(s, "cudagraph.max_bs");
		if (mb && json_is_integer(mb->value) && big > json_integer_value(mb->value)) {
			sl_finding *f = finding(out, r, &bs->origin, "%s: CUDA graphs up to batch %ld, max_batch_size %lld",
						r->summary, big, (long long)json_integer_value(mb->value));
			sl_finding_related(f, &mb->origin, "max_batch_size");
		}
		if (gm && json_is_integer(gm->value) && json_integer_value(gm->value) != big) {
			sl_finding *f = finding(out, r, &gm->origin,
						"%s: cuda_graph_config.max_batch_size %lld is not the largest batch size %ld",
						r->summary, (long long)json_integer_value(gm->value), big);
			sl_finding_related(f, &bs->origin, "the batch sizes");
		}
	}
}

/* vLLM: max_num_batched_tokens must hold at least max_num_seqs (SchedulerConfig) */
static void c_batched_tokens(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	for (size_t i = 0; i < m->nservices; i++) {
		const sl_service *s = &m->services[i];
		if (strncmp(s->engine, "vllm", 4) && strcmp(s->engine, "dynamo-vllm"))
			continue;
		const sl_setting *bt = sl_service_get(s, "limits.max_batched_tokens");
		const sl_setting *ms = sl_service_get(s, "limits.max_seqs");
		if (bt && ms && json_is_integer(bt->value) && json_is_integer(ms->value) &&
		    json_integer_value(bt->value) < json_integer_value(ms->value)) {
			sl_finding *f = finding(out, r, &bt->origin, "%s: %lld batched tokens for %lld sequences", r->summary,
						(long long)json_integer_value(bt->value), (long long)json_integer_value(ms->value));
			sl_finding_related(f, &ms->origin, "max_num_seqs");
		}
	}
}

/* SGLang EAGLE with top-k 1: draft tokens are steps + 1 (server_args.py
 * _handle_speculative_decoding overrides anything else, with a warning) */
static void c_eagle_draft(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	for (size_t i = 0; i < m->nservices; i++) {
		const sl_service *s = &m->services[i];
		if (strcmp(s->engine, "sglang") && strcmp(s->engine, "dynamo-sglang"))
			continue;
		const sl_setting *topk = sl_service_get(s, "spec.eagle_topk");
		const sl_setting *steps = sl_service_get(s, "spec.num_steps");
		const sl_setting *draft = sl_service_get(s, "spec.num_draft_tokens");
		if (!topk || !steps || !draft || ival(s, "spec.eagle_topk", 0) != 1)
			continue;
		long st = ival(s, "spec.num_steps", -1), dr = ival(s, "spec.num_draft_tokens", -1);
		if (st >= 0 && dr >= 0 && dr != st + 1) {
			sl_finding *f = finding(out, r, &draft->origin,
						"%s: %ld draft tokens with %ld steps and top-k 1; SGLang uses %ld", r->summary,
						dr, st, st + 1);
			sl_finding_related(f, &steps->origin, "the steps");
		}
	}
}

/* A flag a comment quotes with its value ("--max-num-seqs 64", or without
 * the dashes): the command must set it so. The claim kinds of their own
 * (parallelism, speculative decoding, GPUs, versions) have their own rules. */
static int claim_kind_of_its_own(const char *key)
{
	static const char *const pre[] = {"parallel.", "spec.", "gpus", "replicas", "precision", "engine",
					  "dynamo", "system", "serving", "submitter", "kv.block_size",
					  /* a revision is a hash, its prefix enough: SL7004 holds it */
					  "model.revision"};
	for (size_t i = 0; i < sizeof pre / sizeof *pre; i++)
		if (sl_starts_with(key, pre[i]))
			return 1;
	return 0;
}

static void c_claims_flags(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	for (size_t c = 0; c < m->nclaims; c++)
		if (!strcmp(m->claims[c].from, "comment") && !claim_kind_of_its_own(m->claims[c].key))
			hold_claim(r, m, &m->claims[c], out);
}

/* claims of replicas, GPUs per replica and engine version, held to the services */
static void c_claims_topology(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	for (size_t c = 0; c < m->nclaims; c++) {
		const sl_claim *k = &m->claims[c];
		int rep = !strcmp(k->key, "replicas"), gpu = !strcmp(k->key, "gpus");
		int ver = !strcmp(k->key, "engine.version");
		if (!(rep || gpu || ver))
			continue;
		const sl_service *seen = NULL;
		int agrees = 0;
		for (size_t i = 0; i < m->nservices && !agrees; i++) {
			const sl_service *s = &m->services[i];
			if (k->role ? strcmp(s->role, k->role) : !is_worker(s->role))
				continue;
			if (rep) {
				seen = s;
				agrees = json_is_integer(k->value) && (long)json_integer_value(k->value) == (long)s->replicas;
			} else if (gpu && s->gpus > 0 && !(s->gpus_from && strstr(s->gpus_from, "comment"))) {
				seen = s;
				agrees = json_is_integer(k->value) && json_integer_value(k->value) == s->gpus;
			} else if (ver && s->version) {
				seen = s;
				/* "0.31.0" claimed, "0.31.0" or "0.31.0rc1..." known */
				size_t l = strlen(json_string_value(k->value));
				agrees = !strncmp(s->version, json_string_value(k->value), l) ||
					 !strncmp(json_string_value(k->value), s->version, strlen(s->version));
			}
		}
		if (!seen || agrees)
			continue;
		char *cv = vtext(k->value);
		sl_finding *f;
		if (rep)
			f = finding(out, r, &k->origin, "%s: the %s says \"%s\" (%s replicas), %s has %u", r->summary,
				    k->from, k->text, cv, seen->name, seen->replicas);
		else if (gpu)
			f = finding(out, r, &k->origin, "%s: the %s says \"%s\" (%s GPUs), %s has %ld", r->summary,
				    k->from, k->text, cv, seen->name, seen->gpus);
		else
			f = finding(out, r, &k->origin, "%s: the %s says \"%s\", %s runs %s", r->summary, k->from,
				    k->text, seen->name, seen->version);
		free(f->where.raw);
		f->where.raw = sl_strdup(k->text);
		sl_finding_related(f, rep ? &seen->replicas_origin : gpu ? &seen->gpus_origin : &seen->version_origin,
			"the service");
		free(cv);
	}
}

/* Compares dotted versions numerically ("0.8.3" < "0.11.1"); -2 when a
 * version says nothing (a dev build without a tag, "0.1.devN" or "0.0.0") */
static int vcmp(const char *a, const char *b)
{
	if (!strncmp(a, "0.1.dev", 7) || !strncmp(a, "0.0.0", 5))
		return -2;
	while (*a || *b) {
		char *ea, *eb;
		long x = strtol(a, &ea, 10), y = strtol(b, &eb, 10);
		if (ea == a || eb == b)
			return 0;  /* past the numeric part: treat as equal */
		if (x != y)
			return x < y ? -1 : 1;
		a = *ea == '.' ? ea + 1 : ea;
		b = *eb == '.' ? eb + 1 : eb;
		if (*ea != '.' || *eb != '.')
			return 0;
	}
	return 0;
}

/* a flag the engine's version does not have yet, or no longer has */
static void c_flag_version(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	for (size_t i = 0; i < m->nservices; i++) {
		const sl_service *s = &m->services[i];
		if (!s->version)
			continue;
		for (size_t k = 0; k < s->nsettings; k++) {
			const sl_setting *st = &s->settings[k];
			/* a flag's JSON members share its facts: report the flag once */
			if (k && s->settings[k - 1].origin.src == st->origin.src && !strcmp(st->via, "json") &&
			    !strcmp(s->settings[k - 1].via, "json") && !strcmp(s->settings[k - 1].flag, st->flag))
				continue;
			int before = st->since && vcmp(s->version, st->since) == -1;
			int after = st->until && vcmp(s->version, st->until) >= 0 && vcmp(s->version, st->until) != -2;
			if (before)
				finding(out, r, &st->origin, "%s: `%s` is in %s from %s on; this entry runs %s", r->summary,
					st->flag, s->engine, st->since, s->version);
			else if (after)
				finding(out, r, &st->origin, "%s: `%s` is gone from %s since %s; this entry runs %s",
					r->summary, st->flag, s->engine, st->until, s->version);
		}
	}
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

int sl_rule_is_catalogue(const sl_rule *r)
{
	return r->catalogue;
}

int sl_check_model(const sl_rules *rs, const sl_model *m, const sl_rule *only, sl_findings *out)
{
	size_t first = out->n;
	for (size_t i = 0; i < rs->n; i++) {
		const sl_rule *r = &rs->v[i];
		if ((only && r != only) || r->catalogue)
			continue;  /* the catalogue's rules need every entry: sl_check_catalogue */
		switch (r->kind) {
		case K_ENTRIES: break;
		case K_EQUAL: check_equal(r, m, out); break;
		case K_RANGE: check_range(r, m, out); break;
		case K_REQUIRES: check_requires(r, m, out); break;
		case K_CLAIM: check_claim(r, m, out); break;
		case K_CONFLICTS: check_conflicts(r, m, out); break;
		case K_C:
			if (!strcmp(r->cname, "unknown_flag"))
				c_unknown_flag(r, m, out);
			else if (!strcmp(r->cname, "duplicate_conflict"))
				c_duplicate(r, m, out, 1);
			else if (!strcmp(r->cname, "duplicate_same"))
				c_duplicate(r, m, out, 0);
			else if (!strcmp(r->cname, "gpus_visible"))
				c_gpus(r, m, out);
			else if (!strcmp(r->cname, "kv_roles"))
				c_kv_roles(r, m, out);
			else if (!strcmp(r->cname, "numa_nodes"))
				c_numa_nodes(r, m, out);
			else if (!strcmp(r->cname, "gpus_total"))
				c_gpus_total(r, m, out);
			else if (!strcmp(r->cname, "capture_sizes"))
				c_capture_sizes(r, m, out);
			else if (!strcmp(r->cname, "graph_batch_sizes"))
				c_graph_batch_sizes(r, m, out);
			else if (!strcmp(r->cname, "batched_tokens"))
				c_batched_tokens(r, m, out);
			else if (!strcmp(r->cname, "eagle_draft_tokens"))
				c_eagle_draft(r, m, out);
			else if (!strcmp(r->cname, "claims_topology"))
				c_claims_topology(r, m, out);
			else if (!strcmp(r->cname, "flag_version"))
				c_flag_version(r, m, out);
			else if (!strcmp(r->cname, "claims_flags"))
				c_claims_flags(r, m, out);
			break;
		}
	}
	if (out->n - first > 1)
		qsort(out->v + first, out->n - first, sizeof *out->v, cmp_finding);
	return SL_OK;
}

/* ---- suppression --------------------------------------------------------------------- */

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

int sl_check_input_error(const sl_rules *rs, const sl_entry *e, const sl_error *err, sl_findings *out)
{
	const sl_rule *r = NULL;
	for (size_t i = 0; i < rs->n && !r; i++)
		if (rs->v[i].kind == K_C && !strcmp(rs->v[i].cname, "invalid_json"))
			r = &rs->v[i];
	if (!r || !err->msg || !sl_starts_with(err->msg, "invalid JSON") || !e || !e->script)
		return 0;
	/* the place the error names, in the entry's script */
	const sl_source *src = e->script;
	if (!err->file || strcmp(err->file, src->path) || err->line <= src->line_base)
		return 0;
	sl_origin o;
	sl_origin_set(&o, src, (uint32_t)sl_source_offset(src, err->line - src->line_base, err->col), NULL);
	finding(out, r, &o, "%s: %s", r->summary, err->msg);
	sl_origin_clear(&o);
	return 1;
}
