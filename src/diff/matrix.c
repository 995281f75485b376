/*
 * matrix.c: N models side by side (see diff.h). Owns the rows of the
 * matrix, how an unset setting takes the engine's default, and which rows
 * differ; a worker with a memory plan has a `plan` row, its headline. The
 * rendering is report/matrix.c's.
 *
 * Linear in entries: a row is found by a hash of its service and key, and
 * the defaults are learnt in one pass over the entries, by service, key
 * and engine (a scan of the rows per value and of the entries per empty
 * cell made 350 entries cost 5,200 M instructions).
 */
#include "diff.h"

#include <stdlib.h>
#include <string.h>

#include "../plan/plan.h"

/* the matrix being built, and its rows by "service\0key" */
typedef struct {
	sl_matrix *m;
	sl_strmap rows;
} build;

static sl_matrix_row *row(build *bd, const char *svc, const char *key)
{
	sl_matrix *m = bd->m;
	sl_buf k = {0};
	sl_buf_puts(&k, svc);
	sl_buf_putc(&k, '\0');
	sl_buf_puts(&k, key);
	size_t at = sl_strmap_put(&bd->rows, k.data, k.len, m->nrows);
	sl_buf_free(&k);
	if (at < m->nrows)
		return &m->rows[at];
	sl_matrix_row r = {sl_strdup(svc), sl_strdup(key), sl_calloc(m->ncols ? m->ncols : 1, sizeof(sl_cell)), 0};
	SL_PUSH(m->rows, m->nrows, m->cap, r);
	return &m->rows[m->nrows - 1];
}

/* VALUE is a new reference, handed over */
static void put(build *m, const sl_diff_opts *o, size_t col, const char *svc, const char *key, json_t *value,
		const sl_origin *at)
{
	if (!sl_diff_wanted(o, key)) {
		json_decref(value);
		return;
	}
	sl_cell *c = &row(m, svc, key)->cells[col];
	json_decref(c->value);
	c->value = value;
	c->implicit = 0;
	sl_origin_clear(&c->at);
	if (at && at->src)
		sl_origin_copy(&c->at, at);
}

static const sl_service *service_named(const sl_model *m, const char *name)
{
	for (size_t i = 0; i < m->nservices; i++)
		if (!strcmp(m->services[i].name, name))
			return &m->services[i];
	return NULL;
}

/* "service\0key\0engine" of a default */
static void default_key(sl_buf *k, const char *svc, const char *key, const char *engine)
{
	sl_buf_puts(k, svc);
	sl_buf_putc(k, '\0');
	sl_buf_puts(k, key);
	sl_buf_putc(k, '\0');
	sl_buf_puts(k, engine);
}

/* The engine defaults the entries know, by service name, key and engine:
 * the first entry (in order) whose service of that name runs the engine
 * and whose setting of the key in effect has a default gives it. */
/* A default that changed between releases (facts' default_by_release) is
 * learnt under its release too: it is lent only to an entry of that version. */
static void default_key_at(sl_buf *k, const char *svc, const char *key, const char *engine, const char *version)
{
	default_key(k, svc, key, engine);
	sl_buf_putc(k, '\0');
	sl_buf_puts(k, version);
}

static int by_release(const sl_setting *st)
{
	return json_is_true(json_object_get(st->facts, "default_by_release"));
}

static void learn_defaults(const sl_model *const *models, size_t n, sl_strmap *at, json_t ***dflts, size_t *cap,
			   int *versioned)
{
	for (size_t d = 0; d < n; d++)
		for (size_t i = 0; i < models[d]->nservices; i++) {
			const sl_service *t = &models[d]->services[i];
			if (service_named(models[d], t->name) != t)
				continue;  /* the service a row of its name reads */
			for (size_t k = 0; k < t->nsettings; k++) {
				const sl_setting *st = &t->settings[k];
				if (!st->dflt || sl_service_get(t, st->key) != st)
					continue;
				sl_buf key = {0};
				if (by_release(st)) {
					if (!t->version)
						continue;
					default_key_at(&key, t->name, st->key, t->engine, t->version);
					*versioned = 1;
				} else {
					default_key(&key, t->name, st->key, t->engine);
				}
				size_t fresh = at->n;
				if (sl_strmap_put(at, key.data, key.len, fresh) == fresh) {
					sl_grow((void **)dflts, cap, fresh + 1, sizeof **dflts);
					(*dflts)[fresh] = st->dflt;  /* borrowed */
				}
				sl_buf_free(&key);
			}
		}
}

int sl_diff_matrix(const sl_model *const *models, size_t n, const sl_diff_opts *o, sl_matrix *out)
{
	memset(out, 0, sizeof *out);
	out->ncols = n;
	build bd = {out, {0}};
	for (size_t c = 0; c < n; c++) {
		const sl_model *m = models[c];
		char *topo = sl_diff_topology(m);
		put(&bd, o, c, "", "topology", json_string(topo), NULL);
		free(topo);
		for (size_t i = 0; i < m->nservices; i++) {
			const sl_service *s = &m->services[i];
			put(&bd, o, c, s->name, "engine", json_string(s->engine), NULL);
			if (s->version)
				put(&bd, o, c, s->name, "version", json_string(s->version), &s->version_origin);
			put(&bd, o, c, s->name, "replicas", json_integer(s->replicas), &s->replicas_origin);
			if (s->gpus != -1)
				put(&bd, o, c, s->name, "gpus",
				    s->gpus == -2 ? json_string("all") : json_integer(s->gpus), &s->gpus_origin);
			for (size_t k = 0; k < s->nenv; k++) {
				const sl_env *e = &s->env[k];
				if (e->flags & SL_SET_OVERRIDDEN)
					continue;
				sl_buf key = {0};
				sl_buf_printf(&key, "env %s", e->name);
				put(&bd, o, c, s->name, key.data, json_string(e->value), &e->origin);
				sl_buf_free(&key);
			}
			for (size_t k = 0; k < s->nsettings; k++) {
				const sl_setting *st = &s->settings[k];
				if (st->flags & (SL_SET_OVERRIDDEN | SL_SET_OWN_NAME))
					continue; /* (a file read alone naming itself: no served value) */
				put(&bd, o, c, s->name, st->key, json_incref(st->value), &st->origin);
			}
		}
		/* the memory plan's headline per worker (docs/memory-plan.md), so
		 * the entries of one model compare on what they leave for the KV cache */
		sl_entry_plan *plan;
		sl_error err = {0};
		if (!sl_plan_entry(m, &plan, &err)) {
			for (size_t i = 0; i < plan->nservices; i++) {
				char *h = sl_plan_headline(&plan->services[i]);
				if (h)
					put(&bd, o, c, plan->services[i].service->name, "plan", json_string(h), NULL);
				free(h);
			}
			sl_entry_plan_free(plan);
		}
		sl_error_clear(&err);
	}
	sl_strmap_free(&bd.rows);
	/* An unset setting of a service whose engine has a known default for
	 * it (learnt from any entry where the same engine writes it) takes it;
	 * a default that changed between releases, only from an entry of the
	 * same version. */
	sl_strmap known = {0};
	json_t **dflts = NULL;
	size_t dcap = 0;
	int versioned = 0;
	learn_defaults(models, n, &known, &dflts, &dcap, &versioned);
	/* per service name of a row, each column's engine (an index, + 1; 0:
	 * no such service), so that the rows read small arrays, not the models */
	sl_strmap names = {0}, engines = {0};
	const char **engine = sl_calloc(1, sizeof *engine);
	size_t ecap = 1;
	unsigned **eng_of = sl_calloc(out->nrows + 1, sizeof *eng_of);
	const char ***ver_of = sl_calloc(out->nrows + 1, sizeof *ver_of);  /* each column's version */
	json_t **row_dflt = NULL;
	for (size_t r = 0; r < out->nrows && known.n; r++) {
		const char *svc = out->rows[r].service;
		if (!*svc)
			continue;
		size_t fresh = names.n, nid = sl_strmap_put(&names, svc, strlen(svc), fresh);
		if (nid != fresh)
			continue;
		eng_of[nid] = sl_calloc(n + 1, sizeof **eng_of);
		ver_of[nid] = sl_calloc(n + 1, sizeof **ver_of);
		for (size_t c = 0; c < n; c++) {
			const sl_service *t = service_named(models[c], svc);
			if (!t)
				continue;
			ver_of[nid][c] = t->version;
			size_t ne = engines.n, e = sl_strmap_put(&engines, t->engine, strlen(t->engine), ne);
			if (e == ne) {
				sl_grow((void **)&engine, &ecap, ne + 1, sizeof *engine);
				engine[ne] = t->engine;
			}
			eng_of[nid][c] = (unsigned)e + 1;
		}
	}
	row_dflt = sl_calloc(engines.n + 1, sizeof *row_dflt);
	for (size_t r = 0; r < out->nrows; r++) {
		sl_matrix_row *w = &out->rows[r];
		size_t nid = *w->service && known.n ? sl_strmap_get(&names, w->service, strlen(w->service)) : SIZE_MAX;
		if (nid != SIZE_MAX) {
			int any = 0;
			for (size_t e = 0; e < engines.n; e++) {
				sl_buf key = {0};
				default_key(&key, w->service, w->key, engine[e]);
				size_t v = sl_strmap_get(&known, key.data, key.len);
				sl_buf_free(&key);
				row_dflt[e] = v != SIZE_MAX ? dflts[v] : NULL;
				any |= row_dflt[e] != NULL;
			}
			for (size_t c = 0; c < n && (any || versioned); c++) {
				unsigned e = eng_of[nid][c];
				if (w->cells[c].value || !e)
					continue;
				json_t *d = row_dflt[e - 1];
				if (!d && versioned && ver_of[nid][c]) {
					sl_buf key = {0};
					default_key_at(&key, w->service, w->key, engine[e - 1], ver_of[nid][c]);
					size_t v = sl_strmap_get(&known, key.data, key.len);
					sl_buf_free(&key);
					d = v != SIZE_MAX ? dflts[v] : NULL;
				}
				if (d) {
					w->cells[c].value = json_incref(d);
					w->cells[c].implicit = 1;
				}
			}
		}
		int spec = *w->service && !strcmp(w->key, "spec.method"); /* its case is each engine's */
		const sl_service *s0 = spec ? service_named(models[0], w->service) : NULL;
		for (size_t c = 1; c < n; c++) {
			const sl_service *sc = spec ? service_named(models[c], w->service) : NULL;
			if (spec && s0 && sc ? !sl_diff_same_between(w->key, s0->engine, w->cells[0].value, sc->engine,
								       w->cells[c].value)
					     : !sl_diff_same(w->cells[0].value, w->cells[c].value))
				w->differs = 1;
		}
	}
	for (size_t i = 0; i < names.n; i++) {
		free(eng_of[i]);
		free(ver_of[i]);
	}
	free(eng_of);
	free(ver_of);
	free(engine);
	free(row_dflt);
	sl_strmap_free(&names);
	sl_strmap_free(&engines);
	sl_strmap_free(&known);
	free(dflts);
	return 0;
}

void sl_matrix_free(sl_matrix *m)
{
	for (size_t r = 0; r < m->nrows; r++) {
		for (size_t c = 0; c < m->ncols; c++) {
			json_decref(m->rows[r].cells[c].value);
			sl_origin_clear(&m->rows[r].cells[c].at);
		}
		free(m->rows[r].cells);
		free(m->rows[r].service);
		free(m->rows[r].key);
	}
	free(m->rows);
	memset(m, 0, sizeof *m);
}
