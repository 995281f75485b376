/* service.c (plan): an entry's plan: its accelerator (System claim, folder
 * name, --system), its model (--model-config, the catalogue's models/
 * folder, the shipped facts) and, for each worker, the inputs the
 * arithmetic of plan.c takes from its settings. */
#include "plan.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../util/util.h"

static sl_plan_options g_opts;
static sl_facts *g_facts;
static char *g_err_msg, *g_err_file;

static int read_config(const char *path, sl_arch *a, sl_error *err);

int sl_plan_set_options(const sl_plan_options *o, sl_error *err)
{
	if (o)
		g_opts = *o;
	else
		memset(&g_opts, 0, sizeof g_opts);
	if (!g_opts.model_config)
		return SL_OK;
	sl_arch a;
	int rc = read_config(g_opts.model_config, &a, err);
	if (rc) {
		memset(&g_opts, 0, sizeof g_opts);
		return rc;
	}
	sl_arch_free(&a);
	return SL_OK;
}

/* Loads the facts on first use, once, whichever thread asks first (check -j). */
static pthread_once_t g_once = PTHREAD_ONCE_INIT;

static void facts_load_once(void)
{
	sl_error e = {0};
	if (sl_facts_load(&g_facts, &e)) {
		g_facts = NULL;
		g_err_msg = e.msg ? sl_strdup(e.msg) : sl_strdup("facts cannot be loaded");
		g_err_file = e.file ? sl_strdup(e.file) : NULL;
	}
	sl_error_clear(&e);
}

const sl_facts *sl_plan_facts(sl_error *err)
{
	pthread_once(&g_once, facts_load_once);
	if (!g_facts && err)
		sl_error_set(err, g_err_file, 1, 1, "%s", g_err_msg);
	return g_facts;
}

static void note(char ***v, size_t *n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void note(char ***v, size_t *n, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	*v = sl_realloc(*v, (*n + 1) * sizeof **v);
	(*v)[(*n)++] = sl_strdup(buf);
}

/* not a multimodal encode worker: it loads the vision encoder alone
 * (SGLang's encoder_only), which no plan of the LLM's weights describes */
static int is_worker(const char *role)
{
	return !strcmp(role, "prefill") || !strcmp(role, "decode") || !strcmp(role, "aggregated");
}

static int usable(const sl_setting *st)
{
	return st && !(st->flags & (SL_SET_SYMBOLIC | SL_SET_PLACEHOLDER | SL_SET_PER_REPLICA));
}

/* vllm | sglang | trtllm, or NULL */
static const char *family(const char *engine)
{
	if (sl_starts_with(engine, "dynamo-"))
		engine += 7;
	if (sl_starts_with(engine, "vllm"))
		return "vllm";
	if (sl_starts_with(engine, "sglang"))
		return "sglang";
	if (strstr(engine, "trtllm"))
		return "trtllm";
	return NULL;
}

/* an integer setting: its value, dflt when not set, -2 when set but not known */
static long ival(const sl_service *s, const char *key, long dflt)
{
	const sl_setting *st = sl_service_get(s, key);
	if (!st)
		return dflt;
	if (!usable(st) || !json_is_integer(st->value))
		return -2;
	return (long)json_integer_value(st->value);
}

static const char *weights_of(const sl_model *m)
{
	for (size_t i = 0; i < m->nservices; i++) {
		const sl_setting *st = sl_service_get(&m->services[i], "model");
		if (is_worker(m->services[i].role) && usable(st) && json_is_string(st->value) &&
		    *json_string_value(st->value) && *json_string_value(st->value) != '<')
			return json_string_value(st->value);
	}
	return NULL;
}

/* the first name the workers are served under, or NULL */
static const char *served_name(const sl_model *m)
{
	for (size_t i = 0; i < m->nservices; i++) {
		const sl_setting *st = sl_service_get(&m->services[i], "model.served_name");
		if (!is_worker(m->services[i].role) || !usable(st))
			continue;
		json_t *v = json_is_array(st->value) ? json_array_get(st->value, 0) : st->value;
		if (json_is_string(v) && *json_string_value(v))
			return json_string_value(v);
	}
	return NULL;
}

static char *base_of(const char *w)
{
	size_t n = strlen(w);
	while (n && w[n - 1] == '/')
		n--;
	size_t b = n;
	while (b && w[b - 1] != '/')
		b--;
	return sl_strndup(w + b, n - b);
}

static int read_config(const char *path, sl_arch *a, sl_error *err)
{
	json_error_t je;
	json_t *j = json_load_file(path, 0, &je);
	if (!j) {
		sl_error_set(err, path, (unsigned)(je.line > 0 ? je.line : 0), (unsigned)(je.column > 0 ? je.column : 0),
			     "config.json: %s", je.text);
		return SL_ERR_INPUT;
	}
	int rc = sl_arch_from_config(j, a);
	json_decref(j);
	if (rc) {
		sl_arch_free(a);
		sl_error_set(err, path, 1, 1, "config.json: no num_hidden_layers and hidden_size");
		return SL_ERR_INPUT;
	}
	a->file = sl_strdup(path);
	a->source = sl_strdup(path);
	/* its name: models/NAME/config.json, models/NAME.json, FILE.json */
	char *b = base_of(path);
	if (!strcmp(b, "config.json") && strchr(path, '/')) {
		char *dir = sl_strndup(path, (size_t)(strrchr(path, '/') - path));
		free(b);
		b = *dir ? base_of(dir) : sl_strdup("config.json");
		free(dir);
	} else if (sl_ends_with(b, ".json") && strlen(b) > 5) {
		b[strlen(b) - 5] = '\0';
	}
	a->id = b;
	return SL_OK;
}

static void system_of(sl_entry_plan *p, const sl_facts *f, const sl_model *m)
{
	if (g_opts.system) {
		p->hw = sl_facts_hw(f, g_opts.system);
		p->hw_from = sl_strdup("--system");
		if (!p->hw)
			note(&p->notes, &p->nnotes, "--system %s names no accelerator of grammars/hardware/", g_opts.system);
		return;
	}
	for (size_t i = 0; i < m->nclaims; i++) {
		const sl_claim *k = &m->claims[i];
		if (strcmp(k->key, "system") || !json_is_string(k->value))
			continue;
		p->hw = sl_facts_hw(f, json_string_value(k->value));
		if (p->hw) {
			p->hw_from = sl_strdup(k->from);
			p->hw_origin = &k->origin;
			return;
		}
	}
	/* the nearest folder that names one */
	const char *path = m->entry->path;
	const char *end = path + strlen(path);
	while (end > path) {
		while (end > path && end[-1] == '/')
			end--;
		const char *b = end;
		while (b > path && b[-1] != '/')
			b--;
		if (b == end)
			break;
		char *comp = sl_strndup(b, (size_t)(end - b));
		const sl_hw *h = sl_facts_hw(f, comp);
		free(comp);
		if (h) {
			p->hw = h;
			p->hw_from = sl_strdup("folder name");
			return;
		}
		end = b;
	}
	note(&p->notes, &p->nnotes,
	     "the accelerator is not known (no System claim, folder name or --system names one of grammars/hardware/): "
	     "the memory figures and the checks on the accelerator are skipped");
}

static double dtype_bytes(const char *dtype)
{
	if (!dtype || !strcasecmp(dtype, "bfloat16") || !strcasecmp(dtype, "float16") || !strcasecmp(dtype, "bf16") ||
	    !strcasecmp(dtype, "fp16"))
		return 2.0;
	return -1;
}

/* whether the entry holds a file of that base name, or its script writes one */
static int entry_has_file(const sl_model *m, const char *path)
{
	const char *b = strrchr(path, '/');
	b = b ? b + 1 : path;
	const sl_entry *e = m->entry;
	for (size_t i = 0; e && i < e->nfiles; i++)
		if ((e->files[i]->section && !strcmp(e->files[i]->section, b)) || !strcmp(e->files[i]->name, b))
			return 1;
	for (size_t i = 0; i < m->nfiles; i++) {
		const char *w = m->files[i]->section ? strrchr(m->files[i]->section, '/') : NULL;
		w = w ? w + 1 : m->files[i]->section;
		if (w && !strcmp(w, b))
			return 1;
	}
	return 0;
}

static void plan_service(sl_entry_plan *p, sl_service_plan *sp, const sl_service *s)
{
	memset(sp, 0, sizeof *sp);
	sp->service = s;
	sp->max_model_len = -1;
	sp->max_seqs = -1;
	const char *fam = family(s->engine);
	const sl_arch *a = p->arch;
	sl_plan_in *in = &sp->in;
	in->arch = a;
	/* an engine config file the entry does not hold may set anything */
	const sl_setting *cf = sl_service_get(s, "engine.config_file");
	if (cf && json_is_string(cf->value) && !entry_has_file(p->model, json_string_value(cf->value))) {
		note(&sp->notes, &sp->nnotes, "%s is not part of the entry: its settings (parallelism, memory) are not "
					     "known, so this worker has no plan", json_string_value(cf->value));
		sp->unknown_config = 1;
		return;
	}
	long tp = ival(s, "parallel.tensor", 1), pp = ival(s, "parallel.pipeline", 1), dp = ival(s, "parallel.data", 1);
	if (tp == -2 || pp == -2 || dp == -2) {
		note(&sp->notes, &sp->nnotes, "the parallelism is not known before it runs (a variable or placeholder)");
		return;
	}
	if (!sl_service_get(s, "parallel.tensor") && (s->gpus > 1 || s->gpus == -2)) {
		note(&sp->notes, &sp->nnotes, "no tensor-parallel size is set for %s GPUs: the parallelism is not known",
		     s->gpus == -2 ? "all the" : "several");
		return;
	}
	in->tp = tp < 1 ? 1 : tp;
	in->pp = pp < 1 ? 1 : pp;
	in->dp = dp < 1 ? 1 : dp;
	const sl_setting *adp = sl_service_get(s, "parallel.attention_data");
	in->attention_dp = adp && json_is_true(adp->value);
	const sl_setting *epe = sl_service_get(s, "parallel.expert_enabled");
	/* vLLM's expert parallelism spans TP x DP; SGLang's and TensorRT-LLM's
	 * EP splits the TP group, so a rank keeps 1/TP of the experts either way */
	in->ep = fam && !strcmp(fam, "vllm") && epe && json_is_true(epe->value) ? in->tp * in->dp : 0;
	const sl_setting *ml = sl_service_get(s, "limits.max_model_len");
	if (ml && usable(ml) && json_is_integer(ml->value))
		sp->max_model_len = (long)json_integer_value(ml->value);
	else if (!ml && a && a->max_pos > 0) {
		sp->max_model_len = a->max_pos;
		sp->max_model_len_default = 1;
	}
	const sl_setting *ms = sl_service_get(s, "limits.max_seqs");
	if (ms && usable(ms) && json_is_integer(ms->value))
		sp->max_seqs = (long)json_integer_value(ms->value);
	if (!a || !p->hw || p->hw->mem_gib <= 0)
		return;
	if (a->params <= 0) {
		note(&sp->notes, &sp->nnotes, "the model's parameters are not known: no memory figures");
		return;
	}
	if (!fam) {
		note(&sp->notes, &sp->nnotes, "%s: no memory setting servelint knows the meaning of", s->engine);
		return;
	}
	in->mem_gib = p->hw->mem_gib;
	/* the weights' bytes per parameter */
	const sl_setting *q = sl_service_get(s, "model.quantization");
	const char *quant = q && usable(q) && json_is_string(q->value) ? json_string_value(q->value) : a->quant;
	double qb = sl_plan_quant_bytes(quant), base = dtype_bytes(a->dtype);
	if (qb < 0 || base < 0) {
		note(&sp->notes, &sp->nnotes, "quantization %s: its bytes per parameter are not known: no memory figures",
		     quant ? quant : a->dtype);
		return;
	}
	sp->quant = sl_strdup(quant ? quant : a->dtype ? a->dtype : "bfloat16");
	in->bytes_embed = base;
	in->bytes_expert = quant ? qb : base;
	/* gpt-oss keeps attention, router, embeddings and LM head in BF16
	 * (quantization_config.modules_to_not_convert) */
	in->bytes_dense = quant && !(a->model_type && !strcmp(a->model_type, "gpt_oss") && !strcasecmp(quant, "mxfp4"))
				  ? qb
				  : base;
	if (quant && !strcasecmp(quant, "nvfp4"))
		note(&sp->notes, &sp->nnotes, "NVFP4: every linear layer counted at 4.5 bits (checkpoints that keep "
					     "attention in higher precision need more)");
	/* the KV cache's bytes per element */
	const sl_setting *kd = sl_service_get(s, "kv.dtype");
	const char *kv = kd && usable(kd) && json_is_string(kd->value) ? json_string_value(kd->value) : "auto";
	sp->kv_dtype = sl_strdup(kv);
	in->kv_bytes = !strcasecmp(kv, "auto") ? base : sl_plan_kv_bytes(kv);
	if (in->kv_bytes < 0) {
		note(&sp->notes, &sp->nnotes, "KV cache dtype %s: its bytes per element are not known", kv);
		in->kv_bytes = 0;
	}
	/* the engine's memory setting, with the meaning it has there */
	const char *fk = !strcmp(fam, "vllm") ? "memory.gpu_utilization"
			 : !strcmp(fam, "sglang") ? "memory.static_fraction"
						  : "memory.kv_free_fraction";
	const sl_setting *fr = sl_service_get(s, fk);
	in->frac_kind = !strcmp(fam, "vllm") ? SL_FRAC_TOTAL : !strcmp(fam, "sglang") ? SL_FRAC_STATIC : SL_FRAC_FREE;
	if (fr && (!usable(fr) || !json_is_number(fr->value))) {
		note(&sp->notes, &sp->nnotes, "%s is not known before it runs: no KV figures", fr->flag);
		in->frac_kind = SL_FRAC_NONE;
	} else if (fr) {
		in->frac = json_number_value(fr->value);
	} else if (!strcmp(fam, "sglang")) {
		note(&sp->notes, &sp->nnotes, "--mem-fraction-static not set: SGLang works it out at start-up from the "
					     "GPU's memory, so the KV figures are left out");
		in->frac_kind = SL_FRAC_NONE;
	} else {
		in->frac = 0.9;  /* vLLM's and TensorRT-LLM's default (grammars/engines) */
		note(&sp->notes, &sp->nnotes, "%s not set: the engine's default 0.9",
		     !strcmp(fam, "vllm") ? "--gpu-memory-utilization" : "free_gpu_memory_fraction");
	}
	if (!in->kv_bytes)
		in->frac_kind = SL_FRAC_NONE;
	in->margin_gib = in->frac_kind == SL_FRAC_STATIC ? sl_plan_start_gib() : sl_plan_margin_gib(in->mem_gib);
	if (a->attn == SL_ATTN_UNKNOWN)
		note(&sp->notes, &sp->nnotes, "the model's attention is neither GQA nor MLA as config.json describes them: "
					     "no KV figures");
	if (in->attention_dp)
		note(&sp->notes, &sp->nnotes, "attention data parallel: attention weights counted whole on every rank, and "
					     "every rank keeps the KV of its own requests");
	sp->computed = !sl_plan_compute(in, &sp->out);
}

int sl_plan_entry(const sl_model *m, sl_entry_plan **out, sl_error *err)
{
	*out = NULL;
	sl_entry_plan *p = sl_calloc(1, sizeof *p);
	const sl_facts *f = sl_plan_facts(err);
	if (!f) {
		free(p);
		return SL_ERR_INPUT;
	}
	p->entry = m->entry;
	p->model = m;
	system_of(p, f, m);
	p->weights = weights_of(m);
	if (g_opts.model_config) {
		sl_arch *a = sl_calloc(1, sizeof *a);
		int rc = read_config(g_opts.model_config, a, err);
		if (rc) {
			free(a);
			sl_entry_plan_free(p);
			return rc;
		}
		p->own_arch = a;
		p->arch = a;
		sl_buf b = {0};
		sl_buf_printf(&b, "--model-config %s", g_opts.model_config);
		p->arch_from = sl_buf_detach(&b);
	} else if (p->weights) {
		const char *served = NULL;
		char *name = base_of(p->weights);
		char *cfg = *name ? sl_plan_catalogue_config(m->entry, name) : NULL;
		if (cfg) {
			sl_arch *a = sl_calloc(1, sizeof *a);
			int rc = read_config(cfg, a, err);
			if (rc) {
				free(a);
				free(cfg);
				free(name);
				sl_entry_plan_free(p);
				return rc;
			}
			p->own_arch = a;
			p->arch = a;
			p->arch_from = cfg;
		} else if ((p->arch = sl_facts_arch(f, p->weights))) {
			p->arch_from = sl_strdup(p->arch->file);
		} else if (strchr("/.~", *p->weights) && (served = served_name(m)) && (p->arch = sl_facts_arch(f, served))) {
			/* weights in a local folder (/model): the name it is served under says which */
			sl_buf b = {0};
			sl_buf_printf(&b, "%s, by the served model name %s", p->arch->file, served);
			p->arch_from = sl_buf_detach(&b);
		} else {
			note(&p->notes, &p->nnotes,
			     "the model %s%s%s is not one of grammars/models/ (--model-config FILE reads its config.json): "
			     "the checks on the model are skipped",
			     p->weights, served ? ", served as " : "", served ? served : "");
		}
		free(name);
	} else {
		note(&p->notes, &p->nnotes, "the weights the workers load are not named: the checks on the model are skipped");
	}
	for (size_t i = 0; i < m->nservices; i++)
		if (is_worker(m->services[i].role)) {
			p->services = sl_realloc(p->services, (p->nservices + 1) * sizeof *p->services);
			plan_service(p, &p->services[p->nservices++], &m->services[i]);
		}
	*out = p;
	return SL_OK;
}

void sl_entry_plan_free(sl_entry_plan *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nservices; i++) {
		sl_service_plan *sp = &p->services[i];
		free(sp->quant);
		free(sp->kv_dtype);
		for (size_t k = 0; k < sp->nnotes; k++)
			free(sp->notes[k]);
		free(sp->notes);
	}
	free(p->services);
	for (size_t k = 0; k < p->nnotes; k++)
		free(p->notes[k]);
	free(p->notes);
	free(p->hw_from);
	free(p->arch_from);
	if (p->own_arch) {
		sl_arch_free(p->own_arch);
		free(p->own_arch);
	}
	free(p);
}

/* ---- output ------------------------------------------------------------------ */

static double round1(double v)
{
	return (double)(long long)(v * 10.0 + (v < 0 ? -0.5 : 0.5)) / 10.0;
}

static void tokens_text(sl_buf *b, double t)
{
	if (t < 1e4)
		sl_buf_printf(b, "%.0f", t);
	else if (t < 1e6)
		sl_buf_printf(b, "%.0fK", t / 1e3);
	else
		sl_buf_printf(b, "%.2fM", t / 1e6);
}

char *sl_plan_headline(const sl_service_plan *sp)
{
	if (!sp || !sp->computed)
		return NULL;
	sl_buf b = {0};
	sl_buf_printf(&b, "weights %.1f GiB/GPU, KV ", sp->out.weights_gib);
	if (sp->in.frac_kind == SL_FRAC_NONE || sp->out.kv_token_bytes <= 0)
		sl_buf_puts(&b, "-");
	else if (sp->out.kv_gib <= 0)
		sl_buf_puts(&b, "none left");
	else {
		tokens_text(&b, sp->out.kv_tokens);
		sl_buf_puts(&b, " tokens");
	}
	return sl_buf_detach(&b);
}

static json_t *strs_json(char **v, size_t n)
{
	json_t *a = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_string(v[i]));
	return a;
}

static const char *frac_name(sl_frac_kind k)
{
	switch (k) {
	case SL_FRAC_TOTAL: return "share of total";
	case SL_FRAC_STATIC: return "static share of free at start";
	case SL_FRAC_FREE: return "share of free after weights";
	case SL_FRAC_NONE: break;
	}
	return NULL;
}

json_t *sl_plan_json(const sl_entry_plan *p)
{
	json_t *o = json_object();
	if (p->hw) {
		json_t *h = json_pack("{s:s, s:s, s:s, s:f, s:s?, s:I, s:I, s:s}", "id", p->hw->id, "name", p->hw->name,
				      "from", p->hw_from, "memory_gib", p->hw->mem_gib, "memory_source", p->hw->mem_source,
				      "node_gpus", (json_int_t)p->hw->node_gpus, "nvlink_domain_gpus",
				      (json_int_t)p->hw->domain_gpus, "facts", p->hw->file);
		if (p->hw_origin && p->hw_origin->src) {
			unsigned l, c;
			sl_origin_pos(p->hw_origin, &l, &c);
			json_object_set_new(h, "origin", json_pack("{s:s, s:i, s:i}", "file", p->hw_origin->src->path,
								   "line", (json_int_t)l, "col", (json_int_t)c));
		}
		json_object_set_new(o, "system", h);
	} else
		json_object_set_new(o, "system", json_null());
	if (p->arch)
		json_object_set_new(o, "model",
				    json_pack("{s:s, s:s, s:s?, s:o, s:s?}", "id", p->arch->id, "from", p->arch_from,
					      "source", p->arch->source, "parameters",
					      p->arch->params > 0 ? json_integer((json_int_t)p->arch->params) : json_null(),
					      "parameters_source", p->arch->params_source));
	else
		json_object_set_new(o, "model", json_null());
	json_t *svc = json_array();
	for (size_t i = 0; i < p->nservices; i++) {
		const sl_service_plan *sp = &p->services[i];
		json_t *x = json_pack("{s:s}", "service", sp->service->name);
		if (sp->in.tp >= 1) {
			json_object_set_new(x, "tp", json_integer(sp->in.tp));
			json_object_set_new(x, "pp", json_integer(sp->in.pp));
			json_object_set_new(x, "dp", json_integer(sp->in.dp));
			json_object_set_new(x, "attention_dp", json_boolean(sp->in.attention_dp));
			if (sp->in.ep > 0)
				json_object_set_new(x, "ep", json_integer(sp->in.ep));
		}
		if (sp->computed) {
			json_object_set_new(x, "quantization", json_string(sp->quant));
			json_object_set_new(x, "weights_gib", json_real(round1(sp->out.weights_gib)));
			json_object_set_new(x, "margin_gib", json_real(round1(sp->in.margin_gib)));
			if (sp->in.frac_kind != SL_FRAC_NONE) {
				json_object_set_new(x, "memory_fraction",
						    json_pack("{s:f, s:s}", "value", sp->in.frac, "meaning",
							      frac_name(sp->in.frac_kind)));
				json_object_set_new(x, "kv_pool_gib", json_real(round1(sp->out.kv_gib)));
			}
			json_object_set_new(x, "kv_dtype", json_string(sp->kv_dtype));
			if (sp->out.kv_token_bytes > 0) {
				json_object_set_new(x, "kv_bytes_per_token", json_real(sp->out.kv_token_bytes));
				if (sp->in.frac_kind != SL_FRAC_NONE) {
					json_object_set_new(x, "kv_tokens", json_integer((json_int_t)sp->out.kv_tokens));
					if (sp->out.kv_token_bytes_all != sp->out.kv_token_bytes)
						json_object_set_new(x, "kv_tokens_all_layers",
								    json_integer((json_int_t)sp->out.kv_tokens_all));
				}
			}
		}
		if (sp->max_model_len > 0)
			json_object_set_new(x, "max_model_len",
					    json_pack("{s:I, s:b}", "value", (json_int_t)sp->max_model_len, "default",
						      sp->max_model_len_default));
		if (sp->max_seqs > 0)
			json_object_set_new(x, "max_seqs", json_integer(sp->max_seqs));
		json_object_set_new(x, "notes", strs_json(sp->notes, sp->nnotes));
		json_array_append_new(svc, x);
	}
	json_object_set_new(o, "services", svc);
	json_object_set_new(o, "notes", strs_json(p->notes, p->nnotes));
	return o;
}
