/*
 * naming.c (entry): the names `servelint import` gives entries,
 * MODEL/SYSTEM/VARIANT, from the model itself (the engine, the serving
 * mode, each role's replicas and parallelism, the speculative decoding), so
 * that the same page always gives the same names; and same-named entries
 * told apart. import names its folders with them, and audit labels the
 * entries of a published page as import would name them.
 */
#include "entry.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

char *sl_entry_slug(const char *s)
{
	sl_buf b = {0};
	int dash = 0;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (isalnum(*p) || *p == '.') {
			if (dash && b.len)
				sl_buf_putc(&b, '-');
			dash = 0;
			sl_buf_putc(&b, (char)tolower(*p));
		} else {
			dash = 1;
		}
	}
	return sl_buf_detach(&b);
}

/* "Kimi K3 (max)" -> "kimi-k3": the trailing parenthetical is a reasoning level */
char *sl_entry_model_slug(const char *heading)
{
	char *h = sl_strdup(heading);
	char *par = strrchr(h, '(');
	if (par && par > h)
		*par = '\0';
	char *s = sl_entry_slug(h);
	free(h);
	return s;
}

const sl_claim *sl_entry_metadata_claim(const sl_model *m, const char *key, const char *role)
{
	for (size_t i = 0; i < m->nclaims; i++)
		if (!strcmp(m->claims[i].key, key) && !strcmp(m->claims[i].from, "metadata") &&
		    (!role ? !m->claims[i].role : m->claims[i].role && !strcmp(m->claims[i].role, role)))
			return &m->claims[i];
	return NULL;
}

static long num(const sl_service *s, const char *key, long dflt)
{
	const sl_setting *st = sl_service_get(s, key);
	return st && json_is_integer(st->value) ? (long)json_integer_value(st->value) : dflt;
}

static int truthy(const sl_service *s, const char *key)
{
	const sl_setting *st = sl_service_get(s, key);
	return st && json_is_true(st->value);
}

/* tp2, dep4 (data + expert parallel), tp4-ep4, -dcp8, -pp2; or Ngpu when
 * the parallelism is not in the entry (a config file it does not hold) */
static void parallelism(const sl_service *s, sl_buf *b)
{
	long tp = num(s, "parallel.tensor", 0), dp = num(s, "parallel.data", 1);
	long ep = num(s, "parallel.expert", 1), dcp = num(s, "parallel.decode_context", 1);
	long pp = num(s, "parallel.pipeline", 1);
	int epe = truthy(s, "parallel.expert_enabled"), adp = truthy(s, "parallel.attention_data");
	if (!tp && sl_service_get(s, "engine.config_file") && s->gpus > 0) {
		sl_buf_printf(b, "%ldgpu", s->gpus);
		return;
	}
	if (!tp)
		tp = 1;
	if ((ep > 1 || epe) && (dp > 1 || adp))
		sl_buf_printf(b, "dep%ld", adp ? tp : dp);
	else if (ep > 1)
		sl_buf_printf(b, "tp%ld-ep%ld", tp, ep);
	else if (epe)
		sl_buf_printf(b, "tp%ld-ep%ld", tp, tp);
	else
		sl_buf_printf(b, "tp%ld", tp);
	if (dcp > 1)
		sl_buf_printf(b, "-dcp%ld", dcp);
	if (pp > 1)
		sl_buf_printf(b, "-pp%ld", pp);
	if (num(s, "parallel.nnodes", 1) > 1)
		sl_buf_printf(b, "-%ldnode", num(s, "parallel.nnodes", 1));
}

static const sl_service *worker(const sl_model *m, const char *role)
{
	for (size_t i = 0; i < m->nservices; i++)
		if (!strcmp(m->services[i].role, role))
			return &m->services[i];
	return NULL;
}

char *sl_entry_variant_name(const sl_model *m)
{
	const sl_service *p = worker(m, "prefill"), *d = worker(m, "decode");
	const sl_service *a = worker(m, "aggregated");
	const sl_service *w = a ? a : p ? p : d;
	if (!w)
		return NULL;
	sl_buf b = {0};
	const char *eng = w->engine;
	if (sl_starts_with(eng, "dynamo-"))
		sl_buf_puts(&b, eng);
	else
		sl_buf_puts(&b, !strcmp(eng, "trtllm-disagg") ? "trtllm" : eng);
	if (p && d) {
		sl_buf_printf(&b, "-disagg-%up-", p->replicas);
		parallelism(p, &b);
		sl_buf_printf(&b, "-%ud-", d->replicas);
		parallelism(d, &b);
	} else {
		sl_buf_putc(&b, '-');
		parallelism(w, &b);
	}
	/* speculative decoding: method and tokens; nothing when the settings
	 * that would say are in a file the entry does not hold */
	const sl_setting *meth = sl_service_get(w, "spec.method");
	const sl_setting *n = sl_service_get(w, "spec.num_tokens");
	int unknown = 0;
	for (size_t i = 0; i < m->nnotes; i++)
		unknown |= strstr(m->notes[i].msg, "is not part of the entry") != NULL ||
			   sl_starts_with(m->notes[i].msg, "invalid JSON"); /* what it says is unread */
	if (meth && json_is_string(meth->value)) {
		/* a method without a letter or digit ("-") slugs to nothing: "spec" */
		char *ms = sl_entry_slug(json_string_value(meth->value));
		sl_buf_printf(&b, "-%s", *ms ? ms : "spec");
		if (n && json_is_integer(n->value))
			sl_buf_printf(&b, "%s%lld", *ms && isdigit((unsigned char)ms[strlen(ms) - 1]) ? "-" : "",
				      (long long)json_integer_value(n->value));
		free(ms);
	} else if (!unknown) {
		sl_buf_puts(&b, "-nospec");
	}
	return sl_buf_detach(&b);
}

char *sl_entry_import_name(const sl_model *m, const char *model, const char *system)
{
	char *v = sl_entry_variant_name(m);
	if (!v || !model || !system) {
		free(v);
		return NULL;
	}
	char *ms = sl_entry_model_slug(model), *ss = sl_entry_slug(system);
	sl_buf b = {0};
	sl_buf_printf(&b, "%s/%s/%s", ms, ss, v);
	free(ms);
	free(ss);
	free(v);
	return sl_buf_detach(&b);
}

/* What tells two same-named entries apart: an image date, then a few
 * settings that catalogues vary, each with a short name. */
static char *difference(const sl_model *m, const char *how)
{
	const sl_service *w = worker(m, "aggregated");
	if (!w)
		w = worker(m, "decode");
	if (!w)
		return NULL;
	if (!strcmp(how, "image")) {
		for (size_t i = 0; i < w->nwrappers; i++) {
			json_t *img = json_object_get(w->wrappers[i].detail, "image");
			const char *s = json_string_value(img);
			for (const char *q = s ? s : ""; *q; q++)
				if (strspn(q, "0123456789") == 8 && (q == s || !isdigit((unsigned char)q[-1])))
					return sl_strndup(q, 8);
		}
		return NULL;
	}
	const sl_setting *st = sl_service_get(w, how);
	if (!st)
		return NULL;
	char *v = json_is_string(st->value) ? sl_strdup(json_string_value(st->value))
					    : json_dumps(st->value, JSON_ENCODE_ANY | JSON_REAL_PRECISION(15));
	char *sv = sl_entry_slug(v);
	free(v);
	return sv;
}

void sl_entry_import_tell_apart(char **names, const sl_model *const *models, size_t n)
{
	static const struct { const char *how, *abbr; } keys[] = {
		{"image", ""}, {"limits.max_seqs", "mns"}, {"memory.gpu_utilization", "mem"},
		{"memory.static_fraction", "mem"}, {"limits.max_model_len", "len"},
		{"cudagraph.max_capture_size", "cg"},
	};
	for (size_t i = 0; i < n; i++) {
		size_t group[64], g = 0;
		for (size_t j = i; j < n && g < 64; j++)
			if (names[i] && names[j] && !strcmp(names[j], names[i]))
				group[g++] = j;
		if (g < 2)
			continue;
		char *basecopy = sl_strdup(names[i]);
		int done = 0;
		for (size_t k = 0; k < sizeof keys / sizeof *keys && !done; k++) {
			char *vals[64];
			int distinct = 1;
			for (size_t a = 0; a < g; a++)
				vals[a] = models[group[a]] ? difference(models[group[a]], keys[k].how) : NULL;
			for (size_t a = 0; a < g && distinct; a++)
				for (size_t b2 = a + 1; b2 < g; b2++)
					if (!vals[a] || !vals[b2] || !strcmp(vals[a], vals[b2]))
						distinct = 0;
			if (distinct) {
				for (size_t a = 0; a < g; a++) {
					sl_buf nb = {0};
					sl_buf_printf(&nb, "%s-%s%s", basecopy, keys[k].abbr, vals[a]);
					free(names[group[a]]);
					names[group[a]] = sl_buf_detach(&nb);
				}
				done = 1;
			}
			for (size_t a = 0; a < g; a++)
				free(vals[a]);
		}
		if (!done)  /* nothing tells them apart: their order on the page does */
			for (size_t a = 0; a < g; a++) {
				sl_buf nb = {0};
				sl_buf_printf(&nb, "%s-%zu", basecopy, a + 1);
				free(names[group[a]]);
				names[group[a]] = sl_buf_detach(&nb);
			}
		free(basecopy);
	}
}
