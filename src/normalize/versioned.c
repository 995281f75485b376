/*
 * versioned.c: what a setting means in the release its service runs, once
 * topology.c knows the version (it calls this last). From the engines'
 * generated facts (a setting's `facts`, docs/engine-facts.md):
 *   - a spelling whose meaning changed between releases stands for the flag
 *     of the entry's release (vLLM's `-O` was `--compilation-config` up to
 *     0.11.0 and is `--optimization-level` after);
 *   - a default that changed between releases is the default of the
 *     entry's release (`--gpu-memory-utilization` 0.9 up to vLLM 0.11.0,
 *     0.92 in 0.27.0), and no default at all when the version is not known:
 *     the effective value then depends on the release, and nothing may
 *     claim a written value is "the default".
 * With no version (or one older than every recorded release), a spelling
 * whose meaning changed keeps the newest meaning, with a note saying so.
 * Uses grammar.c and build.c (notes).
 */
#include "topology.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* The newest recorded release at or before the service's version, or -1:
 * no version, `latest`, a version older than every record, or facts of an
 * engine the service only passes flags on to (dynamo-vllm's vLLM flags run
 * vLLM's version, which the entry's does not tell), or Dynamo's own (a
 * Dynamo worker's version is its backend's, as topology.c reads it). */
static long release_of(const sl_service *s, const json_t *rel, const char *engine)
{
	const char *ver = sl_service_release(s, engine);
	if (!ver)
		return -1;
	long lo = -1;
	for (size_t i = 0; i < json_array_size(rel); i++) {
		const char *v = json_string_value(json_array_get(rel, i));
		if (v && sl_version_cmp(v, ver) <= 0)
			lo = (long)i;
	}
	return lo;
}

/* The facts in force at release i: the history entry whose range holds it,
 * else the newest. */
static const json_t *facts_at(const json_t *e, const json_t *rel, long i)
{
	const char *v = json_string_value(json_array_get(rel, (size_t)i));
	size_t k;
	json_t *h;
	json_array_foreach(json_object_get(e, "history"), k, h) {
		const char *from = json_string_value(json_object_get(h, "from"));
		const char *to = json_string_value(json_object_get(h, "to"));
		if (v && from && to && sl_version_cmp(from, v) <= 0 && sl_version_cmp(v, to) <= 0)
			return h;
	}
	return e;
}

/* Whether two recorded releases give the flag different defaults. A
 * release whose facts have none does not count: the generator leaves a
 * default out where the source does not state one it can read (a store_true
 * flag's implicit false, a default computed in code), so absent is not
 * known to differ. */
static int default_varies(const json_t *e)
{
	const json_t *d = json_object_get(e, "default");
	size_t k;
	json_t *h;
	json_array_foreach(json_object_get(e, "history"), k, h) {
		const json_t *hd = json_object_get(h, "default");
		if (!hd)
			continue;
		if (d && !json_equal(d, hd))
			return 1;
		d = hd;
	}
	return 0;
}

/* The flag a spelling stood for in an older release (`of` in its range),
 * when that is another setting than the newest meaning (key differs: an
 * obsolete spelling of the same setting is no change); NULL otherwise. */
static const sl_flag *older_meaning(const sl_ctx *c, const sl_service *s, const sl_setting *st,
				    const json_t *e, const json_t *at)
{
	const char *of = json_string_value(json_object_get(e, "of"));
	const char *was = json_string_value(json_object_get(at, "of"));
	if (!of || !was || !strcmp(of, was))
		return NULL;
	const sl_grammar *g = sl_grammar_find(c->gs, s->engine);
	sl_flag_match m;
	if (!g || !sl_grammar_match(c->gs, g, was, &m) || !strcmp(m.flag->key, st->key))
		return NULL;
	return m.flag;
}

/* A bare number given to a JSON flag where the engine reads it as one
 * member (vLLM's CompilationConfig.from_cli: "0".."3" is the level, in
 * vllm/config.py@98c89e1 (0.8.5) and vllm/config/compilation.py of 0.10.1
 * and 0.11.0; the parser also rewrote -O3 to -O.level=3 in those two). */
static const struct { const char *engine, *flag, *member; } number_member[] = {
	{"vllm", "--compilation-config", "level"},
};

/* The setting st, written with a spelling that meant flag f in the entry's
 * release, becomes a setting of f. */
static void remean(const sl_service *s, sl_setting *st, const sl_flag *f)
{
	char *key = sl_strdup(f->key);
	json_t *v = NULL;
	const char *text = json_string_value(st->value);
	long long n;
	if (f->type == SL_T_JSON && text && !sl_parse_int(text, &n) && n >= 0 && n <= 3)
		for (size_t i = 0; i < sizeof number_member / sizeof *number_member; i++)
			if (!strcmp(number_member[i].engine, s->engine) && !strcmp(number_member[i].flag, f->names[0])) {
				free(key);
				sl_buf k = {0};
				sl_buf_printf(&k, "%s.%s", f->key, number_member[i].member);
				key = k.data;
				v = json_integer(n);
			}
	if (!v && f->type == SL_T_INT && text && !sl_parse_int(text, &n))
		v = json_integer(n);
	if (v) {
		json_decref(st->value);
		st->value = v;
	}
	free(st->key);
	st->key = key;
	free(st->flag);
	st->flag = sl_strdup(f->names[0]);
	json_decref(st->dflt);
	st->dflt = f->dflt ? json_incref(f->dflt) : NULL;
}

void sl_topo_versioned(sl_ctx *c, sl_service *s)
{
	/* the settings of a service share their engine's releases: the place
	 * of its version among them is found once per list and engine (every
	 * setting's own was 14,230 version comparisons over 350 entries) */
	const json_t *last_rel = NULL;
	const char *last_engine = NULL;
	long last_lo = -1;
	for (size_t i = 0; i < s->nsettings; i++) {
		sl_setting *st = &s->settings[i];
		json_t *fx = st->facts;
		/* a JSON flag's facts on its first member (flags.c): the flag's,
		 * whose default and meaning are not the member's */
		if (json_object_get(fx, "split"))
			continue;
		const json_t *e = json_object_get(fx, "e");
		const json_t *rel = json_object_get(fx, "r");
		long lo = -1;
		if (fx) {
			const char *engine = json_string_value(json_object_get(fx, "engine"));
			if (rel && rel == last_rel && engine && last_engine && !strcmp(engine, last_engine)) {
				lo = last_lo;
			} else {
				lo = release_of(s, rel, engine);
				last_rel = rel;
				last_engine = engine;
				last_lo = lo;
			}
		}
		if (e) {
			const json_t *at = lo >= 0 ? facts_at(e, rel, lo) : e;
			const sl_flag *was = NULL;
			if (lo >= 0) {
				was = older_meaning(c, s, st, e, at);
			} else {
				/* the releases of the older meaning, first to last */
				size_t k;
				json_t *h;
				const sl_flag *old = NULL;
				const char *from = NULL, *to = NULL;
				json_array_foreach(json_object_get(e, "history"), k, h) {
					const sl_flag *o = older_meaning(c, s, st, e, h);
					if (!o || (old && o != old))
						continue;
					old = o;
					if (!from)
						from = json_string_value(json_object_get(h, "from"));
					to = json_string_value(json_object_get(h, "to"));
				}
				if (old && from && to) {
					const char *title = json_string_value(json_object_get(fx, "title"));
					const char *of = json_string_value(json_object_get(e, "of"));
					sl_note_add(c, st->origin.src, st->origin.off,
						    "`%s` means `%s` in %s %s to %s and `%s` after; read as `%s`, as the entry's %s version is not known",
						    st->origin.raw ? st->origin.raw : st->flag, old->names[0], title ? title : s->engine,
						    from, to, of, of, title ? title : s->engine);
				}
			}
			if (was) {
				remean(s, st, was);
			} else if (default_varies(e)) {
				/* the release's own, or none: unknown there, or no
				 * version to choose by */
				const json_t *d = lo >= 0 ? json_object_get(at, "default") : NULL;
				json_decref(st->dflt);
				st->dflt = d ? json_incref((json_t *)d) : NULL;
				/* so that matrix lends it only to entries of that version */
				json_object_set_new(st->facts, "default_by_release", json_true());
			}
		}
	}
}
