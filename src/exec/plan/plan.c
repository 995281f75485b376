/*
 * plan.c: what `servelint run` would start for a model (sl_exec_plan). Each
 * replica of each service that --service picks becomes one process (with
 * its argv, environment and readiness check: launch.c), in start order by
 * role; two servers on one port, a count past what one host runs and
 * workers without their frontend are told; the files a run needs beside it
 * are the entry's and the script's here-documents.
 */
#include "internal.h"

#include <stdlib.h>

/* Whether the --service selector sel (ROLE, ROLE#N, or the service's
 * name) names s; *hash is then its `#`, or NULL when it names s whole. */
static int selects(const char *sel, const sl_service *s, const char **hash)
{
	*hash = strchr(sel, '#');
	size_t nl = *hash ? (size_t)(*hash - sel) : strlen(sel);
	return (strlen(s->role) == nl && !strncmp(s->role, sel, nl)) ||
	       (strlen(s->name) == nl && !strncmp(s->name, sel, nl));
}

/* Does --service SEL pick replica r of s? ROLE, ROLE#N, or the service name. */
static int picked(const sl_plan_opts *o, const sl_service *s, size_t r)
{
	if (!o->nservices)
		return 1;
	for (size_t i = 0; i < o->nservices; i++) {
		const char *hash;
		if (!selects(o->services[i], s, &hash))
			continue;
		long long k;
		if (!hash || (!sl_parse_int(hash + 1, &k) && k == (long long)r + 1))
			return 1;
	}
	return 0;
}

static void add_file(sl_plan *p, size_t *cap, const char *name, const char *text, size_t len)
{
	const char *base = strrchr(name, '/');
	base = base ? base + 1 : name;
	for (size_t i = 0; i < p->nfiles; i++)
		if (!strcmp(p->file_names[i], base))
			return; /* the first wins: the entry's own file over a later write */
	size_t c = *cap;
	sl_grow((void **)&p->file_names, &c, p->nfiles + 1, sizeof *p->file_names);
	c = *cap;
	sl_grow((void **)&p->file_texts, &c, p->nfiles + 1, sizeof *p->file_texts);
	c = *cap;
	sl_grow((void **)&p->file_lens, &c, p->nfiles + 1, sizeof *p->file_lens);
	*cap = c;
	p->file_names[p->nfiles] = sl_strdup(base);
	p->file_texts[p->nfiles] = sl_strndup(text, len);
	p->file_lens[p->nfiles] = len;
	p->nfiles++;
}

/* The files a run needs beside it: the entry's YAML and the script's
 * here-documents, by base name. */
static void plan_files(const sl_model *m, sl_plan *p)
{
	size_t cap = 0;
	const sl_entry *e = m->entry;
	for (size_t i = 0; i < m->nfiles; i++) {
		const sl_source *s = m->files[i];
		const char *name = s->section ? s->section : s->name;
		if (name[0] == '/') {
			sl_buf nb = {0};
			sl_buf_printf(&nb, "the script writes %s; the run writes it as work/%s, and words naming %s are not changed",
				      name, strrchr(name, '/') + 1, name);
			pl_push_text(&p->notes, &p->nnotes, sl_buf_detach(&nb));
		}
		add_file(p, &cap, name, s->text, s->len);
	}
	for (size_t i = 0; i < e->nfiles; i++) {
		const sl_source *s = e->files[i];
		add_file(p, &cap, s->section ? s->section : s->name, s->text, s->len);
	}
}

/* How many processes a service is: one per launch (a loop's iterations
 * each have theirs), or a manifest's replicas, which all run its one
 * launch: the model keeps them as a count. */
static size_t nlaunches(const sl_service *s)
{
	size_t n = json_array_size(s->launches);
	int k8s = s->replicas_from && (!strcmp(s->replicas_from, "replicas") || !strcmp(s->replicas_from, "kubernetes default"));
	return n == 1 && k8s ? s->replicas : n;
}

static const json_t *launch_at(const sl_service *s, size_t r)
{
	size_t n = json_array_size(s->launches);
	return json_array_get(s->launches, r < n ? r : n - 1);
}

/* run starts everything on one host: more processes than this are a
 * catalogue's cluster, not a run */
#define SL_MAX_RUN_PROCS 256

/* The replica after r that --service could pick: r + 1 when a selector
 * names the service whole (then every replica is picked), else the least
 * ROLE#N past r; (size_t)-1 when none. */
static size_t next_pick(const sl_plan_opts *o, const sl_service *s, size_t r)
{
	if (!o->nservices)
		return r + 1;
	size_t best = (size_t)-1;
	for (size_t i = 0; i < o->nservices; i++) {
		const char *hash;
		if (!selects(o->services[i], s, &hash))
			continue;
		long long k;
		if (!hash)
			return r + 1;
		if (!sl_parse_int(hash + 1, &k) && k >= 1 && (size_t)(k - 1) > r && (size_t)(k - 1) < best)
			best = (size_t)(k - 1);
	}
	return best;
}

int sl_exec_plan(const sl_model *m, const sl_plan_opts *o, sl_plan *out, sl_error *err)
{
	memset(out, 0, sizeof *out);
	ctx c = {o, err, m->entry->path, 0, 0, out};
	size_t cap = 0;
	int rc = SL_OK;
	size_t total = 0;
	for (size_t i = 0; i < m->nservices && rc == SL_OK; i++) {
		const sl_service *s = &m->services[i];
		/* a count past the limit: only the replicas --service names one
		 * by one are looked at (not a billion of them) */
		size_t many = nlaunches(s) > SL_MAX_RUN_PROCS;
		for (size_t r = 0; r < nlaunches(s) && rc == SL_OK; r = many ? next_pick(o, s, r) : r + 1)
			if (picked(o, s, r) && ++total > SL_MAX_RUN_PROCS) {
				unsigned line = 0, col = 0;
				sl_origin_pos(&s->replicas_origin, &line, &col);
				sl_error_set(err, s->replicas_origin.src ? s->replicas_origin.src->path : m->entry->path, line, col,
					     "%s: %zu replicas; run starts every process on this host, at most %d (pick some with --service %s#N)",
					     s->name, nlaunches(s), SL_MAX_RUN_PROCS, s->role);
				rc = SL_ERR_INPUT;
			} else if (picked(o, s, r)) {
				rc = pl_add_proc(&c, m, s, r, launch_at(s, r), out, &cap);
			}
	}
	for (size_t i = 0; i < o->nservices && rc == SL_OK; i++) {
		int any = 0;
		for (size_t k = 0; k < m->nservices && !any; k++)
			for (size_t r = 0; r < nlaunches(&m->services[k]) && !any;
			     r = nlaunches(&m->services[k]) > SL_MAX_RUN_PROCS ? next_pick(o, &m->services[k], r) : r + 1) {
				sl_plan_opts one = *o;
				one.services = o->services + i;
				one.nservices = 1;
				any = picked(&one, &m->services[k], r);
			}
		if (!any) {
			sl_error_set(err, m->entry->path, 0, 0, "--service %s: no such service or replica", o->services[i]);
			rc = SL_ERR_USAGE;
		}
	}
	if (rc == SL_OK && !out->n) {
		sl_error_set(err, m->entry->path, 0, 0, "no service to run");
		rc = SL_ERR_INPUT;
	}
	/* Dynamo workers are ready when the frontend lists a model */
	const sl_proc *fe = NULL;
	for (size_t i = 0; i < out->n && rc == SL_OK; i++)
		if (!strcmp(out->procs[i].role, "frontend") && out->procs[i].ready == SL_READY_HTTP)
			fe = &out->procs[i];
	for (size_t i = 0; i < out->n && rc == SL_OK; i++) {
		sl_proc *p = &out->procs[i];
		if (p->ready != SL_READY_FRONTEND)
			continue;
		if (!fe) {
			sl_error_set(err, p->where, 0, 0,
				     "%s: a Dynamo worker is ready when the frontend lists a model; run the frontend too, or give --ready",
				     p->name);
			rc = SL_ERR_INPUT;
		} else {
			p->url = sl_strdup(fe->url);
		}
	}
	for (size_t i = 0; i < out->n && rc == SL_OK; i++)
		if (!strcmp(out->procs[i].argv[0], "docker") || sl_ends_with(out->procs[i].argv[0], "/docker"))
			out->needs_docker = 1;
	/* run starts everything on this host: two servers on one port cannot
	 * both start (a published multi-node entry, or ports left to the
	 * engine's default) */
	for (size_t i = 0; i < out->n && rc == SL_OK; i++)
		for (size_t j = i + 1; j < out->n && rc == SL_OK; j++)
			if (out->procs[i].listens && out->procs[i].listens == out->procs[j].listens) {
				sl_buf m = {0};
				sl_buf_printf(&m, "%s and %s both serve on port %d (%s); on one host the second cannot start: give one another port, or run them apart with --service",
					      out->procs[i].name, out->procs[j].name, out->procs[i].listens, out->procs[i].where);
				if (o->dry_run) {
					sl_buf h = {0};
					sl_buf_printf(&h, "%s: %s", out->procs[j].where, m.data);
					pl_push_text(&out->unresolved, &out->nunresolved, sl_buf_detach(&h));
				} else {
					sl_error_set(err, out->procs[j].where, 0, 0, "%s", m.data);
					rc = SL_ERR_INPUT;
				}
				sl_buf_free(&m);
			}
	if (rc) {
		sl_exec_plan_free(out);
		return rc;
	}
	/* stable: replicas and services keep the script's order within a stage */
	sl_proc *sorted = sl_calloc(out->n + 1, sizeof *sorted);
	size_t k = 0;
	for (int st = 0; st <= 3; st++)
		for (size_t i = 0; i < out->n; i++)
			if (out->procs[i].stage == st)
				sorted[k++] = out->procs[i];
	free(out->procs);
	out->procs = sorted;
	plan_files(m, out);
	return SL_OK;
}

void sl_exec_plan_free(sl_plan *p)
{
	for (size_t i = 0; i < p->nfiles; i++) {
		free(p->file_names[i]);
		free(p->file_texts[i]);
	}
	free(p->file_names);
	free(p->file_texts);
	free(p->file_lens);
	for (size_t i = 0; i < p->nnotes; i++)
		free(p->notes[i]);
	free(p->notes);
	for (size_t i = 0; i < p->nunresolved; i++)
		free(p->unresolved[i]);
	free(p->unresolved);
	for (size_t i = 0; i < p->n; i++)
		pl_proc_free(&p->procs[i]);
	free(p->procs);
	memset(p, 0, sizeof *p);
}
