/*
 * topology.c: what a deployment looks like once every command is read,
 * step by step (sl_topology, in the order the steps need): roles
 * (roles.c), environment listed in comments (comment_env.c), config files
 * (config.c), settings from env and which setting overrides which, GPUs
 * (gpus.c), replicas (replicas.c), engine versions, and names (roles.c).
 * Owns the steps no other file needs: versions, settings from env vars the
 * grammar knows, and which setting overrides which. Uses roles.c,
 * comment_env.c, gpus.c, replicas.c, config.c and grammar.c.
 */
#include "topology.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"

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
	if (!strcmp(engine, "atom"))
		return "atom ";
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

/* The version an image's tag is (vllm/vllm-openai:v0.31.0[-aarch64][@sha256:...]):
 * its length, and where it starts in *tag; 0 when the tag is none. */
static size_t image_version(const char *im, const char **tag)
{
	const char *colon = strrchr(im, ':');
	const char *at = strchr(im, '@');
	if (at && colon && colon > at)
		colon = memchr(im, ':', (size_t)(at - im)) ? strchr(im, ':') : NULL;
	if (!colon || (at && colon > at))
		return 0;
	const char *t = colon + 1;
	if (*t == 'v')
		t++;
	size_t n = version_len(t);
	while (n && !isdigit((unsigned char)t[n - 1]))
		n--;
	/* "0.30.0-aarch64": the architecture is not part of the version */
	const char *dash = memchr(t, '-', n);
	if (dash)
		n = (size_t)(dash - t);
	*tag = t;
	return n;
}

/* The version after `atom` in an ATOM image's tag (`...-atom0.1.4`,
 * `..._atom0.1.4`), its length, and where it starts in *tag; 0 when none. */
static size_t atom_image_version(const char *t, const char **tag)
{
	const char *end = strchr(t, '@');
	for (const char *p = strstr(t, "atom"); p && (!end || p < end); p = strstr(p + 1, "atom")) {
		if (p > t && isalnum((unsigned char)p[-1]))
			continue;
		size_t n = version_len(p + 4);
		if (n && end && p + 4 + n > end)
			n = (size_t)(end - (p + 4));
		const char *dash = n ? memchr(p + 4, '-', n) : NULL;
		if (dash)
			n = (size_t)(dash - (p + 4));
		if (n) {
			*tag = p + 4;
			return n;
		}
	}
	return 0;
}

static void assign_version(sl_ctx *c, const sl_script *sc, sl_service *s)
{
	/* an image tag that is a version: vllm/vllm-openai:v0.31.0[-aarch64][@sha256:...] */
	for (size_t i = 0; i < s->nwrappers; i++) {
		json_t *img = json_object_get(s->wrappers[i].detail, "image");
		if (!json_is_string(img))
			continue;
		const char *im = json_string_value(img);
		const char *tag = NULL;
		size_t n = image_version(im, &tag);
		/* ai-dynamo/vllm-runtime:0.6.1 is Dynamo's version, not vLLM's:
		 * the release of the Dynamo worker's own flags and env vars */
		if (strstr(im, "dynamo") && sl_starts_with(s->engine, "dynamo-")) {
			if (n && !s->dynamo_version)
				s->dynamo_version = sl_strndup(tag, n);
			continue;
		}
		/* ATOM's release images name it inside the tag:
		 * rocm/atom:rocm7.2.1-ubuntu24.04-pytorch2.9.1-atom0.1.2 */
		if (!n && !strcmp(s->engine, "atom") && strstr(im, "/atom:"))
			n = atom_image_version(strchr(strstr(im, "/atom:"), ':') + 1, &tag);
		if (n) {
			s->version = sl_strndup(tag, n);
			json_t *at = json_object_get(s->wrappers[i].detail, "_image_at");
			uint32_t off = at ? (uint32_t)json_integer_value(at) : s->wrappers[i].origin.off;
			sl_origin_set(&s->version_origin, s->wrappers[i].origin.src,
				      off + (uint32_t)(tag - im), im);
			return;
		}
	}
	/* else the version the form states (a vLLM model recipe's
	 * min_vllm_version: the release its flags are meant for) */
	for (size_t i = 0; i < s->nwrappers; i++) {
		json_t *v = json_object_get(s->wrappers[i].detail, "_version");
		const char *tag = json_is_string(v) ? json_string_value(v) : NULL;
		size_t n = tag ? version_len(tag + (*tag == 'v')) : 0;
		if (n) {
			tag += *tag == 'v';
			s->version = sl_strndup(tag, n);
			json_t *at = json_object_get(s->wrappers[i].detail, "_version_at");
			sl_origin_set(&s->version_origin, s->wrappers[i].origin.src,
				      (uint32_t)json_integer_value(at) + (uint32_t)(*json_string_value(v) == 'v'), NULL);
			return;
		}
	}
	/* else the first comment naming the engine with a version ("vLLM 0.31.0") */
	const char *word = engine_word(s->engine);
	if (!word)
		return;
	for (size_t k = 0; k < sc->ncomments; k++) {
		char *low = sl_strdup(sc->comments[k].text);
		sl_topo_lower(low);
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
		/* a twin of a flag keeps the releases that read it: SL1001 judges
		 * it by the service's release, as it does the flag */
		if (ev->in && ev->of && ev->of->versions)
			st.facts = sl_build_facts(ev->of->versions, ev->of->id, ev->of->title, ev->in);
		SL_PUSH(s->settings, s->nsettings, cap, st);
	}
}

/* Which of two settings of one key wins: an environment variable loses to
 * everything; a config file loses to the command line, except for engines
 * whose file overrides it (TensorRT-LLM); between equals, the later one. */
static int strength(const sl_setting *st, int file_wins)
{
	if (st->flags & SL_SET_WINS)
		return 4;
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

void sl_topology(sl_ctx *c, const sl_script *sc)
{
	sl_model *m = c->model;
	for (size_t i = 0; i < m->nservices; i++)
		sl_topo_assign_role(c, sc, i);
	sl_topo_comment_env(c, sc);
	if (sl_link_configs(c))
		return;
	for (size_t i = 0; i < m->nservices; i++) {
		env_settings(c, &m->services[i]);
		mark_overrides(c, &m->services[i]);
		sl_topo_assign_gpus(&m->services[i]);
	}
	sl_topo_merge_loops(c, sc);
	sl_topo_header_replicas(c, sc);
	sl_config_replicas(c);
	sl_topo_k8s_facts(c);
	for (size_t i = 0; i < m->nservices; i++) {
		sl_service *s = &m->services[i];
		if (!s->replicas_from) {
			s->replicas_from = sl_strdup("single");
			sl_origin_copy(&s->replicas_origin, &s->command_origin);
		}
		assign_version(c, sc, s);
		/* what its settings mean in that release; a spelling that
		 * changed meaning may now share a key with another setting */
		sl_topo_versioned(c, s);
		mark_overrides(c, s);
	}
	sl_topo_assign_names(m);
}
