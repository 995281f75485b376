/*
 * engine_facts.c: the engines' generated facts joined to the hand-written grammars.
 * Below grammar.c: it uses no other file of normalize (grammar.c calls it
 * the first time a grammar is matched against, so an engine no entry uses
 * costs nothing at start-up).
 *
 * The table (grammars/facts/<id>.tsv, the runtime form of <id>.json) is a
 * line of the recorded releases, then one line per spelling: name, in (one
 * character per release, 1: accepted), of (the primary spelling, empty when
 * the name itself), type, bool kind, default, choices, replacement, history
 * (default, choices and history JSON), deprecated (the first release whose
 * source marks it so), nargs (`?`: the value may be left out); then one
 * line per env var twin of a flag (Dynamo's DYN_*: the variable, the
 * releases reading it, the flag). Only the fields a
 * join needs are read up front; a spelling's facts become JSON when a flag
 * written with it is matched.
 */
#include "engine_facts.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct blob { const char *name; const char *data; size_t len; };
extern const struct blob sl_facts_blob[];

enum {
	F_NAME, F_IN, F_OF, F_TYPE, F_BOOL, F_DEFAULT, F_CHOICES, F_REPLACEMENT, F_HISTORY, F_DEPRECATED, F_NARGS,
	F_N
};

/* The table's text, owned, or NULL when the engine has none. */
static char *facts_text(const char *id)
{
	const char *dir = getenv("SERVELINT_FACTS");
	if (dir && *dir) {
		sl_buf p = {0};
		sl_buf_printf(&p, "%s/%s.tsv", dir, id);
		FILE *f = fopen(p.data, "rb");
		sl_buf_free(&p);
		if (!f)
			return NULL;
		sl_buf t = {0};
		char chunk[4096];
		size_t n;
		while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
			for (size_t i = 0; i < n; i++)
				sl_buf_putc(&t, chunk[i]);
		fclose(f);
		if (!t.data)
			sl_buf_putc(&t, '\0');
		return t.data;
	}
	size_t n = strlen(id);
	for (size_t i = 0; sl_facts_blob[i].name; i++)
		if (!strncmp(sl_facts_blob[i].name, id, n) && !strcmp(sl_facts_blob[i].name + n, ".tsv"))
			return sl_strndup(sl_facts_blob[i].data, sl_facts_blob[i].len);
	return NULL;
}

/* Field i of a line whose fields were NUL-terminated by the join. */
static const char *field(const char *line, int i)
{
	for (int k = 0; k < i; k++)
		line += strlen(line) + 1;
	return line;
}

static char *norm(const char *name, int underscores)
{
	char *n = sl_strdup(name);
	if (underscores)
		for (char *p = n; *p; p++)
			if (*p == '_')
				*p = '-';
	return n;
}

static int cmp_ix(const void *a, const void *b)
{
	return strcmp(((const sl_flag_index *)a)->name, ((const sl_flag_index *)b)->name);
}

static sl_flag_index *find(sl_flag_index *ix, size_t n, const char *name)
{
	sl_flag_index key = {(char *)name, NULL, NULL, NULL};
	return n ? bsearch(&key, ix, n, sizeof *ix, cmp_ix) : NULL;
}

static sl_type type_of(const char *t)
{
	if (!strcmp(t, "bool"))
		return SL_T_BOOL;
	if (!strcmp(t, "list"))
		return SL_T_LIST;
	if (!strcmp(t, "int"))
		return SL_T_INT;
	if (!strncmp(t, "human_int", 9))  /* human_int, human_int_or_auto */
		return SL_T_HUMAN_INT;
	if (!strcmp(t, "float"))
		return SL_T_FLOAT;
	if (!strcmp(t, "json"))
		return SL_T_JSON;
	return SL_T_STRING;
}

/* The canonical key of a flag only the facts know: vllm.prefill_schedule_interval */
static char *gen_key(const char *id, const char *name)
{
	/* written out, not sl_buf_printf and a putc per byte: a join makes
	 * one per generated flag, hundreds for each engine an entry uses */
	while (*name == '-')
		name++;
	size_t ni = strlen(id), nn = strlen(name);
	char *k = sl_malloc(ni + 1 + nn + 1), *q = k + ni + 1;
	memcpy(k, id, ni);
	k[ni] = '.';
	for (; *name; name++)
		*q++ = *name == '-' ? '_' : *name;
	*q = '\0';
	return k;
}

static void add_name(sl_flag *f, const char *name)
{
	f->names = sl_realloc(f->names, (f->nnames + 1) * sizeof *f->names);
	f->names[f->nnames++] = sl_strdup(name);
}

/* Splits the table into NUL-terminated fields; returns the spelling lines
 * (pointers into text), fills versions from the first line and twins with
 * the env var lines (a name not starting with '-'). */
static const char **lines_of(char *text, json_t *versions, size_t *n, const char ***twins, size_t *ntwins)
{
	size_t cap = 0, tcap = 0;
	const char **v = NULL;
	*n = 0;
	*twins = NULL;
	*ntwins = 0;
	char *p = text;
	int first = 1;
	while (*p) {
		char *line = p, *nl = strchr(p, '\n');
		char *end = nl ? nl : p + strlen(p);
		int fields = 1;
		for (char *q = line; q < end; q++)
			if (*q == '\t') {
				*q = '\0';
				fields++;
			}
		*end = '\0';
		p = nl ? nl + 1 : end;
		if (first) {
			first = 0;
			for (const char *f = field(line, 1); fields-- > 1; f += strlen(f) + 1)
				json_array_append_new(versions, json_string(f));
			continue;
		}
		if (fields == F_N && line[0] == '-')
			SL_PUSH(v, *n, cap, line);
		else if (fields == F_N && line[0] >= 'A' && line[0] <= 'Z')
			SL_PUSH(*twins, *ntwins, tcap, line);
	}
	return v;
}

/* Env var twins: a variable the engine reads as the flag it stands for
 * (`DYN_ROUTER_TTL_SECS=60` is `--router-ttl-secs 60`), added to g's env
 * with that flag's key unless the hand-written grammar has it. It is taken
 * in every release, and keeps the releases that read it (the line's `in`),
 * which the setting made of it carries: SL1001 judges it by the service's
 * release as it does a flag (topology.c). */
static void add_twins(sl_grammar *g, const char **twins, size_t n)
{
	size_t cap = g->nenv;
	for (size_t i = 0; i < n; i++) {
		const char *name = twins[i];
		sl_envvar *have = NULL;
		for (size_t k = 0; k < g->nenv && !have; k++)
			if (!strcmp(g->env[k].name, name))
				have = &g->env[k];
		if (have) {  /* the hand-written variable is the same one the source reads */
			if (!have->in) {
				have->in = sl_strdup(field(name, F_IN));
				have->of = g;
			}
			continue;
		}
		char *of = norm(field(name, F_OF), g->underscores);
		sl_flag_index *x = find(g->index, g->nindex, of);
		free(of);
		if (!x)
			continue;
		sl_envvar e = {sl_strdup(name), sl_strdup(x->flag->key), x->flag->type, sl_strdup(field(name, F_IN)), g};
		SL_PUSH(g->env, g->nenv, cap, e);
	}
}

void sl_engine_facts_join(sl_grammar *g)
{
	if (g->facts_joined)
		return;
	g->facts_joined = 1;
	char *text = facts_text(g->id);
	if (!text)
		return;
	g->facts = text;
	g->versions = json_array();
	size_t n, ntwins;
	const char **twins;
	const char **lines = lines_of(text, g->versions, &n, &twins, &ntwins);
	size_t nix = g->nindex;
	sl_flag_index *ix = sl_calloc(g->nindex + n + 1, sizeof *ix);
	memcpy(ix, g->index, g->nindex * sizeof *ix);
	g->gen = sl_calloc(n + 1, sizeof *g->gen);
	json_t *byprim = json_object();  /* a generated flag's primary spelling -> its index in gen */
	for (size_t i = 0; i < n; i++) {
		const char *name = lines[i];
		char *k = norm(name, g->underscores);
		sl_flag_index *hit = find(ix, g->nindex, k);
		if (hit) {
			hit->line = name;
			/* a hand-written flag (g's own: the index holds no other
			 * grammar's) whose value the source lets be left out */
			if (!strcmp(field(name, F_NARGS), "?") && hit->flag->type != SL_T_BOOL)
				((sl_flag *)hit->flag)->optional_value = 1;
			free(k);
			continue;
		}
		const char *of = field(name, F_OF);
		if (!*of)
			of = name;
		const sl_flag *f = NULL;
		char *ko = norm(of, g->underscores);
		sl_flag_index *own = find(ix, g->nindex, ko);
		free(ko);
		if (own) {
			f = own->flag;  /* another spelling of a hand-written flag */
		} else {
			json_t *at = json_object_get(byprim, of);
			sl_flag *nf;
			if (at) {
				nf = &g->gen[json_integer_value(at)];
				add_name(nf, name);
			} else {
				/* the facts of the primary spelling, where it has a line */
				const char *pl = name;
				for (size_t x = 0; x < n && pl == name && strcmp(of, name); x++)
					if (!strcmp(lines[x], of))
						pl = lines[x];
				json_object_set_new(byprim, of, json_integer((json_int_t)g->ngen));
				nf = &g->gen[g->ngen++];
				add_name(nf, of);
				if (strcmp(of, name))
					add_name(nf, name);
				nf->type = type_of(field(pl, F_TYPE));
				nf->key = gen_key(g->id, of);
				nf->negatable = !strcmp(field(pl, F_BOOL), "optional");
				nf->optional_value = nf->type != SL_T_BOOL && !strcmp(field(pl, F_NARGS), "?");
				const char *d = field(pl, F_DEFAULT);
				if (*d) {
					json_error_t je;
					nf->dflt = json_loads(d, JSON_DECODE_ANY, &je);
				}
			}
			f = nf;
		}
		ix[nix].name = k;
		ix[nix].flag = f;
		ix[nix].line = name;
		nix++;
	}
	free(lines);
	json_decref(byprim);
	free(g->index);
	g->index = ix;
	g->nindex = nix;
	qsort(g->index, g->nindex, sizeof *g->index, cmp_ix);
	add_twins(g, twins, ntwins);
	free(twins);
}

void sl_engine_facts_config_join(sl_grammar *g)
{
	if (g->config_joined)
		return;
	g->config_joined = 1;
	g->nconfig_hand = g->nconfig_keys;
	const char *eng = sl_starts_with(g->id, "dynamo-") ? g->id + 7 : g->id;
	sl_buf id = {0};
	sl_buf_printf(&id, "%s-config", eng);
	char *text = facts_text(id.data);
	sl_buf_free(&id);
	if (!text)
		return;
	size_t cap = g->nconfig_keys;
	int first = 1;
	for (char *p = text; *p;) {
		char *line = p, *nl = strchr(p, '\n');
		char *end = nl ? nl : p + strlen(p);
		int fields = 1;
		for (char *q = line; q < end; q++)
			if (*q == '\t') {
				*q = '\0';
				fields++;
			}
		*end = '\0';
		p = nl ? nl + 1 : end;
		if (first) {  /* the releases: SL1001 judges a key by the entry's */
			first = 0;
			if (!strcmp(line, "releases")) {
				g->config_versions = json_array();
				for (int i = 1; i < fields; i++)
					json_array_append_new(g->config_versions, json_string(field(line, i)));
			}
			continue;
		}
		if (fields != F_N || !*line)
			continue;
		sl_config_key *have = NULL;  /* a hand-written key keeps its canonical key */
		for (size_t i = 0; i < g->nconfig_keys && !have; i++)
			if (!strcmp(g->config_keys[i].path, line))
				have = &g->config_keys[i];
		if (have) {
			if (!have->in)
				have->in = sl_strdup(field(line, F_IN));
			continue;
		}
		sl_config_key k;
		memset(&k, 0, sizeof k);
		k.path = sl_strdup(line);
		k.in = sl_strdup(field(line, F_IN));
		k.type = type_of(field(line, F_TYPE));
		sl_buf key = {0};
		sl_buf_printf(&key, "%s.%s", eng, line);
		k.key = key.data;
		const char *d = field(line, F_DEFAULT);
		if (*d) {
			json_error_t je;
			k.dflt = json_loads(d, JSON_DECODE_ANY, &je);
		}
		SL_PUSH(g->config_keys, g->nconfig_keys, cap, k);
	}
	free(text);
}

static void set_json(json_t *e, const char *key, const char *text)
{
	if (!*text)
		return;
	json_error_t je;
	json_t *v = json_loads(text, JSON_DECODE_ANY, &je);
	if (v)
		json_object_set_new(e, key, v);
}

static void set_str(json_t *e, const char *key, const char *text)
{
	if (*text)
		json_object_set_new(e, key, json_string(text));
}

json_t *sl_engine_facts_entry(const sl_flag_index *cx)
{
	sl_flag_index *x = (sl_flag_index *)cx;
	if (!x || !x->line)
		return NULL;
	json_t *had = __atomic_load_n(&x->facts, __ATOMIC_ACQUIRE);
	if (had)
		return had;
	json_t *e = json_object();
	set_str(e, "in", field(x->line, F_IN));
	set_str(e, "of", *field(x->line, F_OF) ? field(x->line, F_OF) : x->line);
	set_str(e, "type", field(x->line, F_TYPE));
	set_str(e, "bool", field(x->line, F_BOOL));
	set_json(e, "default", field(x->line, F_DEFAULT));
	set_json(e, "choices", field(x->line, F_CHOICES));
	set_str(e, "replacement", field(x->line, F_REPLACEMENT));
	set_json(e, "history", field(x->line, F_HISTORY));
	set_str(e, "deprecated", field(x->line, F_DEPRECATED));
	set_str(e, "nargs", field(x->line, F_NARGS));
	/* kept in the index; two threads that read the same spelling at once
	 * (check -j) keep the first one's, the same facts */
	if (!__atomic_compare_exchange_n(&x->facts, &had, e, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		json_decref(e);
		return had;
	}
	return e;
}

/* The member tables read so far: {id: {"r": [releases], "m": {"<flag>
 * <member>": facts}}}, an engine without one {}; kept for the process
 * (reachable, not a leak), never changed once an id's is in. */
static json_t *member_tables;
static pthread_mutex_t member_lock = PTHREAD_MUTEX_INITIALIZER;

static json_t *member_table(const char *id)
{
	json_t *t = json_object();
	sl_buf name = {0};
	sl_buf_printf(&name, "%s-members", id);
	char *text = facts_text(name.data);
	sl_buf_free(&name);
	if (!text)
		return t;
	json_t *rel = json_array(), *m = json_object();
	size_t n, ntwins;
	const char **twins;
	const char **lines = lines_of(text, rel, &n, &twins, &ntwins);
	for (size_t i = 0; i < n; i++) {
		sl_flag_index x = {.line = lines[i]};
		json_object_set_new(m, lines[i], sl_engine_facts_entry(&x));
	}
	free(lines);
	free(twins);
	free(text);
	json_object_set_new(t, "r", rel);
	json_object_set_new(t, "m", m);
	return t;
}

const json_t *sl_engine_facts_member(const char *id, const char *flag, const char *member, json_t **releases)
{
	pthread_mutex_lock(&member_lock);
	if (!member_tables)
		member_tables = json_object();
	json_t *t = json_object_get(member_tables, id);
	if (!t) {
		t = member_table(id);
		json_object_set_new(member_tables, id, t);
	}
	pthread_mutex_unlock(&member_lock);
	sl_buf key = {0};
	sl_buf_printf(&key, "%s %s", flag, member);
	const json_t *e = json_object_get(json_object_get(t, "m"), key.data);
	sl_buf_free(&key);
	*releases = json_object_get(t, "r");
	return e && *releases ? e : NULL;
}

void sl_engine_facts_free(sl_grammar *g)
{
	for (size_t i = 0; i < g->ngen; i++) {
		for (size_t k = 0; k < g->gen[i].nnames; k++)
			free(g->gen[i].names[k]);
		free(g->gen[i].names);
		free(g->gen[i].key);
		json_decref(g->gen[i].dflt);
	}
	free(g->gen);
	json_decref(g->kept);
	json_decref(g->defaults);
	json_decref(g->versions);
	json_decref(g->config_versions);
	for (size_t i = 0; i < g->nindex; i++)
		json_decref(g->index[i].facts);
	free(g->facts);
}
