/*
 * vllm_recipe.c: vLLM model recipes (vllm-project/recipes,
 * models/<Provider>/<Model>.yaml), read as the `vllm serve` command the
 * recipe site renders for a variant by default, each argv item one word
 * with the place of each character in the YAML (as k8s.c and recipe.c
 * read their forms).
 *
 * What goes into the command, and in which order, is the site's
 * src/lib/command-synthesis.js (resolveCommand, buildArgs, buildEnv,
 * dedupeArgs; vllm-project/recipes@f9aebc8) with the defaults of
 * src/components/recipes/CommandBuilder.jsx (defaultFeaturesFor,
 * recommendStrategy):
 *   vllm serve <variant.model_id | model.model_id>
 *     model.base_args, variant.extra_args,
 *     the default strategy's parallel size (single_node_tp:
 *     --tensor-parallel-size <variant.tp | strategy_overrides.single_node_tp.tp>),
 *     strategy_overrides.<default>.{extra_args, vllm_args},
 *     the args of every feature not in opt_in_features (a feature with
 *     modes: its default mode's), last wins per flag (dedupeArgs);
 *   env: model.base_env, variant.extra_env, strategy_overrides.<default>.{env, extra_env}.
 * What the site adds per GPU picked (hardware_overrides of the recipe, a
 * variant, a feature or a strategy; hardware_opt_in_features), another
 * strategy's overrides, and a TP the site fits to the GPU are not read:
 * a note at their place says so, never a merge of every GPU's flags.
 */
#include "parse.h"
#include "yaml_words.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
	const sl_source *src;
	sl_script *s;
	sl_command c;
	size_t cap, pcap;
	sl_word *args;  /* after the model: deduplicated before they join the command */
	size_t nargs, args_cap;
} reader;

static void note(reader *r, const sl_yaml_node *n, const char *fmt, const char *a, const char *b)
{
	sl_buf m = {0};
	sl_buf_printf(&m, fmt, a ? a : "", b ? b : "");
	sl_yaml_note(r->s, n ? sl_yaml_at(r->src, n) : 0, sl_buf_detach(&m));
}

/* The items of an argv list (base_args, extra_args, a feature's args),
 * each one word. The site drops the items JavaScript counts false
 * (`args.filter(Boolean)`: null, "", false, 0). */
static void args_of(reader *r, const sl_yaml_node *list, const char *what, const char *of)
{
	if (!list || (list->kind == SL_YAML_SCALAR && sl_yaml_is_null(list)))
		return;
	if (list->kind != SL_YAML_SEQ) {
		note(r, list, "`%s`%s is not a list of argv items: not read", what, of);
		return;
	}
	for (size_t i = 0; i < list->n; i++) {
		const sl_yaml_node *it = list->items[i];
		if (it->kind != SL_YAML_SCALAR) {
			note(r, it, "an item of `%s`%s that is not a string is not read", what, of);
			continue;
		}
		if (!it->len || (it->plain && (sl_yaml_is_null(it) || !strcmp(it->value, "false") ||
					       !strcmp(it->value, "0"))))
			continue;
		sl_word w;
		sl_k8s_word(r->src, it, &w);
		SL_PUSH(r->args, r->nargs, r->args_cap, w);
	}
}

/* `--flag value`, the flag implied at key, the value the scalar v. */
static void implied_flag(reader *r, const char *flag, const sl_yaml_node *key, const sl_yaml_node *v)
{
	sl_word w;
	uint32_t ko = sl_yaml_at(r->src, key);
	sl_yaml_implied_word(&w, flag, ko, ko + (uint32_t)key->len);
	SL_PUSH(r->args, r->nargs, r->args_cap, w);
	sl_k8s_word(r->src, v, &w);
	SL_PUSH(r->args, r->nargs, r->args_cap, w);
}

/* env: {NAME: value} as the command's inline variables, a later one of a
 * name winning (Object.assign). */
static void env_of(reader *r, const sl_yaml_node *env, const char *what)
{
	if (!env || (env->kind == SL_YAML_SCALAR && sl_yaml_is_null(env)))
		return;
	if (env->kind != SL_YAML_MAP) {
		note(r, env, "`%s` is not a mapping of variables: not read%s", what, NULL);
		return;
	}
	for (size_t i = 0; i < env->n; i++) {
		const sl_yaml_node *v = env->items[i];
		if (v->kind != SL_YAML_SCALAR) {
			note(r, v, "the value of `%s` in `%s` is not a string: not read", env->keys[i]->value, what);
			continue;
		}
		sl_assign a;
		memset(&a, 0, sizeof a);
		a.name = sl_strdup(env->keys[i]->value);
		a.start = sl_yaml_at(r->src, env->keys[i]);
		a.exported = 1;
		sl_k8s_word(r->src, v, &a.value);
		sl_yaml_env_put(&r->c.prefix, &r->c.nprefix, &r->pcap, a);
	}
}

/* A `hardware_overrides:` (or any per-GPU key) left unread: said at its
 * key with the GPUs it names. */
static void per_gpu(reader *r, const sl_yaml_node *owner, const char *key, const char *whose)
{
	const sl_yaml_node *ho = NULL, *k = NULL;
	for (size_t i = 0; owner && owner->kind == SL_YAML_MAP && i < owner->n; i++)
		if (!strcmp(owner->keys[i]->value, key)) {
			k = owner->keys[i];
			ho = owner->items[i];
		}
	if (!ho || ho->kind != SL_YAML_MAP || !ho->n)
		return;
	sl_buf names = {0}, m = {0};
	for (size_t i = 0; i < ho->n; i++)
		sl_buf_printf(&names, "%s%s", i ? ", " : "", ho->keys[i]->value);
	sl_buf_printf(&m, "%s`%s` (%s) not read: the recipe site adds one of them by the GPU picked; the command "
		      "read is the one for none of them", whose, key, names.data);
	sl_yaml_note(r->s, sl_yaml_at(r->src, k), sl_buf_detach(&m));
	sl_buf_free(&names);
}

/* Whether the sequence holds the scalar s. */
static int listed(const sl_yaml_node *seq, const char *s)
{
	for (size_t i = 0; seq && seq->kind == SL_YAML_SEQ && i < seq->n; i++)
		if (sl_yaml_scalar(seq->items[i]) && !strcmp(seq->items[i]->value, s))
			return 1;
	return 0;
}

/* The strategy the site picks by default (recommendStrategy, one node):
 * default_strategy when compatible, else single_node_tp when compatible,
 * else the first compatible one, else single_node_tp. */
static const char *default_strategy(const sl_yaml_node *root)
{
	const sl_yaml_node *cs = sl_yaml_get(root, "compatible_strategies");
	const char *ds = sl_yaml_scalar(sl_yaml_get(root, "default_strategy"));
	if (ds && listed(cs, ds))
		return ds;
	if (listed(cs, "single_node_tp") || !cs || cs->kind != SL_YAML_SEQ || !cs->n || !sl_yaml_scalar(cs->items[0]))
		return "single_node_tp";
	return cs->items[0]->value;
}

/* The mode of a feature with `modes` read by default on variant vk
 * (resolveModeKey without a GPU): the variant's default_modes entry, the
 * feature's default_mode, else the first mode; each only when the mode
 * serves the variant (its `variants:` list). NULL when none does. */
static const sl_yaml_node *default_mode(const sl_yaml_node *feat, const char *fname, const sl_yaml_node *variant,
					const char *vk, const char **name)
{
	const sl_yaml_node *modes = sl_yaml_get(feat, "modes");
	const char *want[2] = {sl_yaml_scalar(sl_yaml_get(sl_yaml_get(variant, "default_modes"), fname)),
			       sl_yaml_scalar(sl_yaml_get(feat, "default_mode"))};
	for (int pass = 0; pass < 3; pass++)
		for (size_t i = 0; i < modes->n; i++) {
			const sl_yaml_node *m = modes->items[i];
			const sl_yaml_node *only = sl_yaml_get(m, "variants");
			if (only && only->kind == SL_YAML_SEQ && only->n && !listed(only, vk))
				continue;
			if (pass < 2 && (!want[pass] || strcmp(want[pass], modes->keys[i]->value)))
				continue;
			*name = modes->keys[i]->value;
			return m;
		}
	return NULL;
}

static void features(reader *r, const sl_yaml_node *root, const sl_yaml_node *variant, const char *vk,
		     const char *strategy)
{
	const sl_yaml_node *fs = sl_yaml_get(root, "features");
	const sl_yaml_node *opt = sl_yaml_get(root, "opt_in_features");
	const sl_yaml_node *forced = sl_yaml_get(variant, "default_modes");
	for (size_t i = 0; fs && fs->kind == SL_YAML_MAP && i < fs->n; i++) {
		const char *f = fs->keys[i]->value;
		const sl_yaml_node *feat = fs->items[i];
		/* default-on: every feature but the opt-in ones, which a variant's
		 * default_modes turns on (defaultFeaturesFor) */
		if (listed(opt, f) && !sl_yaml_get(forced, f))
			continue;
		if (feat->kind != SL_YAML_MAP)
			continue;
		const sl_yaml_node *only = sl_yaml_get(feat, "strategies");
		if (only && only->kind == SL_YAML_SEQ && only->n && !listed(only, strategy))
			continue;
		sl_buf of = {0};
		const sl_yaml_node *modes = sl_yaml_get(feat, "modes");
		if (modes && modes->kind == SL_YAML_MAP && modes->n) {
			const char *mk = NULL;
			const sl_yaml_node *m = default_mode(feat, f, variant, vk, &mk);
			if (!m)
				continue;
			sl_buf_printf(&of, " of feature `%s`'s mode `%s`", f, mk);
			if (sl_yaml_get(m, "hardware"))
				note(r, sl_yaml_get(m, "hardware"), "the mode `%s` of feature `%s` is gated by GPU "
				     "(`hardware:`): read as the site renders it where it runs", mk, f);
			sl_buf sub = {0};
			sl_buf_printf(&sub, "feature `%s`'s mode `%s`: its ", f, mk);
			per_gpu(r, m, "hardware_overrides", sub.data);
			sl_buf_free(&sub);
			args_of(r, sl_yaml_get(m, "args"), "args", of.data);
		} else {
			sl_buf_printf(&of, " of feature `%s`", f);
			sl_buf sub = {0};
			sl_buf_printf(&sub, "feature `%s`: its ", f);
			per_gpu(r, feat, "hardware_overrides", sub.data);
			sl_buf_free(&sub);
			args_of(r, sl_yaml_get(feat, "args"), "args", of.data);
		}
		sl_buf_free(&of);
	}
}

/* Last wins per flag, as the site's dedupeArgs: the items as units (a
 * flag and the value after it that is no flag, a lone flag, a
 * positional), and an earlier unit of a flag a later one repeats dropped. */
static void dedupe(reader *r)
{
	size_t n = r->nargs;
	char *keep = sl_calloc(n + 1, 1);
	size_t *unit = sl_calloc(n + 1, sizeof *unit);  /* unit[i]: the words of the unit starting at i */
	for (size_t i = 0; i < n; i++) {
		if (r->args[i].text[0] == '-' && i + 1 < n && r->args[i + 1].text[0] != '-') {
			unit[i] = 2;
			i++;
		} else {
			unit[i] = 1;
		}
	}
	for (size_t i = n; i-- > 0;) {
		if (!unit[i])
			continue;
		int later = 0;
		if (r->args[i].text[0] == '-')
			for (size_t j = i + 1; j < n && !later; j++)
				later = unit[j] && keep[j] && r->args[j].text[0] == '-' &&
					!strcmp(r->args[j].text, r->args[i].text);
		keep[i] = (char)!later;
	}
	for (size_t i = 0; i < n; i++) {
		if (!unit[i])
			continue;
		for (size_t k = i; k < i + unit[i]; k++) {
			if (keep[i])
				SL_PUSH(r->c.argv, r->c.argc, r->cap, r->args[k]);
			else
				sl_word_free(&r->args[k]);
		}
	}
	free(keep);
	free(unit);
	free(r->args);
	r->args = NULL;
	r->nargs = 0;
}

/* The image a recipe pins for NVIDIA (computeDockerMeta: the variant's
 * docker_image before the model's; a string, a brand's string, or a CUDA
 * map's cu130 or cu129), else NULL. */
static const sl_yaml_node *image_of(const sl_yaml_node *variant, const sl_yaml_node *model)
{
	const sl_yaml_node *from[2] = {sl_yaml_get(variant, "docker_image"), sl_yaml_get(model, "docker_image")};
	for (int i = 0; i < 2; i++) {
		const sl_yaml_node *d = from[i];
		if (d && d->kind == SL_YAML_MAP && sl_yaml_get(d, "nvidia"))
			d = sl_yaml_get(d, "nvidia");
		if (d && d->kind == SL_YAML_MAP)
			d = sl_yaml_get(d, "cu130") ? sl_yaml_get(d, "cu130") : sl_yaml_get(d, "cu129");
		if (sl_yaml_scalar(d) && !sl_yaml_is_null(d))
			return d;
	}
	return NULL;
}

static int failed(const sl_source *src, const sl_yaml_node *n, sl_error *err, const char *msg)
{
	sl_error_set(err, src->path, n ? n->line : 1, n ? n->col : 1, "%s", msg);
	return SL_ERR_INPUT;
}

/* The variants mapping, or NULL when the recipe has none (the site then
 * reads `{}`: the model alone). */
static const sl_yaml_node *variants_of(const sl_yaml_node *root)
{
	const sl_yaml_node *v = sl_yaml_get(root, "variants");
	return v && v->kind == SL_YAML_MAP && v->n ? v : NULL;
}

unsigned sl_vllm_recipe_variants(const sl_source *src)
{
	sl_yaml_doc *doc = NULL;
	sl_error err = {0};
	if (sl_yaml_load(src, &doc, &err)) {
		sl_error_clear(&err);
		return 1;
	}
	const sl_yaml_node *v = doc->root && doc->root->kind == SL_YAML_MAP ? variants_of(doc->root) : NULL;
	unsigned n = v ? (unsigned)v->n : 1;
	sl_yaml_free(doc);
	return n;
}

static int read_variant(reader *r, const sl_yaml_node *root, unsigned which, sl_k8s_workload *wl, sl_error *err)
{
	const sl_source *src = r->src;
	const sl_yaml_node *model = sl_yaml_get(root, "model");
	if (!model || model->kind != SL_YAML_MAP)
		return failed(src, model ? model : root, err, "a vLLM model recipe's `model:` is not a mapping");
	/* vLLM-Omni recipes render `vllm serve ... --omni` (resolveOmniCommand):
	 * vllm-omni's handler and flags, which are not vLLM's */
	const sl_yaml_node *omni = NULL;
	for (size_t i = 0; i < root->n; i++)
		if (!strcmp(root->keys[i]->value, "omni"))
			omni = root->keys[i];
	if (omni)
		return failed(src, omni, err, "a vLLM-Omni recipe (`omni:`): the recipe site serves it with `vllm serve "
			      "--omni`, vllm-omni's handler, whose flags servelint does not know; not read");
	const sl_yaml_node *vs = variants_of(root), *variant = NULL, *vkey = NULL;
	if (vs && which < vs->n) {
		variant = vs->items[which];
		vkey = vs->keys[which];
	}
	const char *vk = vkey ? vkey->value : "default";
	if (variant && variant->kind != SL_YAML_MAP) {
		note(r, variant, "variant `%s` is not a mapping: read as the model alone%s", vk, NULL);
		variant = NULL;
	}
	if (vs && vs->n > 1) {
		/* the variants as the alternatives of one point: its label says
		 * which this reading is (show, and the note of a single reading) */
		sl_branch_point p;
		memset(&p, 0, sizeof p);
		p.off = sl_yaml_at(src, sl_yaml_get(root, "variants"));
		p.n = (unsigned)vs->n;
		p.labels = sl_calloc(vs->n, sizeof *p.labels);
		for (size_t i = 0; i < vs->n; i++) {
			sl_buf b = {0};
			sl_buf_printf(&b, "variant %s (line %u)", vs->keys[i]->value, vs->keys[i]->line);
			p.labels[i] = sl_buf_detach(&b);
		}
		p.taken = which;
		r->s->points = sl_calloc(1, sizeof *r->s->points);
		r->s->points[0] = p;
		r->s->npoints = 1;
	}
	const sl_yaml_node *mid = sl_yaml_get(variant, "model_id");
	if (!sl_yaml_scalar(mid) || sl_yaml_is_null(mid))
		mid = sl_yaml_get(model, "model_id");
	if (!sl_yaml_scalar(mid) || sl_yaml_is_null(mid))
		return failed(src, mid ? mid : model, err, "a vLLM model recipe's `model.model_id` is not a string");
	/* vllm serve MODEL: the words the site writes, at the model's key */
	const sl_yaml_node *mk = NULL;
	for (size_t i = 0; i < root->n; i++)
		if (!strcmp(root->keys[i]->value, "model"))
			mk = root->keys[i];
	sl_word w;
	uint32_t mo = sl_yaml_at(src, mk), me = mo + (uint32_t)mk->len;
	sl_yaml_implied_word(&w, "vllm", mo, me);
	SL_PUSH(r->c.argv, r->c.argc, r->cap, w);
	sl_yaml_implied_word(&w, "serve", mo, me);
	SL_PUSH(r->c.argv, r->c.argc, r->cap, w);
	sl_k8s_word(src, mid, &w);
	SL_PUSH(r->c.argv, r->c.argc, r->cap, w);

	args_of(r, sl_yaml_get(model, "base_args"), "model.base_args", NULL);
	sl_buf of = {0};
	sl_buf_printf(&of, " of variant `%s`", vk);
	args_of(r, sl_yaml_get(variant, "extra_args"), "extra_args", of.data);
	sl_buf_free(&of);
	sl_buf whose = {0};
	sl_buf_printf(&whose, "variant `%s`: its ", vk);
	per_gpu(r, variant, "hardware_overrides", whose.data);
	sl_buf_free(&whose);

	/* the default strategy: single_node_tp's own vllm_args are none
	 * (strategies/single_node_tp.yaml); its TP the variant's or the
	 * recipe's declared number, else fitted to the GPU by the site */
	const char *strategy = default_strategy(root);
	const sl_yaml_node *sos = sl_yaml_get(root, "strategy_overrides");
	const sl_yaml_node *so = sl_yaml_get(sos, strategy);
	if (!strcmp(strategy, "single_node_tp")) {
		const sl_yaml_node *tp = sl_yaml_get(variant, "tp"), *tpk = NULL, *owner = variant;
		if (!tp) {
			tp = sl_yaml_get(so, "tp");
			owner = so;
		}
		for (size_t i = 0; tp && i < owner->n; i++)
			if (owner->items[i] == tp)
				tpk = owner->keys[i];
		long long n;
		if (sl_yaml_scalar(tp) && tp->plain && !sl_parse_int(tp->value, &n) && n > 0)
			implied_flag(r, "--tensor-parallel-size", tpk, tp);
		else if (tp)
			note(r, tp, "the tensor-parallel size `tp` is given per GPU: not read (the site picks it by the GPU)%s%s",
			     NULL, NULL);
		else
			note(r, vkey ? vkey : mk, "variant `%s` states no `tp`: the recipe site fits the tensor-parallel size "
			     "to the GPU picked (1 when the weights fit one GPU, else the node's GPUs); not read%s", vk, NULL);
	} else {
		const sl_yaml_node *dk = NULL;
		for (size_t i = 0; i < root->n; i++)
			if (!strcmp(root->keys[i]->value, "default_strategy"))
				dk = root->keys[i];
		note(r, dk ? dk : mk, "the default strategy `%s` adds its own flags (strategies/%s.yaml of the recipes "
		     "repository) and its parallel size by the GPU picked: not read", strategy, strategy);
	}
	args_of(r, sl_yaml_get(so, "extra_args"), "extra_args", " of the default strategy's overrides");
	args_of(r, sl_yaml_get(so, "vllm_args"), "vllm_args", " of the default strategy's overrides");
	per_gpu(r, so, "hardware_overrides", "the default strategy's overrides: their ");
	if (sos && sos->kind == SL_YAML_MAP) {
		sl_buf others = {0};
		for (size_t i = 0; i < sos->n; i++)
			if (strcmp(sos->keys[i]->value, strategy))
				sl_buf_printf(&others, "%s%s", others.len ? ", " : "", sos->keys[i]->value);
		if (others.len) {
			const sl_yaml_node *sk = NULL;
			for (size_t i = 0; i < root->n; i++)
				if (!strcmp(root->keys[i]->value, "strategy_overrides"))
					sk = root->keys[i];
			sl_buf m = {0};
			sl_buf_printf(&m, "`strategy_overrides` of strategies other than the default (%s) not read: %s",
				      strategy, others.data);
			sl_yaml_note(r->s, sl_yaml_at(src, sk), sl_buf_detach(&m));
		}
		sl_buf_free(&others);
	}
	per_gpu(r, root, "hardware_overrides", "");
	for (size_t i = 0; i < root->n; i++)
		if (!strcmp(root->keys[i]->value, "hardware_opt_in_features"))
			note(r, root->keys[i], "`hardware_opt_in_features` not read: the recipe site turns those features "
			     "off by the GPU picked; the command read has them as every GPU without an entry does%s%s",
			     NULL, NULL);
	features(r, root, variant, vk, strategy);
	dedupe(r);

	env_of(r, sl_yaml_get(model, "base_env"), "model.base_env");
	env_of(r, sl_yaml_get(variant, "extra_env"), "extra_env");
	env_of(r, sl_yaml_get(so, "env"), "env");
	env_of(r, sl_yaml_get(so, "extra_env"), "extra_env");

	r->c.block = -1;
	r->c.iterations = 1;
	r->c.start = r->c.stmt = r->c.head = mo;
	r->c.end = r->c.argc ? r->c.argv[r->c.argc - 1].end : r->c.start;
	wl->kind = sl_strdup("vLLM model recipe");
	wl->name = sl_strdup(vk);
	wl->replicas = -1;
	wl->gpus = -1;
	const sl_yaml_node *img = image_of(variant, model);
	if (img) {
		int ind;
		wl->image = sl_strdup(img->value);
		wl->image_off = (uint32_t)sl_yaml_content_start(src, img, &ind);
	}
	/* the release the recipe says it needs: the flags are checked against
	 * it when no image tag says the release */
	const sl_yaml_node *ver = sl_yaml_get(variant, "min_vllm_version");
	if (!sl_yaml_scalar(ver) || sl_yaml_is_null(ver))
		ver = sl_yaml_get(model, "min_vllm_version");
	if (sl_yaml_scalar(ver) && !sl_yaml_is_null(ver)) {
		int ind;
		wl->version = sl_strdup(ver->value);
		wl->version_off = (uint32_t)sl_yaml_content_start(src, ver, &ind);
	}
	return SL_OK;
}

int sl_vllm_recipe_parse(const sl_source *src, unsigned variant, sl_script **out, sl_k8s_workload **ws,
			 size_t *nws, sl_error *err)
{
	sl_yaml_doc *doc;
	reader r;
	memset(&r, 0, sizeof r);
	int rc = sl_yaml_script_start(src, out, ws, nws, &doc, &r.s, err);
	if (rc)
		return rc;
	r.src = src;
	sl_k8s_workload *w = sl_calloc(1, sizeof *w);
	const sl_yaml_node *root = doc->root;
	rc = root && root->kind == SL_YAML_MAP ? read_variant(&r, root, variant, w, err)
					       : failed(src, root, err, "a vLLM model recipe that is not a mapping");
	sl_yaml_free(doc);
	for (size_t i = 0; i < r.nargs; i++)
		sl_word_free(&r.args[i]);
	free(r.args);
	/* the script owns the command from here, read or not */
	size_t cmd_cap = 0;
	SL_PUSH(r.s->cmds, r.s->ncmds, cmd_cap, r.c);
	if (rc) {
		sl_script_free(r.s);
		sl_k8s_workloads_free(w, 1);
		return rc;
	}
	*out = r.s;
	*ws = w;
	*nws = 1;
	return SL_OK;
}
