/*
 * k8s.c: Kubernetes and Dynamo deployment YAML into commands, so that the
 * same normalize stage, rules and diffs apply to them as to shell scripts.
 *
 * A container's command is a list in YAML, not shell: `command:` then
 * `args:` are the argv, word for word (a `["/bin/sh", "-c", "..."]` string
 * is then read as shell by the normalize stage, as for any `bash -c`). Its
 * `env:` becomes prefix assignments; replicas, the GPU resource and, for a
 * DynamoGraphDeployment, the service's component type travel with the
 * command (sl_k8s_container) to the model.
 */
#define _GNU_SOURCE  /* memmem */
#include "parse.h"

#include <stdlib.h>
#include <string.h>

static uint32_t node_off(const sl_source *src, const sl_yaml_node *n)
{
	return (uint32_t)sl_source_offset(src, n->line, n->col);
}

/*
 * A scalar as a word whose every byte points where it is written: each line
 * of the value is looked for in the text from the scalar's start on (exact
 * for plain, quoted-without-escapes and literal block scalars); a byte not
 * found there points at the scalar's start.
 */
static void scalar_word(const sl_source *src, const sl_yaml_node *n, sl_word *w)
{
	memset(w, 0, sizeof *w);
	const char *v = n->value ? n->value : "";
	size_t len = n->value ? n->len : 0;
	uint32_t at = node_off(src, n);
	w->text = sl_strndup(v, len);
	w->len = len;
	w->offs = sl_malloc((len + 1) * sizeof *w->offs);
	size_t pos = at;
	for (size_t i = 0; i < len;) {
		size_t e = i;
		while (e < len && v[e] != '\n')
			e++;
		const char *hit = NULL;
		if (e > i && pos < src->len)
			hit = memmem(src->text + pos, src->len - pos, v + i, e - i);
		/* only on this line or the next few: not a later, unrelated copy */
		if (hit) {
			size_t nl = 0;
			for (const char *q = src->text + pos; q < hit; q++)
				nl += *q == '\n';
			if (nl > 2)
				hit = NULL;
		}
		for (size_t k = i; k < e; k++)
			w->offs[k] = hit ? (uint32_t)(hit - src->text + (k - i)) : at;
		if (hit)
			pos = (size_t)(hit - src->text) + (e - i);
		if (e < len)
			w->offs[e] = (uint32_t)pos;
		i = e + 1;
	}
	w->offs[len] = len && w->offs[len - 1] >= at ? w->offs[len - 1] + 1 : at;
	w->start = at;
	w->end = w->offs[len];
	if (!n->plain)
		w->flags |= SL_WORD_QUOTED;
}

static const sl_yaml_node *get(const sl_yaml_node *m, const char *k)
{
	return m && m->kind == SL_YAML_MAP ? sl_yaml_get(m, k) : NULL;
}

static const char *str(const sl_yaml_node *n)
{
	return n && n->kind == SL_YAML_SCALAR && !sl_yaml_is_null(n) ? n->value : NULL;
}

typedef struct {
	const sl_source *src;
	sl_script *s;
	size_t cmd_cap, note_cap, note_off_cap;
	sl_error *err;
	int failed;
} kctx;

static void knote(kctx *k, uint32_t off, const char *fmt, const char *a, const char *b)
{
	sl_buf m = {0};
	sl_buf_printf(&m, fmt, a, b ? b : "");
	size_t n = k->s->nnotes;
	SL_PUSH(k->s->notes, k->s->nnotes, k->note_cap, sl_buf_detach(&m));
	SL_PUSH(k->s->note_offs, n, k->note_off_cap, off);
}

/* A count written as 2 or "2"; -1 when it is not one. */
static long count_of(const sl_yaml_node *n)
{
	const char *v = str(n);
	if (!v || !*v)
		return -1;
	char *e;
	long x = strtol(v, &e, 10);
	return *e || x < 0 ? -1 : x;
}

/* The GPUs of a resources: block: limits first, then requests. */
static void gpus_of(kctx *k, const sl_yaml_node *res, sl_k8s_container *kc)
{
	static const char *const keys[] = {"nvidia.com/gpu", "amd.com/gpu", "gpu"};
	static const char *const parts[] = {"limits", "requests"};
	for (size_t p = 0; p < 2; p++)
		for (size_t i = 0; i < 3; i++) {
			const sl_yaml_node *g = get(get(res, parts[p]), keys[i]);
			if (!g)
				continue;
			kc->gpus = count_of(g);
			kc->gpus_key = sl_strdup(keys[i]);
			kc->gpus_at = node_off(k->src, g);
			if (kc->gpus < 0)
				knote(k, kc->gpus_at, "GPU count `%s` is not a number", str(g) ? str(g) : "?", NULL);
			return;
		}
}

/* One container into a command: command: + args:, env:. */
static void container(kctx *k, const sl_yaml_node *c, const sl_k8s_container *tmpl,
		      const sl_yaml_node *extra_env, const sl_yaml_node *res)
{
	const sl_yaml_node *cmd = get(c, "command"), *args = get(c, "args");
	sl_command sc;
	memset(&sc, 0, sizeof sc);
	size_t acap = 0, pcap = 0;
	const sl_yaml_node *lists[2] = {cmd, args};
	for (int l = 0; l < 2; l++) {
		const sl_yaml_node *n = lists[l];
		if (!n)
			continue;
		if (n->kind == SL_YAML_SCALAR && !sl_yaml_is_null(n)) {
			/* command: a single string is one word */
			sl_word w;
			scalar_word(k->src, n, &w);
			SL_PUSH(sc.argv, sc.argc, acap, w);
			continue;
		}
		for (size_t i = 0; n->kind == SL_YAML_SEQ && i < n->n; i++) {
			if (n->items[i]->kind != SL_YAML_SCALAR)
				continue;
			sl_word w;
			scalar_word(k->src, n->items[i], &w);
			w.flags |= SL_WORD_LISTED;
			SL_PUSH(sc.argv, sc.argc, acap, w);
		}
	}
	const sl_yaml_node *envs[2] = {extra_env, get(c, "env")};
	for (int l = 0; l < 2; l++)
		for (size_t i = 0; envs[l] && envs[l]->kind == SL_YAML_SEQ && i < envs[l]->n; i++) {
			const sl_yaml_node *e = envs[l]->items[i];
			const char *name = str(get(e, "name"));
			if (!name)
				continue;
			sl_assign a;
			memset(&a, 0, sizeof a);
			a.name = sl_strdup(name);
			a.start = node_off(k->src, get(e, "name"));
			const sl_yaml_node *v = get(e, "value");
			if (v && v->kind == SL_YAML_SCALAR) {
				scalar_word(k->src, v, &a.value);
			} else {
				/* valueFrom: a secret or a field, unknown here */
				sl_buf t = {0};
				sl_buf_printf(&t, "$%s", name);
				a.value.text = sl_buf_detach(&t);
				a.value.len = strlen(a.value.text);
				a.value.offs = sl_calloc(a.value.len + 1, sizeof *a.value.offs);
				for (size_t q = 0; q <= a.value.len; q++)
					a.value.offs[q] = a.start;
				a.value.start = a.value.end = a.start;
				a.value.flags = SL_WORD_SYMBOLIC;
			}
			SL_PUSH(sc.prefix, sc.nprefix, pcap, a);
		}
	sl_k8s_container *kc = sl_calloc(1, sizeof *kc);
	kc->kind = sl_strdup(tmpl->kind);
	kc->name = tmpl->name ? sl_strdup(tmpl->name) : NULL;
	kc->container = str(get(c, "name")) ? sl_strdup(str(get(c, "name"))) : NULL;
	kc->role = tmpl->role ? sl_strdup(tmpl->role) : NULL;
	kc->image = str(get(c, "image")) ? sl_strdup(str(get(c, "image"))) : NULL;
	kc->replicas = tmpl->replicas;
	kc->replicas_given = tmpl->replicas_given;
	kc->replicas_at = tmpl->replicas_at;
	kc->gpus = -1;
	kc->at = node_off(k->src, c);
	gpus_of(k, get(c, "resources"), kc);
	if (kc->gpus < 0 && !kc->gpus_key && res)
		gpus_of(k, res, kc);
	sc.k8s = kc;
	sc.start = sc.stmt = sc.head = kc->at;
	sc.end = sc.argc ? sc.argv[sc.argc - 1].end : kc->at;
	sc.iterations = 1;
	sc.block = -1;
	sc.background = 1;
	if (!sc.argc)
		knote(k, kc->at, "%s%s gives no command: the image's default runs, its settings are unknown",
		      kc->container ? "container " : "Dynamo service ",
		      kc->container ? kc->container : (kc->name ? kc->name : "?"));
	SL_PUSH(k->s->cmds, k->s->ncmds, k->cmd_cap, sc);
}

static void workload(kctx *k, const sl_yaml_node *root)
{
	const char *kind = str(get(root, "kind"));
	if (!kind)
		return;
	const char *name = str(get(get(root, "metadata"), "name"));
	const sl_yaml_node *spec = get(root, "spec");
	sl_k8s_container t;
	memset(&t, 0, sizeof t);
	t.kind = (char *)kind;
	t.name = (char *)name;
	t.replicas = 1;
	if (!strcmp(kind, "DynamoGraphDeployment")) {
		const sl_yaml_node *svcs = get(spec, "services");
		for (size_t i = 0; svcs && svcs->kind == SL_YAML_MAP && i < svcs->n; i++) {
			const sl_yaml_node *sv = svcs->items[i];
			sl_k8s_container d = t;
			d.name = svcs->keys[i]->value;
			d.role = (char *)(str(get(sv, "subComponentType")) ? str(get(sv, "subComponentType"))
									    : str(get(sv, "componentType")));
			const sl_yaml_node *r = get(sv, "replicas");
			if (r) {
				long x = count_of(r);
				d.replicas = x > 0 ? (unsigned)x : 1;
				d.replicas_given = x > 0;
				d.replicas_at = node_off(k->src, r);
			}
			const sl_yaml_node *mc = get(get(sv, "extraPodSpec"), "mainContainer");
			if (!mc) {
				knote(k, node_off(k->src, svcs->keys[i]),
				      "Dynamo service %s has no mainContainer: its command is unknown", d.name, NULL);
				continue;
			}
			container(k, mc, &d, get(sv, "envs"), get(sv, "resources"));
		}
		return;
	}
	const sl_yaml_node *pod = NULL;
	if (!strcmp(kind, "Pod")) {
		pod = spec;
	} else if (!strcmp(kind, "Deployment") || !strcmp(kind, "StatefulSet") ||
		   !strcmp(kind, "ReplicaSet") || !strcmp(kind, "Job") || !strcmp(kind, "DaemonSet")) {
		pod = get(get(spec, "template"), "spec");
		const sl_yaml_node *r = get(spec, strcmp(kind, "Job") ? "replicas" : "parallelism");
		if (r) {
			long x = count_of(r);
			t.replicas = x >= 0 ? (unsigned)x : 1;
			t.replicas_given = x >= 0;
			t.replicas_at = node_off(k->src, r);
		}
	} else {
		return;   /* Service, ConfigMap, Secret...: no process */
	}
	const sl_yaml_node *cs = get(pod, "containers");
	for (size_t i = 0; cs && cs->kind == SL_YAML_SEQ && i < cs->n; i++)
		container(k, cs->items[i], &t, NULL, NULL);
}

int sl_k8s_is_deployment(const sl_source *src)
{
	if (!sl_ends_with(src->name, ".yaml") && !sl_ends_with(src->name, ".yml"))
		return 0;
	int api = 0, kind = 0;
	for (size_t i = 0; i < src->nlines; i++) {
		const char *l = src->text + src->lines[i];
		api |= sl_starts_with(l, "apiVersion:");
		kind |= sl_starts_with(l, "kind:");
	}
	return api && kind;
}

int sl_k8s_parse(const sl_source *src, sl_script **out, sl_error *err)
{
	*out = NULL;
	sl_yaml_doc *d;
	if (sl_yaml_load(src, &d, err))
		return SL_ERR_INPUT;
	kctx k;
	memset(&k, 0, sizeof k);
	k.src = src;
	k.err = err;
	k.s = sl_calloc(1, sizeof *k.s);
	k.s->src = src;
	for (size_t i = 0; i < d->ndocs; i++)
		if (d->roots[i] && d->roots[i]->kind == SL_YAML_MAP)
			workload(&k, d->roots[i]);
	sl_yaml_free(d);
	*out = k.s;
	return SL_OK;
}
