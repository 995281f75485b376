/*
 * topology.c: what a deployment looks like once every command is read:
 * roles (from flags, header comments, engine kinds), replicas (for loops,
 * `# prefill x2:` headers), GPUs (visible-device variables, docker --gpus,
 * mpirun -n), environment listed in comments, engine versions, and names.
 *
 * Comments are prose, so what is taken from them is narrow on purpose:
 * env only as NAME=VALUE tokens whose NAME has an underscore (so `TP=2` in a
 * sentence is not an env var), replicas only next to a role word.
 *
 * Uses config.c (the config files, between reading env and GPUs) and
 * grammar.c.
 */
#include "topology.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"

static const sl_command *cmd_of(sl_ctx *c, const sl_script *s, size_t i)
{
	return &s->cmds[c->svc_cmd[i]];
}

static void lower(char *s)
{
	for (; *s; s++)
		*s = (char)tolower((unsigned char)*s);
}

static char *block_text(const sl_script *s, int bi)
{
	sl_buf b = {0};
	if (bi < 0)
		return sl_buf_detach(&b);
	const sl_comment_block *bl = &s->blocks[bi];
	for (size_t k = 0; k < bl->count; k++) {
		sl_buf_puts(&b, s->comments[bl->first + k].text);
		sl_buf_putc(&b, '\n');
	}
	char *t = sl_buf_detach(&b);
	lower(t);
	return t;
}

static int has_word(const char *text, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = strstr(text, word); p; p = strstr(p + 1, word)) {
		int before = p == text || !isalnum((unsigned char)p[-1]);
		int after = !isalnum((unsigned char)p[n]) || p[n] == 's';
		if (before && after)
			return 1;
	}
	return 0;
}

/* ---- roles ------------------------------------------------------------------ */

static const char *role_from_text(const char *t)
{
	if (has_word(t, "prefill") || has_word(t, "context"))
		return "prefill";
	if (has_word(t, "decode") || has_word(t, "generation"))
		return "decode";
	if (has_word(t, "frontend"))
		return "frontend";
	if (has_word(t, "router"))
		return "router";
	return NULL;
}

static void set_role(sl_service *s, const char *role, const char *from)
{
	free(s->role);
	free(s->role_from);
	s->role = sl_strdup(role);
	s->role_from = sl_strdup(from);
}

static void assign_role(sl_ctx *c, const sl_script *sc, size_t i)
{
	sl_service *s = &c->model->services[i];
	const char *e = s->engine;
	if (!strcmp(e, "dynamo-frontend")) {
		set_role(s, "frontend", "engine");
		return;
	}
	if (!strcmp(e, "etcd")) {
		set_role(s, "etcd", "engine");
		return;
	}
	if (!strcmp(e, "trtllm-disagg")) {
		set_role(s, "orchestrator", "engine");
		return;
	}
	const sl_setting *m = sl_service_get(s, "disagg.mode");
	if (m && json_is_string(m->value)) {
		const char *v = json_string_value(m->value);
		if (!strcmp(v, "prefill") || !strcmp(v, "decode")) {
			set_role(s, v, m->flag);
			return;
		}
		if (!strcmp(v, "agg") || !strcmp(v, "prefill_and_decode") || !strcmp(v, "null")) {
			set_role(s, "aggregated", m->flag);
			return;
		}
	}
	/* Dynamo's deprecated role flags */
	const sl_setting *ip = sl_service_get(s, "dynamo.is_prefill_worker");
	const sl_setting *id = sl_service_get(s, "dynamo.is_decode_worker");
	if (ip && json_is_true(ip->value)) {
		set_role(s, "prefill", ip->flag);
		return;
	}
	if (id && json_is_true(id->value)) {
		set_role(s, "decode", id->flag);
		return;
	}
	const sl_command *cmd = cmd_of(c, sc, i);
	if (cmd->block >= 0) {
		/* the header line right above the command names the role */
		const sl_comment_block *bl = &sc->blocks[cmd->block];
		char *last = sl_strdup(sc->comments[bl->first + bl->count - 1].text);
		lower(last);
		const char *r = role_from_text(last);
		free(last);
		if (r && strcmp(r, "frontend") && strcmp(r, "router")) {
			set_role(s, r, "comment");
			return;
		}
	}
	const sl_setting *kv = sl_service_get(s, "kv.transfer.role");
	if (kv && json_is_string(kv->value)) {
		const char *v = json_string_value(kv->value);
		if (!strcmp(v, "kv_producer")) {
			set_role(s, "prefill", "kv_role");
			return;
		}
		if (!strcmp(v, "kv_consumer")) {
			set_role(s, "decode", "kv_role");
			return;
		}
	}
	/* a Dynamo manifest's subComponentType */
	const char *sub = c->ws ? c->ws[c->svc_cmd[i]].sub_component : NULL;
	if (sub && (!strcmp(sub, "prefill") || !strcmp(sub, "decode"))) {
		set_role(s, sub, "subComponentType");
		return;
	}
	set_role(s, "aggregated", "default");
}

/* A manifest's replicas and GPUs: what Kubernetes will do, above what
 * the command line suggests. */
static void k8s_facts(sl_ctx *c)
{
	if (!c->ws)
		return;
	const sl_source *src = c->entry->script;
	for (size_t i = 0; i < c->model->nservices; i++) {
		sl_service *s = &c->model->services[i];
		const sl_k8s_workload *w = &c->ws[c->svc_cmd[i]];
		int dynamo = !strcmp(w->kind, "DynamoGraphDeployment");
		if (w->replicas >= 0) {
			/* each replica is a pod running the same command: run starts as many */
			while (json_array_size(s->launches) && json_array_size(s->launches) < (size_t)w->replicas)
				json_array_append_new(s->launches, json_deep_copy(json_array_get(s->launches, 0)));
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
			s->gpus = w->gpus;
			free(s->gpus_from);
			s->gpus_from = sl_strdup(dynamo ? "resources.limits.gpu" : "nvidia.com/gpu");
			sl_origin_clear(&s->gpus_origin);
			sl_buf raw = {0};
			sl_buf_printf(&raw, "%s: %ld", dynamo ? "gpu" : "nvidia.com/gpu", w->gpus);
			sl_origin_set(&s->gpus_origin, src, w->gpus_off, raw.data);
			sl_buf_free(&raw);
		}
	}
}

static int is_worker(const char *role)
{
	return !strcmp(role, "prefill") || !strcmp(role, "decode") || !strcmp(role, "aggregated");
}

/* ---- env in comments --------------------------------------------------------- */

static int env_name_ok(const char *s, size_t n)
{
	if (n < 3 || !isupper((unsigned char)s[0]))
		return 0;
	int us = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '_')
			us = 1;
		else if (!isupper((unsigned char)s[i]) && !isdigit((unsigned char)s[i]))
			return 0;
	}
	return us;
}

/* Which services a comment's env reaches: the roles its heading names
 * ("Worker environment", "Frontend / router and worker environment"), or
 * every service when it names none. */
enum { R_WORKERS = 1, R_FRONTEND = 2, R_ETCD = 4, R_ORCH = 8, R_PREFILL = 16, R_DECODE = 32 };

static unsigned scope_of(const char *low)
{
	unsigned m = 0;
	if (strstr(low, "worker"))
		m |= R_WORKERS;
	if (strstr(low, "frontend") || strstr(low, "router"))
		m |= R_FRONTEND;
	if (strstr(low, "etcd"))
		m |= R_ETCD;
	if (strstr(low, "orchestrator"))
		m |= R_ORCH;
	return m;
}

static int in_scope(const sl_service *s, unsigned m)
{
	if (!m)
		return 1;
	const char *r = s->role;
	return ((m & R_WORKERS) && is_worker(r)) ||
	       ((m & R_FRONTEND) && (!strcmp(r, "frontend") || !strcmp(r, "router"))) ||
	       ((m & R_ETCD) && !strcmp(r, "etcd")) || ((m & R_ORCH) && !strcmp(r, "orchestrator")) ||
	       ((m & R_PREFILL) && !strcmp(r, "prefill")) || ((m & R_DECODE) && !strcmp(r, "decode"));
}

static void add_comment_env(sl_service *s, const char *name, const char *value, const sl_source *src,
			    uint32_t off, const char *raw, unsigned extra)
{
	/* an env var the command really sets wins over one a comment lists */
	unsigned flags = 0;
	for (size_t i = 0; i < s->nenv; i++)
		if (!strcmp(s->env[i].name, name) && strcmp(s->env[i].via, "comment"))
			flags |= SL_SET_OVERRIDDEN;
	size_t at;
	if (sl_find_placeholder(value, strlen(value), &at))
		flags |= SL_SET_PLACEHOLDER;
	sl_env e;
	memset(&e, 0, sizeof e);
	e.name = sl_strdup(name);
	e.value = sl_strdup(value);
	e.via = "comment";
	e.flags = flags | extra;
	sl_origin_set(&e.origin, src, off, raw);
	size_t cap = s->nenv;
	SL_PUSH(s->env, s->nenv, cap, e);
}

static int is_env_listing(const char *t)
{
	while (*t == ' ' || *t == '\t')
		t++;
	if (!isupper((unsigned char)*t))
		return 0;
	while (isupper((unsigned char)*t) || isdigit((unsigned char)*t) || *t == '_')
		t++;
	return *t == '=';
}

static void comment_env_line(sl_ctx *c, const sl_comment *cm, unsigned scope,
			     const size_t *targets, size_t ntargets)
{
	const char *t = cm->text;
	const sl_source *src = c->entry->script;
	char *low = sl_strdup(t);
	lower(low);
	int additionally = strstr(low, "additionally") != NULL;
	/* "(context workers additionally: X=1)" narrows the scope of its line */
	if (additionally) {
		const char *r = role_from_text(low);
		if (r) {
			scope = !strcmp(r, "prefill") ? R_PREFILL : !strcmp(r, "decode") ? R_DECODE
											  : scope_of(low);
			ntargets = 0;
			targets = NULL;
		}
	}
	free(low);
	/* a line that lists env (`#   A=1 B=2`) may hold any NAME; in prose,
	 * only NAMEs with an underscore count, so `TP=2` stays prose */
	int listing = is_env_listing(t) || additionally;
	size_t n = strlen(t);
	for (size_t i = 0; i < n;) {
		if (!isupper((unsigned char)t[i]) || (i > 0 && (isalnum((unsigned char)t[i - 1]) || t[i - 1] == '_'))) {
			i++;
			continue;
		}
		size_t j = i;
		while (j < n && (isupper((unsigned char)t[j]) || isdigit((unsigned char)t[j]) || t[j] == '_'))
			j++;
		if (j >= n || t[j] != '=' || !(env_name_ok(t + i, j - i) || listing)) {
			i = j + 1;
			continue;
		}
		size_t v = j + 1, ve = v;
		while (ve < n && !isspace((unsigned char)t[ve]))
			ve++;
		/* prose punctuation around the value is not part of it */
		while (ve > v && (t[ve - 1] == ')' || t[ve - 1] == ':' || t[ve - 1] == ';' ||
				  (t[ve - 1] == ',' && ve == v + 1)))
			ve--;
		char *name = sl_strndup(t + i, j - i);
		char *value = sl_strndup(t + v, ve - v);
		char *raw = sl_strndup(t + i, ve - i);
		uint32_t off = cm->start + 1 + (uint32_t)i;
		const char *rest = t + ve;
		/* "CUDA_VISIBLE_DEVICES=0,1,2,3 per tray": per node, not per replica */
		unsigned extra = (!strncmp(rest, " per tray", 9) || !strncmp(rest, " per node", 9))
					 ? SL_SET_PER_NODE : 0;
		/* "NAME=8081 (prefill) / 8091 (decode)": one value per role */
		const char *r1 = NULL;
		if (!strncmp(rest, " (prefill)", 10))
			r1 = "prefill";
		else if (!strncmp(rest, " (decode)", 9))
			r1 = "decode";
		for (size_t k = 0; k < c->model->nservices; k++) {
			sl_service *s = &c->model->services[k];
			int ok;
			if (r1)
				ok = !strcmp(s->role, r1);
			else if (ntargets) {
				ok = 0;
				for (size_t q = 0; q < ntargets; q++)
					ok |= targets[q] == k;
			} else
				ok = in_scope(s, scope);
			if (ok)
				add_comment_env(s, name, value, src, off, raw, extra);
		}
		if (r1) {
			/* the alternative after " / " */
			const char *p = strstr(rest, " / ");
			if (p) {
				p += 3;
				size_t q = 0;
				while (p[q] && !isspace((unsigned char)p[q]))
					q++;
				const char *r2 = !strncmp(p + q, " (decode)", 9) ? "decode"
					       : !strncmp(p + q, " (prefill)", 10) ? "prefill" : NULL;
				if (r2) {
					char *v2 = sl_strndup(p, q);
					sl_buf raw2 = {0};
					sl_buf_printf(&raw2, "%s=%s", name, v2);
					for (size_t k = 0; k < c->model->nservices; k++)
						if (!strcmp(c->model->services[k].role, r2))
							add_comment_env(&c->model->services[k], name, v2, src,
									cm->start + 1 + (uint32_t)(p - t), raw2.data, 0);
					sl_buf_free(&raw2);
					free(v2);
				}
			}
		}
		free(name);
		free(value);
		free(raw);
		i = ve;
	}
}

static void comment_env(sl_ctx *c, const sl_script *sc)
{
	for (size_t b = 0; b < sc->nblocks; b++) {
		const sl_comment_block *bl = &sc->blocks[b];
		/* services this block sits directly above */
		size_t *targets = NULL, nt = 0, cap = 0;
		for (size_t k = 0; k < c->model->nservices; k++)
			if (cmd_of(c, sc, k)->block == (int)b)
				SL_PUSH(targets, nt, cap, k);
		char *text = block_text(sc, (int)b);
		char *first = sl_strdup(sc->comments[bl->first].text);
		lower(first);
		unsigned scope = scope_of(first);
		/* a block that heads commands and talks of a role describes them;
		 * an env block standing alone describes every service in its scope */
		int standalone = nt == 0 || strstr(first, "environment") != NULL;
		for (size_t k = 0; k < bl->count; k++) {
			const sl_comment *cm = &sc->comments[bl->first + k];
			/* a new heading inside the block ("# Worker environment:") sets
			 * the scope of the listings under it */
			if (k > 0 && !is_env_listing(cm->text)) {
				char *h = sl_strdup(cm->text);
				lower(h);
				if (strstr(h, "environment") || strstr(h, " env")) {
					scope = scope_of(h);
					standalone = 1;
				}
				free(h);
			}
			comment_env_line(c, cm, scope, standalone ? NULL : targets, standalone ? 0 : nt);
		}
		free(first);
		free(text);
		free(targets);
	}
}

/* ---- GPUs ----------------------------------------------------------------------- */

static json_t *split_devices(const char *v)
{
	json_t *a = json_array();
	const char *p = v;
	while (*p) {
		const char *q = strchr(p, ',');
		size_t n = q ? (size_t)(q - p) : strlen(p);
		if (n)
			json_array_append_new(a, json_stringn(p, n));
		if (!q)
			break;
		p = q + 1;
	}
	return a;
}

static const sl_env *env_get(const sl_service *s, const char *name, int comments)
{
	const sl_env *best = NULL;
	for (size_t i = 0; i < s->nenv; i++) {
		const sl_env *e = &s->env[i];
		if (strcmp(e->name, name) || (e->flags & SL_SET_OVERRIDDEN))
			continue;
		if (!comments && !strcmp(e->via, "comment"))
			continue;
		best = e;
	}
	return best;
}

static void set_gpus(sl_service *s, long n, const char *from, json_t *devices,
		     const sl_source *src, uint32_t off, const char *raw)
{
	s->gpus = n;
	free(s->gpus_from);
	s->gpus_from = sl_strdup(from);
	json_decref(s->gpu_devices);
	s->gpu_devices = devices;
	sl_origin_clear(&s->gpus_origin);
	sl_origin_set(&s->gpus_origin, src, off, raw);
}

static int from_env(sl_service *s, int comments)
{
	/* ROCR_VISIBLE_DEVICES names the physical GPUs and HIP_VISIBLE_DEVICES
	 * indexes into what it leaves, so with both, the devices are ROCR's and
	 * the count is the smaller list's */
	static const char *const vars[] = {"CUDA_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES",
					   "HIP_VISIBLE_DEVICES"};
	for (size_t k = 0; k < 3; k++) {
		const sl_env *e = env_get(s, vars[k], comments);
		if (!e)
			continue;
		json_t *d = split_devices(e->value);
		long n = (e->flags & SL_SET_SYMBOLIC) ? -1 : (long)json_array_size(d);
		const sl_env *hip = k == 1 ? env_get(s, vars[2], comments) : NULL;
		if (hip && n >= 0 && !(hip->flags & SL_SET_SYMBOLIC)) {
			json_t *hd = split_devices(hip->value);
			if ((long)json_array_size(hd) < n)
				n = (long)json_array_size(hd);
			json_decref(hd);
		}
		sl_buf from = {0};
		int per_node = (e->flags & SL_SET_PER_NODE) != 0;
		sl_buf_printf(&from, "%s%s", vars[k],
			      strcmp(e->via, "comment") ? "" : per_node ? " (comment, per node)" : " (comment)");
		/* devices per node say nothing of a replica spread over nodes */
		set_gpus(s, per_node ? -1 : n, from.data, d, e->origin.src, e->origin.off, e->origin.raw);
		sl_buf_free(&from);
		return 1;
	}
	return 0;
}

static void assign_gpus(sl_service *s)
{
	if (from_env(s, 0))
		return;
	for (size_t i = 0; i < s->nwrappers; i++) {
		const sl_wrapper *w = &s->wrappers[i];
		json_t *g = json_object_get(w->detail, "gpus");
		json_t *at = json_object_get(w->detail, "_at");
		uint32_t off = at ? (uint32_t)json_integer_value(at) : w->origin.off;
		if (json_is_string(g)) {
			/* docker --gpus: all | N | "device=0,1" (the quotes are docker's) */
			char *v = sl_strdup(json_string_value(g));
			char *p = v;
			size_t n = strlen(p);
			if (n >= 2 && p[0] == '"' && p[n - 1] == '"') {
				p[n - 1] = '\0';
				p++;
			}
			sl_buf raw = {0};
			sl_buf_printf(&raw, "--gpus %s", json_string_value(g));
			long long cnt;
			if (!strcmp(p, "all")) {
				set_gpus(s, -2, "docker --gpus", json_array(), w->origin.src, off, raw.data);
			} else if (!sl_parse_int(p, &cnt)) {
				set_gpus(s, (long)cnt, "docker --gpus", json_array(), w->origin.src, off,
					 raw.data);
			} else {
				if (sl_starts_with(p, "device="))
					p += 7;
				size_t pat, pl = sl_find_placeholder(p, strlen(p), &pat);
				/* "<0,1>" is one placeholder, not two devices */
				json_t *d = pl && pat == 0 && pl == strlen(p) ? json_pack("[s]", p) : split_devices(p);
				long count = (long)json_array_size(d);
				/* "<8 GPUs>": a placeholder that still says how many */
				size_t at, ph;
				int is_ph = 0;
				if (json_array_size(d) == 1 &&
				    (ph = sl_find_placeholder(p, strlen(p), &at)) != 0) {
					is_ph = 1;
					long long k;
					char *num = sl_strndup(p + at + 1, ph - 2);
					char *sp = strchr(num, ' ');
					if (sp)
						*sp = '\0';
					count = !sl_parse_int(num, &k) && sp ? (long)k : -1;
					free(num);
					is_ph = 1;
				}
				set_gpus(s, count, "docker --gpus", d, w->origin.src, off, raw.data);
				s->gpus_placeholder = is_ph;
			}
			sl_buf_free(&raw);
			free(v);
			return;
		}
	}
	/* ROCm containers reach the GPUs through --device=/dev/kfd (and /dev/dri):
	 * every GPU of the host, like --gpus all */
	for (size_t i = 0; i < s->nwrappers; i++) {
		json_t *dev = json_object_get(json_object_get(s->wrappers[i].detail, "options"), "--device");
		int kfd = 0;
		if (json_is_string(dev))
			kfd = !strncmp(json_string_value(dev), "/dev/kfd", 8);
		size_t k;
		json_t *v;
		if (json_is_array(dev))
			json_array_foreach(dev, k, v)
				kfd |= json_is_string(v) && !strncmp(json_string_value(v), "/dev/kfd", 8);
		if (kfd) {
			json_t *at = json_object_get(s->wrappers[i].detail, "_kfd_at");
			set_gpus(s, -2, "docker --device /dev/kfd", json_array(), s->wrappers[i].origin.src,
				 at ? (uint32_t)json_integer_value(at) : s->wrappers[i].origin.off,
				 "--device=/dev/kfd");
			return;
		}
	}
	for (size_t i = 0; i < s->nwrappers; i++) {
		const sl_wrapper *w = &s->wrappers[i];
		json_t *r = json_object_get(w->detail, "ranks");
		json_t *at = json_object_get(w->detail, "_at");
		if (json_is_integer(r)) {
			sl_buf raw = {0};
			sl_buf_printf(&raw, "-n %lld", (long long)json_integer_value(r));
			set_gpus(s, (long)json_integer_value(r), "mpirun -n", json_array(), w->origin.src,
				 at ? (uint32_t)json_integer_value(at) : w->origin.off, raw.data);
			sl_buf_free(&raw);
			return;
		}
	}
	from_env(s, 1);
}

/* ---- loops and replicas ---------------------------------------------------------- */

static void merge_loops(sl_ctx *c, const sl_script *sc)
{
	sl_model *m = c->model;
	for (size_t i = 0; i < m->nservices; i++) {
		const sl_command *ci = cmd_of(c, sc, i);
		if (ci->iterations <= 1)
			continue;
		sl_service *s = &m->services[i];
		json_t *per = json_array();
		json_array_append(per, s->gpu_devices ? s->gpu_devices : json_array());
		/* each setting's value in every iteration, to find those that
		 * follow the loop variable (`--port 900$g`) */
		json_t **vals = sl_calloc(s->nsettings + 1, sizeof *vals);
		int *differs = sl_calloc(s->nsettings + 1, sizeof *differs);
		for (size_t k = 0; k < s->nsettings; k++)
			vals[k] = json_pack("[O]", s->settings[k].value);
		size_t j = i + 1;
		while (j < m->nservices) {
			const sl_command *cj = cmd_of(c, sc, j);
			if (cj->stmt != ci->stmt) {
				j++;
				continue;
			}
			sl_service *o = &m->services[j];
			json_array_append(per, o->gpu_devices ? o->gpu_devices : json_array());
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

static void header_replicas(sl_ctx *c, const sl_script *sc)
{
	for (size_t i = 0; i < c->model->nservices; i++) {
		sl_service *s = &c->model->services[i];
		const sl_command *cmd = cmd_of(c, sc, i);
		if (cmd->iterations > 1 || cmd->block < 0)
			continue;
		const sl_comment_block *bl = &sc->blocks[cmd->block];
		const sl_comment *cm = &sc->comments[bl->first + bl->count - 1];
		char *low = sl_strdup(cm->text);
		lower(low);
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

/* ---- versions ---------------------------------------------------------------------- */

static const char *engine_word(const char *engine)
{
	if (!strcmp(engine, "vllm") || !strcmp(engine, "dynamo-vllm"))
		return "vllm ";
	if (!strcmp(engine, "sglang") || !strcmp(engine, "dynamo-sglang"))
		return "sglang ";
	if (!strcmp(engine, "trtllm") || !strcmp(engine, "dynamo-trtllm") ||
	    !strcmp(engine, "trtllm-disagg"))
		return "tensorrt-llm ";
	if (!strcmp(engine, "dynamo-frontend"))
		return "dynamo ";
	return NULL;
}

static size_t version_len(const char *p)
{
	size_t n = 0;
	if (!isdigit((unsigned char)p[0]))
		return 0;
	while (isalnum((unsigned char)p[n]) || p[n] == '.' || p[n] == '+' || p[n] == '-')
		n++;
	while (n && (p[n - 1] == '.' || p[n - 1] == '-'))
		n--;
	/* must look like a version: digits.digits */
	const char *dot = memchr(p, '.', n);
	return dot && isdigit((unsigned char)dot[1]) ? n : 0;
}

static void assign_version(sl_ctx *c, const sl_script *sc, sl_service *s)
{
	/* an image tag that is a version: vllm/vllm-openai:v0.31.0[-aarch64][@sha256:...] */
	for (size_t i = 0; i < s->nwrappers; i++) {
		json_t *img = json_object_get(s->wrappers[i].detail, "image");
		if (!json_is_string(img))
			continue;
		const char *im = json_string_value(img);
		/* ai-dynamo/vllm-runtime:0.6.1 is Dynamo's version, not vLLM's */
		if (strstr(im, "dynamo") && sl_starts_with(s->engine, "dynamo-"))
			continue;
		const char *colon = strrchr(im, ':');
		const char *at = strchr(im, '@');
		if (at && colon && colon > at)
			colon = memchr(im, ':', (size_t)(at - im)) ? strchr(im, ':') : NULL;
		if (!colon || (at && colon > at))
			continue;
		const char *tag = colon + 1;
		if (*tag == 'v')
			tag++;
		size_t n = version_len(tag);
		while (n && !isdigit((unsigned char)tag[n - 1]))
			n--;
		/* "0.30.0-aarch64": the architecture is not part of the version */
		const char *dash = memchr(tag, '-', n);
		if (dash)
			n = (size_t)(dash - tag);
		if (n) {
			s->version = sl_strndup(tag, n);
			json_t *at = json_object_get(s->wrappers[i].detail, "_image_at");
			uint32_t off = at ? (uint32_t)json_integer_value(at) : s->wrappers[i].origin.off;
			sl_origin_set(&s->version_origin, s->wrappers[i].origin.src,
				      off + (uint32_t)(tag - im), im);
			return;
		}
	}
	/* else the first comment naming the engine with a version ("vLLM 0.31.0") */
	const char *word = engine_word(s->engine);
	if (!word)
		return;
	for (size_t k = 0; k < sc->ncomments; k++) {
		char *low = sl_strdup(sc->comments[k].text);
		lower(low);
		for (char *p = strstr(low, word); p; p = strstr(p + 1, word)) {
			if (p > low && isalnum((unsigned char)p[-1]))
				continue;
			const char *v = p + strlen(word);
			size_t n = version_len(v);
			if (n) {
				const char *orig = sc->comments[k].text + (v - low);
				s->version = sl_strndup(orig, n);
				sl_origin_set(&s->version_origin, c->entry->script,
					      sc->comments[k].start + 1 + (uint32_t)(v - low), NULL);
				free(low);
				return;
			}
		}
		free(low);
	}
}

/* ---- settings from env, overrides, names ------------------------------------------- */

static void env_settings(sl_ctx *c, sl_service *s)
{
	const sl_grammar *g = sl_grammar_find(c->gs, s->engine);
	if (!g)
		return;
	size_t cap = s->nsettings;
	for (size_t i = 0; i < s->nenv; i++) {
		const sl_env *e = &s->env[i];
		const sl_envvar *ev = sl_grammar_env(c->gs, g, e->name);
		if (!ev || (e->flags & SL_SET_OVERRIDDEN))
			continue;
		json_t *v = NULL;
		long long n;
		double d;
		if (!(e->flags & (SL_SET_SYMBOLIC | SL_SET_PLACEHOLDER))) {
			if (ev->type == SL_T_INT && !sl_parse_int(e->value, &n))
				v = json_integer(n);
			else if (ev->type == SL_T_FLOAT && !sl_parse_double(e->value, &d))
				v = json_real(d);
			else if (ev->type == SL_T_BOOL)
				v = json_boolean(!strcasecmp(e->value, "true") || !strcmp(e->value, "1"));
		}
		if (!v)
			v = json_string(e->value);
		sl_setting st;
		memset(&st, 0, sizeof st);
		st.key = sl_strdup(ev->key);
		st.value = v;
		st.flag = sl_strdup(e->name);
		st.via = "env";
		st.flags = e->flags & (SL_SET_SYMBOLIC | SL_SET_PLACEHOLDER);
		sl_origin_copy(&st.origin, &e->origin);
		SL_PUSH(s->settings, s->nsettings, cap, st);
	}
}

/* Which of two settings of one key wins: an environment variable loses to
 * everything; a config file loses to the command line, except for engines
 * whose file overrides it (TensorRT-LLM); between equals, the later one. */
static int strength(const sl_setting *st, int file_wins)
{
	if (!strcmp(st->via, "env"))
		return 0;
	if (!strcmp(st->via, "file"))
		return file_wins ? 3 : 1;
	return 2;
}

typedef struct {
	const char *key;
	int strength;
	size_t idx;
} ranked;

static int cmp_ranked(const void *a, const void *b)
{
	const ranked *x = a, *y = b;
	int k = strcmp(x->key, y->key);
	if (k)
		return k;
	if (x->strength != y->strength)
		return x->strength < y->strength ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static int cmp_env_name(const void *a, const void *b)
{
	const sl_env *const *x = a, *const *y = b;
	int k = strcmp((*x)->name, (*y)->name);
	if (k)
		return k;
	int cx = !strcmp((*x)->via, "comment"), cy = !strcmp((*y)->via, "comment");
	if (cx != cy)
		return cx - cy;
	return *x < *y ? -1 : *x > *y;
}

/* Sorted by key, then strength, then order: within a key, every setting
 * but the last is overridden. (Sorting keeps this linear-logarithmic: a
 * script may repeat one flag thousands of times.) */
static void mark_overrides(sl_ctx *c, sl_service *s)
{
	const sl_grammar *g = sl_grammar_find(c->gs, s->engine);
	const sl_grammar *cg = g ? sl_grammar_config(c->gs, g) : NULL;
	int file_wins = (g && g->config_wins) || (cg && cg->config_wins);
	if (s->nsettings) {
		ranked *r = sl_malloc(s->nsettings * sizeof *r);
		for (size_t i = 0; i < s->nsettings; i++) {
			r[i].key = s->settings[i].key;
			r[i].strength = strength(&s->settings[i], file_wins);
			r[i].idx = i;
		}
		qsort(r, s->nsettings, sizeof *r, cmp_ranked);
		for (size_t i = 0; i + 1 < s->nsettings; i++)
			if (!strcmp(r[i].key, r[i + 1].key))
				s->settings[r[i].idx].flags |= SL_SET_OVERRIDDEN;
		free(r);
	}
	/* env vars set twice: the later one is in effect (comments apart) */
	if (s->nenv) {
		sl_env **e = sl_malloc(s->nenv * sizeof *e);
		for (size_t i = 0; i < s->nenv; i++)
			e[i] = &s->env[i];
		qsort(e, s->nenv, sizeof *e, cmp_env_name);
		for (size_t i = 0; i + 1 < s->nenv; i++)
			if (!strcmp(e[i]->name, e[i + 1]->name) &&
			    !strcmp(e[i]->via, "comment") == !strcmp(e[i + 1]->via, "comment"))
				e[i]->flags |= SL_SET_OVERRIDDEN;
		free(e);
	}
}

/* role, or role-1, role-2 ... when several services share it */
static void assign_names(sl_model *m)
{
	const char *roles[16];
	size_t total[16] = {0}, seen[16] = {0}, nr = 0;
	for (size_t i = 0; i < m->nservices; i++) {
		size_t r = 0;
		while (r < nr && strcmp(roles[r], m->services[i].role))
			r++;
		if (r == nr && nr < 16)
			roles[nr++] = m->services[i].role;
		if (r < 16)
			total[r]++;
	}
	for (size_t i = 0; i < m->nservices; i++) {
		size_t r = 0;
		while (r < nr && strcmp(roles[r], m->services[i].role))
			r++;
		sl_buf b = {0};
		if (r < 16 && total[r] > 1)
			sl_buf_printf(&b, "%s-%zu", m->services[i].role, ++seen[r]);
		else
			sl_buf_puts(&b, m->services[i].role);
		m->services[i].name = sl_buf_detach(&b);
	}
}

void sl_topology(sl_ctx *c, const sl_script *sc)
{
	sl_model *m = c->model;
	for (size_t i = 0; i < m->nservices; i++)
		assign_role(c, sc, i);
	comment_env(c, sc);
	if (sl_link_configs(c))
		return;
	for (size_t i = 0; i < m->nservices; i++) {
		env_settings(c, &m->services[i]);
		mark_overrides(c, &m->services[i]);
		assign_gpus(&m->services[i]);
	}
	merge_loops(c, sc);
	header_replicas(c, sc);
	sl_config_replicas(c);
	k8s_facts(c);
	for (size_t i = 0; i < m->nservices; i++) {
		sl_service *s = &m->services[i];
		if (!s->replicas_from) {
			s->replicas_from = sl_strdup("single");
			sl_origin_copy(&s->replicas_origin, &s->command_origin);
		}
		assign_version(c, sc, s);
	}
	assign_names(m);
}
