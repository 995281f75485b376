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
 * Each table is an image (cmake/data_image.h): words without an address,
 * made ready by the first command that needs it (sl_*_builtin_ready).
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
#include "data_image.h"

#include <stddef.h>
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


/* ---- grammars ---------------------------------------------------------- */

static int fail(const char *what)
{
	fprintf(stderr, "data-ready: %s\n", what);
	return 1;
}

#define F(type, field) offsetof(type, field)

/* n flags in the image: their array's offset (0 when n is 0); their JSON
 * values made by the function mk writes */
static size_t flags_of(FILE *mk, const sl_flag *fl, size_t n)
{
	if (!n)
		return 0;
	char lv[96];
	size_t arr = im_alloc(n * sizeof(sl_flag), _Alignof(sl_flag));
	for (size_t i = 0; i < n; i++) {
		const sl_flag *f = &fl[i];
		size_t at = arr + i * sizeof(sl_flag);
		sl_flag x = {.nnames = f->nnames, .type = f->type, .optional_value = f->optional_value,
			     .negatable = f->negatable, .stores_false = f->stores_false, .njkeys = f->njkeys,
			     .nmembers = f->nmembers};
		im_put(at, &x, sizeof x);
		im_strs(at + F(sl_flag, names), f->names, f->nnames);
		im_str(at + F(sl_flag, key), f->key);
		im_str(at + F(sl_flag, since), f->since);
		im_str(at + F(sl_flag, until), f->until);
		im_str(at + F(sl_flag, action), f->action);
		if (f->njkeys) {
			size_t jk = im_alloc(f->njkeys * sizeof(sl_json_key), _Alignof(sl_json_key));
			for (size_t k = 0; k < f->njkeys; k++) {
				im_str(jk + k * sizeof(sl_json_key) + F(sl_json_key, member), f->jkeys[k].member);
				im_str(jk + k * sizeof(sl_json_key) + F(sl_json_key, key), f->jkeys[k].key);
			}
			im_ptr(at + F(sl_flag, jkeys), jk);
		}
		im_strs(at + F(sl_flag, members), f->members, f->nmembers);
		snprintf(lv, sizeof lv, "AT(sl_flag, %zu)->dflt", at);
		json_set(mk, lv, f->dflt);
		snprintf(lv, sizeof lv, "AT(sl_flag, %zu)->same", at);
		json_set(mk, lv, f->same);
	}
	return arr;
}

/* g's include_choices: each changes a flag of a grammar it includes */
static int choice_ext_of(const sl_grammars *gs, const sl_grammar *g, size_t at)
{
	if (!g->nchoice_ext)
		return 0;
	size_t arr = im_alloc(g->nchoice_ext * sizeof(sl_choice_ext), _Alignof(sl_choice_ext));
	for (size_t i = 0; i < g->nchoice_ext; i++) {
		const sl_choice_ext *x = &g->choice_ext[i];
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
		size_t xa = arr + i * sizeof(sl_choice_ext);
		sl_choice_ext y = {.nvalues = x->nvalues, .replace = x->replace, .nsame = x->nsame};
		im_put(xa, &y, sizeof y);
		im_str(xa + F(sl_choice_ext, flag), x->flag);
		im_strs(xa + F(sl_choice_ext, values), x->values, x->nvalues);
		im_str(xa + F(sl_choice_ext, since), x->since);
		im_str(xa + F(sl_choice_ext, until), x->until);
		im_strs(xa + F(sl_choice_ext, same_from), x->same_from, x->nsame);
		im_strs(xa + F(sl_choice_ext, same_to), x->same_to, x->nsame);
	}
	im_ptr(at + F(sl_grammar, choice_ext), arr);
	return 0;
}

/* grammar gi (at `at` of the image, the array of all at G) */
static int grammar_to(FILE *mk, const sl_grammars *gs, size_t gi, size_t G, const char *facts_dir)
{
	const sl_grammar *g = &gs->g[gi];
	size_t at = G + gi * sizeof(sl_grammar);
	char lv[96];
	sl_grammar x = {.ninclude = g->ninclude, .underscores = g->underscores, .abbrev = g->abbrev,
			.dotted = g->dotted, .npositionals = g->npositionals, .nflags = g->nflags, .nenv = g->nenv,
			.nconfig_keys = g->nconfig_keys, .config_wins = g->config_wins,
			.noptional_sections = g->noptional_sections, .config_as_flags = g->config_as_flags,
			.nprograms = g->nprograms, .nmodules = g->nmodules, .nchoice_ext = g->nchoice_ext,
			.nindex = g->nindex, .facts_joined = g->facts_joined, .config_joined = g->config_joined,
			.nconfig_hand = g->nconfig_hand, .ngen = g->ngen};
	im_put(at, &x, sizeof x);
	im_str(at + F(sl_grammar, id), g->id);
	im_str(at + F(sl_grammar, title), g->title);
	im_str(at + F(sl_grammar, kind), g->kind);
	im_strs(at + F(sl_grammar, include), g->include, g->ninclude);
	im_str(at + F(sl_grammar, negation), g->negation);
	im_strs(at + F(sl_grammar, positionals), g->positionals, g->npositionals);
	size_t flags = flags_of(mk, g->flags, g->nflags), gen = flags_of(mk, g->gen, g->ngen);
	im_ptr(at + F(sl_grammar, flags), flags);
	im_ptr(at + F(sl_grammar, gen), gen);
	if (g->nenv) {
		size_t arr = im_alloc(g->nenv * sizeof(sl_envvar), _Alignof(sl_envvar));
		for (size_t i = 0; i < g->nenv; i++) {
			const sl_envvar *e = &g->env[i];
			size_t ea = arr + i * sizeof(sl_envvar);
			sl_envvar y = {.type = e->type};
			im_put(ea, &y, sizeof y);
			im_str(ea + F(sl_envvar, name), e->name);
			im_str(ea + F(sl_envvar, key), e->key);
			im_str(ea + F(sl_envvar, in), e->in);
			if (e->of) {
				int of = grammar_of(gs, e->of);
				if (of < 0)
					return fail("an env var twin of a grammar not loaded");
				im_ptr(ea + F(sl_envvar, of), G + (size_t)of * sizeof(sl_grammar));
			}
		}
		im_ptr(at + F(sl_grammar, env), arr);
	}
	if (g->nconfig_keys) {
		size_t arr = im_alloc(g->nconfig_keys * sizeof(sl_config_key), _Alignof(sl_config_key));
		for (size_t i = 0; i < g->nconfig_keys; i++) {
			const sl_config_key *k = &g->config_keys[i];
			size_t ka = arr + i * sizeof(sl_config_key);
			sl_config_key y = {.type = k->type};
			im_put(ka, &y, sizeof y);
			im_str(ka + F(sl_config_key, path), k->path);
			im_str(ka + F(sl_config_key, key), k->key);
			im_str(ka + F(sl_config_key, replicas_of), k->replicas_of);
			im_str(ka + F(sl_config_key, in), k->in);
			snprintf(lv, sizeof lv, "AT(sl_config_key, %zu)->dflt", ka);
			json_set(mk, lv, k->dflt);
		}
		im_ptr(at + F(sl_grammar, config_keys), arr);
	}
	im_str(at + F(sl_grammar, config_from), g->config_from);
	im_strs(at + F(sl_grammar, optional_sections), g->optional_sections, g->noptional_sections);
	im_strs(at + F(sl_grammar, programs), g->programs, g->nprograms);
	im_strs(at + F(sl_grammar, modules), g->modules, g->nmodules);
	im_str(at + F(sl_grammar, role), g->role);
	if (choice_ext_of(gs, g, at))
		return 1;
	long flen = 0;
	size_t facts = 0;
	if (g->facts) {
		flen = facts_len(g, facts_dir);
		if (flen < 0)
			return fail("a grammar's facts table cannot be read again");
		facts = im_pool(g->facts, (size_t)flen);
		im_pool_ptr(at + F(sl_grammar, facts), facts);
	}
	if (g->nindex) {
		size_t arr = im_alloc(g->nindex * sizeof(sl_flag_index), _Alignof(sl_flag_index));
		for (size_t i = 0; i < g->nindex; i++) {
			const sl_flag_index *e = &g->index[i];
			size_t ea = arr + i * sizeof(sl_flag_index);
			im_str(ea + F(sl_flag_index, name), e->name);
			if (e->flag >= g->flags && e->flag < g->flags + g->nflags)
				im_ptr(ea + F(sl_flag_index, flag), flags + (size_t)(e->flag - g->flags) * sizeof(sl_flag));
			else if (e->flag >= g->gen && e->flag < g->gen + g->ngen)
				im_ptr(ea + F(sl_flag_index, flag), gen + (size_t)(e->flag - g->gen) * sizeof(sl_flag));
			else
				return fail("a spelling of a flag not of its grammar");
			if (e->line) {
				if (!g->facts || e->line < g->facts || e->line >= g->facts + flen)
					return fail("a spelling's facts line outside its table");
				im_pool_ptr(ea + F(sl_flag_index, line), facts + (size_t)(e->line - g->facts));
			}
		}
		im_ptr(at + F(sl_grammar, index), arr);
	}
	snprintf(lv, sizeof lv, "AT(sl_grammar, %zu)->health", at);
	json_set(mk, lv, g->health);
	snprintf(lv, sizeof lv, "AT(sl_grammar, %zu)->images", at);
	json_set(mk, lv, g->images);
	snprintf(lv, sizeof lv, "AT(sl_grammar, %zu)->versions", at);
	json_set(mk, lv, g->versions);
	snprintf(lv, sizeof lv, "AT(sl_grammar, %zu)->config_versions", at);
	json_set(mk, lv, g->config_versions);
	return 0;
}

/* The end of a generated file: NAME(), which makes the image ready once
 * (pthread_once: check -j's threads) and points the table's header at its
 * arrays (SET, C statements) */
static void ready_fn(const char *name, const char *set)
{
	fprintf(out, "static void ready(void)\n{\n\tI_fix_all();\n%s}\n\n", set);
	fprintf(out, "void %s(void)\n{\n\tstatic pthread_once_t once = PTHREAD_ONCE_INIT;\n\tpthread_once(&once, ready);\n}\n",
		name);
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
	im_begin();
	/* every grammar and one of NULLs, which ends the array */
	size_t G = im_alloc((gs->n + 1) * sizeof(sl_grammar), _Alignof(sl_grammar));
	for (size_t gi = 0; gi < gs->n; gi++)
		if (grammar_to(mk, gs, gi, G, facts_dir))
			return 1;
	fprintf(out, "/* generated by cmake/data_ready.c from grammars/engines and grammars/facts; do not edit */\n"
		     "#include \"normalize/grammar.h\"\n#include \"util/util.h\"\n\n#include <pthread.h>\n#include <stdint.h>\n\n"
		     "static inline json_t *ja(json_t *a, json_t *v) { json_array_append_new(a, v); return a; }\n"
		     "static inline json_t *jo(json_t *o, const char *k, json_t *v) { json_object_set_new(o, k, v); return o; }\n\n");
	im_write(out, "I");
	fputs("sl_grammars sl_grammars_builtin;\n\n", out);
	char set[128];
	snprintf(set, sizeof set, "\tsl_grammars_builtin.g = AT(sl_grammar, %zu);\n\tsl_grammars_builtin.n = %zu;\n", G, gs->n);
	ready_fn("sl_grammars_builtin_ready", set);
	fputs("\nvoid sl_grammars_builtin_json(void)\n{\n", out);
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
	im_begin();
	size_t R = im_alloc((rs->n + 1) * sizeof(sl_rule), _Alignof(sl_rule));
	for (size_t i = 0; i < rs->n; i++) {
		const sl_rule *r = &rs->v[i];
		size_t at = R + i * sizeof(sl_rule);
		sl_rule x = {.severity = r->severity, .kind = r->kind, .nkeys = r->nkeys, .min = r->min, .max = r->max,
			     .has_min = r->has_min, .has_max = r->has_max, .min_excl = r->min_excl,
			     .max_excl = r->max_excl, .nunless = r->nunless, .nunless_engines = r->nunless_engines,
			     .some_worker = r->some_worker, .direction = r->direction, .catalogue = r->catalogue,
			     .across_engines = r->across_engines, .fix = r->fix, .advisory = r->advisory};
		im_put(at, &x, sizeof x);
		im_str(at + F(sl_rule, id), r->id);
		im_str(at + F(sl_rule, name), r->name);
		im_str(at + F(sl_rule, summary), r->summary);
		im_str(at + F(sl_rule, explanation), r->explanation);
		im_str(at + F(sl_rule, bad), r->bad);
		im_str(at + F(sl_rule, good), r->good);
		im_strs(at + F(sl_rule, keys), r->keys, r->nkeys);
		im_strs(at + F(sl_rule, unless), r->unless, r->nunless);
		im_strs(at + F(sl_rule, unless_engines), r->unless_engines, r->nunless_engines);
		im_str(at + F(sl_rule, cname), r->cname);
	}
	fputs("/* generated by cmake/data_ready.c from rules/; do not edit */\n#include \"check/rules.h\"\n"
	      "#include \"util/util.h\"\n\n#include <pthread.h>\n#include <stdint.h>\n\n", out);
	im_write(out, "I");
	fputs("sl_rules sl_rules_builtin;\n\n", out);
	char set[128];
	snprintf(set, sizeof set, "\tsl_rules_builtin.v = AT(sl_rule, %zu);\n\tsl_rules_builtin.n = %zu;\n", R, rs->n);
	ready_fn("sl_rules_builtin_ready", set);
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
	im_begin();
	size_t H = im_alloc((f->nhw + 1) * sizeof(sl_hw), _Alignof(sl_hw));
	for (size_t i = 0; i < f->nhw; i++) {
		const sl_hw *h = &f->hw[i];
		size_t at = H + i * sizeof(sl_hw);
		sl_hw x = {.nmatch = h->nmatch, .mem_gib = h->mem_gib, .node_gpus = h->node_gpus,
			   .domain_gpus = h->domain_gpus, .nnative = h->nnative, .nnone = h->nnone};
		im_put(at, &x, sizeof x);
		im_str(at + F(sl_hw, id), h->id);
		im_str(at + F(sl_hw, name), h->name);
		im_strs(at + F(sl_hw, match), h->match, h->nmatch);
		im_strs(at + F(sl_hw, match_words), h->match_words, h->nmatch);
		im_str(at + F(sl_hw, vendor), h->vendor);
		im_str(at + F(sl_hw, devices), h->devices);
		im_str(at + F(sl_hw, mem_source), h->mem_source);
		im_str(at + F(sl_hw, node_source), h->node_source);
		im_str(at + F(sl_hw, domain_source), h->domain_source);
		im_strs(at + F(sl_hw, native), h->native, h->nnative);
		im_strs(at + F(sl_hw, none), h->none, h->nnone);
		im_str(at + F(sl_hw, prec_source), h->prec_source);
		im_str(at + F(sl_hw, file), h->file);
	}
	size_t A = im_alloc((f->narch + 1) * sizeof(sl_arch), _Alignof(sl_arch));
	for (size_t i = 0; i < f->narch; i++) {
		const sl_arch *a = &f->arch[i];
		size_t at = A + i * sizeof(sl_arch);
		sl_arch x = {.nnames = a->nnames, .attn = a->attn, .layers = a->layers, .hidden = a->hidden,
			     .heads = a->heads, .kv_heads = a->kv_heads, .head_dim = a->head_dim, .vocab = a->vocab,
			     .intermediate = a->intermediate, .moe_intermediate = a->moe_intermediate,
			     .experts = a->experts, .experts_per_tok = a->experts_per_tok,
			     .shared_experts = a->shared_experts, .first_dense = a->first_dense,
			     .q_lora_rank = a->q_lora_rank, .kv_lora_rank = a->kv_lora_rank,
			     .qk_nope_head_dim = a->qk_nope_head_dim, .qk_rope_head_dim = a->qk_rope_head_dim,
			     .v_head_dim = a->v_head_dim, .full_layers = a->full_layers,
			     .sliding_window = a->sliding_window, .max_pos = a->max_pos, .mtp_layers = a->mtp_layers,
			     .rope_scaling = a->rope_scaling, .rope_type = a->rope_type, .rope_factor = a->rope_factor,
			     .rope_original = a->rope_original, .tied = a->tied, .attn_bias = a->attn_bias,
			     .qk_norm = a->qk_norm, .params = a->params, .params_experts = a->params_experts,
			     .params_embed = a->params_embed};
		im_put(at, &x, sizeof x);
		im_str(at + F(sl_arch, id), a->id);
		im_strs(at + F(sl_arch, names), a->names, a->nnames);
		im_str(at + F(sl_arch, source), a->source);
		im_str(at + F(sl_arch, file), a->file);
		im_str(at + F(sl_arch, model_type), a->model_type);
		im_str(at + F(sl_arch, quant), a->quant);
		im_str(at + F(sl_arch, dtype), a->dtype);
		im_str(at + F(sl_arch, params_source), a->params_source);
	}
	fputs("/* generated by cmake/data_ready.c from grammars/hardware and grammars/models; do not edit */\n"
	      "#include \"plan/plan.h\"\n#include \"util/util.h\"\n\n#include <pthread.h>\n#include <stdint.h>\n\n", out);
	im_write(out, "I");
	fputs("sl_facts sl_facts_builtin;\n\n", out);
	char set[192];
	snprintf(set, sizeof set,
		 "\tsl_facts_builtin.hw = AT(sl_hw, %zu);\n\tsl_facts_builtin.nhw = %zu;\n"
		 "\tsl_facts_builtin.arch = AT(sl_arch, %zu);\n\tsl_facts_builtin.narch = %zu;\n",
		 H, f->nhw, A, f->narch);
	ready_fn("sl_facts_builtin_ready", set);
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
