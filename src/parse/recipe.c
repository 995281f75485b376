/*
 * recipe.c: deployment recipes that are not Kubernetes, read as launch
 * commands the way k8s.c reads manifests (one command per role, words
 * with the place of each character in the YAML, the role's env as its
 * inline variables, replicas and GPUs beside it):
 *
 * - srt-slurm recipes: `resources:` (<role>_workers, gpus_per_<role>,
 *   <role>_nodes), `backend: {type, <role>_environment, <type>_config:
 *   {prefill, decode, aggregated}}` whose keys are engine flags by name
 *   (`tensor-parallel-size: 4`, `no-enable-prefix-caching: true`, JSON
 *   strings), TensorRT-LLM's `trtllm_config` sections LlmArgs YAML (read as
 *   the --extra-engine-args file the worker is given), and `frontend:
 *   {type: dynamo, args}`.
 * - llm-d style per-role sections: `prefill: {tp, extra-args: "--flag
 *   ...", env: {...}}`, `decode: ...`, served with vLLM; vLLM recipes'
 *   strategies give a role's flags as a list (`vllm_args: [--port, "8001"]`).
 *
 * A key that is true is `--key`, false is left out (as srt-slurm writes
 * the command line), a list `--key a b`, a mapping `--key JSON`.
 */
#include "parse.h"
#include "yaml_words.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
	const sl_source *src;
	sl_script *s;
	size_t cmd_cap, note_cap, hd_cap;
	sl_k8s_workload *ws;
	size_t nws, ws_cap;
} reader;

static void note(reader *r, const sl_yaml_node *n, const char *fmt, const char *a)
{
	sl_buf m = {0};
	sl_buf_printf(&m, fmt, a ? a : "");
	sl_yaml_note(r->s, n ? sl_yaml_at(r->src, n) : 0, sl_buf_detach(&m));
}

static void push_word(sl_command *c, size_t *cap, sl_word w)
{
	SL_PUSH(c->argv, c->argc, *cap, w);
}

/* `--key value` words of one flag written as a YAML key. */
static void flag_words(reader *r, sl_command *c, size_t *cap, const sl_yaml_node *k, const sl_yaml_node *v,
		       const char *as)
{
	uint32_t ko = sl_yaml_at(r->src, k);
	uint32_t ke = ko + (uint32_t)strlen(k->value);
	sl_buf name = {0};
	sl_buf_printf(&name, "--%s", as ? as : k->value);
	sl_word w;
	if (v->kind == SL_YAML_SCALAR) {
		if (sl_yaml_is_null(v) && v->plain) {
			sl_buf_free(&name);
			return;
		}
		if (v->plain && (!strcmp(v->value, "true") || !strcmp(v->value, "True"))) {
			sl_yaml_implied_word(&w, name.data, ko, sl_yaml_at(r->src, v) + (uint32_t)v->len);
			push_word(c, cap, w);
		} else if (!(v->plain && (!strcmp(v->value, "false") || !strcmp(v->value, "False")))) {
			sl_yaml_implied_word(&w, name.data, ko, ke);
			push_word(c, cap, w);
			sl_k8s_word(r->src, v, &w);
			push_word(c, cap, w);
		}
	} else if (v->kind == SL_YAML_SEQ) {
		sl_yaml_implied_word(&w, name.data, ko, ke);
		push_word(c, cap, w);
		for (size_t i = 0; i < v->n; i++)
			if (v->items[i]->kind == SL_YAML_SCALAR) {
				sl_k8s_word(r->src, v->items[i], &w);
				push_word(c, cap, w);
			}
	} else {
		sl_yaml_implied_word(&w, name.data, ko, ke);
		push_word(c, cap, w);
		json_t *j = sl_yaml_to_json(v);
		char *t = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER);
		json_decref(j);
		sl_yaml_implied_word(&w, t ? t : "{}", sl_yaml_at(r->src, v), sl_yaml_at(r->src, v) + 1);
		push_word(c, cap, w);
		free(t);
	}
	sl_buf_free(&name);
}

/* env: {NAME: value} as the command's inline variables. */
static void env_map(reader *r, sl_command *c, size_t *cap, const sl_yaml_node *env)
{
	for (size_t i = 0; env && env->kind == SL_YAML_MAP && i < env->n; i++) {
		const sl_yaml_node *v = env->items[i];
		if (v->kind != SL_YAML_SCALAR)
			continue;
		sl_assign a;
		memset(&a, 0, sizeof a);
		a.name = sl_strdup(env->keys[i]->value);
		a.start = sl_yaml_at(r->src, env->keys[i]);
		a.exported = 1;
		sl_k8s_word(r->src, v, &a.value);
		sl_yaml_env_put(&c->prefix, &c->nprefix, cap, a);
	}
}

static long count_of(const sl_yaml_node *n)
{
	long long v;
	const char *s = sl_yaml_scalar(n);
	return s && !sl_parse_int(s, &v) && v >= 0 ? (long)v : -1;
}

static void finish(reader *r, sl_command *c, const sl_yaml_node *section, const char *kind, const char *name,
		   const char *role, const char *image, const sl_yaml_node *replicas, const sl_yaml_node *gpus)
{
	c->block = -1;
	c->iterations = 1;
	c->start = c->stmt = c->head = sl_yaml_at(r->src, section);
	c->end = c->argc ? c->argv[c->argc - 1].end : c->start;
	SL_PUSH(r->s->cmds, r->s->ncmds, r->cmd_cap, *c);
	sl_k8s_workload w;
	memset(&w, 0, sizeof w);
	w.kind = sl_strdup(kind);
	w.name = sl_strdup(name);
	w.image = image ? sl_strdup(image) : NULL;
	w.component = sl_strdup(!strcmp(role, "frontend") ? "frontend" : "worker");
	w.sub_component = strcmp(role, "frontend") ? sl_strdup(role) : NULL;
	w.replicas = count_of(replicas);
	if (w.replicas >= 0)
		w.replicas_off = sl_yaml_at(r->src, replicas);
	w.gpus = count_of(gpus);
	if (w.gpus >= 0)
		w.gpus_off = sl_yaml_at(r->src, gpus);
	SL_PUSH(r->ws, r->nws, r->ws_cap, w);
}

/* ---- srt-slurm --------------------------------------------------------- */

static const struct {
	const char *section, *role, *res;
} roles[] = {
	{"prefill", "prefill", "prefill"},
	{"decode", "decode", "decode"},
	{"aggregated", "aggregated", "agg"},
	{"agg", "aggregated", "agg"},
};

/* A TensorRT-LLM section: LlmArgs YAML, kept as a file of the entry
 * written where it stands (a here-document, as a script would write it). */
static char *section_file(reader *r, const sl_yaml_node *key, const sl_yaml_node *map, const char *role)
{
	size_t a = sl_source_offset(r->src, map->keys[0]->line, 1);
	/* to the end of the last line that belongs to the section */
	size_t b = a;
	unsigned indent = map->keys[0]->col;
	for (size_t l = map->keys[0]->line; l <= r->src->nlines; l++) {
		size_t ls = r->src->lines[l - 1], le = l < r->src->nlines ? r->src->lines[l] : r->src->len;
		size_t q = ls;
		while (q < le && r->src->text[q] == ' ')
			q++;
		int blank = q >= le || r->src->text[q] == '\n' || r->src->text[q] == '#';
		if (!blank && q - ls + 1 < indent)
			break;
		b = le;
	}
	sl_heredoc h;
	memset(&h, 0, sizeof h);
	sl_buf t = {0};
	sl_buf_printf(&t, "trtllm_config.%s.yaml", role);
	h.target = sl_buf_detach(&t);
	h.body.text = sl_strndup(r->src->text + a, b - a);
	h.body.len = b - a;
	h.body.offs = sl_malloc((h.body.len + 1) * sizeof *h.body.offs);
	for (size_t i = 0; i <= h.body.len; i++)
		h.body.offs[i] = (uint32_t)(a + i);
	h.body.start = (uint32_t)a;
	h.body.end = (uint32_t)b;
	h.start = sl_yaml_at(r->src, key) > 0 ? sl_yaml_at(r->src, key) - 1 : 0;
	h.body_start = (uint32_t)a;
	SL_PUSH(r->s->heredocs, r->s->nheredocs, r->hd_cap, h);
	return sl_strdup(h.target);
}

static void srt_slurm(reader *r, const sl_yaml_node *root)
{
	const sl_yaml_node *model = sl_yaml_get(root, "model"), *res = sl_yaml_get(root, "resources");
	const sl_yaml_node *be = sl_yaml_get(root, "backend"), *fe = sl_yaml_get(root, "frontend");
	const char *type = sl_yaml_scalar(sl_yaml_get(be, "type"));
	const sl_yaml_node *path = sl_yaml_get(model, "path");
	const char *image = sl_yaml_scalar(sl_yaml_get(model, "container"));
	const char *name = sl_yaml_scalar(sl_yaml_get(root, "name"));
	/* Dynamo's frontend and workers: said by the frontend, or by a dynamo: section */
	int dynamo = fe ? sl_yaml_scalar(sl_yaml_get(fe, "type")) && !strcmp(sl_yaml_scalar(sl_yaml_get(fe, "type")), "dynamo")
			: sl_yaml_get(root, "dynamo") != NULL;
	static const char *const engines[] = {"sglang", "vllm", "trtllm"};
	for (size_t i = 0; !type && i < 3; i++) {
		/* no backend.type: the engine whose <engine>_config is there */
		sl_buf k = {0};
		sl_buf_printf(&k, "%s_config", engines[i]);
		if (sl_yaml_get(be, k.data))
			type = engines[i];
		sl_buf_free(&k);
	}
	if (!type || (strcmp(type, "sglang") && strcmp(type, "vllm") && strcmp(type, "trtllm"))) {
		note(r, be ? be : root, "recipe backend `%s` is not an engine servelint reads", type ? type : "(none)");
		return;
	}
	if (dynamo && fe && sl_yaml_get(fe, "type")) {
		const sl_yaml_node *ft = sl_yaml_get(fe, "type");
		sl_command c;
		memset(&c, 0, sizeof c);
		size_t cap = 0;
		sl_word w;
		const char *prog[] = {"python3", "-m", "dynamo.frontend"};
		for (size_t i = 0; i < 3; i++) {
			sl_yaml_implied_word(&w, prog[i], sl_yaml_at(r->src, ft), sl_yaml_at(r->src, ft) + (uint32_t)ft->len);
			push_word(&c, &cap, w);
		}
		const sl_yaml_node *args = sl_yaml_get(fe, "args");
		for (size_t i = 0; args && args->kind == SL_YAML_MAP && i < args->n; i++)
			flag_words(r, &c, &cap, args->keys[i], args->items[i], NULL);
		size_t pcap = 0;
		env_map(r, &c, &pcap, sl_yaml_get(fe, "env"));
		/* the engine's image tag is not the frontend's version */
		finish(r, &c, fe, "srt-slurm recipe", "frontend", "frontend", NULL, NULL, NULL);
	}
	sl_buf key = {0};
	sl_buf_printf(&key, "%s_config", type);
	const sl_yaml_node *cfg = sl_yaml_get(be, key.data);
	sl_buf_free(&key);
	if (!cfg || cfg->kind != SL_YAML_MAP) {
		note(r, be, "recipe backend has no %s_config: the workers' flags are not stated", type);
		return;
	}
	int own_model = 0;
	for (size_t i = 0; i < cfg->n; i++)
		own_model |= sl_yaml_get(cfg->items[i], "model-path") || sl_yaml_get(cfg->items[i], "model") ||
			     sl_yaml_get(cfg->items[i], "model_path");
	for (size_t i = 0; i < cfg->n; i++) {
		const char *sec = cfg->keys[i]->value;
		size_t k = 0;
		while (k < sizeof roles / sizeof *roles && strcmp(roles[k].section, sec))
			k++;
		if (k == sizeof roles / sizeof *roles) {
			note(r, cfg->keys[i], "recipe section `%s` is not a role servelint knows (prefill, decode, aggregated)",
			     sec);
			continue;
		}
		const sl_yaml_node *flags = cfg->items[i];
		uint32_t so = sl_yaml_at(r->src, cfg->keys[i]), se = so + (uint32_t)strlen(sec);
		sl_command c;
		memset(&c, 0, sizeof c);
		size_t cap = 0, pcap = 0;
		sl_word w;
		int trt = !strcmp(type, "trtllm");
		const char *prog_dyn[] = {"python3", "-m", !strcmp(type, "sglang") ? "dynamo.sglang"
							 : trt ? "dynamo.trtllm" : "dynamo.vllm"};
		const char *prog_own[] = {!strcmp(type, "sglang") ? "python3" : trt ? "trtllm-serve" : "vllm",
					  !strcmp(type, "sglang") ? "-m" : "serve",
					  !strcmp(type, "sglang") ? "sglang.launch_server" : NULL};
		for (size_t q = 0; q < 3; q++) {
			const char *p = dynamo ? prog_dyn[q] : prog_own[q];
			if (!p)
				continue;
			sl_yaml_implied_word(&w, p, so, se);
			push_word(&c, &cap, w);
		}
		/* a role's own model-path wins: model.path is then srt-slurm's name
		 * for what it mounts there (/model/), and no role is given it */
		if (path && path->kind == SL_YAML_SCALAR && !own_model) {
			/* the model: a flag of the worker, or vLLM's and trtllm-serve's positional */
			if (dynamo || !strcmp(type, "sglang")) {
				sl_yaml_implied_word(&w, !strcmp(type, "vllm") ? "--model" : "--model-path", sl_yaml_at(r->src, path),
					sl_yaml_at(r->src, path) + (uint32_t)path->len);
				push_word(&c, &cap, w);
			}
			sl_k8s_word(r->src, path, &w);
			push_word(&c, &cap, w);
		}
		if (trt && flags->kind == SL_YAML_MAP && flags->n) {
			char *file = section_file(r, cfg->keys[i], flags, roles[k].role);
			sl_yaml_implied_word(&w, dynamo ? "--extra-engine-args" : "--extra_llm_api_options", so, se);
			push_word(&c, &cap, w);
			sl_yaml_implied_word(&w, file, so, se);
			push_word(&c, &cap, w);
			free(file);
		} else {
			for (size_t q = 0; flags->kind == SL_YAML_MAP && q < flags->n; q++)
				flag_words(r, &c, &cap, flags->keys[q], flags->items[q], NULL);
		}
		sl_buf ek = {0}, wk = {0}, gk = {0};
		sl_buf_printf(&ek, "%s_environment", roles[k].role);
		sl_buf_printf(&wk, "%s_workers", roles[k].res);
		sl_buf_printf(&gk, "gpus_per_%s", roles[k].res);
		env_map(r, &c, &pcap, sl_yaml_get(be, ek.data));
		finish(r, &c, cfg->keys[i], "srt-slurm recipe", name ? name : sec, roles[k].role, image,
		       sl_yaml_get(res, wk.data), sl_yaml_get(res, gk.data));
		sl_buf_free(&ek);
		sl_buf_free(&wk);
		sl_buf_free(&gk);
	}
}

/* ---- llm-d per-role sections ------------------------------------------ */

static void llm_d(reader *r, const sl_yaml_node *root)
{
	const sl_yaml_node *model = sl_yaml_get(root, "model");
	for (size_t i = 0; i < root->n; i++) {
		const char *sec = root->keys[i]->value;
		const char *role = !strcmp(sec, "prefill") ? "prefill" : !strcmp(sec, "decode") ? "decode" : NULL;
		const sl_yaml_node *m = root->items[i];
		if (!role || m->kind != SL_YAML_MAP)
			continue;
		uint32_t so = sl_yaml_at(r->src, root->keys[i]), se = so + (uint32_t)strlen(sec);
		sl_command c;
		memset(&c, 0, sizeof c);
		size_t cap = 0, pcap = 0;
		sl_word w;
		sl_yaml_implied_word(&w, "vllm", so, se);
		push_word(&c, &cap, w);
		sl_yaml_implied_word(&w, "serve", so, se);
		push_word(&c, &cap, w);
		const sl_yaml_node *mp = model && model->kind == SL_YAML_SCALAR ? model : sl_yaml_get(model, "path");
		if (mp && mp->kind == SL_YAML_SCALAR) {
			sl_k8s_word(r->src, mp, &w);
			push_word(&c, &cap, w);
		}
		for (size_t q = 0; q < m->n; q++) {
			const char *k = m->keys[q]->value;
			const sl_yaml_node *v = m->items[q];
			if (!strcmp(k, "env")) {
				env_map(r, &c, &pcap, v);
			} else if (!strcmp(k, "vllm_args") && v->kind == SL_YAML_SEQ) {
				/* vLLM recipes' strategies (strategies/pd_cluster.yaml:
				 * `vllm_args: ["--port", "8001", ...]`): argv items, each
				 * one word, as their command synthesis pushes them
				 * (vllm-project/recipes src/lib/command-synthesis.js,
				 * `args.push(...strategy[role].vllm_args)`) */
				for (size_t a = 0; a < v->n; a++) {
					const sl_yaml_node *item = v->items[a];
					if (item->kind != SL_YAML_SCALAR) {
						note(r, item, "a `vllm_args` item that is not a string is not read%s", NULL);
						continue;
					}
					sl_word w;
					sl_k8s_word(r->src, item, &w);
					push_word(&c, &cap, w);
				}
			} else if (!strcmp(k, "extra-args") || !strcmp(k, "args")) {
				/* a string of flags, split at blanks as the launcher's
				 * unquoted $ARGS is (quotes and braces kept): its words,
				 * with their places */
				if (v->kind != SL_YAML_SCALAR)
					continue;
				sl_word sw;
				sl_k8s_word(r->src, v, &sw);
				for (size_t p = 0; p < sw.len;) {
					while (p < sw.len && strchr(" \t\n", sw.text[p]))
						p++;
					size_t e = p;
					while (e < sw.len && !strchr(" \t\n", sw.text[e]))
						e++;
					if (e > p) {
						sl_word cp;
						sl_word_slice(&cp, &sw, p, e);
						push_word(&c, &cap, cp);
					}
					p = e;
				}
				sl_word_free(&sw);
			} else {
				/* tp, dp: the spellings llm-d's launcher maps to vLLM's flags */
				const char *as = !strcmp(k, "tp") ? "tensor-parallel-size" : !strcmp(k, "dp") ? "data-parallel-size"
												       : NULL;
				flag_words(r, &c, &cap, m->keys[q], v, as);
			}
		}
		finish(r, &c, root->keys[i], "llm-d recipe", sec, role, NULL, sl_yaml_get(m, "replicas"),
		       sl_yaml_get(m, "gpus"));
	}
}

int sl_recipe_parse(const sl_source *src, sl_script **out, sl_k8s_workload **ws, size_t *nws, sl_error *err)
{
	sl_yaml_doc *doc;
	reader r;
	memset(&r, 0, sizeof r);
	int rc = sl_yaml_script_start(src, out, ws, nws, &doc, &r.s, err);
	if (rc)
		return rc;
	r.src = src;
	const sl_yaml_node *root = doc->root;
	if (root && root->kind == SL_YAML_MAP) {
		/* a template: base: and zip_override_* variants of it */
		const sl_yaml_node *base = sl_yaml_get(root, "base");
		if (base && base->kind == SL_YAML_MAP && sl_yaml_get(base, "backend")) {
			for (size_t i = 0; i < root->n; i++)
				if (strcmp(root->keys[i]->value, "base"))
					note(&r, root->keys[i], "recipe section `%s` (a variant of base:) is not read; base: is", root->keys[i]->value);
			root = base;
		}
		if (sl_yaml_get(root, "backend"))
			srt_slurm(&r, root);
		else
			llm_d(&r, root);
	}
	sl_yaml_free(doc);
	*out = r.s;
	*ws = r.ws;
	*nws = r.nws;
	return SL_OK;
}
