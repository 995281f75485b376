/* test_ready.c: the tables made at build time (cmake/data_ready.c) are what
 * the loaders make of the source tree's files now. Each struct built in
 * (every grammar with its facts joined, every rule, accelerator and model)
 * is dumped to JSON field by field, pointers as what they point at, beside
 * the same dump of a load from the files ($SERVELINT_GRAMMARS,
 * _FACTS, _RULES), and the two must be equal: a data file changed without
 * the tables following, or a field the tool leaves out, fails here. */
#include "helpers.h"
#include "check/rules.h"
#include "normalize/grammar.h"
#include "plan/plan.h"

#include <unistd.h>

static json_t *s_(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *strs(char *const *v, size_t n)
{
	json_t *a = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, s_(v[i]));
	return a;
}

static json_t *j_(const json_t *v)
{
	return v ? json_deep_copy(v) : json_null();
}

static json_t *flag_dump(const sl_flag *f)
{
	json_t *jk = json_array();
	for (size_t k = 0; k < f->njkeys; k++)
		json_array_append_new(jk, json_pack("[o,o]", s_(f->jkeys[k].member), s_(f->jkeys[k].key)));
	return json_pack("{s:o,s:i,s:i,s:o,s:o,s:o,s:o,s:o,s:o,s:i,s:i,s:o,s:o}", "names", strs(f->names, f->nnames),
			 "type", (int)f->type, "optional_value", f->optional_value, "key", s_(f->key), "default",
			 j_(f->dflt), "same", j_(f->same), "since", s_(f->since), "until", s_(f->until), "action",
			 s_(f->action), "negatable", f->negatable, "stores_false", f->stores_false, "json_keys", jk,
			 "members", strs(f->members, f->nmembers));
}

static json_t *flags_dump(const sl_flag *v, size_t n)
{
	json_t *a = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, flag_dump(&v[i]));
	return a;
}

/* A spelling's flag as where it is ("flags 3", "gen 12") and its facts'
 * line as its text up to the first field's end (the spelling's name). */
static json_t *index_dump(const sl_grammar *g)
{
	json_t *a = json_array();
	for (size_t i = 0; i < g->nindex; i++) {
		const sl_flag_index *x = &g->index[i];
		char at[64];
		if (x->flag >= g->flags && x->flag < g->flags + g->nflags)
			snprintf(at, sizeof at, "flags %td", x->flag - g->flags);
		else if (x->flag >= g->gen && x->flag < g->gen + g->ngen)
			snprintf(at, sizeof at, "gen %td", x->flag - g->gen);
		else
			snprintf(at, sizeof at, "elsewhere");
		json_t *line = json_null();
		if (x->line) {
			/* the whole line: its fields, NUL-separated */
			json_t *fs = json_array();
			const char *f = x->line;
			for (int k = 0; k < 10; k++, f += strlen(f) + 1)
				json_array_append_new(fs, json_string(f));
			line = fs;
		}
		json_array_append_new(a, json_pack("{s:o,s:s,s:o}", "name", s_(x->name), "flag", at, "line", line));
	}
	return a;
}

static json_t *grammar_dump(const sl_grammar *g)
{
	json_t *env = json_array(), *ck = json_array();
	for (size_t i = 0; i < g->nenv; i++)
		json_array_append_new(env, json_pack("{s:o,s:o,s:i,s:o,s:o}", "name", s_(g->env[i].name), "key",
						     s_(g->env[i].key), "type", (int)g->env[i].type, "in",
						     s_(g->env[i].in), "of", s_(g->env[i].of ? g->env[i].of->id : NULL)));
	for (size_t i = 0; i < g->nconfig_keys; i++) {
		const sl_config_key *k = &g->config_keys[i];
		json_array_append_new(ck, json_pack("{s:o,s:i,s:o,s:o,s:o,s:o}", "path", s_(k->path), "type", (int)k->type,
						    "key", s_(k->key), "default", j_(k->dflt), "replicas_of",
						    s_(k->replicas_of), "in", s_(k->in)));
	}
	json_t *d = json_pack("{s:o,s:o,s:o,s:o,s:i,s:i,s:i,s:o,s:o,s:o,s:o}", "id", s_(g->id), "title", s_(g->title),
			      "kind", s_(g->kind), "include", strs(g->include, g->ninclude), "underscores",
			      g->underscores, "abbrev", g->abbrev, "dotted", g->dotted, "negation", s_(g->negation),
			      "positionals", strs(g->positionals, g->npositionals), "flags",
			      flags_dump(g->flags, g->nflags), "env", env);
	json_object_set_new(d, "config_keys", ck);
	json_object_set_new(d, "config_from", s_(g->config_from));
	json_object_set_new(d, "config_wins", json_integer(g->config_wins));
	json_object_set_new(d, "optional_sections", strs(g->optional_sections, g->noptional_sections));
	json_object_set_new(d, "config_as_flags", json_integer(g->config_as_flags));
	json_object_set_new(d, "health", j_(g->health));
	json_object_set_new(d, "programs", strs(g->programs, g->nprograms));
	json_object_set_new(d, "modules", strs(g->modules, g->nmodules));
	json_object_set_new(d, "role", s_(g->role));
	json_object_set_new(d, "images", j_(g->images));
	json_t *ext = json_array();
	for (size_t i = 0; i < g->nchoice_ext; i++) {
		const sl_choice_ext *x = &g->choice_ext[i];
		json_array_append_new(ext, json_pack("{s:o,s:o,s:i,s:o,s:o,s:o,s:o}", "flag", s_(x->flag), "values",
						     strs(x->values, x->nvalues), "replace", x->replace, "since",
						     s_(x->since), "until", s_(x->until), "same_from",
						     strs(x->same_from, x->nsame), "same_to", strs(x->same_to, x->nsame)));
	}
	json_object_set_new(d, "include_choices", ext);
	json_object_set_new(d, "index", index_dump(g));
	json_object_set_new(d, "facts_joined", json_integer(g->facts_joined));
	json_object_set_new(d, "config_joined", json_integer(g->config_joined));
	json_object_set_new(d, "nconfig_hand", json_integer((json_int_t)g->nconfig_hand));
	json_object_set_new(d, "has_facts", json_boolean(g->facts != NULL));
	json_object_set_new(d, "versions", j_(g->versions));
	json_object_set_new(d, "config_versions", j_(g->config_versions));
	json_object_set_new(d, "gen", flags_dump(g->gen, g->ngen));
	return d;
}

/* A and B, dumps of one struct, equal; else the first member that differs */
static void same_dump(json_t *a, json_t *b, const char *what)
{
	if (!json_equal(a, b)) {
		const char *k;
		json_t *v;
		json_object_foreach(a, k, v) if (!json_equal(v, json_object_get(b, k))) {
			char *x = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
			char *y = json_dumps(json_object_get(b, k), JSON_COMPACT | JSON_ENCODE_ANY);
			fprintf(stderr, "%s: %s differs:\n  built in: %.600s\n  files:    %.600s\n", what, k, x, y ? y : "(none)");
			free(x);
			free(y);
			break;
		}
		fail_msg("%s: the table built in is not what the files make", what);
	}
	json_decref(a);
	json_decref(b);
}

static void from_files(int on)
{
	if (on) {
		assert_int_equal(chdir(SL_SOURCE_DIR), 0);
		setenv("SERVELINT_GRAMMARS", "grammars/engines", 1);
		setenv("SERVELINT_FACTS", "grammars/facts", 1);
		setenv("SERVELINT_RULES", "rules", 1);
	} else {
		unsetenv("SERVELINT_GRAMMARS");
		unsetenv("SERVELINT_FACTS");
		unsetenv("SERVELINT_RULES");
	}
}

static void test_grammars(void **st)
{
	(void)st;
	sl_error err = {0};
	sl_grammars *built = NULL, *files = NULL;
	from_files(0);
	assert_int_equal(sl_grammars_load(&built, &err), 0);
	assert_ptr_equal(built, &sl_grammars_builtin);
	from_files(1);
	if (sl_grammars_load(&files, &err))
		fail_msg("%s:%u:%u: %s", err.file, err.line, err.col, err.msg);
	sl_grammars_share(files);  /* every engine's facts joined, as the tables have them */
	from_files(0);
	assert_true(files != &sl_grammars_builtin);
	assert_int_equal(built->n, files->n);
	assert_true(built->n > 10);
	size_t joined = 0;
	for (size_t i = 0; i < built->n; i++) {
		joined += built->g[i].ngen > 0;
		same_dump(grammar_dump(&built->g[i]), grammar_dump(&files->g[i]), files->g[i].id);
	}
	assert_true(joined > 5);  /* the facts are in the tables, not only the hand-written flags */
	/* a second load is the same object; its users are counted */
	sl_grammars *again = NULL;
	assert_int_equal(sl_grammars_load(&again, &err), 0);
	assert_ptr_equal(again, built);
	sl_grammars_free(again);
	assert_non_null(built->g[0].flags[0].names);
	sl_grammars_free(built);
	sl_grammars_free(files);
	/* loaded again after its last user: the JSON values are made again */
	assert_int_equal(sl_grammars_load(&built, &err), 0);
	const sl_grammar *v = sl_grammar_find(built, "vllm");
	assert_non_null(v);
	assert_true(json_array_size(v->versions) > 0);
	sl_grammars_free(built);
}

static json_t *rule_dump(const sl_rule *r)
{
	json_t *d = json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,s:i,s:i,s:o,s:f,s:f}", "id", s_(r->id), "name", s_(r->name),
			      "summary", s_(r->summary), "explanation", s_(r->explanation), "bad", s_(r->bad), "good",
			      s_(r->good), "severity", (int)r->severity, "kind", (int)r->kind, "keys",
			      strs(r->keys, r->nkeys), "min", r->min, "max", r->max);
	json_object_set_new(d, "bounds", json_pack("[i,i,i,i]", r->has_min, r->has_max, r->min_excl, r->max_excl));
	json_object_set_new(d, "unless", strs(r->unless, r->nunless));
	json_object_set_new(d, "unless_engines", strs(r->unless_engines, r->nunless_engines));
	json_object_set_new(d, "some_worker", json_integer(r->some_worker));
	json_object_set_new(d, "direction", json_integer(r->direction));
	json_object_set_new(d, "cname", s_(r->cname));
	json_object_set_new(d, "catalogue", json_integer(r->catalogue));
	json_object_set_new(d, "across_engines", json_integer(r->across_engines));
	json_object_set_new(d, "fix", json_integer(r->fix));
	json_object_set_new(d, "advisory", json_integer(r->advisory));
	return d;
}

static void test_rules(void **st)
{
	(void)st;
	sl_error err = {0};
	sl_rules *built = NULL, *files = NULL;
	from_files(0);
	assert_int_equal(sl_rules_load(&built, &err), 0);
	assert_ptr_equal(built, &sl_rules_builtin);
	from_files(1);
	if (sl_rules_load(&files, &err))
		fail_msg("%s:%u:%u: %s", err.file, err.line, err.col, err.msg);
	from_files(0);
	assert_int_equal(built->n, files->n);
	assert_true(built->n > 50);
	for (size_t i = 0; i < built->n; i++)
		same_dump(rule_dump(&built->v[i]), rule_dump(&files->v[i]), files->v[i].id);
	sl_rules_free(built);  /* the table: left alone */
	assert_non_null(sl_rules_builtin.v[0].id);
	sl_rules_free(files);
}

static json_t *hw_dump(const sl_hw *h)
{
	json_t *d = json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,s:f,s:o,s:I,s:o,s:I,s:o}", "id", s_(h->id), "name", s_(h->name),
			      "match", strs(h->match, h->nmatch), "words", strs(h->match_words, h->nmatch), "vendor",
			      s_(h->vendor), "devices", s_(h->devices), "mem_gib", h->mem_gib, "mem_source",
			      s_(h->mem_source), "node_gpus", (json_int_t)h->node_gpus, "node_source", s_(h->node_source),
			      "domain_gpus", (json_int_t)h->domain_gpus, "domain_source", s_(h->domain_source));
	json_object_set_new(d, "native", strs(h->native, h->nnative));
	json_object_set_new(d, "none", strs(h->none, h->nnone));
	json_object_set_new(d, "prec_source", s_(h->prec_source));
	json_object_set_new(d, "file", s_(h->file));
	return d;
}

static json_t *arch_dump(const sl_arch *a)
{
	json_t *d = json_pack("{s:o,s:o,s:o,s:o,s:o,s:i}", "id", s_(a->id), "names", strs(a->names, a->nnames), "source",
			      s_(a->source), "file", s_(a->file), "model_type", s_(a->model_type), "attn", (int)a->attn);
	const long n[] = {a->layers, a->hidden, a->heads, a->kv_heads, a->head_dim, a->vocab, a->intermediate,
			  a->moe_intermediate, a->experts, a->experts_per_tok, a->shared_experts, a->first_dense,
			  a->q_lora_rank, a->kv_lora_rank, a->qk_nope_head_dim, a->qk_rope_head_dim, a->v_head_dim,
			  a->full_layers, a->sliding_window, a->max_pos, a->rope_scaling, a->tied, a->attn_bias,
			  a->qk_norm};
	json_t *c = json_array();
	for (size_t i = 0; i < sizeof n / sizeof *n; i++)
		json_array_append_new(c, json_integer(n[i]));
	json_object_set_new(d, "counts", c);
	json_object_set_new(d, "quant", s_(a->quant));
	json_object_set_new(d, "dtype", s_(a->dtype));
	json_object_set_new(d, "params", json_pack("[f,f,f]", a->params, a->params_experts, a->params_embed));
	json_object_set_new(d, "mtp_rope", json_pack("[I,i,I,f]", (json_int_t)a->mtp_layers, (int)a->rope_type,
						     (json_int_t)a->rope_original, a->rope_factor));
	json_object_set_new(d, "params_source", s_(a->params_source));
	return d;
}

static void test_facts(void **st)
{
	(void)st;
	sl_error err = {0};
	sl_facts *built = NULL, *files = NULL;
	from_files(0);
	assert_int_equal(sl_facts_load(&built, &err), 0);
	assert_int_equal(chdir(SL_SOURCE_DIR), 0);
	setenv("SERVELINT_FACTS", "grammars", 1);  /* hardware/ and models/ under it */
	if (sl_facts_load(&files, &err))
		fail_msg("%s:%u:%u: %s", err.file, err.line, err.col, err.msg);
	from_files(0);
	assert_true(built != files);
	assert_int_equal(built->nhw, files->nhw);
	assert_int_equal(built->narch, files->narch);
	assert_true(built->nhw > 5 && built->narch > 5);
	for (size_t i = 0; i < built->nhw; i++)
		same_dump(hw_dump(&built->hw[i]), hw_dump(&files->hw[i]), files->hw[i].file);
	for (size_t i = 0; i < built->narch; i++)
		same_dump(arch_dump(&built->arch[i]), arch_dump(&files->arch[i]), files->arch[i].file);
	sl_facts_free(built);
	sl_facts_free(files);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grammars),
		cmocka_unit_test(test_rules),
		cmocka_unit_test(test_facts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
