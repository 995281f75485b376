/*
 * data_ready.c: a build tool. `data-ready GRAMMARS.c RULES.c FACTS.c`, run
 * in the source tree, loads the data files with servelint's own loaders
 * (the YAML of grammars/engines with the generated facts of grammars/facts
 * joined, as sl_grammars_share joins them for check -j; rules/;
 * grammars/hardware and grammars/models) and writes each
 * result as C tables of the very structs the loaders made
 * (sl_grammars_builtin, sl_rules_builtin, sl_facts_builtin). The binary
 * starts from those tables: no YAML read, no facts joined, nothing to free
 * at exit but the few JSON values of the grammars, which jansson cannot
 * hold in static data and sl_grammars_builtin_json makes at the first load.
 * A data file a loader refuses fails the build with its file:line:column.
 * tests/unit/test_ready.c holds the tables against the files.
 *
 * Links the core stages' objects (cmake/ready_stub.c stands for the tables
 * it makes); a field added to sl_grammar, sl_flag, sl_choice_ext, sl_rule,
 * sl_hw or sl_arch is added here and to test_ready.c's dumps.
 */
#include "check/rules.h"
#include "normalize/grammar.h"
#include "plan/plan.h"

#include <stdio.h>

/* Each table below is written field by field: a field added to one of
 * these structs and not written here would be zero in the built-in data
 * while a load from the files has it (a rule word, a model fact): the build
 * stops instead. On LP64, the sizes of today's structs; when one changes,
 * write its new field here and in tests/unit/test_ready.c's dump, then
 * update its size. */
#if defined(__LP64__)
#define SIZED(t, n) _Static_assert(sizeof(t) == (n), #t " changed: write its new field in cmake/data_ready.c")
SIZED(sl_rule, 168);
SIZED(sl_grammar, 328);
SIZED(sl_choice_ext, 72);
SIZED(sl_flag, 112);
SIZED(sl_envvar, 40);
SIZED(sl_config_key, 48);
SIZED(sl_flag_index, 32);
SIZED(sl_json_key, 16);
SIZED(sl_hw, 152);
SIZED(sl_arch, 312);
#endif
#include <stdlib.h>
#include <string.h>

static FILE *out;

/* a C string literal of s[0..n) (octal for all but printable bytes: no
 * trigraph, no hex escape running into the next digit) */
static void put_bytes(const char *s, size_t n)
{
	fputc('"', out);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\' && c != '?')
			fputc(c, out);
		else
			fprintf(out, "\\%03o", c);
		if (i % 100 == 99 && i + 1 < n)
			fputs("\"\n\"", out);
	}
	fputc('"', out);
}

static void str(const char *s)
{
	if (!s) {
		fputs("NULL", out);
		return;
	}
	fputs("(char *)", out);
	put_bytes(s, strlen(s));
}

/* an array of strings, named NAME, or nothing when n is 0 */
static void strs(const char *name, char *const *v, size_t n)
{
	if (!n)
		return;
	fprintf(out, "static char *%s[%zu] = {", name, n);
	for (size_t i = 0; i < n; i++) {
		fputs(i ? ", " : "", out);
		str(v[i]);
	}
	fputs("};\n", out);
}

static void ref(const char *name, size_t n)
{
	fputs(n ? name : "NULL", out);
}

/* a double written exactly (a hexadecimal float) */
static void dbl(double d)
{
	fprintf(out, "%a", d);
}

/* ---- JSON values: an expression that makes v with jansson's calls ------ */

static void json_expr(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT: {
		const char *k;
		json_t *x;
		size_t n = json_object_size(v), i = 0;
		for (size_t d = 0; d < n; d++)
			fputs("jo(", out);
		fputs("json_object()", out);
		json_object_foreach((json_t *)v, k, x) {
			fputs(", ", out);
			put_bytes(k, strlen(k));
			fputs(", ", out);
			json_expr(x);
			fputs(")", out);
			i++;
		}
		break;
	}
	case JSON_ARRAY:
		for (size_t d = 0; d < json_array_size(v); d++)
			fputs("ja(", out);
		fputs("json_array()", out);
		for (size_t i = 0; i < json_array_size(v); i++) {
			fputs(", ", out);
			json_expr(json_array_get(v, i));
			fputs(")", out);
		}
		break;
	case JSON_STRING:
		fputs("json_stringn(", out);
		put_bytes(json_string_value(v), json_string_length(v));
		fprintf(out, ", %zu)", json_string_length(v));
		break;
	case JSON_INTEGER:
		fprintf(out, "json_integer(%lldLL)", (long long)json_integer_value(v));
		break;
	case JSON_REAL:
		fputs("json_real(", out);
		dbl(json_real_value(v));
		fputs(")", out);
		break;
	case JSON_TRUE:
		fputs("json_true()", out);
		break;
	case JSON_FALSE:
		fputs("json_false()", out);
		break;
	case JSON_NULL:
		fputs("json_null()", out);
		break;
	}
}

/* `LVALUE = EXPR;` in the function that makes the JSON values */
static void json_set(FILE *mk, const char *lvalue, const json_t *v)
{
	if (!v)
		return;
	FILE *was = out;
	out = mk;
	fprintf(out, "\t%s = ", lvalue);
	json_expr(v);
	fputs(";\n", out);
	out = was;
}

/* ---- grammars ---------------------------------------------------------- */

static int fail(const char *what)
{
	fprintf(stderr, "data-ready: %s\n", what);
	return 1;
}

static void flags_of(FILE *mk, size_t gi, const char *arr, const sl_flag *fl, size_t n)
{
	char name[128], lv[160];
	for (size_t i = 0; i < n; i++) {
		const sl_flag *f = &fl[i];
		snprintf(name, sizeof name, "g%zu_%s%zu_names", gi, arr, i);
		strs(name, f->names, f->nnames);
		snprintf(name, sizeof name, "g%zu_%s%zu_members", gi, arr, i);
		strs(name, f->members, f->nmembers);
		if (f->njkeys) {
			fprintf(out, "static sl_json_key g%zu_%s%zu_jkeys[%zu] = {", gi, arr, i, f->njkeys);
			for (size_t k = 0; k < f->njkeys; k++) {
				fputs("{", out);
				str(f->jkeys[k].member);
				fputs(", ", out);
				str(f->jkeys[k].key);
				fputs("}, ", out);
			}
			fputs("};\n", out);
		}
		snprintf(lv, sizeof lv, "g%zu_%s[%zu].dflt", gi, arr, i);
		json_set(mk, lv, f->dflt);
		snprintf(lv, sizeof lv, "g%zu_%s[%zu].same", gi, arr, i);
		json_set(mk, lv, f->same);
	}
	if (!n)
		return;
	fprintf(out, "static sl_flag g%zu_%s[%zu] = {\n", gi, arr, n);
	for (size_t i = 0; i < n; i++) {
		const sl_flag *f = &fl[i];
		fprintf(out, "\t{.names = g%zu_%s%zu_names, .nnames = %zu, .type = %d, .key = ", gi, arr, i, f->nnames,
			(int)f->type);
		str(f->key);
		fputs(", .since = ", out);
		str(f->since);
		fputs(", .until = ", out);
		str(f->until);
		fputs(", .action = ", out);
		str(f->action);
		fprintf(out, ", .negatable = %d, .stores_false = %d, .optional_value = %d, .jkeys = ", f->negatable,
			f->stores_false, f->optional_value);
		snprintf(name, sizeof name, "g%zu_%s%zu_jkeys", gi, arr, i);
		ref(name, f->njkeys);
		fprintf(out, ", .njkeys = %zu, .members = ", f->njkeys);
		snprintf(name, sizeof name, "g%zu_%s%zu_members", gi, arr, i);
		ref(name, f->nmembers);
		fprintf(out, ", .nmembers = %zu},\n", f->nmembers);
	}
	fputs("};\n", out);
}

/* The length of g's facts table, its fields NUL-separated by the join:
 * the file's, as the join read it */
static long facts_len(const sl_grammar *g, const char *dir)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s.tsv", dir, g->id);
	FILE *f = fopen(path, "rb");
	if (!f || fseek(f, 0, SEEK_END))
		return -1;
	long n = ftell(f);
	fclose(f);
	return n;
}

static int grammar_of(const sl_grammars *gs, const sl_grammar *g)
{
	for (size_t i = 0; i < gs->n; i++)
		if (&gs->g[i] == g)
			return (int)i;
	return -1;
}

static int emit_grammars(const char *path, const char *facts_dir)
{
	sl_error err = {0};
	sl_grammars *gs;
	if (sl_grammars_load(&gs, &err)) {
		sl_error_print(&err, "data-ready");
		return 1;
	}
	sl_grammars_share(gs);
	out = fopen(path, "w");
	FILE *mk = tmpfile();
	if (!out || !mk)
		return fail("cannot write the grammars' tables");
	fprintf(out, "/* generated by cmake/data_ready.c from grammars/engines and grammars/facts; do not edit */\n"
		     "#include \"normalize/grammar.h\"\n\n"
		     "static inline json_t *ja(json_t *a, json_t *v) { json_array_append_new(a, v); return a; }\n"
		     "static inline json_t *jo(json_t *o, const char *k, json_t *v) { json_object_set_new(o, k, v); return o; }\n"
		     "static sl_grammar G[%zu];\n\n", gs->n + 1);
	char name[128], lv[160];
	for (size_t gi = 0; gi < gs->n; gi++) {
		const sl_grammar *g = &gs->g[gi];
		fprintf(out, "/* %s */\n", g->id);
		snprintf(name, sizeof name, "g%zu_include", gi);
		strs(name, g->include, g->ninclude);
		snprintf(name, sizeof name, "g%zu_positionals", gi);
		strs(name, g->positionals, g->npositionals);
		snprintf(name, sizeof name, "g%zu_programs", gi);
		strs(name, g->programs, g->nprograms);
		snprintf(name, sizeof name, "g%zu_modules", gi);
		strs(name, g->modules, g->nmodules);
		snprintf(name, sizeof name, "g%zu_optional", gi);
		strs(name, g->optional_sections, g->noptional_sections);
		flags_of(mk, gi, "flags", g->flags, g->nflags);
		flags_of(mk, gi, "gen", g->gen, g->ngen);
		if (g->nchoice_ext) {
			for (size_t i = 0; i < g->nchoice_ext; i++) {
				const sl_choice_ext *x = &g->choice_ext[i];
				/* the flag it changes is one of an included grammar's */
				int found = 0;
				for (size_t k = 0; k < g->ninclude && !found; k++) {
					const sl_grammar *inc = sl_grammar_find(gs, g->include[k]);
					sl_flag_match m;
					found = inc && sl_grammar_match(gs, inc, x->flag, &m) && !m.abbrev && !m.negated;
				}
				if (!found) {
					fprintf(stderr, "data-ready: grammars/engines/%s.yaml: include_choices: `%s` is no flag of the grammars it includes\n",
						g->id, x->flag);
					return 1;
				}
				snprintf(name, sizeof name, "g%zu_ext%zu_values", gi, i);
				strs(name, x->values, x->nvalues);
				snprintf(name, sizeof name, "g%zu_ext%zu_same_from", gi, i);
				strs(name, x->same_from, x->nsame);
				snprintf(name, sizeof name, "g%zu_ext%zu_same_to", gi, i);
				strs(name, x->same_to, x->nsame);
			}
			fprintf(out, "static sl_choice_ext g%zu_ext[%zu] = {\n", gi, g->nchoice_ext);
			for (size_t i = 0; i < g->nchoice_ext; i++) {
				const sl_choice_ext *x = &g->choice_ext[i];
				fputs("\t{.flag = ", out);
				str(x->flag);
				fprintf(out, ", .values = g%zu_ext%zu_values, .nvalues = %zu, .replace = %d, .since = ", gi, i,
					x->nvalues, x->replace);
				str(x->since);
				fputs(", .until = ", out);
				str(x->until);
				fputs(", .same_from = ", out);
				snprintf(name, sizeof name, "g%zu_ext%zu_same_from", gi, i);
				ref(name, x->nsame);
				fputs(", .same_to = ", out);
				snprintf(name, sizeof name, "g%zu_ext%zu_same_to", gi, i);
				ref(name, x->nsame);
				fprintf(out, ", .nsame = %zu", x->nsame);
				fputs("},\n", out);
			}
			fputs("};\n", out);
		}
		if (g->nenv) {
			fprintf(out, "static sl_envvar g%zu_env[%zu] = {\n", gi, g->nenv);
			for (size_t i = 0; i < g->nenv; i++) {
				const sl_envvar *e = &g->env[i];
				fputs("\t{.name = ", out);
				str(e->name);
				fputs(", .key = ", out);
				str(e->key);
				fprintf(out, ", .type = %d, .in = ", (int)e->type);
				str(e->in);
				if (e->of) {
					int of = grammar_of(gs, e->of);
					if (of < 0)
						return fail("an env var twin of a grammar not loaded");
					fprintf(out, ", .of = &G[%d]", of);
				}
				fputs("},\n", out);
			}
			fputs("};\n", out);
		}
		if (g->nconfig_keys) {
			fprintf(out, "static sl_config_key g%zu_ck[%zu] = {\n", gi, g->nconfig_keys);
			for (size_t i = 0; i < g->nconfig_keys; i++) {
				const sl_config_key *k = &g->config_keys[i];
				fputs("\t{.path = ", out);
				str(k->path);
				fprintf(out, ", .type = %d, .key = ", (int)k->type);
				str(k->key);
				fputs(", .replicas_of = ", out);
				str(k->replicas_of);
				fputs(", .in = ", out);
				str(k->in);
				fputs("},\n", out);
				snprintf(lv, sizeof lv, "g%zu_ck[%zu].dflt", gi, i);
				json_set(mk, lv, k->dflt);
			}
			fputs("};\n", out);
		}
		long flen = 0;
		if (g->facts) {
			flen = facts_len(g, facts_dir);
			if (flen < 0)
				return fail("a grammar's facts table cannot be read again");
			fprintf(out, "static char g%zu_facts[%ld] = ", gi, flen + 1);
			put_bytes(g->facts, (size_t)flen);
			fputs(";\n", out);
		}
		if (g->nindex) {
			fprintf(out, "static sl_flag_index g%zu_index[%zu] = {\n", gi, g->nindex);
			for (size_t i = 0; i < g->nindex; i++) {
				const sl_flag_index *x = &g->index[i];
				fputs("\t{.name = ", out);
				str(x->name);
				if (x->flag >= g->flags && x->flag < g->flags + g->nflags)
					fprintf(out, ", .flag = &g%zu_flags[%td]", gi, x->flag - g->flags);
				else if (x->flag >= g->gen && x->flag < g->gen + g->ngen)
					fprintf(out, ", .flag = &g%zu_gen[%td]", gi, x->flag - g->gen);
				else
					return fail("a spelling of a flag not of its grammar");
				if (x->line) {
					if (!g->facts || x->line < g->facts || x->line >= g->facts + flen)
						return fail("a spelling's facts line outside its table");
					fprintf(out, ", .line = &g%zu_facts[%td]", gi, x->line - g->facts);
				}
				fputs("},\n", out);
			}
			fputs("};\n", out);
		}
		snprintf(lv, sizeof lv, "G[%zu].health", gi);
		json_set(mk, lv, g->health);
		snprintf(lv, sizeof lv, "G[%zu].images", gi);
		json_set(mk, lv, g->images);
		snprintf(lv, sizeof lv, "G[%zu].versions", gi);
		json_set(mk, lv, g->versions);
		snprintf(lv, sizeof lv, "G[%zu].config_versions", gi);
		json_set(mk, lv, g->config_versions);
		fputs("\n", out);
	}
	fprintf(out, "static sl_grammar G[%zu] = {\n", gs->n + 1);
	for (size_t gi = 0; gi < gs->n; gi++) {
		const sl_grammar *g = &gs->g[gi];
		fputs("\t{.id = ", out);
		str(g->id);
		fputs(", .title = ", out);
		str(g->title);
		fputs(", .kind = ", out);
		str(g->kind);
		fputs(", .include = ", out);
		snprintf(name, sizeof name, "g%zu_include", gi);
		ref(name, g->ninclude);
		fprintf(out, ", .ninclude = %zu,\n\t .underscores = %d, .abbrev = %d, .dotted = %d, .negation = ", g->ninclude,
			g->underscores, g->abbrev, g->dotted);
		str(g->negation);
		fputs(", .positionals = ", out);
		snprintf(name, sizeof name, "g%zu_positionals", gi);
		ref(name, g->npositionals);
		fprintf(out, ", .npositionals = %zu,\n\t .flags = ", g->npositionals);
		snprintf(name, sizeof name, "g%zu_flags", gi);
		ref(name, g->nflags);
		fprintf(out, ", .nflags = %zu, .env = ", g->nflags);
		snprintf(name, sizeof name, "g%zu_env", gi);
		ref(name, g->nenv);
		fprintf(out, ", .nenv = %zu, .config_keys = ", g->nenv);
		snprintf(name, sizeof name, "g%zu_ck", gi);
		ref(name, g->nconfig_keys);
		fprintf(out, ", .nconfig_keys = %zu,\n\t .config_from = ", g->nconfig_keys);
		str(g->config_from);
		fputs(", .optional_sections = ", out);
		snprintf(name, sizeof name, "g%zu_optional", gi);
		ref(name, g->noptional_sections);
		fprintf(out, ", .noptional_sections = %zu", g->noptional_sections);
		fprintf(out, ", .config_wins = %d, .config_as_flags = %d, .programs = ", g->config_wins, g->config_as_flags);
		snprintf(name, sizeof name, "g%zu_programs", gi);
		ref(name, g->nprograms);
		fprintf(out, ", .nprograms = %zu, .modules = ", g->nprograms);
		snprintf(name, sizeof name, "g%zu_modules", gi);
		ref(name, g->nmodules);
		fprintf(out, ", .nmodules = %zu, .role = ", g->nmodules);
		str(g->role);
		fputs(", .choice_ext = ", out);
		snprintf(name, sizeof name, "g%zu_ext", gi);
		ref(name, g->nchoice_ext);
		fprintf(out, ", .nchoice_ext = %zu", g->nchoice_ext);
		fputs(",\n\t .index = ", out);
		snprintf(name, sizeof name, "g%zu_index", gi);
		ref(name, g->nindex);
		fprintf(out, ", .nindex = %zu, .facts_joined = %d, .config_joined = %d, .nconfig_hand = %zu, .facts = ",
			g->nindex, g->facts_joined, g->config_joined, g->nconfig_hand);
		snprintf(name, sizeof name, "g%zu_facts", gi);
		ref(name, g->facts != NULL);
		fputs(", .gen = ", out);
		snprintf(name, sizeof name, "g%zu_gen", gi);
		ref(name, g->ngen);
		fprintf(out, ", .ngen = %zu},\n", g->ngen);
	}
	fputs("\t{.id = NULL},\n};\n\n", out);
	fprintf(out, "sl_grammars sl_grammars_builtin = {G, %zu, NULL, 0};\n\n", gs->n);
	fputs("void sl_grammars_builtin_json(void)\n{\n", out);
	rewind(mk);
	int c;
	while ((c = fgetc(mk)) != EOF)
		fputc(c, out);
	fputs("}\n", out);
	fclose(mk);
	int bad = ferror(out);
	if (fclose(out) | bad)
		return fail("cannot write the grammars' tables");
	sl_grammars_free(gs);
	return 0;
}

/* ---- rules ----------------------------------------------------------- */

static int emit_rules(const char *path)
{
	sl_error err = {0};
	sl_rules *rs;
	if (sl_rules_load(&rs, &err)) {
		sl_error_print(&err, "data-ready");
		return 1;
	}
	out = fopen(path, "w");
	if (!out)
		return fail("cannot write the rules' table");
	fputs("/* generated by cmake/data_ready.c from rules/; do not edit */\n#include \"check/rules.h\"\n\n", out);
	char name[64];
	for (size_t i = 0; i < rs->n; i++) {
		snprintf(name, sizeof name, "r%zu_keys", i);
		strs(name, rs->v[i].keys, rs->v[i].nkeys);
		snprintf(name, sizeof name, "r%zu_unless", i);
		strs(name, rs->v[i].unless, rs->v[i].nunless);
		snprintf(name, sizeof name, "r%zu_unless_engines", i);
		strs(name, rs->v[i].unless_engines, rs->v[i].nunless_engines);
	}
	fprintf(out, "static sl_rule R[%zu] = {\n", rs->n + 1);
	for (size_t i = 0; i < rs->n; i++) {
		const sl_rule *r = &rs->v[i];
		fputs("\t{.id = ", out);
		str(r->id);
		fputs(", .name = ", out);
		str(r->name);
		fputs(",\n\t .summary = ", out);
		str(r->summary);
		fputs(",\n\t .explanation = ", out);
		str(r->explanation);
		fputs(",\n\t .bad = ", out);
		str(r->bad);
		fputs(",\n\t .good = ", out);
		str(r->good);
		fprintf(out, ",\n\t .severity = %d, .kind = %d, .keys = ", (int)r->severity, (int)r->kind);
		snprintf(name, sizeof name, "r%zu_keys", i);
		ref(name, r->nkeys);
		fprintf(out, ", .nkeys = %zu, .min = ", r->nkeys);
		dbl(r->min);
		fputs(", .max = ", out);
		dbl(r->max);
		fprintf(out, ", .has_min = %d, .has_max = %d, .min_excl = %d, .max_excl = %d, .unless = ", r->has_min,
			r->has_max, r->min_excl, r->max_excl);
		snprintf(name, sizeof name, "r%zu_unless", i);
		ref(name, r->nunless);
		fprintf(out, ", .nunless = %zu, .unless_engines = ", r->nunless);
		snprintf(name, sizeof name, "r%zu_unless_engines", i);
		ref(name, r->nunless_engines);
		fprintf(out, ", .nunless_engines = %zu, .some_worker = %d, .direction = %d, .cname = ", r->nunless_engines,
			r->some_worker, r->direction);
		str(r->cname);
		fprintf(out, ", .catalogue = %d, .across_engines = %d, .fix = %d, .advisory = %d},\n", r->catalogue,
			r->across_engines, (int)r->fix, r->advisory);
	}
	fputs("\t{.id = NULL},\n};\n\n", out);
	fprintf(out, "sl_rules sl_rules_builtin = {R, %zu};\n", rs->n);
	int bad = ferror(out);
	if (fclose(out) | bad)
		return fail("cannot write the rules' table");
	sl_rules_free(rs);
	return 0;
}

/* ---- accelerator and model facts --------------------------------------- */

static int emit_facts(const char *path)
{
	sl_error err = {0};
	sl_facts *f;
	if (sl_facts_load(&f, &err)) {
		sl_error_print(&err, "data-ready");
		return 1;
	}
	out = fopen(path, "w");
	if (!out)
		return fail("cannot write the facts' table");
	fputs("/* generated by cmake/data_ready.c from grammars/hardware and grammars/models; do not edit */\n"
	      "#include \"plan/plan.h\"\n\n", out);
	char name[64];
	for (size_t i = 0; i < f->nhw; i++) {
		const sl_hw *h = &f->hw[i];
		snprintf(name, sizeof name, "h%zu_match", i);
		strs(name, h->match, h->nmatch);
		snprintf(name, sizeof name, "h%zu_words", i);
		strs(name, h->match_words, h->nmatch);
		snprintf(name, sizeof name, "h%zu_native", i);
		strs(name, h->native, h->nnative);
		snprintf(name, sizeof name, "h%zu_none", i);
		strs(name, h->none, h->nnone);
	}
	fprintf(out, "static sl_hw H[%zu] = {\n", f->nhw + 1);
	for (size_t i = 0; i < f->nhw; i++) {
		const sl_hw *h = &f->hw[i];
		fputs("\t{.id = ", out);
		str(h->id);
		fputs(", .name = ", out);
		str(h->name);
		fputs(", .match = ", out);
		snprintf(name, sizeof name, "h%zu_match", i);
		ref(name, h->nmatch);
		fputs(", .match_words = ", out);
		snprintf(name, sizeof name, "h%zu_words", i);
		ref(name, h->nmatch);
		fprintf(out, ", .nmatch = %zu, .vendor = ", h->nmatch);
		str(h->vendor);
		fputs(", .devices = ", out);
		str(h->devices);
		fputs(",\n\t .mem_gib = ", out);
		dbl(h->mem_gib);
		fputs(", .mem_source = ", out);
		str(h->mem_source);
		fprintf(out, ",\n\t .node_gpus = %ld, .node_source = ", h->node_gpus);
		str(h->node_source);
		fprintf(out, ",\n\t .domain_gpus = %ld, .domain_source = ", h->domain_gpus);
		str(h->domain_source);
		fputs(",\n\t .native = ", out);
		snprintf(name, sizeof name, "h%zu_native", i);
		ref(name, h->nnative);
		fputs(", .none = ", out);
		snprintf(name, sizeof name, "h%zu_none", i);
		ref(name, h->nnone);
		fprintf(out, ", .nnative = %zu, .nnone = %zu, .prec_source = ", h->nnative, h->nnone);
		str(h->prec_source);
		fputs(", .file = ", out);
		str(h->file);
		fputs("},\n", out);
	}
	fputs("\t{.id = NULL},\n};\n\n", out);
	for (size_t i = 0; i < f->narch; i++) {
		snprintf(name, sizeof name, "a%zu_names", i);
		strs(name, f->arch[i].names, f->arch[i].nnames);
	}
	fprintf(out, "static sl_arch A[%zu] = {\n", f->narch + 1);
	for (size_t i = 0; i < f->narch; i++) {
		const sl_arch *a = &f->arch[i];
		fputs("\t{.id = ", out);
		str(a->id);
		fputs(", .names = ", out);
		snprintf(name, sizeof name, "a%zu_names", i);
		ref(name, a->nnames);
		fprintf(out, ", .nnames = %zu, .source = ", a->nnames);
		str(a->source);
		fputs(",\n\t .file = ", out);
		str(a->file);
		fputs(", .model_type = ", out);
		str(a->model_type);
		fprintf(out, ", .attn = %d,\n\t .layers = %ld, .hidden = %ld, .heads = %ld, .kv_heads = %ld, .head_dim = %ld, "
			     ".vocab = %ld,\n\t .intermediate = %ld, .moe_intermediate = %ld,\n\t .experts = %ld, "
			     ".experts_per_tok = %ld, .shared_experts = %ld, .first_dense = %ld,\n\t .q_lora_rank = %ld, "
			     ".kv_lora_rank = %ld, .qk_nope_head_dim = %ld, .qk_rope_head_dim = %ld, .v_head_dim = %ld,\n\t "
			     ".full_layers = %ld, .sliding_window = %ld, .max_pos = %ld, .rope_scaling = %d, .tied = %d, "
			     ".attn_bias = %d, .qk_norm = %d,\n\t .quant = ",
			(int)a->attn, a->layers, a->hidden, a->heads, a->kv_heads, a->head_dim, a->vocab, a->intermediate,
			a->moe_intermediate, a->experts, a->experts_per_tok, a->shared_experts, a->first_dense, a->q_lora_rank,
			a->kv_lora_rank, a->qk_nope_head_dim, a->qk_rope_head_dim, a->v_head_dim, a->full_layers,
			a->sliding_window, a->max_pos, a->rope_scaling, a->tied, a->attn_bias, a->qk_norm);
		str(a->quant);
		fputs(", .dtype = ", out);
		str(a->dtype);
		fputs(", .params = ", out);
		dbl(a->params);
		fputs(", .params_source = ", out);
		str(a->params_source);
		fputs(", .params_experts = ", out);
		dbl(a->params_experts);
		fprintf(out, ",\n\t .mtp_layers = %ld, .rope_type = %d, .rope_original = %ld, .rope_factor = ", a->mtp_layers,
			(int)a->rope_type, a->rope_original);
		dbl(a->rope_factor);
		fputs(", .params_embed = ", out);
		dbl(a->params_embed);
		fputs("},\n", out);
	}
	fputs("\t{.id = NULL},\n};\n\n", out);
	fprintf(out, "sl_facts sl_facts_builtin = {H, %zu, A, %zu};\n", f->nhw, f->narch);
	int bad = ferror(out);
	if (fclose(out) | bad)
		return fail("cannot write the facts' table");
	sl_facts_free(f);
	return 0;
}

/* Each table is written to OUT.tmp and renamed: a failed run leaves none. */
static int emit(int (*fn)(const char *), const char *path)
{
	char tmp[4096];
	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	if (fn(tmp)) {
		remove(tmp);
		return 1;
	}
	if (rename(tmp, path)) {
		perror(path);
		return 1;
	}
	return 0;
}

static int grammars(const char *tmp)
{
	return emit_grammars(tmp, "grammars/facts");
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: data-ready GRAMMARS.c RULES.c FACTS.c (in the source tree)\n");
		return 2;
	}
	/* the loaders read the source tree's files, as these variables make
	 * servelint read them (docs/development.md); the paths they record
	 * (a model's file) are the source tree's, relative */
	setenv("SERVELINT_GRAMMARS", "grammars/engines", 1);
	setenv("SERVELINT_FACTS", "grammars/facts", 1);
	setenv("SERVELINT_RULES", "rules", 1);
	if (emit(grammars, argv[1]) || emit(emit_rules, argv[2]))
		return 1;
	/* the accelerator and model facts: $SERVELINT_FACTS/hardware and /models */
	setenv("SERVELINT_FACTS", "grammars", 1);
	return emit(emit_facts, argv[3]);
}
