/*
 * audit.c (report): a catalogue audit as JSON (jansson), terminal text and
 * markdown. Owns what an entry's summary says (engine, version, precision,
 * parallelism per role, speculative decoding, GPUs used of total, finding
 * counts) and the matrix of models by systems; html.c renders the same
 * document.
 */
#include "report.h"

#include <ctype.h>

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* the services that run the engine on GPUs: a multimodal encode worker
 * too (its GPUs are used; it serves neither prefill nor decode) */
static int is_worker(const char *role)
{
	return !strcmp(role, "prefill") || !strcmp(role, "decode") || !strcmp(role, "aggregated") ||
	       !strcmp(role, "encode");
}

/* a claim of the key: the metadata's first, else a comment's */
static const sl_claim *claim_of(const sl_model *m, const char *key)
{
	const sl_claim *c = NULL;
	for (size_t i = 0; i < m->nclaims; i++)
		if (!strcmp(m->claims[i].key, key) && !m->claims[i].role) {
			if (!strcmp(m->claims[i].from, "metadata"))
				return &m->claims[i];
			c = c ? c : &m->claims[i];
		}
	return c;
}

static json_t *setting_value(const sl_service *s, const char *key)
{
	const sl_setting *st = sl_service_get(s, key);
	return st ? st->value : NULL;
}

/* "TP2 DP4 EP4", "TP1 DP4 EP" (vLLM's expert parallel is a switch) */
static char *parallelism(const sl_service *s)
{
	static const struct { const char *key, *abbr; } t[] = {
		{"parallel.tensor", "TP"}, {"parallel.pipeline", "PP"}, {"parallel.data", "DP"},
		{"parallel.expert", "EP"}, {"parallel.expert_enabled", "EP"}, {"parallel.decode_context", "DCP"},
		{"parallel.attention_data", "ADP"},
	};
	sl_buf b = {0};
	for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
		json_t *v = setting_value(s, t[i].key);
		/* a size of 1 is no parallelism, but for tensor parallel (TP1 says one GPU) */
		if (json_is_integer(v) && (json_integer_value(v) != 1 || i == 0))
			sl_buf_printf(&b, "%s%s%lld", b.len ? " " : "", t[i].abbr, (long long)json_integer_value(v));
		else if (json_is_true(v))
			sl_buf_printf(&b, "%s%s", b.len ? " " : "", t[i].abbr);
	}
	return sl_buf_detach(&b);
}

/* entry i of a */
static sl_audit_entry entry_of(const sl_audit *a, size_t i)
{
	sl_audit_entry e;
	if (a->entries)
		return a->entries[i];
	a->entry_at(a->ud, i, &e);
	return e;
}

/* the paths less the folders all of them share */
static size_t common_prefix(const sl_audit *a)
{
	size_t common = 0;
	if (a->n < 2)
		return 0;
	if (!a->entries)
		return a->common;
	const char *p0 = a->entries[0].entry->path;
	for (size_t k = 0;; k++) {
		int stop = 0;
		for (size_t i = 0; i < a->n && !stop; i++)
			stop = !a->entries[i].entry->path[k] || a->entries[i].entry->path[k] != p0[k];
		if (stop)
			break;
		if (p0[k] == '/')
			common = k + 1;
	}
	return common;
}

static json_t *summary_json(const sl_entry *entry, const sl_model *m, const char *llm, const char *system)
{
	/* id and name are the report's to give: set in place (their order kept) */
	json_t *o = json_pack("{s:i, s:s, s:s, s:s?, s:s?}", "id", (json_int_t)0, "path", entry->path, "name",
			      entry->path, "model", llm, "system", system);
	json_t *roles = json_array();
	sl_buf engines = {0};
	const char *version = NULL, *spec_method = NULL;
	json_t *spec_tokens = NULL;
	long used = 0;
	int prefill = 0, decode = 0, agg = 0, unknown_gpus = 0;
	/* the memory plan's headline per worker (docs/memory-plan.md) */
	sl_entry_plan *plan = NULL;
	sl_error perr = {0};
	if (m && sl_plan_entry(m, &plan, &perr))
		plan = NULL;
	sl_error_clear(&perr);
	for (size_t k = 0; m && k < m->nservices; k++) {
		const sl_service *s = &m->services[k];
		if (!is_worker(s->role))
			continue;
		prefill |= !strcmp(s->role, "prefill");
		decode |= !strcmp(s->role, "decode");
		agg |= !strcmp(s->role, "aggregated");
		if (!strstr(engines.data ? engines.data : "", s->engine))
			sl_buf_printf(&engines, "%s%s", engines.len ? " + " : "", s->engine);
		version = version ? version : s->version;
		json_t *meth = setting_value(s, "spec.method");
		if (!spec_method && json_is_string(meth)) {
			spec_method = json_string_value(meth);
			spec_tokens = setting_value(s, "spec.num_tokens");
			if (!spec_tokens)  /* SGLang's EAGLE: the draft tokens it verifies */
				spec_tokens = setting_value(s, "spec.num_draft_tokens");
		}
		if (s->gpus > 0)
			used += s->gpus * (long)s->replicas;
		else
			unknown_gpus = 1;
		char *par = parallelism(s);
		json_t *ro = json_pack("{s:s, s:s, s:s, s:i, s:o, s:s}", "service", s->name, "role", s->role, "engine",
				       s->engine, "replicas", (json_int_t)s->replicas, "gpus",
				       s->gpus > 0 ? json_integer(s->gpus) : json_null(), "parallelism", par);
		/* no parallelism setting: it is in an engine file the entry does not hold */
		const sl_setting *cf = *par ? NULL : sl_service_get(s, "engine.config_file");
		if (cf && json_is_string(cf->value))
			json_object_set_new(ro, "parallelism_in", json_string(json_string_value(cf->value)));
		json_array_append_new(roles, ro);
		free(par);
		for (size_t j = 0; plan && j < plan->nservices; j++) {
			char *h = plan->services[j].service == s ? sl_plan_headline(&plan->services[j]) : NULL;
			if (h)
				json_object_set_new(json_array_get(roles, json_array_size(roles) - 1), "plan", json_string(h));
			free(h);
		}
	}
	sl_entry_plan_free(plan);
	json_object_set_new(o, "engine", engines.len ? json_string(engines.data) : json_null());
	sl_buf_free(&engines);
	json_object_set_new(o, "version", version ? json_string(version) : json_null());
	const sl_claim *pc = m ? claim_of(m, "precision") : NULL;
	json_object_set_new(o, "precision", pc ? json_incref(pc->value) : json_null());
	json_object_set_new(o, "serving", json_string(prefill && decode ? "disaggregated"
						     : agg			 ? "aggregated"
						     : m			 ? "unknown"
										 : "not read"));
	json_object_set_new(o, "roles", roles);
	/* in a file the entry does not hold: what the metadata says */
	const sl_claim *sm = m && !spec_method ? claim_of(m, "spec.method") : NULL;
	if (sm && json_is_string(sm->value) && strcmp(json_string_value(sm->value), "none")) {
		spec_method = json_string_value(sm->value);
		const sl_claim *st = claim_of(m, "spec.num_tokens");
		spec_tokens = st ? st->value : NULL;
	}
	if (spec_method) {
		/* one spelling per method (dspark, DSPARK and DSpark are one) */
		char *low = sl_strdup(spec_method);
		for (char *c = low; *c; c++)
			*c = (char)tolower((unsigned char)*c);
		json_object_set_new(o, "spec", json_pack("{s:s, s:o}", "method", low, "num_tokens",
							 json_is_integer(spec_tokens) ? json_incref(spec_tokens)
										      : json_null()));
		free(low);
	} else {
		json_object_set_new(o, "spec", json_null());
	}
	/* GPUs used: the services' sum when each is known, else the metadata's */
	const sl_claim *tot = m ? claim_of(m, "gpus.total") : NULL, *of = m ? claim_of(m, "gpus.of") : NULL;
	json_t *u = !unknown_gpus && used ? json_integer(used) : tot ? json_incref(tot->value) : json_null();
	json_object_set_new(o, "gpus", json_pack("{s:o, s:o}", "used", u, "of", of ? json_incref(of->value) : json_null()));
	char *topo = m ? sl_diff_topology(m) : NULL;
	json_object_set_new(o, "topology", topo ? json_string(topo) : json_null());
	free(topo);
	return o;
}

char *sl_report_audit_entry_text(const sl_entry *entry, const sl_model *m, const char *llm, const char *system)
{
	json_t *o = summary_json(entry, m, llm, system);
	/* every digit of a number: the text is read back as the same value */
	char *t = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(o);
	return t;
}

/* counts: each entry's findings by severity (counts_of), or NULL: its
 * own (spooled) */
static json_t *entry_json(const sl_audit *a, size_t i, size_t common, const json_int_t (*counts)[4])
{
	sl_audit_entry ae = entry_of(a, i);
	const sl_audit_entry *e = &ae;
	char *text = e->summary_len && a->store ? sl_store_get(a->store, e->summary_at, e->summary_len) : NULL;
	json_t *o = text ? json_loads(text, 0, NULL) : NULL;  /* a store that fails is told by the caller */
	free(text);
	if (!o && e->entry)
		o = summary_json(e->entry, e->model, e->llm, e->system);
	else if (!o)  /* let go and not read back: the caller tells the store's failure */
		o = json_pack("{s:i, s:s, s:s}", "id", (json_int_t)0, "path", "?", "name", "?");
	/* the path as the summary's text has it when the entry was let go */
	const char *path = e->entry ? e->entry->path : json_string_value(json_object_get(o, "path"));
	char *own = sl_strdup(path ? path : "?");
	const char *name = e->name ? e->name : strlen(own) >= common ? own + common : own;
	json_object_set_new(o, "id", json_integer((json_int_t)i));
	json_object_set_new(o, "name", json_string(*name ? name : own));
	free(own);
	json_int_t mine[4];
	for (int v = 0; !counts && v < 4; v++)
		mine[v] = e->nfind[v];
	const json_int_t *n = counts ? counts[i] : mine;
	json_object_set_new(o, "findings", json_pack("{s:i, s:i, s:i, s:i}", "error", n[SL_SEV_ERROR], "warning",
						     n[SL_SEV_WARNING], "info", n[SL_SEV_INFO], "style",
						     n[SL_SEV_STYLE]));
	return o;
}

static int cmp_ci(const void *x, const void *y)
{
	int c = strcasecmp(*(char *const *)x, *(char *const *)y);
	return c ? c : strcmp(*(char *const *)x, *(char *const *)y);
}

/* Each distinct name of names[0..n) once, in name order (case aside, then
 * exact); index (a map the caller frees) tells each name's place.
 * Linear in n but for the sort: a catalogue of thousands of distinct
 * models must not compare every entry with every other. */
static char **distinct_sorted(char *const *names, size_t n, size_t *nout, sl_strmap *index)
{
	sl_strmap seen = {0};
	char **u = sl_calloc(n + 1, sizeof *u);
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (sl_strmap_put(&seen, names[i], strlen(names[i]), k) == k)
			u[k++] = names[i];
	sl_strmap_free(&seen);
	qsort(u, k, sizeof *u, cmp_ci);
	for (size_t i = 0; i < k; i++)
		sl_strmap_put(index, u[i], strlen(u[i]), i);
	*nout = k;
	return u;
}

/* each entry's findings by severity, counted once (the caller frees) */
static json_int_t (*counts_of(const sl_audit *a))[4]
{
	json_int_t (*counts)[4] = sl_calloc(a->n + 1, sizeof *counts);
	for (size_t i = 0; a->spool && i < a->n; i++)
		for (int v = 0; v < 4; v++)
			counts[i][v] = entry_of(a, i).nfind[v];
	for (size_t f = 0; f < a->findings->n; f++)
		if (a->finding_entry[f] < a->n && !a->findings->v[f].suppressed)
			counts[a->finding_entry[f]][a->findings->v[f].severity]++;
	return counts;
}

/* The document; lean (the terminal's report): without the entries' and
 * the findings' JSON, which the text makes one entry at a time (entry_json)
 * and from the findings themselves, so that no document of every entry is
 * held (11 MB of 3,500 entries' values) */
/* The model key and the system of an entry's name and system: an index
 * into keys (the distinct names' keys, made once: entries name a few
 * models, and a key made per entry was 20 bytes an entry at the report's
 * peak) and the system's text */
typedef struct {
	sl_strmap named;    /* name -> index in keys */
	char **keys;        /* owned */
	size_t n, cap;
} names;

static const char *key_of(names *t, const sl_audit_entry *e, const char **sys)
{
	const char *nm = e->llm ? e->llm : "(model not named)";
	size_t d = sl_strmap_put(&t->named, nm, strlen(nm), t->n);
	if (d == t->n)
		SL_PUSH(t->keys, t->n, t->cap, sl_catalogue_model_key(nm));
	*sys = e->system ? e->system : "(system not named)";
	return t->keys[d];
}

/* lean: the cells without their entries (the terminal's report), each
 * entry's cell in *cell_of (the caller frees), so that no JSON value is
 * made per entry */
static json_t *audit_json(const sl_audit *a, int lean, uint32_t **cell_of)
{
	size_t common = common_prefix(a);
	json_t *entries = json_array(), *models = json_array(), *systems = json_array(), *cells = json_array();
	/* models and systems in name order (case aside), so the matrix reads
	 * alike whatever the input order; a model is named as the first entry
	 * with its key names it. Nothing per entry but its cell (lean) */
	sl_strmap first = {0}, kidx = {0}, sidx = {0}, cidx = {0}, sseen = {0};
	names nms = {0};
	char **ks = NULL, **ss = NULL;
	size_t nks = 0, kcap = 0, nss = 0, scap = 0;
	for (size_t i = 0; i < a->n; i++) {
		sl_audit_entry e = entry_of(a, i);
		const char *sys, *k = key_of(&nms, &e, &sys);
		if (sl_strmap_put(&first, k, strlen(k), i) == i)
			SL_PUSH(ks, nks, kcap, (char *)k);
		if (sl_strmap_put(&sseen, sys, strlen(sys), nss) == nss)
			SL_PUSH(ss, nss, scap, (char *)sys);
	}
	size_t nk, ns;
	char **uk = distinct_sorted(ks, nks, &nk, &kidx), **us = distinct_sorted(ss, nss, &ns, &sidx);
	for (size_t i = 0; i < nk; i++) {
		sl_audit_entry e = entry_of(a, sl_strmap_get(&first, uk[i], strlen(uk[i])));
		json_array_append_new(models, json_string(e.llm ? e.llm : "(model not named)"));
	}
	for (size_t i = 0; i < ns; i++)
		json_array_append_new(systems, json_string(us[i]));
	json_int_t (*counts)[4] = lean ? NULL : counts_of(a);
	if (lean)
		*cell_of = sl_calloc(a->n + 1, sizeof **cell_of);
	for (size_t i = 0; i < a->n; i++) {
		json_t *e = lean ? NULL : entry_json(a, i, common, (const json_int_t (*)[4])counts);
		if (e)
			json_array_append_new(entries, e);
		sl_audit_entry ae = entry_of(a, i);
		const char *sys, *k = key_of(&nms, &ae, &sys);
		size_t mi = sl_strmap_get(&kidx, k, strlen(k));
		size_t si = sl_strmap_get(&sidx, sys, strlen(sys));
		char ck[48];
		int cl = snprintf(ck, sizeof ck, "%zu,%zu", mi, si);
		size_t ci = sl_strmap_put(&cidx, ck, (size_t)cl, json_array_size(cells));
		if (ci == json_array_size(cells))
			json_array_append_new(cells, lean ? json_pack("{s:i, s:i}", "model", (json_int_t)mi, "system",
								      (json_int_t)si)
							  : json_pack("{s:i, s:i, s:[]}", "model", (json_int_t)mi, "system",
								      (json_int_t)si, "entries"));
		json_t *cell = json_array_get(cells, ci);
		if (lean)
			(*cell_of)[i] = (uint32_t)ci;
		else
			json_array_append_new(json_object_get(cell, "entries"), json_integer((json_int_t)i));
		if (e) {
			json_object_set_new(e, "model_index", json_integer((json_int_t)mi));
			json_object_set_new(e, "system_index", json_integer((json_int_t)si));
		}
	}
	for (size_t i = 0; i < nms.n; i++)
		free(nms.keys[i]);
	free(nms.keys);
	sl_strmap_free(&nms.named);
	sl_strmap_free(&sseen);
	free(ks);
	free(ss);
	free(uk);
	free(us);
	free(counts);
	sl_strmap_free(&first);
	sl_strmap_free(&kidx);
	sl_strmap_free(&sidx);
	sl_strmap_free(&cidx);
	json_int_t sev[4] = {0, 0, 0, 0}, suppressed = 0, catalogue = 0;
	json_t *findings = json_array();
	for (size_t f = 0; f < a->findings->n; f++) {
		const sl_finding *x = &a->findings->v[f];
		if (x->suppressed) {
			suppressed++;
			continue;
		}
		sev[x->severity]++;
		catalogue += sl_rule_is_catalogue(x->rule);
		if (lean)
			continue;
		json_t *o = sl_report_finding_json(x);
		json_object_set_new(o, "entry", json_integer((json_int_t)a->finding_entry[f]));
		json_array_append_new(findings, o);
	}
	const sl_findings_tally *t = a->spool ? sl_findings_spool_tally(a->spool) : NULL;
	if (t) {
		for (int v = 0; v < 4; v++)
			sev[v] = (json_int_t)t->sev[v];
		suppressed = (json_int_t)t->suppressed;
		catalogue = (json_int_t)t->catalogue;
	}
	json_t *by_rule = json_array();
	for (size_t r = 0; r < sl_rules_count(a->rules); r++) {
		const sl_rule *ru = sl_rules_at(a->rules, r);
		json_int_t k = t ? (json_int_t)t->by_rule[r] : 0;
		for (size_t f = 0; f < a->findings->n; f++)
			k += a->findings->v[f].rule == ru && !a->findings->v[f].suppressed;
		if (k)
			json_array_append_new(by_rule, json_pack("{s:s, s:s, s:s, s:i, s:s}", "rule", sl_rule_id(ru),
								 "name", sl_rule_name(ru), "severity",
								 sl_severity_name(sl_rule_severity(ru)), "count", k,
								 "summary", sl_rule_summary(ru)));
	}
	json_t *summary = json_pack("{s:i, s:i, s:i, s:i, s:{s:i, s:i, s:i, s:i, s:i, s:i, s:i}, s:o}", "entries",
				    (json_int_t)a->n, "models", (json_int_t)json_array_size(models), "systems",
				    (json_int_t)json_array_size(systems), "pairwise_diffs", (json_int_t)a->npairs,
				    "findings", "total", sev[0] + sev[1] + sev[2] + sev[3], "error", sev[SL_SEV_ERROR],
				    "warning", sev[SL_SEV_WARNING], "info", sev[SL_SEV_INFO], "style", sev[SL_SEV_STYLE],
				    "catalogue", catalogue, "suppressed", suppressed, "by_rule", by_rule);
	return json_pack("{s:o, s:{s:o, s:o, s:o}, s:o, s:o}", "summary", summary, "matrix", "models", models,
			 "systems", systems, "cells", cells, "entries", entries, "findings", findings);
}

json_t *sl_report_audit_json(const sl_audit *a)
{
	return audit_json(a, 0, NULL);
}

/* ---- terminal and markdown ------------------------------------------------------ */

static const char *str(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);
	return json_is_string(v) ? json_string_value(v) : NULL;
}

static json_int_t num(json_t *o, const char *k)
{
	return json_integer_value(json_object_get(o, k));
}

char *sl_report_audit_spec(json_t *e)
{
	json_t *sp = json_object_get(e, "spec");
	if (!json_is_object(sp))
		return NULL;
	sl_buf b = {0};
	sl_buf_puts(&b, json_string_value(json_object_get(sp, "method")));
	if (json_is_integer(json_object_get(sp, "num_tokens")))
		sl_buf_printf(&b, " %lld", (long long)json_integer_value(json_object_get(sp, "num_tokens")));
	return sl_buf_detach(&b);
}

/* "vllm 0.31.0, MXFP4, aggregated TP2, dspark 5, 2 of 8 GPUs" */
static char *entry_line(json_t *e)
{
	sl_buf b = {0};
	sl_buf_printf(&b, "%s", str(e, "engine") ? str(e, "engine") : "no engine");
	if (str(e, "version"))
		sl_buf_printf(&b, " %s", str(e, "version"));
	if (str(e, "precision"))
		sl_buf_printf(&b, ", %s", str(e, "precision"));
	size_t i;
	json_t *r;
	json_array_foreach(json_object_get(e, "roles"), i, r) {
		sl_buf_printf(&b, "%s %s", i ? ";" : ",", str(r, "role"));
		if (num(r, "replicas") > 1)
			sl_buf_printf(&b, " x%lld", (long long)num(r, "replicas"));
		if (*str(r, "parallelism"))
			sl_buf_printf(&b, " %s", str(r, "parallelism"));
		if (str(r, "plan"))
			sl_buf_printf(&b, " (%s)", str(r, "plan"));
		else if (str(r, "parallelism_in")) {
			const char *pf = str(r, "parallelism_in"), *sl = strrchr(pf, '/');
			sl_buf_printf(&b, " (parallelism in %s)", sl ? sl + 1 : pf);
		}
	}
	char *spec = sl_report_audit_spec(e);
	if (spec)
		sl_buf_printf(&b, ", %s", spec);
	free(spec);
	json_t *g = json_object_get(e, "gpus");
	if (json_is_integer(json_object_get(g, "used"))) {
		sl_buf_printf(&b, ", %lld", (long long)num(g, "used"));
		if (json_is_integer(json_object_get(g, "of")))
			sl_buf_printf(&b, " of %lld", (long long)num(g, "of"));
		json_int_t last = json_is_integer(json_object_get(g, "of")) ? num(g, "of") : num(g, "used");
		sl_buf_puts(&b, last == 1 ? " GPU" : " GPUs");
	}
	json_t *f = json_object_get(e, "findings");
	json_int_t nf = num(f, "error") + num(f, "warning") + num(f, "info") + num(f, "style");
	sl_buf_printf(&b, "; %lld finding%s", (long long)nf, nf == 1 ? "" : "s");
	return sl_buf_detach(&b);
}

/* markdown text: what a renderer would read as markup (HTML, emphasis,
 * code, table pipes) escaped */
static void md_text(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else if (strchr("\\`*_[]|", *s)) {
			fputc('\\', f);
			fputc(*s, f);
		} else
			fputc(*s, f);
	}
}

static const char *plural(json_int_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

/* cell_of: each entry's cell, for the lean document (the terminal's),
 * whose cells do not list their entries */
static int text(FILE *f, json_t *doc, const sl_audit *a, int md, int color, const uint32_t *cell_of)
{
	/* the lean document (the terminal's): each entry made as it is written */
	int lean = !md;
	size_t common = lean ? common_prefix(a) : 0;
	/* spooled: each entry's counts are its own (entry_json) */
	json_int_t (*counts)[4] = lean && !a->spool ? counts_of(a) : NULL;
	json_t *s = json_object_get(doc, "summary"), *fs = json_object_get(s, "findings");
	const char *B = color ? "\033[1m" : "", *N = color ? "\033[0m" : "";
	if (!md && a->spool && sl_findings_spool_tally(a->spool)->all) {
		if (sl_findings_spool_write(f, a->spool))
			return -1;
		fputc('\n', f);
	} else if (!md && a->findings->n) {
		if (sl_report_findings(f, SL_FMT_TTY, a->rules, a->findings, SL_SEV_STYLE, color))
			return -1;
		fputc('\n', f);
	}
	fprintf(f, "%s%s audit%s: %lld %s, %lld %s, %lld %s\n", md ? "# " : B, md ? "Catalogue" : "catalogue",
		md ? "" : N, (long long)num(s, "entries"), plural(num(s, "entries"), "entry", "entries"),
		(long long)num(s, "models"), plural(num(s, "models"), "model", "models"), (long long)num(s, "systems"),
		plural(num(s, "systems"), "system", "systems"));
	fprintf(f, "%sfindings: %lld (%lld %s, %lld %s, %lld info, %lld style; %lld across entries, %lld "
		   "suppressed)\n",
		md ? "\n" : "", (long long)num(fs, "total"), (long long)num(fs, "error"),
		plural(num(fs, "error"), "error", "errors"), (long long)num(fs, "warning"),
		plural(num(fs, "warning"), "warning", "warnings"), (long long)num(fs, "info"), (long long)num(fs, "style"),
		(long long)num(fs, "catalogue"), (long long)num(fs, "suppressed"));
	size_t i;
	json_t *r;
	if (json_array_size(json_object_get(s, "by_rule")))
		fputs(md ? "\n| rule | severity | count | summary |\n|---|---|---|---|\n" : "by rule:\n", f);
	int wn = 0;
	json_array_foreach(json_object_get(s, "by_rule"), i, r)
		if ((int)strlen(str(r, "name")) > wn)
			wn = (int)strlen(str(r, "name"));
	json_array_foreach(json_object_get(s, "by_rule"), i, r) {
		if (md) {
			fprintf(f, "| %s %s | %s | %lld | ", str(r, "rule"), str(r, "name"), str(r, "severity"),
				(long long)num(r, "count"));
			md_text(f, str(r, "summary"));
			fputs(" |\n", f);
		}
		else
			fprintf(f, "  %s %-7s  %-*s %3lld  %s\n", str(r, "rule"), str(r, "severity"), wn, str(r, "name"),
				(long long)num(r, "count"), str(r, "summary"));
	}
	json_t *mx = json_object_get(doc, "matrix"), *entries = json_object_get(doc, "entries");
	fprintf(f, md ? "\n## Models by systems\n\n" : "\n%smodels by systems%s:\n", B, N);
	json_t *model, *cell;
	size_t mi, k;
	/* each model's cells, in the cells' order, found in one pass: a scan
	 * of every cell per model was quadratic in a catalogue of distinct
	 * models (3,000 models: 9 M lookups, half of audit's time) */
	json_t *cells = json_object_get(mx, "cells");
	size_t nmodels = json_array_size(json_object_get(mx, "models")), ncells = json_array_size(cells);
	size_t *start = sl_calloc(nmodels + 2, sizeof *start), *order = sl_calloc(ncells + 1, sizeof *order);
	json_array_foreach(cells, k, cell) {
		size_t m = (size_t)num(cell, "model");
		if (m < nmodels)
			start[m + 2]++;
	}
	for (size_t m = 0; m < nmodels; m++)
		start[m + 2] += start[m + 1];
	json_array_foreach(cells, k, cell) {
		size_t m = (size_t)num(cell, "model");
		if (m < nmodels)
			order[start[m + 1]++] = k;
	}
	/* lean: each cell's entries, in input order, by their cells */
	size_t *cstart = NULL;
	uint32_t *corder = NULL;
	if (lean) {
		cstart = sl_calloc(ncells + 2, sizeof *cstart);
		corder = sl_calloc(a->n + 1, sizeof *corder);
		for (size_t i = 0; i < a->n; i++)
			if (cell_of[i] < ncells)
				cstart[cell_of[i] + 2]++;
		for (size_t c = 0; c < ncells; c++)
			cstart[c + 2] += cstart[c + 1];
		for (size_t i = 0; i < a->n; i++)
			if (cell_of[i] < ncells)
				corder[cstart[cell_of[i] + 1]++] = (uint32_t)i;
	}
	json_array_foreach(json_object_get(mx, "models"), mi, model) {
		if (md) {
			fputs("### ", f);
			md_text(f, json_string_value(model));
			fputs("\n\n", f);
		} else {
			fprintf(f, "  %s\n", json_string_value(model));
		}
		for (size_t c = start[mi]; c < start[mi + 1]; c++) {
			cell = json_array_get(cells, order[c]);
			const char *sys = json_string_value(json_array_get(json_object_get(mx, "systems"),
									   (size_t)num(cell, "system")));
			if (md) {
				fputs("- **", f);
				md_text(f, sys);
				fputs("**\n", f);
			} else {
				fprintf(f, "    %s\n", sys);
			}
			size_t x, nin = lean ? cstart[order[c] + 1] - cstart[order[c]] : json_array_size(json_object_get(cell, "entries"));
			for (x = 0; x < nin; x++) {
				size_t ei = lean ? corder[cstart[order[c]] + x]
						 : (size_t)json_integer_value(json_array_get(json_object_get(cell, "entries"), x));
				json_t *e = lean ? entry_json(a, ei, common, (const json_int_t (*)[4])counts)
						 : json_incref(json_array_get(entries, ei));
				char *line = entry_line(e);
				if (md) {
					fputs("  - ", f);
					md_text(f, str(e, "name"));
					fputs(": ", f);
					md_text(f, line);
					fputc('\n', f);
				} else {
					fprintf(f, "      %s: %s\n", str(e, "name"), line);
				}
				free(line);
				json_decref(e);
			}
		}
		if (md)
			fputc('\n', f);
	}
	free(start);
	free(order);
	free(cstart);
	free(corder);
	free(counts);
	if (md && json_array_size(json_object_get(doc, "findings"))) {
		fputs("## Findings\n\n", f);
		json_t *x;
		json_array_foreach(json_object_get(doc, "findings"), i, x) {
			json_t *loc = json_object_get(x, "location");
			fprintf(f, "- **%s** ", str(x, "severity"));
			md_text(f, str(loc, "file") ? str(loc, "file") : "-");
			fprintf(f, ":%lld:%lld ", (long long)num(loc, "line"), (long long)num(loc, "col"));
			md_text(f, str(x, "message"));
			fprintf(f, " \\[%s\\]\n", str(x, "rule"));
		}
	}
	return ferror(f) ? -1 : 0;
}

int sl_report_audit(FILE *f, const char *format, const sl_audit *a, int color)
{
	uint32_t *cell_of = NULL;
	json_t *doc = audit_json(a, !strcmp(format, "tty"), &cell_of);
	int rc;
	if (!strcmp(format, "json")) {
		doc = sl_report_json_doc(doc);
		rc = json_dumpf(doc, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15));
		fputc('\n', f);
		rc = rc || ferror(f) ? -1 : 0;
	} else {
		rc = text(f, doc, a, !strcmp(format, "markdown"), color, cell_of);
	}
	json_decref(doc);
	free(cell_of);
	return rc;
}
