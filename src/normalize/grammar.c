/*
 * grammar.c: loading engine grammars and matching flags against them. With
 * build.c, the bottom of the normalize stage: it uses no other file of it
 * but engine_facts.c (the generated facts it joins to a grammar on first use), and
 * the files that read flags, config keys, env vars and comments (flags.c,
 * config.c, claims.c, topology.c, normalize.c) look things up in it through
 * grammar.h.
 *
 * The grammars built in are not loaded here: cmake/data_ready.c runs this
 * loader at build time, joins every engine's facts and writes the result
 * as static tables (sl_grammars_builtin), which sl_grammars_load hands out
 * and sl_grammars_free leaves in place (only their JSON values are made and
 * released, by the first and last user). The YAML is read here only for
 * $SERVELINT_GRAMMARS or $SERVELINT_FACTS.
 *
 * Why one file past 800 lines: loading, matching and suggesting share the
 * grammar's sorted index and the generated facts joined to it on first use
 * (join_facts); split apart, each part would reach into the others'
 * statics. Its concepts
 * stand in this order: loading (to sl_grammars_free), lookup by id and
 * program, flag matching (exact, prefixes, negation: sl_grammar_match),
 * suggestions (edit distance: sl_nearest, sl_grammar_suggest), env vars
 * and config keys.
 */
#include "grammar.h"
#include "normalize.h" /* sl_nearest */

#include "engine_facts.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* the built-in grammars' users (sl_grammars_builtin: loads less frees) */
static pthread_mutex_t builtin_lock = PTHREAD_MUTEX_INITIALIZER;
static size_t builtin_users;

/* the grammars' YAML text, carried for $SERVELINT_FACTS alone (cmake/embed.cmake) */
extern const struct { const char *name; const char *data; size_t len; } sl_grammar_texts[];

static int gfail(sl_error *err, const sl_source *src, const sl_yaml_node *n, const char *msg,
		 const char *arg)
{
	sl_error_set(err, src->path, n ? n->line : 0, n ? n->col : 0, msg, arg);
	return SL_ERR_INPUT;
}

static const char *scalar(const sl_yaml_node *n)
{
	return n && n->kind == SL_YAML_SCALAR ? n->value : NULL;
}

static int truthy(const sl_yaml_node *n)
{
	const char *s = scalar(n);
	return s && (!strcmp(s, "true") || !strcmp(s, "yes") || !strcmp(s, "True"));
}

static int parse_type(const char *s, sl_type *t)
{
	static const struct { const char *n; sl_type t; } map[] = {
		{"string", SL_T_STRING}, {"int", SL_T_INT}, {"float", SL_T_FLOAT},
		{"human_int", SL_T_HUMAN_INT}, {"bool", SL_T_BOOL}, {"list", SL_T_LIST},
		{"json", SL_T_JSON}, {"pair", SL_T_PAIR},
	};
	for (size_t i = 0; i < sizeof map / sizeof *map; i++)
		if (!strcmp(s, map[i].n)) {
			*t = map[i].t;
			return 0;
		}
	return -1;
}

/* A default: a scalar or a list of scalars (a mapping is not a default). */
static json_t *scalar_json(const sl_yaml_node *n)
{
	if (!n || n->kind == SL_YAML_MAP)
		return NULL;
	return sl_yaml_to_json(n);
}

static char **str_list(const sl_yaml_node *n, size_t *count)
{
	*count = 0;
	if (!n)
		return NULL;
	if (n->kind == SL_YAML_SCALAR) {
		char **v = sl_malloc(sizeof *v);
		v[0] = sl_strdup(n->value);
		*count = 1;
		return v;
	}
	if (n->kind != SL_YAML_SEQ)
		return NULL;
	char **v = sl_calloc(n->n, sizeof *v);
	for (size_t i = 0; i < n->n; i++)
		if (n->items[i]->kind == SL_YAML_SCALAR)
			v[(*count)++] = sl_strdup(n->items[i]->value);
	return v;
}

static int load_flag(const sl_source *src, const sl_yaml_node *n, sl_flag *f, sl_error *err)
{
	memset(f, 0, sizeof *f);
	if (n->kind != SL_YAML_MAP)
		return gfail(err, src, n, "grammar: a flag must be a mapping%s", "");
	f->names = str_list(sl_yaml_get(n, "names"), &f->nnames);
	if (!f->nnames)
		return gfail(err, src, n, "grammar: flag without names%s", "");
	const char *t = scalar(sl_yaml_get(n, "type"));
	if (!t)
		f->type = SL_T_STRING;
	else if (parse_type(t, &f->type))
		return gfail(err, src, sl_yaml_get(n, "type"), "grammar: unknown type `%s`", t);
	const char *k = scalar(sl_yaml_get(n, "key"));
	f->key = sl_strdup(k ? k : "");
	f->dflt = scalar_json(sl_yaml_get(n, "default"));
	const sl_yaml_node *same = sl_yaml_get(n, "same");
	if (same && same->kind != SL_YAML_MAP)
		return gfail(err, src, same, "grammar: `same` must map a value to the one the engine reads it as%s", "");
	for (size_t i = 0; same && i < same->n; i++) {
		const char *v = scalar(same->items[i]);
		if (!v)
			return gfail(err, src, same->items[i], "grammar: `same` maps a value to a value%s", "");
		if (!f->same)
			f->same = json_object();
		json_object_set_new(f->same, same->keys[i]->value, json_string(v));
	}
	const char *s = scalar(sl_yaml_get(n, "since"));
	f->since = s ? sl_strdup(s) : NULL;
	s = scalar(sl_yaml_get(n, "until"));
	f->until = s ? sl_strdup(s) : NULL;
	s = scalar(sl_yaml_get(n, "action"));
	f->action = s ? sl_strdup(s) : NULL;
	const sl_yaml_node *neg = sl_yaml_get(n, "negatable");
	f->negatable = f->type == SL_T_BOOL && (!neg || truthy(neg));
	const sl_yaml_node *stores = sl_yaml_get(n, "stores");
	const char *sv = scalar(stores);
	if (stores && (f->type != SL_T_BOOL || !sv || strcmp(sv, "false")))
		return gfail(err, src, stores, "grammar: `stores` is only `false`, of a bool flag%s", "");
	f->stores_false = stores != NULL;
	f->members = str_list(sl_yaml_get(n, "members"), &f->nmembers);
	const sl_yaml_node *jk = sl_yaml_get(n, "json_keys");
	if (jk && jk->kind == SL_YAML_MAP) {
		f->jkeys = sl_calloc(jk->n, sizeof *f->jkeys);
		for (size_t i = 0; i < jk->n; i++) {
			const char *v = scalar(jk->items[i]);
			if (!v)
				continue;
			f->jkeys[f->njkeys].member = sl_strdup(jk->keys[i]->value);
			f->jkeys[f->njkeys].key = sl_strdup(v);
			f->njkeys++;
		}
	}
	return SL_OK;
}

/* include_choices: [{flag, add: [...] | only: [...], same: {v: w}, since, until, source}] */
static int load_choice_exts(const sl_source *src, const sl_yaml_node *n, sl_grammar *g, sl_error *err)
{
	if (n->kind != SL_YAML_SEQ)
		return gfail(err, src, n, "grammar: `include_choices` is a list of {flag, add or only}%s", "");
	if (!g->ninclude)
		return gfail(err, src, n, "grammar: `include_choices` changes the flags of an `include:`d grammar; this one includes none%s", "");
	g->choice_ext = sl_calloc(n->n, sizeof *g->choice_ext);
	for (size_t i = 0; i < n->n; i++) {
		const sl_yaml_node *it = n->items[i];
		const char *fl = scalar(sl_yaml_get(it, "flag"));
		if (it->kind != SL_YAML_MAP || !fl || strncmp(fl, "-", 1))
			return gfail(err, src, it, "grammar: an `include_choices` entry names its `flag` (`--x`)%s", "");
		const sl_yaml_node *add = sl_yaml_get(it, "add"), *only = sl_yaml_get(it, "only");
		const sl_yaml_node *vs = add ? add : only;
		if (!vs || (add && only) || vs->kind != SL_YAML_SEQ || !vs->n)
			return gfail(err, src, it, "grammar: `include_choices` of `%s` takes `add:` or `only:`, a list of values", fl);
		sl_choice_ext *x = &g->choice_ext[g->nchoice_ext++];
		x->flag = sl_strdup(fl);
		x->replace = only != NULL;
		x->values = sl_calloc(vs->n, sizeof *x->values);
		for (size_t k = 0; k < vs->n; k++) {
			const char *v = scalar(vs->items[k]);
			if (!v)
				return gfail(err, src, vs->items[k], "grammar: a choice of `%s` is a plain value", fl);
			x->values[x->nvalues++] = sl_strdup(v);
		}
		const char *s = scalar(sl_yaml_get(it, "since"));
		x->since = s ? sl_strdup(s) : NULL;
		s = scalar(sl_yaml_get(it, "until"));
		x->until = s ? sl_strdup(s) : NULL;
		/* same: {agg: "null"}: a value read as another, which is one of
		 * the flag's own or of the values added */
		const sl_yaml_node *same = sl_yaml_get(it, "same");
		if (same && same->kind != SL_YAML_MAP)
			return gfail(err, src, same, "grammar: `same` of `%s` maps a value to the one it is read as", fl);
		for (size_t k = 0; same && k < same->n; k++) {
			const char *v = scalar(same->items[k]);
			if (!v)
				return gfail(err, src, same->items[k], "grammar: `same` of `%s` maps a value to a value", fl);
			if (!x->nsame) {
				x->same_from = sl_calloc(same->n, sizeof *x->same_from);
				x->same_to = sl_calloc(same->n, sizeof *x->same_to);
			}
			x->same_from[x->nsame] = sl_strdup(same->keys[k]->value);
			x->same_to[x->nsame++] = sl_strdup(v);
		}
	}
	return SL_OK;
}

const sl_choice_ext *sl_grammar_choice_ext(const sl_grammar *g, const sl_flag *f)
{
	for (size_t i = 0; i < g->nchoice_ext; i++)
		for (size_t k = 0; k < f->nnames; k++)
			if (!strcmp(g->choice_ext[i].flag, f->names[k]))
				return &g->choice_ext[i];
	return NULL;
}

static void sl_grammar_free_one(sl_grammar *g);

static char *normalized(const char *name, int underscores)
{
	char *n = sl_strdup(name);
	if (underscores)
		for (char *p = n; *p; p++)
			if (*p == '_')
				*p = '-';
	return n;
}

static int cmp_index(const void *a, const void *b)
{
	return strcmp(((const sl_flag_index *)a)->name, ((const sl_flag_index *)b)->name);
}

/* Flag lookup is the hot path of normalization: a sorted index of every
 * spelling makes it a binary search instead of a scan of ~150 flags. */
static void build_index(sl_grammar *g)
{
	size_t n = 0;
	for (size_t i = 0; i < g->nflags; i++)
		n += g->flags[i].nnames;
	g->index = sl_calloc(n, sizeof *g->index);
	for (size_t i = 0; i < g->nflags; i++)
		for (size_t k = 0; k < g->flags[i].nnames; k++) {
			g->index[g->nindex].name = normalized(g->flags[i].names[k], g->underscores);
			g->index[g->nindex].flag = &g->flags[i];
			g->nindex++;
		}
	/* stable for equal names: the first declared wins (an overriding flag
	 * of an including grammar is found before the included one anyway) */
	if (g->nindex)
		qsort(g->index, g->nindex, sizeof *g->index, cmp_index);
}

static int load_one(sl_grammars *gs, const sl_source *src, sl_error *err)
{
	sl_yaml_doc *doc;
	int rc = sl_yaml_load(src, &doc, err);
	if (rc)
		return rc;
	const sl_yaml_node *r = doc->root;
	sl_grammar g;
	memset(&g, 0, sizeof g);
	if (!r || r->kind != SL_YAML_MAP || !scalar(sl_yaml_get(r, "engine"))) {
		rc = gfail(err, src, r, "grammar: missing `engine:`%s", "");
		goto out;
	}
	g.id = sl_strdup(scalar(sl_yaml_get(r, "engine")));
	const char *s = scalar(sl_yaml_get(r, "title"));
	g.title = sl_strdup(s ? s : g.id);
	s = scalar(sl_yaml_get(r, "kind"));
	g.kind = sl_strdup(s ? s : "engine");
	g.include = str_list(sl_yaml_get(r, "include"), &g.ninclude);
	g.positionals = str_list(sl_yaml_get(r, "positionals"), &g.npositionals);
	const sl_yaml_node *p = sl_yaml_get(r, "parser");
	g.underscores = truthy(sl_yaml_get(p, "underscores"));
	g.abbrev = truthy(sl_yaml_get(p, "abbrev"));
	g.dotted = truthy(sl_yaml_get(p, "dotted"));
	s = scalar(sl_yaml_get(p, "negation"));
	g.negation = s && *s ? sl_strdup(s) : NULL;
	const sl_yaml_node *fl = sl_yaml_get(r, "flags");
	if (fl && fl->kind == SL_YAML_SEQ) {
		g.flags = sl_calloc(fl->n, sizeof *g.flags);
		for (size_t i = 0; i < fl->n && rc == SL_OK; i++) {
			rc = load_flag(src, fl->items[i], &g.flags[i], err);
			g.nflags = i + 1;
		}
	}
	const sl_yaml_node *ck = sl_yaml_get(r, "config_keys");
	if (rc == SL_OK && ck && ck->kind == SL_YAML_SEQ) {
		g.config_keys = sl_calloc(ck->n, sizeof *g.config_keys);
		for (size_t i = 0; i < ck->n && rc == SL_OK; i++) {
			const sl_yaml_node *it = ck->items[i];
			const char *pth = scalar(sl_yaml_get(it, "path"));
			const char *ky = scalar(sl_yaml_get(it, "key"));
			const char *ty = scalar(sl_yaml_get(it, "type"));
			if (!pth || !ky) {
				rc = gfail(err, src, it, "grammar: a config key needs path and key%s", "");
				break;
			}
			sl_config_key *k = &g.config_keys[g.nconfig_keys++];
			k->path = sl_strdup(pth);
			k->key = sl_strdup(ky);
			if (!ty)
				k->type = SL_T_STRING;
			else if (parse_type(ty, &k->type))
				rc = gfail(err, src, sl_yaml_get(it, "type"), "grammar: unknown type `%s`", ty);
			k->dflt = scalar_json(sl_yaml_get(it, "default"));
			const char *ro = scalar(sl_yaml_get(it, "replicas_of"));
			k->replicas_of = ro ? sl_strdup(ro) : NULL;
		}
	}
	s = scalar(sl_yaml_get(r, "config_from"));
	g.config_from = s ? sl_strdup(s) : NULL;
	g.config_wins = truthy(sl_yaml_get(r, "config_wins"));
	const sl_yaml_node *os = sl_yaml_get(r, "optional_sections");
	size_t ocap = 0;
	for (size_t i = 0; os && os->kind == SL_YAML_SEQ && i < os->n; i++)
		if (scalar(os->items[i]))
			SL_PUSH(g.optional_sections, g.noptional_sections, ocap, sl_strdup(scalar(os->items[i])));
	g.config_as_flags = truthy(sl_yaml_get(r, "config_as_flags"));
	/* health: {http: PATH, port: N} | {tcp: PORT} | {frontend: true} */
	const sl_yaml_node *hl = sl_yaml_get(r, "health");
	if (rc == SL_OK && hl) {
		const char *hp = scalar(sl_yaml_get(hl, "http")), *hport = scalar(sl_yaml_get(hl, "port"));
		const char *tcp = scalar(sl_yaml_get(hl, "tcp"));
		long long port = 0;
		if (hp && hport && !sl_parse_int(hport, &port) && port > 0 && port < 65536)
			g.health = json_pack("{s:s, s:I}", "http", hp, "port", (json_int_t)port);
		else if (tcp && !sl_parse_int(tcp, &port) && port > 0 && port < 65536)
			g.health = json_pack("{s:I}", "tcp", (json_int_t)port);
		else if (truthy(sl_yaml_get(hl, "frontend")))
			g.health = json_pack("{s:b}", "frontend", 1);
		else
			rc = gfail(err, src, hl, "grammar: health takes {http: PATH, port: N}, {tcp: PORT} or {frontend: true}%s", "");
	}
	g.programs = str_list(sl_yaml_get(r, "programs"), &g.nprograms);
	g.modules = str_list(sl_yaml_get(r, "modules"), &g.nmodules);
	s = scalar(sl_yaml_get(r, "role"));
	g.role = s ? sl_strdup(s) : NULL;
	const sl_yaml_node *im = sl_yaml_get(r, "images");
	if (im && im->kind == SL_YAML_SEQ)
		g.images = sl_yaml_to_json(im);
	const sl_yaml_node *ic = sl_yaml_get(r, "include_choices");
	if (rc == SL_OK && ic)
		rc = load_choice_exts(src, ic, &g, err);
	const sl_yaml_node *ev = sl_yaml_get(r, "env");
	if (rc == SL_OK && ev && ev->kind == SL_YAML_SEQ) {
		g.env = sl_calloc(ev->n, sizeof *g.env);
		for (size_t i = 0; i < ev->n; i++) {
			const char *nm = scalar(sl_yaml_get(ev->items[i], "name"));
			const char *ky = scalar(sl_yaml_get(ev->items[i], "key"));
			const char *ty = scalar(sl_yaml_get(ev->items[i], "type"));
			if (!nm || !ky)
				continue;
			sl_envvar *e = &g.env[g.nenv++];
			e->name = sl_strdup(nm);
			e->key = sl_strdup(ky);
			if (!ty || parse_type(ty, &e->type))
				e->type = SL_T_STRING;
		}
	}
	build_index(&g);
	size_t cap = gs->n;
	sl_grow((void **)&gs->g, &cap, gs->n + 1, sizeof *gs->g);
	gs->g[gs->n++] = g;
	memset(&g, 0, sizeof g);
out:
	sl_grammar_free_one(&g);  /* zeroed when kept */
	sl_yaml_free(doc);
	return rc;
}

static void sl_grammar_free_one(sl_grammar *g)
{
	sl_engine_facts_free(g);
	json_decref(g->health);
	json_decref(g->images);
	for (size_t i = 0; i < g->nprograms; i++)
		free(g->programs[i]);
	free(g->programs);
	for (size_t i = 0; i < g->nmodules; i++)
		free(g->modules[i]);
	free(g->modules);
	free(g->role);
	free(g->id);
	free(g->title);
	free(g->kind);
	for (size_t i = 0; i < g->ninclude; i++)
		free(g->include[i]);
	free(g->include);
	for (size_t i = 0; i < g->npositionals; i++)
		free(g->positionals[i]);
	free(g->positionals);
	free(g->negation);
	for (size_t i = 0; i < g->nflags; i++) {
		sl_flag *f = &g->flags[i];
		for (size_t k = 0; k < f->nnames; k++)
			free(f->names[k]);
		free(f->names);
		free(f->key);
		json_decref(f->dflt);
		json_decref(f->same);
		free(f->since);
		free(f->until);
		free(f->action);
		for (size_t k = 0; k < f->njkeys; k++) {
			free(f->jkeys[k].member);
			free(f->jkeys[k].key);
		}
		free(f->jkeys);
		for (size_t k = 0; k < f->nmembers; k++)
			free(f->members[k]);
		free(f->members);
	}
	free(g->flags);
	for (size_t i = 0; i < g->nenv; i++) {
		free(g->env[i].name);
		free(g->env[i].key);
		free(g->env[i].in);
	}
	free(g->env);
	for (size_t i = 0; i < g->nconfig_keys; i++) {
		free(g->config_keys[i].path);
		free(g->config_keys[i].key);
		json_decref(g->config_keys[i].dflt);
		free(g->config_keys[i].replicas_of);
		free(g->config_keys[i].in);
	}
	free(g->config_keys);
	free(g->config_from);
	for (size_t i = 0; i < g->nchoice_ext; i++) {
		sl_choice_ext *x = &g->choice_ext[i];
		free(x->flag);
		for (size_t k = 0; k < x->nvalues; k++)
			free(x->values[k]);
		free(x->values);
		free(x->since);
		free(x->until);
		for (size_t k = 0; k < x->nsame; k++) {
			free(x->same_from[k]);
			free(x->same_to[k]);
		}
		free(x->same_from);
		free(x->same_to);
	}
	free(g->choice_ext);
	for (size_t i = 0; i < g->noptional_sections; i++)
		free(g->optional_sections[i]);
	free(g->optional_sections);
	for (size_t i = 0; i < g->nindex; i++)
		free(g->index[i].name);
	free(g->index);
	memset(g, 0, sizeof *g);
}

static int add_source(sl_grammars *gs, sl_source *src, sl_error *err)
{
	size_t cap = gs->nsrcs;
	sl_grow((void **)&gs->srcs, &cap, gs->nsrcs + 1, sizeof *gs->srcs);
	gs->srcs[gs->nsrcs++] = src;
	return load_one(gs, src, err);
}

int sl_grammars_load(sl_grammars **out, sl_error *err)
{
	const char *dir = getenv("SERVELINT_GRAMMARS"), *facts = getenv("SERVELINT_FACTS");
	if (!(dir && *dir) && !(facts && *facts)) {
		/* the tables made at build time: nothing parsed, joined or
		 * copied; only the JSON values made, by the first user */
		pthread_mutex_lock(&builtin_lock);
		if (!builtin_users++) {
			sl_grammars_builtin_ready();
			sl_grammars_builtin_json();
		}
		pthread_mutex_unlock(&builtin_lock);
		*out = &sl_grammars_builtin;
		return SL_OK;
	}
	sl_grammars *gs = sl_calloc(1, sizeof *gs);
	int rc = SL_OK;
	if (dir && *dir) {
		char **names;
		size_t n;
		if (sl_dir_names(dir, ".yaml", &names, &n)) {
			sl_error_set(err, dir, 0, 0, "SERVELINT_GRAMMARS: cannot open folder");
			rc = SL_ERR_IO;
		} else {
			for (size_t i = 0; i < n; i++) {
				if (rc == SL_OK) {
					sl_buf p = {0};
					sl_buf_printf(&p, "%s/%s", dir, names[i]);
					sl_source *src;
					rc = sl_source_load(p.data, &src, err);
					if (rc == SL_OK)
						rc = add_source(gs, src, err);
					sl_buf_free(&p);
				}
				free(names[i]);
			}
			free(names);
		}
	} else {
		/* $SERVELINT_FACTS alone: the grammars' YAML carried in the
		 * binary, parsed, and joined on first use with the facts read
		 * from that folder */
		for (size_t i = 0; sl_grammar_texts[i].name && rc == SL_OK; i++) {
			sl_buf p = {0};
			sl_buf_printf(&p, "grammars/engines/%s", sl_grammar_texts[i].name);
			sl_source *src;
			rc = sl_source_from_memory(p.data, sl_grammar_texts[i].data, sl_grammar_texts[i].len, &src, err);
			if (rc == SL_OK)
				rc = add_source(gs, src, err);
			sl_buf_free(&p);
		}
	}
	if (rc) {
		sl_grammars_free(gs);
		return rc;
	}
	*out = gs;
	return SL_OK;
}

/* What the built-in grammar g holds that is not static: the JSON values
 * sl_grammars_builtin_json made and what matches built on first use
 * (sl_engine_facts_free's, but for the tables' own arrays). */
static void builtin_release(sl_grammar *g)
{
	sl_flag *sets[2] = {g->flags, g->gen};
	size_t ns[2] = {g->nflags, g->ngen};
	for (int s = 0; s < 2; s++)
		for (size_t i = 0; i < ns[s]; i++) {
			json_decref(sets[s][i].dflt);
			json_decref(sets[s][i].same);
			sets[s][i].dflt = sets[s][i].same = NULL;
		}
	for (size_t i = 0; i < g->nconfig_keys; i++) {
		json_decref(g->config_keys[i].dflt);
		g->config_keys[i].dflt = NULL;
	}
	for (size_t i = 0; i < g->nindex; i++) {
		json_decref(g->index[i].facts);
		g->index[i].facts = NULL;
	}
	json_t **js[] = {&g->health, &g->images, &g->versions, &g->config_versions, &g->kept, &g->defaults};
	for (size_t i = 0; i < sizeof js / sizeof *js; i++) {
		json_decref(*js[i]);
		*js[i] = NULL;
	}
}

void sl_grammars_free(sl_grammars *gs)
{
	if (!gs)
		return;
	if (gs == &sl_grammars_builtin) {
		pthread_mutex_lock(&builtin_lock);
		if (builtin_users && !--builtin_users)
			for (size_t i = 0; i < gs->n; i++)
				builtin_release(&gs->g[i]);
		pthread_mutex_unlock(&builtin_lock);
		return;
	}
	for (size_t i = 0; i < gs->n; i++)
		sl_grammar_free_one(&gs->g[i]);
	free(gs->g);
	for (size_t i = 0; i < gs->nsrcs; i++)
		sl_source_free(gs->srcs[i]);
	free(gs->srcs);
	free(gs);
}

const sl_grammar *sl_grammar_find(const sl_grammars *gs, const char *id)
{
	for (size_t i = 0; i < gs->n; i++)
		if (!strcmp(gs->g[i].id, id))
			return &gs->g[i];
	return NULL;
}

static void stated(json_t *o, const char *key, json_t *dflt)
{
	if (key && *key && dflt && !json_is_null(dflt) && !json_object_get(o, key))
		json_object_set(o, key, dflt);
}

static void add_defaults(const sl_grammars *gs, const sl_grammar *g, json_t *o, unsigned depth)
{
	if (!g || depth > 8)
		return;
	for (size_t i = 0; i < g->nflags; i++)
		stated(o, g->flags[i].key, g->flags[i].dflt);
	size_t hand = g->config_joined ? g->nconfig_hand : g->nconfig_keys;
	for (size_t i = 0; i < hand; i++)
		stated(o, g->config_keys[i].key, g->config_keys[i].dflt);
	if (g->config_from)
		add_defaults(gs, sl_grammar_find(gs, g->config_from), o, depth + 1);
	for (size_t i = 0; i < g->ninclude; i++)
		add_defaults(gs, sl_grammar_find(gs, g->include[i]), o, depth + 1);
}

const json_t *sl_grammar_defaults(const sl_grammars *gs, const sl_grammar *g)
{
	json_t *had = __atomic_load_n(&g->defaults, __ATOMIC_ACQUIRE);
	if (had)
		return had;
	json_t *o = json_object();
	add_defaults(gs, g, o, 0);
	/* two threads at once (check -j) build the same object: the first kept */
	if (!__atomic_compare_exchange_n(&((sl_grammar *)g)->defaults, &had, o, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		json_decref(o);
		return had;
	}
	return o;
}

/* Guards what matches add to a grammar threads share (check -j): the
 * candidates of abbreviations, kept by the grammar. */
static pthread_mutex_t kept_lock = PTHREAD_MUTEX_INITIALIZER;


const sl_grammar *sl_grammar_by_program(const sl_grammars *gs, const char *name, int module)
{
	for (size_t i = 0; i < gs->n; i++) {
		const sl_grammar *g = &gs->g[i];
		char *const *v = module ? g->modules : g->programs;
		size_t n = module ? g->nmodules : g->nprograms;
		for (size_t k = 0; k < n; k++)
			if (!strcmp(v[k], name))
				return g;
	}
	return NULL;
}

static int prefix_of(const char *full, const char *pre, int underscores)
{
	size_t n = strlen(pre);
	for (size_t i = 0; i < n; i++) {
		char x = full[i], y = pre[i];
		if (!x)
			return 0;
		if (underscores) {
			if (x == '_')
				x = '-';
			if (y == '_')
				y = '-';
		}
		if (x != y)
			return 0;
	}
	return 1;
}

static int exact(const sl_grammars *gs, const sl_grammar *g, const char *name, size_t n,
		 int underscores, sl_flag_match *m, unsigned depth)
{
	if (depth > 8)
		return 0;
	(void)underscores;
	char *q = sl_strndup(name, n);
	if (g->underscores)
		for (char *p = q; *p; p++)
			if (*p == '_')
				*p = '-';
	sl_flag_index key = {q, NULL, NULL, NULL};
	const sl_flag_index *hit =
		g->nindex ? bsearch(&key, g->index, g->nindex, sizeof *g->index, cmp_index) : NULL;
	free(q);
	if (hit) {
		m->flag = hit->flag;
		m->grammar = g;
		m->facts = sl_engine_facts_entry(hit);
		return 1;
	}
	for (size_t i = 0; i < g->ninclude; i++) {
		const sl_grammar *inc = sl_grammar_find(gs, g->include[i]);
		if (inc && exact(gs, inc, name, n, underscores, m, depth + 1))
			return 1;
	}
	return 0;
}

/* The flags a prefix may stand for, in g and its includes (every spelling,
 * generated ones too): at most a few are kept, with one spelling's facts. */
typedef struct {
	const sl_flag *flag;
	const sl_grammar *grammar;
	const json_t *facts;
	const char *name;  /* the spelling the prefix matched */
} prefix_hit;

static void prefixes(const sl_grammars *gs, const sl_grammar *g, const char *name,
		     prefix_hit *hits, size_t *nhits, size_t cap, unsigned depth)
{
	if (depth > 8)
		return;
	for (size_t i = 0; i < g->nindex; i++) {
		const sl_flag_index *x = &g->index[i];
		if (!sl_starts_with(x->name, "--") || !prefix_of(x->name, name, g->underscores))
			continue;
		/* *nhits counts past cap (the prefix is ambiguous then), and
		 * only the first cap hits are there to compare */
		size_t k = 0, kept = *nhits < cap ? *nhits : cap;
		while (k < kept && hits[k].flag != x->flag)
			k++;
		if (k < kept) {
			if (!hits[k].facts)
				hits[k].facts = sl_engine_facts_entry(x);
			continue;
		}
		if (*nhits < cap)
			hits[(*nhits)++] = (prefix_hit){x->flag, g, sl_engine_facts_entry(x), x->name};
		else
			(*nhits)++;
	}
	for (size_t i = 0; i < g->ninclude; i++) {
		const sl_grammar *inc = sl_grammar_find(gs, g->include[i]);
		if (inc)
			prefixes(gs, inc, name, hits, nhits, cap, depth + 1);
	}
}

/* Whether release r of g accepts a flag whose spelling has these facts (a
 * flag without facts, or of another grammar, is taken as accepted). */
static int in_release(const sl_grammar *g, const prefix_hit *h, size_t r)
{
	const char *in = h->grammar == g ? json_string_value(json_object_get(h->facts, "in")) : NULL;
	return !in || r >= strlen(in) || in[r] == '1';
}

/* A prefix several flags share in the union of the releases may still be
 * unique within one release (argparse resolves against the flags of the
 * version that runs): the newest such release decides. */
static const prefix_hit *unique_in_a_release(const sl_grammar *g, const prefix_hit *hits, size_t n)
{
	for (size_t r = json_array_size(g->versions); r-- > 0;) {
		const prefix_hit *one = NULL;
		size_t count = 0;
		for (size_t k = 0; k < n; k++)
			if (in_release(g, &hits[k], r)) {
				one = &hits[k];
				count++;
			}
		if (count == 1)
			return one;
	}
	return NULL;
}

static void join_facts(const sl_grammars *gs, const sl_grammar *g, unsigned depth)
{
	if (depth > 8 || g->facts_joined)
		return;
	sl_engine_facts_join((sl_grammar *)g);
	for (size_t i = 0; i < g->ninclude; i++) {
		const sl_grammar *inc = sl_grammar_find(gs, g->include[i]);
		if (inc)
			join_facts(gs, inc, depth + 1);
	}
}

/* `--no-X` read through g's negation prefix: X must be a negatable bool. */
static int negated(const sl_grammars *gs, const sl_grammar *g, const char *name, sl_flag_match *m)
{
	if (!g->negation || !sl_starts_with(name, g->negation))
		return 0;
	sl_buf b = {0};
	sl_buf_printf(&b, "--%s", name + strlen(g->negation));
	int ok = exact(gs, g, b.data, b.len, 0, m, 0) && m->flag->type == SL_T_BOOL && m->flag->negatable;
	sl_buf_free(&b);
	if (ok)
		m->negated = 1;
	else
		memset(m, 0, sizeof *m);
	return ok;
}

int sl_grammar_match(const sl_grammars *gs, const sl_grammar *g, const char *name,
		     sl_flag_match *m)
{
	join_facts(gs, g, 0);
	memset(m, 0, sizeof *m);
	size_t n = strlen(name);
	if (exact(gs, g, name, n, 0, m, 0)) {
		m->negated = m->flag->stores_false;
		return 1;
	}
	if (negated(gs, g, name, m))
		return 1;
	/* Included grammars may negate with their own prefix (dynamo-vllm -> vllm). */
	for (size_t i = 0; i < g->ninclude; i++) {
		const sl_grammar *inc = sl_grammar_find(gs, g->include[i]);
		if (inc && negated(gs, inc, name, m))
			return 1;
	}
	int abbrev = g->abbrev;
	for (size_t i = 0; i < g->ninclude && !abbrev; i++) {
		const sl_grammar *inc = sl_grammar_find(gs, g->include[i]);
		abbrev = inc && inc->abbrev;
	}
	if (abbrev && sl_starts_with(name, "--") && n > 3) {
		prefix_hit hits[16];
		size_t nhits = 0;
		prefixes(gs, g, name, hits, &nhits, sizeof hits / sizeof *hits, 0);
		const prefix_hit *one = nhits == 1 ? &hits[0]
				      : nhits <= sizeof hits / sizeof *hits ? unique_in_a_release(g, hits, nhits)
									   : NULL;
		if (one) {
			m->flag = one->flag;
			m->grammar = one->grammar;
			m->facts = one->facts;
			m->abbrev = 1;
			if (nhits > 1) {
				json_t *cand = json_array();
				for (size_t k = 0; k < nhits; k++) {
					const char *in = hits[k].grammar == g
							 ? json_string_value(json_object_get(hits[k].facts, "in"))
							 : NULL;
					json_array_append_new(cand, json_pack("{s:s,s:s?}", "name", hits[k].name, "in", in));
				}
				sl_grammar *mg = (sl_grammar *)g;
				pthread_mutex_lock(&kept_lock);
				if (!mg->kept)
					mg->kept = json_array();
				json_array_append_new(mg->kept, cand);
				pthread_mutex_unlock(&kept_lock);
				m->candidates = cand;
			}
			return 1;
		}
		memset(m, 0, sizeof *m);
		m->ambiguous = nhits > 1;
	}
	return 0;
}

/* Levenshtein distance of a and b if it is at most max, else max + 1. The
 * bound is what keeps suggestions cheap: a config file of fifty unknown keys
 * is checked against every name of a grammar and its includes (a thousand
 * and more), so a candidate whose length alone rules it out costs nothing
 * and a row whose every cell is past the bound ends the work early. */
static size_t edit_distance(const char *a, const char *b, size_t max)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 64 || lb > 64)
		return max + 1;
	if ((la > lb ? la - lb : lb - la) > max)
		return max + 1;
	/* A lower bound from the letters alone: each edit changes the count of
	 * at most one letter up and one down, so the larger of the surplus and
	 * the shortfall of counts (in 32 classes) cannot pass the distance. */
	int hist[32] = {0};
	for (size_t i = 0; i < la; i++)
		hist[(unsigned char)a[i] & 31]++;
	for (size_t j = 0; j < lb; j++)
		hist[(unsigned char)b[j] & 31]--;
	size_t surplus = 0, shortfall = 0;
	for (size_t c = 0; c < 32; c++) {
		if (hist[c] > 0)
			surplus += (size_t)hist[c];
		else
			shortfall += (size_t)-hist[c];
	}
	if ((surplus > shortfall ? surplus : shortfall) > max)
		return max + 1;
	/* Only the cells within max of the diagonal can stay within max: the
	 * others are taken as max + 1 (Ukkonen's band). */
	size_t over = max + 1, prev[65], cur[65];
	for (size_t j = 0; j <= lb; j++)
		prev[j] = j <= max ? j : over;
	for (size_t i = 1; i <= la; i++) {
		size_t lo = i > max ? i - max : 1, hi = i + max < lb ? i + max : lb;
		cur[lo - 1] = lo == 1 && i <= max ? i : over;
		size_t rowmin = cur[lo - 1];
		for (size_t j = lo; j <= hi; j++) {
			size_t c = prev[j - 1] + (a[i - 1] != b[j - 1]);
			if (prev[j] + 1 < c)
				c = prev[j] + 1;
			if (cur[j - 1] + 1 < c)
				c = cur[j - 1] + 1;
			cur[j] = c < over ? c : over;
			if (cur[j] < rowmin)
				rowmin = cur[j];
		}
		if (hi < lb)
			cur[hi + 1] = over;
		if (rowmin > max)
			return over;
		memcpy(prev, cur, sizeof cur);
	}
	return prev[lb] > max ? max + 1 : prev[lb];
}

/* Only what is plausibly a typo is suggested: at most a third of the name. */
static size_t typo_bound(const char *name)
{
	return 1 + strlen(name) / 3;
}

/* The bound for the next candidate: one better than the best so far (a tie
 * keeps the first), never past the typo bound. */
static size_t next_bound(size_t bestd, size_t limit)
{
	if (bestd == 0)
		return 0;
	return bestd > limit ? limit : bestd - 1;
}

static void suggest_in(const sl_grammars *gs, const sl_grammar *g, const char *name,
		       const char **best, size_t *bestd, unsigned depth)
{
	if (depth > 8)
		return;
	for (size_t i = 0; i < g->nflags; i++)
		for (size_t k = 0; k < g->flags[i].nnames; k++) {
			size_t max = next_bound(*bestd, typo_bound(name));
			size_t d = edit_distance(name, g->flags[i].names[k], max);
			if (d <= max && d < *bestd) {
				*bestd = d;
				*best = g->flags[i].names[k];
			}
		}
	/* then the flags only the generated facts know */
	for (size_t i = 0; i < g->ngen; i++)
		for (size_t k = 0; k < g->gen[i].nnames; k++) {
			size_t max = next_bound(*bestd, typo_bound(name));
			size_t d = edit_distance(name, g->gen[i].names[k], max);
			if (d <= max && d < *bestd) {
				*bestd = d;
				*best = g->gen[i].names[k];
			}
		}
	for (size_t i = 0; i < g->ninclude; i++) {
		const sl_grammar *inc = sl_grammar_find(gs, g->include[i]);
		if (inc)
			suggest_in(gs, inc, name, best, bestd, depth + 1);
	}
}

const char *sl_nearest(const char *name, char *const *names, size_t n)
{
	const char *best = NULL;
	size_t bestd = (size_t)-1;
	for (size_t i = 0; i < n; i++) {
		size_t max = next_bound(bestd, typo_bound(name));
		size_t d = edit_distance(name, names[i], max);
		if (d <= max && d < bestd) {
			bestd = d;
			best = names[i];
		}
	}
	return best && bestd <= typo_bound(name) ? best : NULL;
}

const char *sl_grammar_suggest(const sl_grammars *gs, const sl_grammar *g, const char *name)
{
	const char *best = NULL;
	size_t bestd = (size_t)-1;
	join_facts(gs, g, 0);
	suggest_in(gs, g, name, &best, &bestd, 0);
	if (best && bestd <= typo_bound(name))
		return best;
	return NULL;
}

/* Counts the distinct spellings of g (and its includes) within d of name,
 * up to 2: `best` and any other. */
static void ties_in(const sl_grammars *gs, const sl_grammar *g, const char *name, const char *best, size_t d,
		    int *other, unsigned depth)
{
	if (depth > 8 || *other)
		return;
	for (size_t i = 0; i < g->nflags && !*other; i++)
		for (size_t k = 0; k < g->flags[i].nnames && !*other; k++)
			*other = strcmp(g->flags[i].names[k], best) && edit_distance(name, g->flags[i].names[k], d) <= d;
	for (size_t i = 0; i < g->ngen && !*other; i++)
		for (size_t k = 0; k < g->gen[i].nnames && !*other; k++)
			*other = strcmp(g->gen[i].names[k], best) && edit_distance(name, g->gen[i].names[k], d) <= d;
	for (size_t i = 0; i < g->ninclude && !*other; i++) {
		const sl_grammar *inc = sl_grammar_find(gs, g->include[i]);
		if (inc)
			ties_in(gs, inc, name, best, d, other, depth + 1);
	}
}

int sl_grammar_suggest_tied(const sl_grammars *gs, const sl_grammar *g, const char *name, const char *best)
{
	size_t d = edit_distance(name, best, typo_bound(name));
	int other = 0;
	ties_in(gs, g, name, best, d, &other, 0);
	return other;
}

int sl_nearest_tied(const char *name, char *const *names, size_t n, const char *best)
{
	size_t d = edit_distance(name, best, typo_bound(name));
	for (size_t i = 0; i < n; i++)
		if (strcmp(names[i], best) && edit_distance(name, names[i], d) <= d)
			return 1;
	return 0;
}

const sl_envvar *sl_grammar_env(const sl_grammars *gs, const sl_grammar *g, const char *name)
{
	sl_engine_facts_join((sl_grammar *)g);  /* the facts' env var twins */
	for (size_t i = 0; i < g->nenv; i++)
		if (!strcmp(g->env[i].name, name))
			return &g->env[i];
	for (size_t i = 0; i < g->ninclude; i++) {
		const sl_grammar *inc = sl_grammar_find(gs, g->include[i]);
		if (inc) {
			const sl_envvar *e = sl_grammar_env(gs, inc, name);
			if (e)
				return e;
		}
	}
	return NULL;
}

static const sl_grammar *config_of(const sl_grammars *gs, const sl_grammar *g)
{
	if (g->nconfig_keys)
		return g;
	if (g->config_from) {
		const sl_grammar *f = sl_grammar_find(gs, g->config_from);
		if (f && f->nconfig_keys)
			return f;
	}
	for (size_t i = 0; i < g->ninclude; i++) {
		const sl_grammar *inc = sl_grammar_find(gs, g->include[i]);
		if (inc && inc->nconfig_keys)
			return inc;
	}
	return NULL;
}

const sl_grammar *sl_grammar_config(const sl_grammars *gs, const sl_grammar *g)
{
	const sl_grammar *c = config_of(gs, g);
	/* the keys the engine's source declares join the hand-written ones
	 * the first time a config file is read for the engine */
	if (c)
		sl_engine_facts_config_join((sl_grammar *)c);
	return c;
}

const sl_config_key *sl_grammar_config_key(const sl_grammar *g, const char *path)
{
	for (size_t i = 0; i < g->nconfig_keys; i++)
		if (g->config_keys[i].path[0] == path[0] && !strcmp(g->config_keys[i].path, path))
			return &g->config_keys[i];
	return NULL;
}

int sl_grammar_config_below(const sl_grammar *g, const char *path)
{
	size_t n = strlen(path);
	/* the first byte compared inline: asked for every setting of every
	 * engine file, this scan was 860,000 strncmp over corpus x10 */
	for (size_t i = 0; i < g->nconfig_keys; i++)
		if (g->config_keys[i].path[0] == path[0] && !strncmp(g->config_keys[i].path, path, n) &&
		    g->config_keys[i].path[n] == '.')
			return 1;
	return 0;
}

void sl_grammars_share(sl_grammars *gs)
{
	for (size_t i = 0; i < gs->n; i++) {
		sl_grammar *g = &gs->g[i];
		join_facts(gs, g, 0);
		/* the config keys are joined where reading a config file joins
		 * them: to the grammar whose keys describe it */
		sl_grammar_config(gs, g);
	}
}
