/*
 * facts.c: the engines' generated facts joined to the hand-written grammars.
 * Below grammar.c: it uses no other file of normalize (grammar.c calls it
 * the first time a grammar is matched against, so an engine no entry uses
 * costs nothing at start-up).
 *
 * A facts document (grammars/facts/<id>.json) holds the recorded releases
 * and, per spelling, `in` (one character per release: 1 accepted), first,
 * last, removed, deprecated, replacement, the newest type, choices, default
 * and bool kind, `of` (the primary spelling) and `history` (older facts).
 */
#include "facts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct blob { const char *name; const char *data; size_t len; };
extern const struct blob sl_facts_blob[];

static json_t *facts_doc(const char *id)
{
	json_error_t je;
	const char *dir = getenv("SERVELINT_FACTS");
	if (dir && *dir) {
		sl_buf p = {0};
		sl_buf_printf(&p, "%s/%s.json", dir, id);
		json_t *doc = json_load_file(p.data, 0, &je);
		sl_buf_free(&p);
		return doc;
	}
	size_t n = strlen(id);
	for (size_t i = 0; sl_facts_blob[i].name; i++)
		if (!strncmp(sl_facts_blob[i].name, id, n) && !strcmp(sl_facts_blob[i].name + n, ".json"))
			return json_loadb(sl_facts_blob[i].data, sl_facts_blob[i].len, 0, &je);
	return NULL;
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
	sl_flag_index key = {(char *)name, NULL, NULL};
	return n ? bsearch(&key, ix, n, sizeof *ix, cmp_ix) : NULL;
}

static sl_type type_of(const json_t *e)
{
	const char *t = json_string_value(json_object_get(e, "type"));
	if (!t)
		return SL_T_STRING;
	if (!strcmp(t, "bool"))
		return SL_T_BOOL;
	if (json_object_get(e, "nargs") || !strcmp(t, "list"))
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
	sl_buf k = {0};
	sl_buf_printf(&k, "%s.", id);
	while (*name == '-')
		name++;
	for (; *name; name++)
		sl_buf_putc(&k, *name == '-' ? '_' : *name);
	return k.data;
}

static void add_name(sl_flag *f, const char *name)
{
	f->names = sl_realloc(f->names, (f->nnames + 1) * sizeof *f->names);
	f->names[f->nnames++] = sl_strdup(name);
}

void sl_facts_join(sl_grammar *g)
{
	if (g->facts_joined)
		return;
	g->facts_joined = 1;
	json_t *doc = facts_doc(g->id);
	json_t *flags = json_object_get(doc, "flags");
	if (!json_is_object(flags)) {
		json_decref(doc);
		return;
	}
	g->facts = doc;
	g->versions = json_array();
	size_t nr = json_array_size(json_object_get(doc, "releases"));
	for (size_t i = 0; i < nr; i++)
		json_array_append(g->versions,
				  json_object_get(json_array_get(json_object_get(doc, "releases"), i), "version"));
	size_t n = json_object_size(flags), nix = g->nindex;
	sl_flag_index *ix = sl_calloc(g->nindex + n, sizeof *ix);
	memcpy(ix, g->index, g->nindex * sizeof *ix);
	g->gen = sl_calloc(n, sizeof *g->gen);
	json_t *byprim = json_object();  /* a generated flag's primary spelling -> its index in gen */
	const char *name;
	json_t *e;
	json_object_foreach(flags, name, e) {
		if (name[0] != '-')
			continue;
		char *k = norm(name, g->underscores);
		sl_flag_index *hit = find(ix, g->nindex, k);
		if (hit) {
			hit->facts = e;
			free(k);
			continue;
		}
		const char *of = json_string_value(json_object_get(e, "of"));
		if (!of)
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
				json_t *pe = json_object_get(flags, of);
				if (!pe)
					pe = e;
				json_object_set_new(byprim, of, json_integer((json_int_t)g->ngen));
				nf = &g->gen[g->ngen++];
				add_name(nf, of);
				if (strcmp(of, name))
					add_name(nf, name);
				nf->type = type_of(pe);
				nf->key = gen_key(g->id, of);
				const char *b = json_string_value(json_object_get(pe, "bool"));
				nf->negatable = b && !strcmp(b, "optional");
				json_t *d = json_object_get(pe, "default");
				if (d && !json_is_object(d))
					nf->dflt = json_incref(d);
			}
			f = nf;
		}
		ix[nix].name = k;
		ix[nix].flag = f;
		ix[nix].facts = e;
		nix++;
	}
	json_decref(byprim);
	free(g->index);
	g->index = ix;
	g->nindex = nix;
	qsort(g->index, g->nindex, sizeof *g->index, cmp_ix);
}

void sl_facts_free(sl_grammar *g)
{
	for (size_t i = 0; i < g->ngen; i++) {
		for (size_t k = 0; k < g->gen[i].nnames; k++)
			free(g->gen[i].names[k]);
		free(g->gen[i].names);
		free(g->gen[i].key);
		json_decref(g->gen[i].dflt);
	}
	free(g->gen);
	json_decref(g->versions);
	json_decref(g->facts);
}
