/*
 * group.c: the models of a group's scripts made one (see group.h): their
 * services in the group's order, notes, claims, inputs and the files they
 * write; the services named again over the whole group. Uses roles.c (the
 * names) and build.c.
 */
#include "group.h"

#include <stdlib.h>
#include <string.h>

#include "topology.h"

#define MOVE(dst, ndst, src, nsrc) do { \
	if (nsrc) { \
		(dst) = sl_realloc((dst), ((ndst) + (nsrc)) * sizeof *(dst)); \
		memcpy((dst) + (ndst), (src), (nsrc) * sizeof *(src)); \
		(ndst) += (nsrc); \
	} \
	free(src); \
	(src) = NULL; \
	(nsrc) = 0; } while (0)

void sl_group_merge(sl_model *m, sl_model *from, const sl_source *script)
{
	if (from->variant) {
		/* the entry's variants are its first script's; the others are read once */
		sl_note n;
		memset(&n, 0, sizeof n);
		sl_buf b = {0};
		sl_buf_printf(&b, "%s has conditionals this reading cannot decide; it assumes %s", script->name,
			      from->variant);
		n.msg = sl_buf_detach(&b);
		sl_origin_set(&n.origin, script, 0, NULL);
		size_t cap = from->nnotes;
		SL_PUSH(from->notes, from->nnotes, cap, n);
	}
	MOVE(m->services, m->nservices, from->services, from->nservices);
	MOVE(m->notes, m->nnotes, from->notes, from->nnotes);
	MOVE(m->claims, m->nclaims, from->claims, from->nclaims);
	MOVE(m->inputs, m->ninputs, from->inputs, from->ninputs);
	MOVE(m->files, m->nfiles, from->files, from->nfiles);
	sl_model_free(from);
}

void sl_group_rename(sl_model *m)
{
	for (size_t i = 0; i < m->nservices; i++) {
		free(m->services[i].name);
		m->services[i].name = NULL;
	}
	sl_topo_assign_names(m);
}

void sl_group_run_free(sl_group_run *g)
{
	for (size_t i = 0; i < g->n; i++) {
		free(g->v[i].script);
		sl_model tmp;
		memset(&tmp, 0, sizeof tmp);
		sl_model *hold = sl_malloc(sizeof *hold);
		*hold = tmp;
		hold->services = sl_malloc(sizeof *hold->services);
		hold->services[0] = g->v[i].svc;
		hold->nservices = 1;
		sl_model_free(hold);
	}
	free(g->v);
	memset(g, 0, sizeof *g);
}
