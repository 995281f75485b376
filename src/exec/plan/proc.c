/*
 * proc.c: one planned process (sl_proc) as a value: its start stage by
 * role, its environment (a later value of a name wins) and its freeing.
 */
#include "internal.h"

#include <stdlib.h>

/* Start order by role: what others connect to first. */
int pl_stage_of(const char *role)
{
	if (!strcmp(role, "etcd"))
		return 0;
	if (!strcmp(role, "frontend") || !strcmp(role, "router"))
		return 1;
	if (!strcmp(role, "orchestrator"))
		return 3; /* trtllm-serve disaggregated proxies to the workers */
	return 2;
}

void pl_add_env(sl_proc *p, size_t *cap, const char *name, const char *value)
{
	/* a later value of the same name wins, as in the shell */
	size_t nl = strlen(name);
	sl_buf b = {0};
	sl_buf_printf(&b, "%s=%s", name, value);
	for (size_t i = 0; i < p->nenv; i++)
		if (!strncmp(p->env[i], name, nl) && p->env[i][nl] == '=') {
			free(p->env[i]);
			p->env[i] = sl_buf_detach(&b);
			return;
		}
	sl_grow((void **)&p->env, cap, p->nenv + 2, sizeof *p->env);
	p->env[p->nenv++] = sl_buf_detach(&b);
	p->env[p->nenv] = NULL;
}

void pl_proc_free(sl_proc *p)
{
	free(p->name);
	free(p->role);
	for (size_t i = 0; i < p->argc; i++)
		free(p->argv[i]);
	free(p->argv);
	for (size_t i = 0; i < p->nenv; i++)
		free(p->env[i]);
	free(p->env);
	free(p->url);
	free(p->host);
	free(p->where);
}
