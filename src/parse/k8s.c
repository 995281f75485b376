/*
 * k8s.c: Kubernetes and NVIDIA Dynamo deployment manifests read as
 * launch commands. A container's `command:` and `args:` lists are the
 * words of one command, its `env:` the command's inline variables, each
 * word keeping the place in the YAML of every one of its characters; the
 * workload around it (kind, name, image, replicas, GPUs) is told beside
 * the script, so that normalizing a manifest is normalizing a script.
 *
 * Read: Deployment, StatefulSet, DaemonSet, ReplicaSet, Job (spec.template),
 * Pod (spec), and DynamoGraphDeployment: v1alpha1's spec.services.NAME
 * (componentType, subComponentType, replicas, resources.limits.gpu, envs,
 * extraPodSpec.mainContainer) and v1beta1's spec.components[] (name, type,
 * replicas, multinode, podTemplate with its container "main" and a
 * frontendSidecar). Other documents of the file are left out
 * with a note. Kubernetes expands `$(NAME)` in command and args from the
 * container's env; servelint does the same when the value is literal and
 * keeps it symbolic otherwise.
 */
#include "parse.h"
#include "yaml_words.h"

#include <stdlib.h>
#include <string.h>

typedef struct reader {
	const sl_source *src;
	sl_script *s;
	size_t cmd_cap, note_cap;
	sl_k8s_workload *ws;
	size_t nws, ws_cap;
	sl_error *err;          /* the first bad count, told with its place */
	int bad;
	const sl_yaml_node **cms;  /* the file's ConfigMaps */
	size_t ncms, cm_cap, hd_cap;
} reader;

static void note(reader *r, const sl_yaml_node *n, const char *fmt, const char *a, const char *b)
{
	sl_buf m = {0};
	sl_buf_printf(&m, fmt, a ? a : "", b ? b : "");
	sl_yaml_note(r->s, n ? (uint32_t)sl_source_offset(r->src, n->line, n->col) : 0, sl_buf_detach(&m));
}

/* A count: an integer scalar (or a quoted one, as "4"). */
/* A count Kubernetes would take: a whole number from 0 to max. -1 when n
 * is absent or not a number at all; a number out of range (negative, past
 * max, past int64) is an error at its place, never a silent default. */
static long bounded_count(reader *r, const sl_yaml_node *n, const char *what, long max)
{
	const char *s = sl_yaml_scalar(n);
	if (!s)
		return -1;
	long long v;
	int ok = !sl_parse_int(s, &v);
	size_t digits = strspn(s + (*s == '-' || *s == '+'), "0123456789");
	int numeric = digits && !s[(*s == '-' || *s == '+') + digits];
	if (ok && v >= 0 && v <= max)
		return (long)v;
	if ((ok || numeric) && !r->bad) {
		sl_error_set(r->err, r->src->path, n->line, n->col,
			     "%s: `%s` is out of range (a count from 0 to %ld)", what, s, max);
		r->bad = 1;
	} else if (!ok && !numeric && !r->bad && !strcmp(what, "replicas")) {
		sl_error_set(r->err, r->src->path, n->line, n->col, "%s: `%s` is not a count", what, s);
		r->bad = 1;
	}
	return -1;
}

/* env: [{name, value} | {name, valueFrom}] appended as assignments. A
 * later one of the same name replaces the earlier (Kubernetes keeps the
 * last). */
static void read_env(reader *r, const sl_yaml_node *env, sl_assign **as, size_t *n, size_t *cap)
{
	for (size_t i = 0; env && env->kind == SL_YAML_SEQ && i < env->n; i++) {
		const sl_yaml_node *e = env->items[i], *nm = sl_yaml_get(e, "name"), *v = sl_yaml_get(e, "value");
		if (!sl_yaml_scalar(nm))
			continue;
		sl_assign a;
		memset(&a, 0, sizeof a);
		a.name = sl_strdup(nm->value);
		a.start = (uint32_t)sl_source_offset(r->src, nm->line, nm->col);
		a.exported = 1;
		if (sl_yaml_scalar(v)) {
			sl_k8s_word(r->src, v, &a.value);
		} else {
			/* valueFrom (a secret, a field): known only where it runs */
			const sl_yaml_node *from = sl_yaml_get(e, "valueFrom");
			const sl_yaml_node *at = from ? from : nm;
			uint32_t off = (uint32_t)sl_source_offset(r->src, at->line, at->col);
			sl_yaml_implied_word(&a.value, from ? "$(valueFrom)" : "", off, off);
			if (from)
				a.value.flags |= SL_WORD_SYMBOLIC;
		}
		sl_yaml_env_put(as, n, cap, a);
	}
}

/* $(NAME) in a word, from the container's env (Kubernetes' own
 * expansion): a literal value replaces it, with the place of the $(...);
 * anything else leaves the word symbolic. $$(NAME) is an escape. */
static void expand_refs(sl_word *w, const sl_assign *env, size_t nenv)
{
	if (!strstr(w->text, "$("))
		return;
	sl_buf t = {0};
	uint32_t *offs = sl_calloc(w->len * 2 + 64, sizeof *offs);
	size_t cap = w->len * 2 + 64;
	for (size_t i = 0; i < w->len;) {
		const char *p = w->text + i;
		const char *close = p[0] == '$' && p[1] == '(' ? strchr(p + 2, ')') : NULL;
		if (p[0] == '$' && p[1] == '$' && p[2] == '(') {
			if (t.len + 1 >= cap) {
				cap *= 2;
				offs = sl_realloc(offs, cap * sizeof *offs);
			}
			offs[t.len] = w->offs[i];
			sl_buf_putc(&t, '$');
			i += 2;
			continue;
		}
		if (close) {
			size_t nl = (size_t)(close - p - 2);
			const sl_assign *a = NULL;
			for (size_t k = 0; k < nenv; k++)
				if (strlen(env[k].name) == nl && !strncmp(env[k].name, p + 2, nl))
					a = &env[k];
			if (a && !(a->value.flags & SL_WORD_SYMBOLIC)) {
				for (size_t k = 0; k < a->value.len; k++) {
					if (t.len + 1 >= cap) {
						cap = cap * 2 + a->value.len;
						offs = sl_realloc(offs, cap * sizeof *offs);
					}
					offs[t.len] = w->offs[i];
					sl_buf_putc(&t, a->value.text[k]);
				}
				i += nl + 3;
				continue;
			}
			w->flags |= SL_WORD_SYMBOLIC;
		}
		if (t.len + 1 >= cap) {
			cap *= 2;
			offs = sl_realloc(offs, cap * sizeof *offs);
		}
		offs[t.len] = w->offs[i];
		sl_buf_putc(&t, w->text[i]);
		i++;
	}
	offs[t.len] = w->offs[w->len];
	free(w->text);
	free(w->offs);
	w->len = t.len;
	w->text = t.data ? sl_buf_detach(&t) : sl_strdup("");
	w->offs = offs;
}

/* ---- ConfigMaps mounted as files ---------------------------------------- */

/* The text of a block scalar (`engine.yaml: |`) as its lines stand in the
 * file, indentation and all, so that a file made of it keeps the places. */
static int block_text(const sl_source *src, const sl_yaml_node *v, size_t *a, size_t *b)
{
	if (v->kind != SL_YAML_SCALAR || (v->style != 4 && v->style != 5))
		return 0;
	int indent;
	*a = sl_yaml_content_start(src, v, &indent);
	size_t p = *a;
	*b = p;
	while (p < src->len) {
		size_t e = p;
		while (e < src->len && src->text[e] != '\n')
			e++;
		size_t q = p;
		while (q < e && src->text[q] == ' ')
			q++;
		if (q < e && (int)(q - p) < indent)
			break;
		p = e < src->len ? e + 1 : e;
		if (q < e)
			*b = p;
	}
	return *b > *a;
}

/* The file a mount gives the container at `target`: a here-document of
 * the script, as if written before any command runs. */
static void mounted_file(reader *r, const char *target, const sl_yaml_node *v)
{
	size_t a, b;
	if (!block_text(r->src, v, &a, &b))
		return;
	for (size_t i = 0; i < r->s->nheredocs; i++)
		if (!strcmp(r->s->heredocs[i].target, target))
			return;
	sl_heredoc h;
	memset(&h, 0, sizeof h);
	h.target = sl_strdup(target);
	h.body.text = sl_strndup(r->src->text + a, b - a);
	h.body.len = b - a;
	h.body.offs = sl_malloc((h.body.len + 1) * sizeof *h.body.offs);
	for (size_t i = 0; i <= h.body.len; i++)
		h.body.offs[i] = (uint32_t)(a + i);
	h.body.start = (uint32_t)a;
	h.body.end = (uint32_t)b;
	h.start = 0;
	h.body_start = (uint32_t)a;
	SL_PUSH(r->s->heredocs, r->s->nheredocs, r->hd_cap, h);
}

/* A container's volumeMounts of ConfigMap volumes: each key of the
 * ConfigMap's data a file at mountPath/key (or the subPath, or the
 * volume's items' paths). */
static void mount_config_maps(reader *r, const sl_yaml_node *ctr, const sl_yaml_node *volumes)
{
	const sl_yaml_node *mounts = sl_yaml_get(ctr, "volumeMounts");
	for (size_t i = 0; mounts && mounts->kind == SL_YAML_SEQ && i < mounts->n; i++) {
		const char *vn = sl_yaml_scalar(sl_yaml_get(mounts->items[i], "name"));
		const char *mp = sl_yaml_scalar(sl_yaml_get(mounts->items[i], "mountPath"));
		const char *sub = sl_yaml_scalar(sl_yaml_get(mounts->items[i], "subPath"));
		const sl_yaml_node *vol = NULL;
		for (size_t k = 0; vn && volumes && volumes->kind == SL_YAML_SEQ && k < volumes->n && !vol; k++)
			if (sl_yaml_scalar(sl_yaml_get(volumes->items[k], "name")) &&
			    !strcmp(sl_yaml_scalar(sl_yaml_get(volumes->items[k], "name")), vn))
				vol = volumes->items[k];
		const sl_yaml_node *cmv = sl_yaml_get(vol, "configMap");
		const char *cmn = sl_yaml_scalar(sl_yaml_get(cmv, "name"));
		if (!cmn || !mp)
			continue;
		const sl_yaml_node *data = NULL;
		for (size_t k = 0; k < r->ncms && !data; k++) {
			const char *n = sl_yaml_scalar(sl_yaml_get(sl_yaml_get(r->cms[k], "metadata"), "name"));
			if (n && !strcmp(n, cmn))
				data = sl_yaml_get(r->cms[k], "data");
		}
		if (!data || data->kind != SL_YAML_MAP) {
			note(r, mounts->items[i], "ConfigMap %s is not in this file: the files it mounts are unknown", cmn, "");
			continue;
		}
		const sl_yaml_node *items = sl_yaml_get(cmv, "items");
		for (size_t k = 0; k < data->n; k++) {
			const char *key = data->keys[k]->value, *path = key;
			int listed = !items;
			for (size_t q = 0; items && items->kind == SL_YAML_SEQ && q < items->n; q++)
				if (sl_yaml_scalar(sl_yaml_get(items->items[q], "key")) &&
				    !strcmp(sl_yaml_scalar(sl_yaml_get(items->items[q], "key")), key)) {
					listed = 1;
					if (sl_yaml_scalar(sl_yaml_get(items->items[q], "path")))
						path = sl_yaml_scalar(sl_yaml_get(items->items[q], "path"));
				}
			if (!listed || (sub && strcmp(sub, path)))
				continue;
			sl_buf t = {0};
			if (sub)
				sl_buf_puts(&t, mp);
			else
				sl_buf_printf(&t, "%s%s%s", mp, sl_ends_with(mp, "/") ? "" : "/", path);
			mounted_file(r, t.data, data->items[k]);
			sl_buf_free(&t);
		}
	}
}

/* ---- containers, continued ----------------------------------------------- */

static void read_container(reader *r, const sl_yaml_node *ctr, const sl_k8s_workload *base,
			   const sl_yaml_node *extra_env, const sl_yaml_node *gpus_node, const sl_yaml_node *volumes,
			   const char *const *dflt, const sl_yaml_node *dflt_at)
{
	const sl_yaml_node *cmd = sl_yaml_get(ctr, "command"), *args = sl_yaml_get(ctr, "args");
	const char *cname = sl_yaml_scalar(sl_yaml_get(ctr, "name"));
	mount_config_maps(r, ctr, volumes);
	if (dflt && (!cmd || cmd->kind != SL_YAML_SEQ || !cmd->n))
		cmd = NULL; /* the operator's default command, then the args */
	else if ((!cmd || cmd->kind != SL_YAML_SEQ || !cmd->n) && (!args || args->kind != SL_YAML_SEQ || !args->n)) {
		note(r, ctr, "container %s%s runs its image's default command, which the manifest does not show",
		     cname ? cname : "(unnamed)", "");
		return;
	}
	if (!dflt && (!cmd || cmd->kind != SL_YAML_SEQ || !cmd->n)) {
		note(r, args, "container %s%s gives args without a command: they go to the image's entrypoint, which the manifest does not show",
		     cname ? cname : "(unnamed)", "");
		return;
	}
	sl_command c;
	memset(&c, 0, sizeof c);
	c.block = -1;
	c.iterations = 1;
	size_t acap = 0, pcap = 0;
	read_env(r, extra_env, &c.prefix, &c.nprefix, &pcap);
	read_env(r, sl_yaml_get(ctr, "env"), &c.prefix, &c.nprefix, &pcap);
	for (size_t i = 0; dflt && !cmd && dflt[i]; i++) {
		sl_word w;
		const sl_yaml_node *at = dflt_at ? dflt_at : ctr;
		uint32_t off = (uint32_t)sl_source_offset(r->src, at->line, at->col);
		sl_yaml_implied_word(&w, dflt[i], off, off);
		SL_PUSH(c.argv, c.argc, acap, w);
	}
	const sl_yaml_node *lists[2] = {cmd, args};
	for (int l = 0; l < 2; l++)
		for (size_t i = 0; lists[l] && lists[l]->kind == SL_YAML_SEQ && i < lists[l]->n; i++) {
			const sl_yaml_node *it = lists[l]->items[i];
			if (it->kind != SL_YAML_SCALAR) {
				note(r, it, "a command word that is not a string is left out%s%s", "", "");
				continue;
			}
			sl_word w;
			sl_k8s_word(r->src, it, &w);
			expand_refs(&w, c.prefix, c.nprefix);
			SL_PUSH(c.argv, c.argc, acap, w);
		}
	c.start = c.stmt = c.head = c.argc ? c.argv[0].start : 0;
	c.end = c.argc ? c.argv[c.argc - 1].end : 0;
	SL_PUSH(r->s->cmds, r->s->ncmds, r->cmd_cap, c);
	sl_k8s_workload w = *base;
	w.kind = sl_strdup(base->kind);
	w.name = base->name ? sl_strdup(base->name) : NULL;
	w.container = cname ? sl_strdup(cname) : NULL;
	const char *img = sl_yaml_scalar(sl_yaml_get(ctr, "image"));
	w.image = img ? sl_strdup(img) : NULL;
	w.component = base->component ? sl_strdup(base->component) : NULL;
	w.sub_component = base->sub_component ? sl_strdup(base->sub_component) : NULL;
	/* GPUs: the container's nvidia.com/gpu limit (or request) */
	const sl_yaml_node *res = sl_yaml_get(ctr, "resources"), *g = NULL;
	if (res) {
		g = sl_yaml_get(sl_yaml_get(res, "limits"), "nvidia.com/gpu");
		if (!g)
			g = sl_yaml_get(sl_yaml_get(res, "requests"), "nvidia.com/gpu");
	}
	w.gpus_key = g ? "nvidia.com/gpu" : gpus_node ? "gpu" : NULL;
	if (!g)
		g = gpus_node;
	long ng = g ? bounded_count(r, g, "nvidia.com/gpu", SL_K8S_MAX_GPUS) : -1;
	if (ng >= 0) {
		w.gpus = ng;
		w.gpus_off = (uint32_t)sl_source_offset(r->src, g->line, g->col);
	}
	SL_PUSH(r->ws, r->nws, r->ws_cap, w);
}

static void read_pod(reader *r, const sl_yaml_node *pod, const sl_k8s_workload *base, const sl_yaml_node *extra_env,
		     const sl_yaml_node *gpus)
{
	const sl_yaml_node *cs = sl_yaml_get(pod, "containers");
	for (size_t i = 0; cs && cs->kind == SL_YAML_SEQ && i < cs->n; i++)
		read_container(r, cs->items[i], base, extra_env, gpus, sl_yaml_get(pod, "volumes"), NULL, NULL);
}

static void set_replicas(reader *r, sl_k8s_workload *w, const sl_yaml_node *n)
{
	long v = n ? bounded_count(r, n, "replicas", SL_K8S_MAX_REPLICAS) : -1;
	if (v >= 0) {
		w->replicas = v;
		w->replicas_off = (uint32_t)sl_source_offset(r->src, n->line, n->col);
	}
}

/* A Dynamo frontend left to the operator runs Dynamo's frontend. */
static const char *const dynamo_frontend[] = {"python3", "-m", "dynamo.frontend", NULL};

static int has_list(const sl_yaml_node *ctr, const char *key)
{
	const sl_yaml_node *l = sl_yaml_get(ctr, key);
	return l && l->kind == SL_YAML_SEQ && l->n;
}

/* The v1beta1 operator's frontend defaults are command [python3] and args
 * [-m, dynamo.frontend], each kept unless the container gives its own
 * (mergo.Merge WithOverride: deploy/operator/internal/dynamo/
 * component_frontend.go and graph.go mergeFrontendSidecarDefaults, mirror
 * commit 2a6da14c): a container giving only args runs python3 ARGS. */
static const char *const python3_only[] = {"python3", NULL};

static const char *const *frontend_default(const sl_yaml_node *ctr)
{
	return has_list(ctr, "args") ? python3_only : dynamo_frontend;
}

/* DynamoGraphDeployment v1beta1: spec.components[] each with name, type
 * (frontend, worker, prefill, decode, planner, epp), replicas,
 * multinode.nodeCount and a podTemplate whose container named "main" is
 * the component's own (the operator merges its defaults into it), another
 * named by frontendSidecar runs a frontend beside it, and any other is a
 * sidecar the user runs. spec.env goes to every component, before the
 * container's own. (ai-dynamo/dynamo deploy/operator/api/v1beta1/
 * dynamocomponentdeployment_types.go and common.go, mirror commit
 * 2a6da14c83617f5412caba5777dbf0e2399e9c5f.) */
static void read_components(reader *r, const sl_yaml_node *spec, const sl_k8s_workload *base)
{
	const sl_yaml_node *comps = sl_yaml_get(spec, "components"), *global = sl_yaml_get(spec, "env");
	if (!comps || comps->kind != SL_YAML_SEQ) {
		note(r, comps, "DynamoGraphDeployment spec.components is not a list; left out%s%s", "", "");
		return;
	}
	for (size_t i = 0; i < comps->n && !r->bad; i++) {
		const sl_yaml_node *c = comps->items[i];
		sl_k8s_workload w = *base;
		w.name = (char *)sl_yaml_scalar(sl_yaml_get(c, "name"));
		w.component = (char *)sl_yaml_scalar(sl_yaml_get(c, "type")); /* prefill and decode are types */
		w.replicas = 1; /* the operator's default */
		set_replicas(r, &w, sl_yaml_get(c, "replicas"));
		const sl_yaml_node *nc = sl_yaml_get(sl_yaml_get(c, "multinode"), "nodeCount");
		long nodes = bounded_count(r, nc, "multinode.nodeCount", 100000);
		if (nodes > 0) {
			w.nodes = nodes;
			w.nodes_off = (uint32_t)sl_source_offset(r->src, nc->line, nc->col);
		}
		const sl_yaml_node *pod = sl_yaml_get(sl_yaml_get(c, "podTemplate"), "spec");
		const sl_yaml_node *cs = sl_yaml_get(pod, "containers"), *vols = sl_yaml_get(pod, "volumes");
		const char *sidecar_fe = sl_yaml_scalar(sl_yaml_get(c, "frontendSidecar"));
		int fe = w.component && !strcmp(w.component, "frontend"), main_seen = 0;
		const sl_yaml_node *at = sl_yaml_get(c, "name") ? sl_yaml_get(c, "name") : c;
		for (size_t k = 0; cs && cs->kind == SL_YAML_SEQ && k < cs->n && !r->bad; k++) {
			const sl_yaml_node *ctr = cs->items[k];
			const char *cn = sl_yaml_scalar(sl_yaml_get(ctr, "name"));
			if (cn && !strcmp(cn, "main")) {
				main_seen = 1;
				if (!fe && !has_list(ctr, "command"))
					note(r, ctr, "Dynamo component %s runs the operator's default command for %s, which the manifest does not show",
					     w.name ? w.name : "(unnamed)", w.component ? w.component : "its type");
				else
					read_container(r, ctr, &w, global, NULL, vols, fe ? frontend_default(ctr) : NULL, at);
			} else if (cn && sidecar_fe && !strcmp(cn, sidecar_fe)) {
				/* a frontend in the component's pod: a service of its own */
				sl_k8s_workload f = w;
				f.component = "frontend";
				f.nodes = 0;
				read_container(r, ctr, &f, global, NULL, vols, frontend_default(ctr),
					       sl_yaml_get(c, "frontendSidecar"));
			} else {
				sl_k8s_workload sc = w;
				sc.component = sc.sub_component = NULL;
				sc.nodes = 0;
				read_container(r, ctr, &sc, global, NULL, vols, NULL, NULL);
			}
		}
		if (!main_seen && fe) {
			sl_yaml_node empty;
			memset(&empty, 0, sizeof empty);
			empty.kind = SL_YAML_MAP;
			empty.line = c->line;
			empty.col = c->col;
			read_container(r, &empty, &w, global, NULL, vols, dynamo_frontend, at);
		} else if (!main_seen) {
			note(r, c, "Dynamo component %s has no container named main: the operator's default command for %s, which the manifest does not show",
			     w.name ? w.name : "(unnamed)", w.component ? w.component : "its type");
		}
	}
}

/* A DynamoGraphDeployment none of whose services or components has a type
 * or states a command: a patch kustomize lays over a base kept elsewhere
 * (Dynamo's recipes/kustomize/components/ hold a dozen), not a graph. */
static int dgd_patch(const sl_yaml_node *spec)
{
	const sl_yaml_node *svcs = sl_yaml_get(spec, "services"), *comps = sl_yaml_get(spec, "components");
	const sl_yaml_node *l = svcs && svcs->kind == SL_YAML_MAP ? svcs : comps && comps->kind == SL_YAML_SEQ ? comps : NULL;
	if (!l || !l->n)
		return 0;
	for (size_t i = 0; i < l->n; i++) {
		const sl_yaml_node *c = l->items[i];
		if (sl_yaml_get(c, "componentType") || sl_yaml_get(c, "type"))
			return 0;
		if (has_list(sl_yaml_get(sl_yaml_get(c, "extraPodSpec"), "mainContainer"), "command"))
			return 0;
		const sl_yaml_node *cs = sl_yaml_get(sl_yaml_get(sl_yaml_get(c, "podTemplate"), "spec"), "containers");
		for (size_t k = 0; cs && cs->kind == SL_YAML_SEQ && k < cs->n; k++)
			if (has_list(cs->items[k], "command"))
				return 0;
	}
	return 1;
}

static void read_doc(reader *r, const sl_yaml_node *doc)
{
	const char *kind = sl_yaml_scalar(sl_yaml_get(doc, "kind"));
	if (!kind)
		return;
	const sl_yaml_node *spec = sl_yaml_get(doc, "spec");
	sl_k8s_workload base;
	memset(&base, 0, sizeof base);
	base.kind = (char *)kind;
	base.name = (char *)sl_yaml_scalar(sl_yaml_get(sl_yaml_get(doc, "metadata"), "name"));
	base.replicas = base.gpus = -1;
	if (!strcmp(kind, "Pod")) {
		read_pod(r, spec, &base, NULL, NULL);
	} else if (!strcmp(kind, "Deployment") || !strcmp(kind, "StatefulSet") || !strcmp(kind, "ReplicaSet") ||
		   !strcmp(kind, "DaemonSet") || !strcmp(kind, "Job")) {
		set_replicas(r, &base, sl_yaml_get(spec, !strcmp(kind, "Job") ? "parallelism" : "replicas"));
		if (base.replicas < 0 && strcmp(kind, "DaemonSet"))
			base.replicas = 1; /* Kubernetes' default */
		read_pod(r, sl_yaml_get(sl_yaml_get(spec, "template"), "spec"), &base, NULL, NULL);
	} else if (!strcmp(kind, "DynamoGraphDeployment") && dgd_patch(spec)) {
		note(r, doc, "DynamoGraphDeployment %s gives no service a type or a command: a patch (as kustomize lays over a base kept elsewhere), not a deployment; read the built manifest (kustomize build)%s",
		     base.name ? base.name : "(unnamed)", "");
	} else if ((!strcmp(kind, "Component") || !strcmp(kind, "Kustomization")) &&
		   sl_yaml_scalar(sl_yaml_get(doc, "apiVersion")) && !strncmp(sl_yaml_scalar(sl_yaml_get(doc, "apiVersion")), "kustomize.", 10)) {
		note(r, doc, "a kustomize %s lists patches and resources kept in other files, not a deployment; read the built manifest (kustomize build)%s",
		     kind, "");
	} else if (!strcmp(kind, "DynamoGraphDeployment") && sl_yaml_get(spec, "components")) {
		read_components(r, spec, &base);
	} else if (!strcmp(kind, "DynamoGraphDeployment")) {
		const sl_yaml_node *svcs = sl_yaml_get(spec, "services"), *global = sl_yaml_get(spec, "envs");
		for (size_t i = 0; svcs && svcs->kind == SL_YAML_MAP && i < svcs->n; i++) {
			const sl_yaml_node *s = svcs->items[i];
			sl_k8s_workload w = base;
			w.name = svcs->keys[i]->value;
			w.component = (char *)sl_yaml_scalar(sl_yaml_get(s, "componentType"));
			w.sub_component = (char *)sl_yaml_scalar(sl_yaml_get(s, "subComponentType"));
			w.replicas = 1;
			set_replicas(r, &w, sl_yaml_get(s, "replicas"));
			const sl_yaml_node *gpu = sl_yaml_get(sl_yaml_get(sl_yaml_get(s, "resources"), "limits"), "gpu");
			const sl_yaml_node *mc = sl_yaml_get(sl_yaml_get(s, "extraPodSpec"), "mainContainer");
			/* the operator's env first, the service's after (it wins) */
			sl_yaml_node envs;
			memset(&envs, 0, sizeof envs);
			envs.kind = SL_YAML_SEQ;
			const sl_yaml_node *se = sl_yaml_get(s, "envs");
			size_t ng = global && global->kind == SL_YAML_SEQ ? global->n : 0;
			size_t ns = se && se->kind == SL_YAML_SEQ ? se->n : 0;
			envs.items = sl_calloc(ng + ns + 1, sizeof *envs.items);
			for (size_t k = 0; k < ng; k++)
				envs.items[envs.n++] = global->items[k];
			for (size_t k = 0; k < ns; k++)
				envs.items[envs.n++] = se->items[k];
			/* GPUs per node, on each of multinode.nodeCount nodes */
			const sl_yaml_node *nc = sl_yaml_get(sl_yaml_get(s, "multinode"), "nodeCount");
			long nodes = bounded_count(r, nc, "multinode.nodeCount", 100000);
			if (nodes > 0) {
				w.nodes = nodes;
				w.nodes_off = (uint32_t)sl_source_offset(r->src, nc->line, nc->col);
			}
			int fe = w.component && !strcmp(w.component, "frontend");
			sl_yaml_node empty;
			memset(&empty, 0, sizeof empty);
			empty.kind = SL_YAML_MAP;
			empty.line = s->line;
			empty.col = s->col;
			if (mc || fe)
				read_container(r, mc ? mc : &empty, &w, &envs, gpu,
					       sl_yaml_get(sl_yaml_get(s, "extraPodSpec"), "volumes"), fe ? dynamo_frontend : NULL,
					       svcs->keys[i]);
			else
				note(r, s, "Dynamo service %s runs the operator's default command for %s, which the manifest does not show",
				     w.name, w.component ? w.component : "its component");
			free(envs.items);
		}
	} else if (!strcmp(kind, "DynamoGraphDeploymentRequest")) {
		/* the profiler chooses the deployment: its services exist only
		 * once it has run (spec.overrides.dgd is a patch, not a graph) */
		note(r, doc, "a DynamoGraphDeploymentRequest asks Dynamo's profiler for a deployment of %s: the services it will run are not in the manifest%s",
		     sl_yaml_scalar(sl_yaml_get(spec, "model")) ? sl_yaml_scalar(sl_yaml_get(spec, "model")) : "its model", "");
	} else if (strcmp(kind, "ConfigMap")) {
		note(r, doc, "a %s%s is not a workload servelint reads; left out", kind, "");
	}
}

int sl_k8s_parse(const sl_source *src, sl_script **out, sl_k8s_workload **ws, size_t *nws, sl_error *err)
{
	sl_yaml_doc *doc;
	reader r;
	memset(&r, 0, sizeof r);
	int rc = sl_yaml_script_start(src, out, ws, nws, &doc, &r.s, err);
	if (rc)
		return rc;
	r.src = src;
	r.err = err;
	for (size_t i = 0; i < doc->ndocs; i++)
		if (doc->roots[i] && doc->roots[i]->kind == SL_YAML_MAP && sl_yaml_scalar(sl_yaml_get(doc->roots[i], "kind")) &&
		    !strcmp(sl_yaml_scalar(sl_yaml_get(doc->roots[i], "kind")), "ConfigMap"))
			SL_PUSH(r.cms, r.ncms, r.cm_cap, doc->roots[i]);
	for (size_t i = 0; i < doc->ndocs && !r.bad; i++)
		if (doc->roots[i] && doc->roots[i]->kind == SL_YAML_MAP)
			read_doc(&r, doc->roots[i]);
	free(r.cms);
	sl_yaml_free(doc);
	if (r.bad) {
		sl_script_free(r.s);
		sl_k8s_workloads_free(r.ws, r.nws);
		return SL_ERR_INPUT;
	}
	*out = r.s;
	*ws = r.ws;
	*nws = r.nws;
	return SL_OK;
}

void sl_k8s_workloads_free(sl_k8s_workload *w, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(w[i].kind);
		free(w[i].name);
		free(w[i].container);
		free(w[i].image);
		free(w[i].component);
		free(w[i].sub_component);
		free(w[i].version);
	}
	free(w);
}
