/*
 * deploy_checks.c: the checks that hold a deployment's services against
 * each other where they share something the rule vocabulary cannot name:
 * one host's ports and GPUs (port_collision, gpu_overlap), and the
 * frontend's KV-aware router against the workers that feed it events
 * (kv_router_events). Written in C because each needs a notion the
 * vocabulary has not: which services run on one host, a port read from a
 * URL, devices as sets.
 *
 * Precision first. Services share a host only when nothing in the entry
 * says or lets them be elsewhere (see one_host); a port or device counts
 * only when its value is known and written in the command (never a
 * comment's), and an engine's default port only for a service that
 * listens on it; two services count as running together only when the
 * first started goes on running (`&`, docker run -d). Uses vocabulary.c (workers, equal values) and findings.c.
 */
#include "deploy_checks.h"

#include <ctype.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "findings.h"
#include "vocabulary.h"

static const char *const names[] = {"port_collision", "gpu_overlap", "kv_router_events"};

int sl_deploy_check_known(const char *name)
{
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (!strcmp(names[i], name))
			return 1;
	return 0;
}

/* ---- one host ------------------------------------------------------------- */

/* Words of a script that place (or may place) its services on several
 * hosts: a launcher of remote processes, a node index, a host list, or
 * prose naming nodes and trays (the catalogue's "node 0, TP2 on GPUs 0-1"). */
static const char *const multi_host_words[] = {
	"srun",      "ssh ",     "pdsh",       "slurm",      "node_rank", "node-rank", "noderank",
	"nnodes",    "num_nodes", "hostfile",  "tray",       "node 0",    "node 1",    "node 2",
	"node0",     "node1",    "<node",      "other node", "each node", "per node",  "multi-node",
	"multinode", "head node", "worker node", "head_node", "$(hostname", "${hostname", "nodelist",
};

#define N_HOST_WORDS (sizeof multi_host_words / sizeof *multi_host_words)

/* One pass over the text: a word is tried only where the text's next two
 * bytes are its first two in some case, found by a mask of the words per
 * byte (a bit per word, set for each case of its first letter, and of its
 * second). Trying every word at every byte was 27,000 strncasecmp for a
 * 500-byte script; a bit per pair of bytes, then every word at each pair
 * that begins one, 16 M instructions of check's 744 M over 350 entries. */
_Static_assert(N_HOST_WORDS <= 32, "one bit per word in a uint32_t");

static uint32_t first[256], second[256];

static void host_masks_init(void)
{
	for (size_t i = 0; i < N_HOST_WORDS; i++) {
		unsigned char a = (unsigned char)multi_host_words[i][0], b = (unsigned char)multi_host_words[i][1];
		first[(unsigned char)tolower(a)] |= 1u << i;
		first[(unsigned char)toupper(a)] |= 1u << i;
		second[(unsigned char)tolower(b)] |= 1u << i;
		second[(unsigned char)toupper(b)] |= 1u << i;
	}
}

static int text_says_hosts(const sl_source *src)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	if (!src || !src->text)
		return 0;
	pthread_once(&once, host_masks_init);
	for (const unsigned char *p = (const unsigned char *)src->text; p[0] && p[1]; p++) {
		uint32_t m = first[p[0]] & second[p[1]];
		for (size_t i = 0; m; i++, m >>= 1)
			if ((m & 1) && !strncasecmp((const char *)p, multi_host_words[i], strlen(multi_host_words[i])))
				return 1;
	}
	return 0;
}

/* Every service of the model runs on one host: one script (not a group of
 * role scripts, which may each run on a node), no launcher but docker, a
 * shell or env (mpirun, srun and Kubernetes place processes on hosts of
 * their own), no node count or rank, and nothing in the text naming hosts. */
static int one_host(const sl_model *m)
{
	if (!m->entry || m->entry->nscripts || text_says_hosts(m->entry->script))
		return 0;
	for (size_t i = 0; i < m->nservices; i++) {
		const sl_service *s = &m->services[i];
		if (sl_service_get(s, "parallel.node_rank"))
			return 0;
		const sl_setting *nn = sl_service_get(s, "parallel.nnodes");
		if (nn && !(json_is_integer(nn->value) && json_integer_value(nn->value) == 1))
			return 0;
		if (s->replicas_from && strstr(s->replicas_from, "comment"))
			return 0;  /* "x6, one per tray" */
		for (size_t k = 0; k < s->nwrappers; k++) {
			const char *w = s->wrappers[k].kind;
			if (strcmp(w, "docker") && strcmp(w, "bash -c") && strcmp(w, "exec") && strcmp(w, "env") &&
			    strcmp(w, "python -m"))
				return 0;
		}
	}
	return 1;
}

/* a service that returns the shell to the script while it runs: started
 * with `&`, or a detached container (docker run -d) */
static int runs_on(const sl_service *s)
{
	if (s->background)
		return 1;
	for (size_t k = 0; k < s->nwrappers; k++)
		if (!strcmp(s->wrappers[k].kind, "docker") &&
		    json_is_true(json_object_get(json_object_get(s->wrappers[k].detail, "options"), "--detach")))
			return 1;
	return 0;
}

/* a and b run at the same time: the one the script starts first goes on
 * running while the other starts (a server in the foreground is over
 * before the next command runs) */
static int together(const sl_service *a, const sl_service *b)
{
	const sl_service *first = a->command_origin.off <= b->command_origin.off ? a : b;
	return runs_on(first);
}

/* ---- ports ---------------------------------------------------------------- */

typedef struct {
	long port;
	const sl_service *svc;
	const char *what;       /* static or the setting's key */
	const sl_origin *at;
	int dflt;               /* the engine's default, not written */
} port_use;

typedef struct {
	port_use *v;
	size_t n, cap;
} ports;

/* a service in a container of its own network (docker without --network
 * host) listens in that network, not the host's */
static int own_network(const sl_service *s)
{
	for (size_t k = 0; k < s->nwrappers; k++) {
		if (strcmp(s->wrappers[k].kind, "docker"))
			continue;
		json_t *o = json_object_get(s->wrappers[k].detail, "options");
		json_t *net = json_object_get(o, "--network");
		if (!net)
			net = json_object_get(o, "--net");
		if (!json_is_string(net) || strcmp(json_string_value(net), "host"))
			return 1;
	}
	return 0;
}

static int known(const sl_setting *st)
{
	return st && !(st->flags & (SL_SET_SYMBOLIC | SL_SET_PLACEHOLDER | SL_SET_PER_REPLICA));
}

static void add_port(ports *ps, long port, const sl_service *s, const char *what, const sl_origin *at, int dflt)
{
	if (port <= 0 || port > 65535)
		return;
	port_use u = {port, s, what, at, dflt};
	SL_PUSH(ps->v, ps->n, ps->cap, u);
}

/* "http://0.0.0.0:2379,http://[::]:2380", "tcp://0.0.0.0:5557" (or any host): each URL's port */
static void url_ports(ports *ps, const sl_service *s, const sl_setting *st)
{
	if (!known(st) || !json_is_string(st->value))
		return;
	const char *v = json_string_value(st->value);
	for (const char *p = v; *p;) {
		const char *end = strchr(p, ',');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		const char *colon = NULL;
		for (size_t i = 0; i < n; i++)
			if (p[i] == ':' && i + 1 < n && isdigit((unsigned char)p[i + 1]))
				colon = p + i;
		if (colon) {
			char *e;
			long port = strtol(colon + 1, &e, 10);
			if (e == p + n || *e == '/' || *e == ',')
				add_port(ps, port, s, st->key, &st->origin, 0);
		}
		p += n;
		if (*p == ',')
			p++;
	}
}

static void int_port(ports *ps, const sl_service *s, const char *key)
{
	const sl_setting *st = sl_service_get(s, key);
	if (known(st) && json_is_integer(st->value))
		add_port(ps, (long)json_integer_value(st->value), s, key, &st->origin, 0);
}

static const sl_env *env_of(const sl_service *s, const char *name)
{
	const sl_env *e = NULL;
	for (size_t i = 0; i < s->nenv; i++)
		if (!strcmp(s->env[i].name, name) && !(s->env[i].flags & SL_SET_OVERRIDDEN))
			e = &s->env[i];
	return e;
}

static void env_port(ports *ps, const sl_service *s, const char *name)
{
	const sl_env *e = env_of(s, name);
	if (!e || !strcmp(e->via, "comment") || (e->flags & (SL_SET_SYMBOLIC | SL_SET_PLACEHOLDER)) || !e->value)
		return;
	char *end;
	long v = strtol(e->value, &end, 10);
	if (end != e->value && !*end)
		add_port(ps, v, s, name, &e->origin, 0);
}

static int family(const sl_service *s, const char *f)
{
	size_t n = strlen(f);
	return !strncmp(s->engine, f, n) || (!strncmp(s->engine, "dynamo-", 7) && !strncmp(s->engine + 7, f, n));
}

/* The ports a service binds on its host, as far as they are known. */
static void service_ports(ports *ps, const sl_service *s)
{
	if (own_network(s))
		return;
	int listens = s->health && json_is_integer(json_object_get(s->health, "port"));
	const sl_setting *sp = sl_service_get(s, "server.port");
	if (listens && known(sp) && json_is_integer(sp->value))
		add_port(ps, (long)json_integer_value(sp->value), s, "server.port", &sp->origin, 0);
	else if (listens && !sp)
		add_port(ps, (long)json_integer_value(json_object_get(s->health, "port")), s, "server.port",
			 &s->command_origin, 1);
	if (!strcmp(s->engine, "etcd")) {
		url_ports(ps, s, sl_service_get(s, "etcd.listen_client_urls"));
		url_ports(ps, s, sl_service_get(s, "etcd.listen_peer_urls"));
		url_ports(ps, s, sl_service_get(s, "etcd.listen_metrics_urls"));
	}
	if (sl_check_is_worker(s->role))
		url_ports(ps, s, sl_service_get(s, "kv.events.endpoint"));
	/* SGLang's prefill server runs the bootstrap server on this port
	 * (python/sglang/srt/disaggregation: the decode side only connects) */
	if (!strcmp(s->role, "prefill"))
		int_port(ps, s, "sglang.disaggregation_bootstrap_port");
	int_port(ps, s, "router.prometheus_port");
	int_port(ps, s, "dynamo.grpc_metrics_port");
	int_port(ps, s, "mooncake.rpc_port");
	int_port(ps, s, "mooncake.metrics_port");
	int_port(ps, s, "mooncake.http_metadata_server_port");
	/* Dynamo's worker status server; vLLM's NIXL side channel */
	if (!strncmp(s->engine, "dynamo-", 7) && strcmp(s->engine, "dynamo-frontend"))
		env_port(ps, s, "DYN_SYSTEM_PORT");
	if (family(s, "vllm"))
		env_port(ps, s, "VLLM_NIXL_SIDE_CHANNEL_PORT");
}

static void port_collision(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	if (!one_host(m))
		return;
	ports ps = {0};
	for (size_t i = 0; i < m->nservices; i++)
		service_ports(&ps, &m->services[i]);
	for (size_t j = 1; j < ps.n; j++)
		for (size_t i = 0; i < j; i++) {
			const port_use *a = &ps.v[i], *b = &ps.v[j];
			if (a->port != b->port || a->svc == b->svc || !together(a->svc, b->svc))
				continue;
			const port_use *at = b->dflt && !a->dflt ? a : b, *other = at == b ? a : b;
			char rel[200];
			snprintf(rel, sizeof rel, "%s binds it here (%s%s)", other->svc->name, other->what,
				 other->dflt ? ", the engine's default" : "");
			sl_finding *f = sl_finding_add(out, r, at->at, "%s: port %ld is bound by %s (%s%s) and by %s (%s%s)",
						       r->summary, at->port, at->svc->name, at->what,
						       at->dflt ? ", the engine's default" : "", other->svc->name,
						       other->what, other->dflt ? ", the engine's default" : "");
			sl_finding_related(f, other->at, rel);
			break;  /* one finding per later use */
		}
	free(ps.v);
}

/* ---- GPUs ----------------------------------------------------------------- */

/* the devices of replica k of s (its only list when not per replica), when
 * written in the command; NULL when not known */
static json_t *devices_of(const sl_service *s, size_t k)
{
	if (s->gpus_placeholder || !s->gpus_from || strstr(s->gpus_from, "comment") ||
	    !json_is_array(s->gpu_devices) || !json_array_size(s->gpu_devices))
		return NULL;
	json_t *first = json_array_get(s->gpu_devices, 0);
	json_t *d = json_is_array(first) ? json_array_get(s->gpu_devices, k) : k ? NULL : s->gpu_devices;
	if (!json_is_array(d) || !json_array_size(d))
		return NULL;
	size_t i;
	json_t *v;
	json_array_foreach(d, i, v)
		if (!json_is_string(v) || !*json_string_value(v) || strchr("$<", json_string_value(v)[0]))
			return NULL;
	return d;
}

static size_t device_sets(const sl_service *s)
{
	json_t *first = json_array_get(s->gpu_devices, 0);
	return json_is_array(first) ? json_array_size(s->gpu_devices) : 1;
}

static const char *shared_device(json_t *a, json_t *b)
{
	size_t i, j;
	json_t *x, *y;
	json_array_foreach(a, i, x)
		json_array_foreach(b, j, y)
			if (!strcmp(json_string_value(x), json_string_value(y)))
				return json_string_value(x);
	return NULL;
}

/* The share of GPU memory s takes, when it states one as a share of the
 * whole GPU (vLLM's gpu_memory_utilization, SGLang's mem_fraction_static):
 * 1 with *v; 0 when it sets none; -1 when it sets another kind or one not
 * known. */
static int memory_share(const sl_service *s, double *v)
{
	const sl_setting *u = sl_service_get(s, "memory.gpu_utilization");
	const sl_setting *f = sl_service_get(s, "memory.static_fraction");
	const sl_setting *k = sl_service_get(s, "memory.kv_free_fraction");
	const sl_setting *st = u ? u : f;
	if (k || (u && f))
		return -1;
	if (!st)
		return 0;
	if (!known(st) || !json_is_number(st->value))
		return -1;
	*v = json_number_value(st->value);
	return 1;
}

/* a setting that bounds what the engine takes of the GPU other than by a
 * share (a KV pool of so many tokens or bytes) or gives memory back (sleep
 * mode, SGLang's memory saver): made to share a GPU */
static int caps_memory(const sl_service *s)
{
	static const char *const keys[] = {"sglang.max_total_tokens", "sglang.enable_memory_saver",
					   "vllm.kv_cache_memory_bytes", "vllm.kv_cache_memory", "vllm.enable_sleep_mode",
					   "trtllm.kv_cache_config.max_tokens"};
	for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
		if (sl_service_get(s, keys[i]))
			return 1;
	return 0;
}

/* Two services on one GPU can both start only when their shares of its
 * memory add up to at most the whole. 1 when they cannot (the reason in
 * why), 0 when they may or it is not known. */
static int cannot_share(const sl_service *a, const sl_service *b, char *why, size_t n)
{
	double va = 0, vb = 0;
	int ka = memory_share(a, &va), kb = memory_share(b, &vb);
	if (ka == 1 && kb == 1) {
		if (va + vb <= 1.0 + 1e-9)
			return 0;  /* split on purpose */
		snprintf(why, n, "their memory shares add up to %g", va + vb);
		return 1;
	}
	/* neither says: vLLM reserves 0.92 of the GPU by default (0.9
	 * through 0.11.0; gpu_memory_utilization, vllm/config/cache.py@5ac2684),
	 * SGLang a computed mem_fraction_static of about 0.8 or more
	 * (server_args.py@65d3b47: the memory less a reserve of 10 GiB or more
	 * on GPUs above 60 GiB) */
	if (ka == 0 && kb == 0 && !sl_check_symbolic_argv(a) && !sl_check_symbolic_argv(b) && !caps_memory(a) && !caps_memory(b) &&
	    (family(a, "vllm") || family(a, "sglang")) && (family(b, "vllm") || family(b, "sglang"))) {
		snprintf(why, n, "neither sets a memory share, and each engine's default takes most of the GPU");
		return 1;
	}
	return 0;
}

static void gpu_overlap(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	if (!one_host(m))
		return;
	for (size_t j = 0; j < m->nservices; j++)
		for (size_t i = 0; i < j; i++) {
			const sl_service *a = &m->services[i], *b = &m->services[j];
			if (!together(a, b))
				continue;
			char why[160] = "";
			int reported = 0;
			for (size_t ka = 0; ka < device_sets(a) && !reported; ka++)
				for (size_t kb = 0; kb < device_sets(b) && !reported; kb++) {
					json_t *da = devices_of(a, ka), *db = devices_of(b, kb);
					const char *dev = da && db ? shared_device(da, db) : NULL;
					if (!dev || !cannot_share(a, b, why, sizeof why))
						continue;
					sl_finding *f = sl_finding_add(out, r, &b->gpus_origin,
								       "%s: %s and %s both use GPU %s (%s)", r->summary,
								       a->name, b->name, dev, why);
					sl_finding_related(f, &a->gpus_origin, "the other service's GPUs");
					reported = 1;
				}
		}
}

/* ---- the KV-aware router against the workers' KV events ------------------- */

/* Why a worker publishes no KV events by what it sets, or NULL (not set
 * off, or not known: versions differ in what they publish by default). */
static const char *events_off(const sl_service *s, const sl_setting **at)
{
	static const struct { const char *key; int off_when; const char *why; } t[] = {
		{"kv.events.enable_kv_cache_events", 0, "enable_kv_cache_events is false"},
		{"vllm.enable_prefix_caching", 0, "prefix caching is off (no KV events without it)"},
		{"sglang.disable_radix_cache", 1, "the radix cache is off (no KV events without it)"},
		{"dynamo.publish_kv_events", 0, "KV event publishing is off"},
		{"trtllm.kv_cache_config.enable_block_reuse", 0, "KV block reuse is off (no KV events without it)"},
	};
	for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
		const sl_setting *st = sl_service_get(s, t[i].key);
		if (known(st) && json_is_boolean(st->value) && json_is_true(st->value) == t[i].off_when) {
			*at = st;
			return t[i].why;
		}
	}
	return NULL;
}

static void kv_router_events(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	const sl_service *fe = NULL;
	for (size_t i = 0; i < m->nservices && !fe; i++)
		if (!strcmp(m->services[i].role, "frontend"))
			fe = &m->services[i];
	if (!fe)
		return;
	const sl_setting *mode = sl_service_get(fe, "router.mode");
	const sl_setting *ev = sl_service_get(fe, "router.kv_events");
	if (!known(mode) || !json_is_string(mode->value) || strcasecmp(json_string_value(mode->value), "kv"))
		return;
	/* (Dynamo 0.4-0.6's `--no-kv-events` is read as router.kv_events false) */
	if (ev && !(known(ev) && json_is_true(ev->value)))
		return;  /* events off on the router (it predicts), or not known */
	for (size_t i = 0; i < m->nservices; i++) {
		const sl_service *w = &m->services[i];
		/* the router scores the cache of the workers it sends new
		 * requests to: aggregated ones, or prefill */
		if (strcmp(w->role, "aggregated") && strcmp(w->role, "prefill"))
			continue;
		const sl_setting *at = NULL;
		const char *why = events_off(w, &at);
		if (!why)
			continue;
		sl_finding *f = sl_finding_add(out, r, &at->origin,
					       "%s: the frontend routes by KV cache overlap (router mode kv, KV events on) "
					       "but %s publishes none: %s",
					       r->summary, w->name, why);
		sl_finding_related(f, &mode->origin, "the router mode");
	}
}

void sl_deploy_check(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	if (!strcmp(r->cname, "port_collision"))
		port_collision(r, m, out);
	else if (!strcmp(r->cname, "gpu_overlap"))
		gpu_overlap(r, m, out);
	else if (!strcmp(r->cname, "kv_router_events"))
		kv_router_events(r, m, out);
}
