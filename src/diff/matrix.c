/*
 * matrix.c: N models side by side (see diff.h). Owns the rows of the
 * matrix, how an unset setting takes the engine's default, and which rows
 * differ; a worker with a memory plan has a `plan` row, its headline. The
 * rendering is report/matrix.c's.
 */
#include "diff.h"

#include <stdlib.h>
#include <string.h>

#include "../plan/plan.h"

static sl_matrix_row *row(sl_matrix *m, const char *svc, const char *key)
{
	for (size_t i = 0; i < m->nrows; i++)
		if (!strcmp(m->rows[i].service, svc) && !strcmp(m->rows[i].key, key))
			return &m->rows[i];
	sl_matrix_row r = {sl_strdup(svc), sl_strdup(key), sl_calloc(m->ncols ? m->ncols : 1, sizeof(sl_cell)), 0};
	SL_PUSH(m->rows, m->nrows, m->cap, r);
	return &m->rows[m->nrows - 1];
}

/* VALUE is a new reference, handed over */
static void put(sl_matrix *m, const sl_diff_opts *o, size_t col, const char *svc, const char *key, json_t *value,
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

int sl_diff_matrix(const sl_model *const *models, size_t n, const sl_diff_opts *o, sl_matrix *out)
{
	memset(out, 0, sizeof *out);
	out->ncols = n;
	for (size_t c = 0; c < n; c++) {
		const sl_model *m = models[c];
		char *topo = sl_diff_topology(m);
		put(out, o, c, "", "topology", json_string(topo), NULL);
		free(topo);
		for (size_t i = 0; i < m->nservices; i++) {
			const sl_service *s = &m->services[i];
			put(out, o, c, s->name, "engine", json_string(s->engine), NULL);
			if (s->version)
				put(out, o, c, s->name, "version", json_string(s->version), &s->version_origin);
			put(out, o, c, s->name, "replicas", json_integer(s->replicas), &s->replicas_origin);
			if (s->gpus != -1)
				put(out, o, c, s->name, "gpus",
				    s->gpus == -2 ? json_string("all") : json_integer(s->gpus), &s->gpus_origin);
			for (size_t k = 0; k < s->nenv; k++) {
				const sl_env *e = &s->env[k];
				if (e->flags & SL_SET_OVERRIDDEN)
					continue;
				sl_buf key = {0};
				sl_buf_printf(&key, "env %s", e->name);
				put(out, o, c, s->name, key.data, json_string(e->value), &e->origin);
				sl_buf_free(&key);
			}
			for (size_t k = 0; k < s->nsettings; k++) {
				const sl_setting *st = &s->settings[k];
				if (st->flags & SL_SET_OVERRIDDEN)
					continue;
				put(out, o, c, s->name, st->key, json_incref(st->value), &st->origin);
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
					put(out, o, c, plan->services[i].service->name, "plan", json_string(h), NULL);
				free(h);
			}
			sl_entry_plan_free(plan);
		}
		sl_error_clear(&err);
	}
	/* An unset setting of a service whose engine has a known default for
	 * it (learnt from any entry where the same engine writes it) takes it;
	 * a default that changed between releases, only from an entry of the
	 * same version. */
	for (size_t r = 0; r < out->nrows; r++) {
		sl_matrix_row *w = &out->rows[r];
		for (size_t c = 0; c < n; c++) {
			if (w->cells[c].value || !*w->service)
				continue;
			const sl_service *s = service_named(models[c], w->service);
			if (!s)
				continue;
			for (size_t d = 0; d < n && !w->cells[c].value; d++) {
				const sl_service *t = service_named(models[d], w->service);
				const sl_setting *st = t && !strcmp(t->engine, s->engine) ? sl_service_get(t, w->key) : NULL;
				if (st && json_is_true(json_object_get(st->facts, "default_by_release")) &&
				    (!s->version || !t->version || strcmp(s->version, t->version)))
					continue;
				if (st && st->dflt) {
					w->cells[c].value = json_incref(st->dflt);
					w->cells[c].implicit = 1;
				}
			}
		}
		for (size_t c = 1; c < n; c++)
			if (!sl_diff_same(w->cells[0].value, w->cells[c].value))
				w->differs = 1;
	}
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
