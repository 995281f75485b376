/* diff.c: the semantic difference of two models (see diff.h). */
#include "diff.h"

#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int sl_diff_wanted(const sl_diff_opts *o, const char *key)
{
	for (size_t i = 0; i < o->nignore; i++)
		if (!fnmatch(o->ignore[i], key, 0))
			return 0;
	if (!o->nonly)
		return 1;
	for (size_t i = 0; i < o->nonly; i++)
		if (!fnmatch(o->only[i], key, 0))
			return 1;
	return 0;
}

/* Equal as the engines read them: 8 and 8.0 alike; a list of one and its
 * item alike (vLLM's --served-model-name is a list, SGLang's a string). */
int sl_diff_same(json_t *a, json_t *b)
{
	if (!a || !b)
		return a == b;
	if (json_is_number(a) && json_is_number(b))
		return fabs(json_number_value(a) - json_number_value(b)) < 1e-12;
	if (json_is_array(a) && json_array_size(a) == 1 && !json_is_array(b))
		return sl_diff_same(json_array_get(a, 0), b);
	if (json_is_array(b) && json_array_size(b) == 1 && !json_is_array(a))
		return sl_diff_same(a, json_array_get(b, 0));
	return json_equal(a, b);
}

/* The engine a grammar id is of: Dynamo's workers take their engine's
 * flags as it spells them (dynamo-sglang's are SGLang's). */
static const char *family(const char *engine)
{
	return engine && !strncmp(engine, "dynamo-", 7) ? engine + 7 : engine ? engine : "";
}

int sl_diff_same_between(const char *key, const char *engine_a, json_t *a, const char *engine_b, json_t *b)
{
	if (sl_diff_same(a, b))
		return 1;
	/* each engine spells a speculative method in its own case (SGLang's
	 * DSPARK and EAGLE, TensorRT-LLM's MTP and Eagle3, vLLM's dspark, mtp,
	 * eagle3): across engines the case is no difference; within one, the
	 * engine reads only its own (a check's concern, and a difference) */
	return !strcmp(key, "spec.method") && strcmp(family(engine_a), family(engine_b)) && json_is_string(a) &&
	       json_is_string(b) && !strcasecmp(json_string_value(a), json_string_value(b));
}

static void add(sl_diff *d, const sl_diff_opts *o, sl_change_kind k, const char *svc, const char *key,
		json_t *a, json_t *b, const sl_origin *at_a, const sl_origin *at_b)
{
	if (o && !sl_diff_wanted(o, key)) { /* NULL: the caller has filtered */
		json_decref(a);
		json_decref(b);
		return;
	}
	sl_change c;
	memset(&c, 0, sizeof c);
	c.kind = k;
	c.service = sl_strdup(svc);
	c.key = sl_strdup(key);
	c.a = a;
	c.b = b;
	if (at_a)
		sl_origin_copy(&c.at_a, at_a);
	if (at_b)
		sl_origin_copy(&c.at_b, at_b);
	SL_PUSH(d->v, d->n, d->cap, c);
}

/* the services that run the engine (a multimodal encode worker too):
 * paired with one another when their roles differ */
static int is_worker(const char *role)
{
	return !strcmp(role, "prefill") || !strcmp(role, "decode") || !strcmp(role, "aggregated") ||
	       !strcmp(role, "encode");
}

static json_t *gpus_json(const sl_service *s)
{
	return s->gpus >= 0 ? json_integer(s->gpus) : s->gpus == -2 ? json_string("all") : json_null();
}

static const sl_env *env_of(const sl_service *s, const char *name)
{
	const sl_env *e = NULL;
	for (size_t i = 0; i < s->nenv; i++)
		if (!strcmp(s->env[i].name, name) && !(s->env[i].flags & SL_SET_OVERRIDDEN))
			e = &s->env[i];
	return e;
}

static void diff_services(sl_diff *d, const sl_diff_opts *o, const char *name, const sl_service *a,
			  const sl_service *b)
{
	json_t *x, *y;
	if (strcmp(a->engine, b->engine))
		add(d, o, SL_CH_CHANGED, name, "engine", json_string(a->engine), json_string(b->engine),
		    &a->command_origin, &b->command_origin);
	x = a->version ? json_string(a->version) : json_null();
	y = b->version ? json_string(b->version) : json_null();
	if (!json_equal(x, y))
		add(d, o, SL_CH_CHANGED, name, "version", x, y, &a->version_origin, &b->version_origin);
	else {
		json_decref(x);
		json_decref(y);
	}
	if (a->replicas != b->replicas)
		add(d, o, SL_CH_CHANGED, name, "replicas", json_integer(a->replicas), json_integer(b->replicas),
		    &a->replicas_origin, &b->replicas_origin);
	x = gpus_json(a);
	y = gpus_json(b);
	if (!json_equal(x, y))
		add(d, o, SL_CH_CHANGED, name, "gpus", x, y, &a->gpus_origin, &b->gpus_origin);
	else {
		json_decref(x);
		json_decref(y);
	}
	/* environment, by name */
	for (size_t i = 0; i < a->nenv; i++) {
		const sl_env *ea = env_of(a, a->env[i].name);
		if (ea != &a->env[i])
			continue;
		const sl_env *eb = env_of(b, ea->name);
		sl_buf key = {0};
		sl_buf_printf(&key, "env %s", ea->name);
		if (!eb)
			add(d, o, SL_CH_REMOVED, name, key.data, json_string(ea->value), NULL, &ea->origin, NULL);
		else if (strcmp(ea->value, eb->value))
			add(d, o, SL_CH_CHANGED, name, key.data, json_string(ea->value), json_string(eb->value),
			    &ea->origin, &eb->origin);
		sl_buf_free(&key);
	}
	for (size_t i = 0; i < b->nenv; i++) {
		const sl_env *eb = env_of(b, b->env[i].name);
		if (eb != &b->env[i] || env_of(a, eb->name))
			continue;
		sl_buf key = {0};
		sl_buf_printf(&key, "env %s", eb->name);
		add(d, o, SL_CH_ADDED, name, key.data, NULL, json_string(eb->value), NULL, &eb->origin);
		sl_buf_free(&key);
	}
	/* settings, by canonical key (the value in effect), each value as its
	 * engine reads it (sl_setting_meaning: vLLM's fp8 is fp8_e4m3, Dynamo's
	 * SGLang worker reads --disaggregation-mode agg as null): spellings of
	 * one meaning are no difference, and one of the default's is the default */
	for (size_t i = 0; i < a->nsettings; i++) {
		const sl_setting *sa = &a->settings[i];
		if (sa->flags & SL_SET_OVERRIDDEN)
			continue;
		const sl_setting *sb = sl_service_get(b, sa->key);
		json_t *ma = sl_setting_meaning(a, sa, sa->value);
		if (sb && sl_diff_same_between(sa->key, a->engine, ma, b->engine, sl_setting_meaning(b, sb, sb->value)))
			continue;
		if (sb && ((sa->flags | sb->flags) & SL_SET_OWN_NAME))
			continue; /* a file read alone names itself: its name is not served */
		if (sb)
			add(d, o, SL_CH_CHANGED, name, sa->key, json_incref(sa->value), json_incref(sb->value),
			    &sa->origin, &sb->origin);
		else if (sa->dflt && sl_diff_same(ma, sl_setting_meaning(a, sa, sa->dflt)))
			add(d, o, SL_CH_DEFAULT, name, sa->key, json_incref(sa->value), NULL, &sa->origin, NULL);
		else
			add(d, o, SL_CH_REMOVED, name, sa->key, json_incref(sa->value), NULL, &sa->origin, NULL);
	}
	for (size_t i = 0; i < b->nsettings; i++) {
		const sl_setting *sb = &b->settings[i];
		if ((sb->flags & SL_SET_OVERRIDDEN) || sl_service_get(a, sb->key))
			continue;
		if (sb->dflt && sl_diff_same(sl_setting_meaning(b, sb, sb->value), sl_setting_meaning(b, sb, sb->dflt)))
			add(d, o, SL_CH_DEFAULT, name, sb->key, NULL, json_incref(sb->value), NULL, &sb->origin);
		else
			add(d, o, SL_CH_ADDED, name, sb->key, NULL, json_incref(sb->value), NULL, &sb->origin);
	}
}

/* What the entries say about themselves (metadata and comments): by
 * claim key, role and source, the first of each. */
static const sl_claim *claim_of(const sl_model *m, const sl_claim *like)
{
	for (size_t i = 0; i < m->nclaims; i++) {
		const sl_claim *k = &m->claims[i];
		if (!strcmp(k->key, like->key) && !strcmp(k->from, like->from) &&
		    (k->role ? like->role && !strcmp(k->role, like->role) : !like->role))
			return k;
	}
	return NULL;
}

/* A claim answers to its model key ("parallel.tensor") as well as to its
 * display key ("claim parallel.tensor (comment)"): --ignore 'parallel.*'
 * should quiet the claims about parallelism along with the flags. */
static int claim_wanted(const sl_diff_opts *o, const sl_claim *k, const char *shown)
{
	for (size_t i = 0; i < o->nignore; i++)
		if (!fnmatch(o->ignore[i], k->key, 0) || !fnmatch(o->ignore[i], shown, 0))
			return 0;
	if (!o->nonly)
		return 1;
	for (size_t i = 0; i < o->nonly; i++)
		if (!fnmatch(o->only[i], k->key, 0) || !fnmatch(o->only[i], shown, 0))
			return 1;
	return 0;
}

static void claim_key(const sl_claim *k, sl_buf *b)
{
	sl_buf_printf(b, "claim %s%s%s (%s)", k->key, k->role ? " " : "", k->role ? k->role : "", k->from);
}

static void diff_claims(sl_diff *d, const sl_diff_opts *o, const sl_model *a, const sl_model *b)
{
	for (size_t i = 0; i < a->nclaims; i++) {
		const sl_claim *ka = &a->claims[i];
		if (claim_of(a, ka) != ka)
			continue;
		const sl_claim *kb = claim_of(b, ka);
		if (kb && sl_diff_same(ka->value, kb->value))
			continue;
		sl_buf key = {0};
		claim_key(ka, &key);
		if (claim_wanted(o, ka, key.data))
			add(d, NULL, kb ? SL_CH_CHANGED : SL_CH_REMOVED, "claims", key.data, json_incref(ka->value),
			    kb ? json_incref(kb->value) : NULL, &ka->origin, kb ? &kb->origin : NULL);
		sl_buf_free(&key);
	}
	for (size_t i = 0; i < b->nclaims; i++) {
		const sl_claim *kb = &b->claims[i];
		if (claim_of(b, kb) != kb || claim_of(a, kb))
			continue;
		sl_buf key = {0};
		claim_key(kb, &key);
		if (claim_wanted(o, kb, key.data))
			add(d, NULL, SL_CH_ADDED, "claims", key.data, NULL, json_incref(kb->value), NULL, &kb->origin);
		sl_buf_free(&key);
	}
}

/* "prefill x2 (2 GPUs each), decode x1 (4 GPUs), frontend x1; 8 GPUs" */
char *sl_diff_topology(const sl_model *m)
{
	sl_buf b = {0};
	long total = 0;
	int known = 1, with_gpus = 0;
	for (size_t i = 0; i < m->nservices; i++) {
		const sl_service *s = &m->services[i];
		if (i)
			sl_buf_puts(&b, ", ");
		sl_buf_printf(&b, "%s x%u", s->role, s->replicas);
		if (s->gpus > 0)
			sl_buf_printf(&b, " (%ld GPU%s%s)", s->gpus, s->gpus == 1 ? "" : "s", s->replicas > 1 ? " each" : "");
		else if (s->gpus == -2)
			sl_buf_puts(&b, " (all GPUs)");
		if (s->gpus > 0) {
			total += s->gpus * (long)s->replicas;
			with_gpus++;
		} else if (is_worker(s->role))
			known = 0;
		if (s->gpus > 0 && s->replicas > 1)
			with_gpus++;  /* x2 (4 GPUs each): the total says something */
	}
	/* the total, unless it only repeats the one count told */
	if (known && total && with_gpus > 1)
		sl_buf_printf(&b, "; %ld GPU%s", total, total == 1 ? "" : "s");
	return sl_buf_detach(&b);
}

int sl_diff_models(const sl_model *a, const sl_model *b, const sl_diff_opts *o, sl_diff *out)
{
	memset(out, 0, sizeof *out);
	out->topology_a = sl_diff_topology(a);
	out->topology_b = sl_diff_topology(b);
	/* pair by role, in order within a role */
	int *used = sl_calloc(b->nservices + 1, sizeof *used);
	size_t *unpaired_a = sl_calloc(a->nservices + 1, sizeof *unpaired_a), nua = 0;
	for (size_t i = 0; i < a->nservices; i++) {
		const sl_service *sa = &a->services[i];
		size_t idx_a = 0;
		for (size_t k = 0; k < i; k++)
			idx_a += !strcmp(a->services[k].role, sa->role);
		const sl_service *sb = NULL;
		for (size_t j = 0, idx = 0; j < b->nservices && !sb; j++)
			if (!strcmp(b->services[j].role, sa->role) && idx++ == idx_a) {
				sb = &b->services[j];
				used[j] = 1;
			}
		if (sb)
			diff_services(out, o, sa->name, sa, sb);
		else
			unpaired_a[nua++] = i;
	}
	/* Different topologies (aggregated against disaggregated): each worker
	 * left over on one side is compared with the first left over on the
	 * other, so settings still read per role. */
	size_t first_b = b->nservices;
	for (size_t j = 0; j < b->nservices && first_b == b->nservices; j++)
		if (!used[j] && is_worker(b->services[j].role))
			first_b = j;
	size_t first_a = a->nservices;
	for (size_t k = 0; k < nua && first_a == a->nservices; k++)
		if (is_worker(a->services[unpaired_a[k]].role))
			first_a = unpaired_a[k];
	for (size_t k = 0; k < nua; k++) {
		const sl_service *sa = &a->services[unpaired_a[k]];
		if (first_b < b->nservices && is_worker(sa->role)) {
			const sl_service *sb = &b->services[first_b];
			sl_buf name = {0};
			sl_buf_printf(&name, "%s ~ %s", sa->name, sb->name);
			add(out, o, SL_CH_CHANGED, name.data, "role", json_string(sa->role), json_string(sb->role),
			    &sa->command_origin, &sb->command_origin);
			diff_services(out, o, name.data, sa, sb);
			sl_buf_free(&name);
		} else {
			add(out, o, SL_CH_REMOVED, sa->name, "service", json_string(sa->program), NULL,
			    &sa->command_origin, NULL);
		}
	}
	if (first_b < b->nservices && first_a < a->nservices)
		used[first_b] = 1;
	for (size_t j = 0; j < b->nservices; j++) {
		if (used[j])
			continue;
		const sl_service *sb = &b->services[j];
		if (first_a < a->nservices && is_worker(sb->role)) {
			/* more workers on B's side: compared with A's first left over */
			const sl_service *sa = &a->services[first_a];
			sl_buf name = {0};
			sl_buf_printf(&name, "%s ~ %s", sa->name, sb->name);
			add(out, o, SL_CH_CHANGED, name.data, "role", json_string(sa->role), json_string(sb->role),
			    &sa->command_origin, &sb->command_origin);
			diff_services(out, o, name.data, sa, sb);
			sl_buf_free(&name);
		} else {
			add(out, o, SL_CH_ADDED, sb->name, "service", NULL, json_string(sb->program), NULL,
			    &sb->command_origin);
		}
	}
	free(unpaired_a);
	free(used);
	diff_claims(out, o, a, b);
	return SL_OK;
}

int sl_diff_equal(const sl_diff *d)
{
	for (size_t i = 0; i < d->n; i++)
		if (d->v[i].kind != SL_CH_DEFAULT)
			return 0;
	return 1;
}

int sl_diff_same_command(const sl_diff *d)
{
	for (size_t i = 0; i < d->n; i++)
		if (d->v[i].kind != SL_CH_DEFAULT && strcmp(d->v[i].service, "claims"))
			return 0;
	return 1;
}

void sl_diff_copy(const sl_diff *from, sl_diff *to)
{
	memset(to, 0, sizeof *to);
	to->v = from->n ? sl_calloc(from->n, sizeof *to->v) : NULL;
	to->n = to->cap = from->n;
	for (size_t i = 0; i < from->n; i++) {
		const sl_change *f = &from->v[i];
		sl_change *c = &to->v[i];
		c->kind = f->kind;
		c->service = f->service ? sl_strdup(f->service) : NULL;
		c->key = f->key ? sl_strdup(f->key) : NULL;
		c->a = json_incref(f->a);
		c->b = json_incref(f->b);
		sl_origin_copy(&c->at_a, &f->at_a);
		sl_origin_copy(&c->at_b, &f->at_b);
	}
	to->topology_a = from->topology_a ? sl_strdup(from->topology_a) : NULL;
	to->topology_b = from->topology_b ? sl_strdup(from->topology_b) : NULL;
}

void sl_diff_free(sl_diff *d)
{
	for (size_t i = 0; i < d->n; i++) {
		free(d->v[i].service);
		free(d->v[i].key);
		json_decref(d->v[i].a);
		json_decref(d->v[i].b);
		sl_origin_clear(&d->v[i].at_a);
		sl_origin_clear(&d->v[i].at_b);
	}
	free(d->v);
	free(d->topology_a);
	free(d->topology_b);
	memset(d, 0, sizeof *d);
}
