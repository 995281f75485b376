/*
 * k8s.c (normalize): what a Kubernetes or Dynamo deployment says of its
 * services beyond their command lines: replicas (spec.replicas, a Dynamo
 * service's replicas), the GPUs a container is given (resources limits:
 * nvidia.com/gpu, amd.com/gpu, Dynamo's gpu) and, for Dynamo, the role its
 * component type names.
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int known_role(const char *r)
{
	static const char *const roles[] = {"frontend", "prefill", "decode", "router", "planner"};
	for (size_t i = 0; i < sizeof roles / sizeof *roles; i++)
		if (!strcmp(r, roles[i]))
			return 1;
	return 0;
}

void sl_k8s_facts(sl_ctx *c, const sl_script *s)
{
	const sl_source *src = c->entry->script;
	for (size_t i = 0; i < c->model->nservices; i++) {
		sl_service *sv = &c->model->services[i];
		const sl_k8s_container *k = s->cmds[c->svc_cmd[i]].k8s;
		if (!k)
			continue;
		if (k->replicas_given) {
			sv->replicas = k->replicas;
			free(sv->replicas_from);
			sl_buf b = {0};
			sl_buf_printf(&b, "%s replicas", k->kind);
			sv->replicas_from = sl_buf_detach(&b);
			sl_origin_clear(&sv->replicas_origin);
			sl_origin_set(&sv->replicas_origin, src, k->replicas_at, NULL);
		}
		/* the container's GPUs, unless CUDA_VISIBLE_DEVICES narrows them */
		if (k->gpus_key && !sv->gpus_from) {
			sv->gpus = k->gpus;
			sl_buf b = {0};
			sl_buf_printf(&b, "resources %s", k->gpus_key);
			sv->gpus_from = sl_buf_detach(&b);
			sl_origin_clear(&sv->gpus_origin);
			sl_origin_set(&sv->gpus_origin, src, k->gpus_at, NULL);
		}
		/* a Dynamo component type names the role the flags did not */
		if (k->role && known_role(k->role) && sv->role_from && !strcmp(sv->role_from, "default")) {
			free(sv->role);
			free(sv->role_from);
			sv->role = sl_strdup(k->role);
			sv->role_from = sl_strdup(!strcmp(k->role, "prefill") || !strcmp(k->role, "decode")
							  ? "Dynamo subComponentType"
							  : "Dynamo componentType");
		}
	}
}
