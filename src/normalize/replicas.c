/*
 * replicas.c: how many of each service run: a for loop's iterations (its
 * copies merged into one service, with the settings that follow the loop
 * variable per replica), a `# prefill x2:` header, a manifest's replicas
 * (and GPUs, which Kubernetes gives). From comments, replicas only next to
 * a role word: comments are prose. Uses roles.c (a command's comments).
 */
#include "topology.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* A manifest's replicas and GPUs: what Kubernetes will do, above what
 * the command line suggests. */
/* A recipe's `prefill_workers: 2` line, from the place of its value: the
 * key (*key, caller frees) and the line as written (returned, caller frees). */
static char *recipe_line(const sl_source *src, uint32_t off, char **key)
{
	size_t a = off, e = off;
	while (a > 0 && src->text[a - 1] != '\n')
		a--;
	while (a < off && src->text[a] == ' ')
		a++;
	while (e < src->len && src->text[e] != '\n')
		e++;
	const char *colon = memchr(src->text + a, ':', e - a);
	*key = sl_strndup(src->text + a, colon ? (size_t)(colon - (src->text + a)) : e - a);
	return sl_strndup(src->text + a, e - a);
}

void sl_topo_k8s_facts(sl_ctx *c)
{
	if (!c->ws)
		return;
	const sl_source *src = c->entry->script;
	for (size_t i = 0; i < c->model->nservices; i++) {
		sl_service *s = &c->model->services[i];
		const sl_k8s_workload *w = &c->ws[c->svc_cmd[i]];
		int dynamo = !strcmp(w->kind, "DynamoGraphDeployment");
		if (strstr(w->kind, "recipe")) {
			/* a recipe's own keys say them */
			uint32_t offs[2] = {w->replicas >= 0 ? w->replicas_off : 0, w->gpus >= 0 ? w->gpus_off : 0};
			for (int k = 0; k < 2; k++) {
				if (!offs[k])
					continue;
				char *key, *raw = recipe_line(src, offs[k], &key);
				if (k == 0) {
					s->replicas = (unsigned)w->replicas;
					free(s->replicas_from);
					s->replicas_from = key;
					sl_origin_clear(&s->replicas_origin);
					sl_origin_set(&s->replicas_origin, src, offs[k], raw);
				} else {
					s->gpus = w->gpus;
					free(s->gpus_from);
					s->gpus_from = key;
					sl_origin_clear(&s->gpus_origin);
					sl_origin_set(&s->gpus_origin, src, offs[k], raw);
				}
				free(raw);
			}
			if (w->replicas > 1)
				while (json_array_size(s->launches) && json_array_size(s->launches) < (size_t)w->replicas)
					json_array_append_new(s->launches, json_deep_copy(json_array_get(s->launches, 0)));
			continue;
		}
		if (w->replicas >= 0) {
			/* each replica is a pod running the same command: a count, not
			 * a copy of the launch per replica (run starts as many from
			 * the one launch) */
			s->replicas = (unsigned)w->replicas;
			free(s->replicas_from);
			s->replicas_from = sl_strdup(w->replicas_off ? "replicas" : "kubernetes default");
			sl_origin_clear(&s->replicas_origin);
			sl_buf raw = {0};
			sl_buf_printf(&raw, "replicas: %ld", w->replicas);
			sl_origin_set(&s->replicas_origin, src, w->replicas_off ? w->replicas_off : s->command_origin.off,
				      raw.data);
			sl_buf_free(&raw);
		}
		if (w->gpus >= 0) {
			/* a multinode service has its GPUs on each of its nodes */
			long nodes = w->nodes > 1 ? w->nodes : 1;
			s->gpus = w->gpus * nodes;
			free(s->gpus_from);
			/* the key it is written under: Dynamo v1alpha1's service
			 * resources.limits.gpu, or a container's nvidia.com/gpu */
			const char *key = w->gpus_key ? w->gpus_key : dynamo ? "gpu" : "nvidia.com/gpu";
			sl_buf from = {0};
			sl_buf_puts(&from, !strcmp(key, "gpu") ? "resources.limits.gpu" : key);
			if (nodes > 1)
				sl_buf_puts(&from, " x multinode.nodeCount");
			s->gpus_from = sl_buf_detach(&from);
			sl_origin_clear(&s->gpus_origin);
			sl_buf raw = {0};
			sl_buf_printf(&raw, "%s: %ld", key, w->gpus);
			if (nodes > 1)
				sl_buf_printf(&raw, " x nodeCount: %ld", nodes);
			sl_origin_set(&s->gpus_origin, src, w->gpus_off, raw.data);
			sl_buf_free(&raw);
		}
	}
}

void sl_topo_merge_loops(sl_ctx *c, const sl_script *sc)
{
	sl_model *m = c->model;
	for (size_t i = 0; i < m->nservices; i++) {
		const sl_command *ci = sl_topo_cmd_of(c, sc, i);
		if (ci->iterations <= 1)
			continue;
		sl_service *s = &m->services[i];
		json_t *per = json_array();
		json_array_append_new(per, s->gpu_devices ? json_incref(s->gpu_devices) : json_array());
		/* each setting's value in every iteration, to find those that
		 * follow the loop variable (`--port 900$g`) */
		json_t **vals = sl_calloc(s->nsettings + 1, sizeof *vals);
		int *differs = sl_calloc(s->nsettings + 1, sizeof *differs);
		for (size_t k = 0; k < s->nsettings; k++)
			vals[k] = json_pack("[O]", s->settings[k].value);
		size_t j = i + 1;
		while (j < m->nservices) {
			const sl_command *cj = sl_topo_cmd_of(c, sc, j);
			if (cj->stmt != ci->stmt) {
				j++;
				continue;
			}
			sl_service *o = &m->services[j];
			json_array_append_new(per, o->gpu_devices ? json_incref(o->gpu_devices) : json_array());
			for (size_t k = 0; k < s->nsettings && k < o->nsettings; k++) {
				if (strcmp(s->settings[k].key, o->settings[k].key))
					continue;
				json_array_append(vals[k], o->settings[k].value);
				differs[k] |= !json_equal(s->settings[k].value, o->settings[k].value);
			}
			/* env that changes with the loop variable: keep it as written */
			for (size_t k = 0; k < s->nenv && k < o->nenv; k++) {
				sl_env *e = &s->env[k];
				if (strcmp(e->name, o->env[k].name) || !strcmp(e->value, o->env[k].value) ||
				    (e->flags & SL_SET_PER_REPLICA))
					continue;
				const char *eq = e->origin.raw ? strchr(e->origin.raw, '=') : NULL;
				if (eq) {
					free(e->value);
					e->value = sl_strdup(eq + 1);
				}
				e->flags |= SL_SET_PER_REPLICA;
			}
			/* its process is one more replica of the first */
			if (s->launches && o->launches)
				json_array_extend(s->launches, o->launches);
			/* drop the duplicate iteration */
			sl_model tmp;
			memset(&tmp, 0, sizeof tmp);
			sl_model *hold = sl_malloc(sizeof *hold);
			*hold = tmp;
			hold->services = sl_malloc(sizeof *hold->services);
			hold->services[0] = *o;
			hold->nservices = 1;
			sl_model_free(hold);
			memmove(&m->services[j], &m->services[j + 1],
				(m->nservices - j - 1) * sizeof *m->services);
			memmove(&c->svc_cmd[j], &c->svc_cmd[j + 1],
				(m->nservices - j - 1) * sizeof *c->svc_cmd);
			m->nservices--;
		}
		for (size_t k = 0; k < s->nsettings; k++) {
			if (differs[k]) {
				json_decref(s->settings[k].value);
				s->settings[k].value = json_incref(vals[k]);
				s->settings[k].flags |= SL_SET_PER_REPLICA;
			}
			json_decref(vals[k]);
		}
		free(vals);
		free(differs);
		s->replicas = ci->iterations;
		free(s->replicas_from);
		s->replicas_from = sl_strdup("for loop");
		sl_buf raw = {0};
		sl_buf_printf(&raw, "for %s in ... (%u values)", ci->loop_var ? ci->loop_var : "?",
			      ci->iterations);
		sl_origin_clear(&s->replicas_origin);
		sl_origin_set(&s->replicas_origin, c->entry->script, ci->head, raw.data);
		sl_buf_free(&raw);
		if (s->gpu_devices) {
			json_decref(s->gpu_devices);
			s->gpu_devices = per;
		} else {
			json_decref(per);
		}
	}
}

/* "# prefill x2:", "# Context workers (x6, one per tray):", "# 3x decode workers" */
static int replicas_in(const char *line, unsigned *n, size_t *at)
{
	static const char *const roles[] = {"prefill", "decode", "context", "generation",
					    "worker", "server", "replica", "instance"};
	for (size_t r = 0; r < sizeof roles / sizeof *roles; r++) {
		size_t rl = strlen(roles[r]);
		for (const char *p = strstr(line, roles[r]); p; p = strstr(p + 1, roles[r])) {
			if (p > line && isalnum((unsigned char)p[-1]))
				continue;
			const char *q = p + rl;
			while (isalpha((unsigned char)*q))
				q++;
			while (*q == ' ' || *q == '(')
				q++;
			if (*q == 'x' && isdigit((unsigned char)q[1])) {
				*n = (unsigned)strtoul(q + 1, NULL, 10);
				*at = (size_t)(q - line);
				return 1;
			}
			/* "3x decode" */
			const char *b = p;
			while (b > line && b[-1] == ' ')
				b--;
			if (b > line && b[-1] == 'x') {
				const char *d = b - 1;
				while (d > line && isdigit((unsigned char)d[-1]))
					d--;
				if (d < b - 1 && (d == line || !isalnum((unsigned char)d[-1]))) {
					*n = (unsigned)strtoul(d, NULL, 10);
					*at = (size_t)(d - line);
					return 1;
				}
			}
		}
	}
	return 0;
}

void sl_topo_header_replicas(sl_ctx *c, const sl_script *sc)
{
	for (size_t i = 0; i < c->model->nservices; i++) {
		sl_service *s = &c->model->services[i];
		const sl_command *cmd = sl_topo_cmd_of(c, sc, i);
		if (cmd->iterations > 1 || cmd->block < 0)
			continue;
		const sl_comment_block *bl = &sc->blocks[cmd->block];
		const sl_comment *cm = &sc->comments[bl->first + bl->count - 1];
		char *low = sl_strdup(cm->text);
		sl_topo_lower(low);
		unsigned n;
		size_t at;
		if (replicas_in(low, &n, &at) && n > 0 && n <= 100000) {
			s->replicas = n;
			free(s->replicas_from);
			s->replicas_from = sl_strdup("comment");
			sl_origin_clear(&s->replicas_origin);
			sl_origin_set(&s->replicas_origin, c->entry->script, cm->start + 1 + (uint32_t)at,
				      cm->text);
		}
		free(low);
	}
}
