/* plan_rules.c (check): the checks on the memory and shape plan
 * (src/plan/, docs/memory-plan.md): the model's shape against the
 * parallelism, the accelerator's node and NVLink domain, the weights and
 * the KV pool against the GPU's memory, the positions, the precisions.
 * Each is certain for the facts given, or a warning; a fact not known
 * skips the check (the plan says why). Uses findings.c. */
#include "plan_rules.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../plan/plan.h"
#include "findings.h"

static const char *const names[] = {"tp_heads",       "ep_experts",   "gpus_node",        "tp_domain",
				    "weights_memory", "kv_one_request", "max_len_positions", "precision_native",
				    "devices_node",   "mtp_layers"};

int sl_plan_check_known(const char *name)
{
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (!strcmp(names[i], name))
			return 1;
	return 0;
}

/* a finding of r, its message after the rule's summary; one per place (a
 * file two services read is reported once): NULL for a second */
static sl_finding *add(sl_findings *out, const sl_rule *r, const sl_origin *where, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static sl_finding *add(sl_findings *out, const sl_rule *r, const sl_origin *where, const char *fmt, ...)
{
	for (size_t i = 0; i < out->n; i++)
		if (out->v[i].rule == r && out->v[i].where.src == where->src && out->v[i].where.off == where->off)
			return NULL;
	char buf[900];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	return sl_finding_add(out, r, where, "%s: %s", r->summary, buf);
}

/* the place a finding about a service points at: the setting, else the command */
static const sl_origin *at(const sl_service *s, const char *key)
{
	const sl_setting *st = key ? sl_service_get(s, key) : NULL;
	return st ? &st->origin : &s->command_origin;
}

static const char *model_name(const sl_entry_plan *p)
{
	return p->arch->id ? p->arch->id : "the model";
}

static void related_system(sl_finding *f, const sl_entry_plan *p)
{
	if (f && p->hw_origin)
		sl_finding_related(f, p->hw_origin, "the system");
}

static const char *family(const char *engine)
{
	if (sl_starts_with(engine, "dynamo-"))
		engine += 7;
	return sl_starts_with(engine, "vllm") ? "vllm" : sl_starts_with(engine, "sglang") ? "sglang"
	       : strstr(engine, "trtllm")                                              ? "trtllm"
										       : "";
}

static long ival(const sl_service *s, const char *key)
{
	const sl_setting *st = sl_service_get(s, key);
	if (!st || (st->flags & (SL_SET_SYMBOLIC | SL_SET_PLACEHOLDER | SL_SET_PER_REPLICA)) || !json_is_integer(st->value))
		return -1;
	return (long)json_integer_value(st->value);
}

/* the workers' plans whose parallelism is known (the plan's TP is then set) */
static int known_tp(const sl_service_plan *sp)
{
	return sp->in.tp >= 1 && !sp->unknown_config;
}

static void tp_heads(const sl_rule *r, const sl_entry_plan *p, sl_findings *out)
{
	const sl_arch *a = p->arch;
	if (!a || a->heads <= 0)
		return;
	for (size_t i = 0; i < p->nservices; i++) {
		const sl_service_plan *sp = &p->services[i];
		long tp = sp->in.tp;
		if (!known_tp(sp) || sp->in.attention_dp || tp <= 1)
			continue;
		const sl_service *s = sp->service;
		if (a->heads % tp)
			add(out, r, at(s, "parallel.tensor"), "TP %ld does not divide the %ld attention heads of %s (%s)", tp,
			    a->heads, model_name(p), p->arch_from);
		else if (a->attn == SL_ATTN_GQA && tp <= a->kv_heads && a->kv_heads % tp)
			add(out, r, at(s, "parallel.tensor"), "TP %ld does not divide the %ld KV heads of %s (%s)", tp,
			    a->kv_heads, model_name(p), p->arch_from);
		else if (a->attn == SL_ATTN_GQA && tp > a->kv_heads && tp % a->kv_heads)
			add(out, r, at(s, "parallel.tensor"),
			    "TP %ld is not a multiple of the %ld KV heads of %s (%s), which the engine replicates past one per rank",
			    tp, a->kv_heads, model_name(p), p->arch_from);
	}
}

static void ep_experts(const sl_rule *r, const sl_entry_plan *p, sl_findings *out)
{
	const sl_arch *a = p->arch;
	if (!a || a->experts <= 0)
		return;
	for (size_t i = 0; i < p->nservices; i++) {
		const sl_service_plan *sp = &p->services[i];
		const sl_service *s = sp->service;
		if (!known_tp(sp))
			continue;
		long ep;
		const char *key;
		if (!strcmp(family(s->engine), "vllm")) {
			const sl_setting *e = sl_service_get(s, "parallel.expert_enabled");
			if (!e || !json_is_true(e->value))
				continue;
			ep = sp->in.tp * sp->in.dp;
			key = "parallel.expert_enabled";
		} else {
			ep = ival(s, "parallel.expert");
			key = "parallel.expert";
		}
		if (ep > 1 && a->experts % ep)
			add(out, r, at(s, key), "EP %ld does not divide the %ld routed experts of %s (%s): %ld per rank and %ld over",
			    ep, a->experts, model_name(p), p->arch_from, a->experts / ep, a->experts % ep);
	}
}

static int sval_is(const sl_service *s, const char *key, const char *v)
{
	const sl_setting *st = sl_service_get(s, key);
	return st && json_is_string(st->value) && !strcmp(json_string_value(st->value), v);
}

/* vLLM after 0.11.0 refuses a world larger than its node unless the
 * executor backend is named: "World size (N) is larger than the number of
 * available GPUs (M) in this node ... set '--distributed-executor-backend
 * ray'" (vllm/config/parallel.py, vllm-project/vllm 74374386e of
 * 2025-10-30 and bf4a901af, as mirrored in 22quinn/vllm; 0.11.0,
 * b8b302cd of 2025-10-10, still moved such a world to Ray by itself) */
static int vllm_refuses_world(const sl_service *s)
{
	return !strcmp(family(s->engine), "vllm") && s->version && sl_version_cmp(s->version, "0.11.0") == 1;
}

/* The entry's text says it spans nodes: "start ray on node 0 and node 1",
 * "2 nodes" (a deploy.multi_node claim), or, for vLLM, a header comment
 * stating a GPU count beyond a node's ("# 300B model 80G*16 GPU" above a
 * TP16 `vllm serve` whose recipe starts a Ray cluster first:
 * vllm-project/recipes Ernie/Ernie4.5.md@8959cf6), of the service's role
 * or the whole entry. The metadata's "Accelerators used 8 of 72" counts
 * what the entry uses, not how it is spread: not evidence. */
static int text_spans_nodes(const sl_model *m, const sl_service *s, long node_gpus)
{
	for (size_t c = 0; m && c < m->nclaims; c++) {
		const sl_claim *k = &m->claims[c];
		if (k->role && strcmp(k->role, s->role))
			continue;
		if (!strcmp(k->key, "deploy.multi_node"))
			return 1;
		if (!strcmp(family(s->engine), "vllm") && !strcmp(k->from, "comment") &&
		    (!strcmp(k->key, "gpus.total") || !strcmp(k->key, "gpus")) && json_is_integer(k->value) &&
		    json_integer_value(k->value) > node_gpus)
			return 1;
	}
	return 0;
}

/* a worker started as one process group on one node: no --nnodes, no MPI
 * or other launcher that may spread its ranks over hosts, no Ray (vLLM's
 * executor or data-parallel backend), and no text of the entry saying it
 * runs on several nodes (vLLM up to 0.11.0 moves a world larger than the
 * node to Ray by itself, vllm/config/parallel.py@2665d49 as mirrored from
 * Yuran-7/vllm-0.11; a later vLLM refuses it, vllm_refuses_world) */
static int one_node(const sl_model *m, const sl_service *s, long node_gpus)
{
	if (sl_service_get(s, "parallel.nnodes") && ival(s, "parallel.nnodes") != 1)
		return 0;  /* several nodes, or not known */
	if (sval_is(s, "vllm.distributed_executor_backend", "ray") ||
	    sval_is(s, "vllm.distributed_executor_backend", "external_launcher") ||
	    sval_is(s, "vllm.data_parallel_backend", "ray"))
		return 0;
	if (!vllm_refuses_world(s) && text_spans_nodes(m, s, node_gpus))
		return 0;
	for (size_t k = 0; k < s->nwrappers; k++) {
		const char *w = s->wrappers[k].kind;
		if (strcmp(w, "docker") && strcmp(w, "bash -c") && strcmp(w, "exec") && strcmp(w, "env") &&
		    strcmp(w, "python -m"))
			return 0;
	}
	return 1;
}

static void gpus_node(const sl_rule *r, const sl_entry_plan *p, sl_findings *out)
{
	if (!p->hw || p->hw->node_gpus <= 0)
		return;
	for (size_t i = 0; i < p->nservices; i++) {
		const sl_service_plan *sp = &p->services[i];
		const sl_service *s = sp->service;
		if (!known_tp(sp) || !one_node(p->model, s, p->hw->node_gpus))
			continue;
		/* TensorRT-LLM's attention DP runs inside the TP ranks */
		long dp = sp->in.attention_dp && !strcmp(family(s->engine), "trtllm") ? 1 : sp->in.dp;
		/* vLLM's data-parallel ranks of this process: --data-parallel-size-local
		 * of them; one with --data-parallel-rank (one process a rank); with
		 * a flag of a deployment across nodes (--headless,
		 * --data-parallel-address, --data-parallel-start-rank) an unknown
		 * share, so only its own tensor x pipeline is held to the node */
		if (!strcmp(family(s->engine), "vllm") && dp > 1) {
			static const char *const across[] = {"vllm.data_parallel_rank", "vllm.data_parallel_address",
							     "vllm.data_parallel_start_rank", "vllm.headless",
							     "vllm.data_parallel_hybrid_lb", "vllm.data_parallel_external_lb"};
			long local = ival(s, "vllm.data_parallel_size_local");
			if (local >= 1)
				dp = local;
			else if (sl_service_get(s, "vllm.data_parallel_size_local"))
				continue;  /* a share not known ($LOCAL) */
			else
				for (size_t k = 0; k < sizeof across / sizeof *across; k++)
					if (sl_service_get(s, across[k]))
						dp = 1;
		}
		long need = sp->in.tp * sp->in.pp * dp;
		if (need <= p->hw->node_gpus)
			continue;
		sl_finding *f = add(out, r, at(s, "parallel.tensor"),
				    "%s needs %ld GPUs (tensor x pipeline x data parallel) in one process, a node of %s has %ld (%s)%s",
				    s->name, need, p->hw->name, p->hw->node_gpus, p->hw->node_source,
				    text_spans_nodes(p->model, s, p->hw->node_gpus)
					    ? "; the text says it spans nodes, but vLLM after 0.11.0 refuses a world larger "
					      "than its node without --distributed-executor-backend ray"
					    : "");
		related_system(f, p);
	}
}

/* A device index written in the command (CUDA_VISIBLE_DEVICES=8, docker
 * --gpus '"device=8"') that a node of the system does not have: CUDA
 * numbers a node's GPUs from 0, so the engine fails with an invalid device
 * ordinal. A comment's devices, a placeholder or a name that is no index
 * (a UUID) are not held to it. */
static void devices_node(const sl_rule *r, const sl_entry_plan *p, sl_findings *out)
{
	if (!p->hw || p->hw->node_gpus <= 0)
		return;
	for (size_t i = 0; i < p->nservices; i++) {
		const sl_service *s = p->services[i].service;
		if (s->gpus_placeholder || !s->gpus_from || strstr(s->gpus_from, "comment") || !json_is_array(s->gpu_devices))
			continue;
		json_t *sets = s->gpu_devices, *first = json_array_get(sets, 0);
		size_t nsets = json_is_array(first) ? json_array_size(sets) : 1, k, j;
		json_t *v;
		long worst = -1;
		for (k = 0; k < nsets; k++)
			json_array_foreach(json_is_array(first) ? json_array_get(sets, k) : sets, j, v) {
				const char *d = json_is_string(v) ? json_string_value(v) : "";
				char *end;
				long n = strtol(d, &end, 10);
				if (end != d && !*end && n >= p->hw->node_gpus && n > worst)
					worst = n;
			}
		if (worst < 0)
			continue;
		sl_finding *f = add(out, r, &s->gpus_origin, "%s is given GPU %ld (%s), a node of %s has %ld, numbered 0 to %ld (%s)",
				    s->name, worst, s->gpus_from, p->hw->name, p->hw->node_gpus, p->hw->node_gpus - 1,
				    p->hw->node_source);
		if (f)
			related_system(f, p);
	}
}

static void tp_domain(const sl_rule *r, const sl_entry_plan *p, sl_findings *out)
{
	if (!p->hw || p->hw->domain_gpus <= 0)
		return;
	for (size_t i = 0; i < p->nservices; i++) {
		const sl_service_plan *sp = &p->services[i];
		if (!known_tp(sp) || sp->in.tp <= p->hw->domain_gpus)
			continue;
		sl_finding *f = add(out, r, at(sp->service, "parallel.tensor"),
				    "TP %ld spans more than the %ld GPUs one NVLink domain of %s joins (%s)", sp->in.tp,
				    p->hw->domain_gpus, p->hw->name, p->hw->domain_source);
		related_system(f, p);
	}
}

/* the plan's inputs for a certain bound: no margin, attention DP's dense
 * weights split as without it */
static void lower_bound(const sl_service_plan *sp, sl_plan_in *in, sl_plan_out *o)
{
	*in = sp->in;
	in->margin_gib = 0;
	in->attention_dp = 0;
	sl_plan_compute(in, o);
}

#define GIB (1024.0 * 1024.0 * 1024.0)

static void weights_memory(const sl_rule *r, const sl_entry_plan *p, sl_findings *out)
{
	for (size_t i = 0; i < p->nservices; i++) {
		const sl_service_plan *sp = &p->services[i];
		if (!sp->computed)
			continue;
		sl_plan_in in;
		sl_plan_out o;
		lower_bound(sp, &in, &o);
		if (o.weights_gib <= in.mem_gib)
			continue;
		sl_finding *f = add(out, r, at(sp->service, sl_service_get(sp->service, "parallel.tensor") ? "parallel.tensor" : "model"),
				    "%s's weights need %.1f GiB per GPU at TP %ld x PP %ld (%.1fB parameters, %s), a GPU of %s "
				    "has %.0f GiB",
				    model_name(p), o.weights_gib, in.tp, in.pp, p->arch->params / 1e9, sp->quant, p->hw->name,
				    in.mem_gib);
		related_system(f, p);
	}
}

static const char *frac_flag(const sl_service *s)
{
	const char *fam = family(s->engine);
	return !strcmp(fam, "vllm") ? "memory.gpu_utilization" : !strcmp(fam, "sglang") ? "memory.static_fraction"
											 : "memory.kv_free_fraction";
}

static void kv_one_request(const sl_rule *r, const sl_entry_plan *p, sl_findings *out)
{
	for (size_t i = 0; i < p->nservices; i++) {
		const sl_service_plan *sp = &p->services[i];
		if (!sp->computed || sp->in.frac_kind == SL_FRAC_NONE || sp->out.kv_token_bytes <= 0 || sp->max_model_len <= 0)
			continue;
		sl_plan_in in;
		sl_plan_out o;
		lower_bound(sp, &in, &o);
		if (o.weights_gib > in.mem_gib)
			continue;  /* SL4006's */
		const sl_service *s = sp->service;
		const char *key = sl_service_get(s, "limits.max_model_len") ? "limits.max_model_len"
				  : sl_service_get(s, frac_flag(s))          ? frac_flag(s)
									     : "model";
		double need = (double)sp->max_model_len * o.kv_token_bytes;
		if (o.kv_gib <= 0) {
			add(out, r, at(s, key),
			    "the memory setting (%g) leaves no KV cache after %.1f GiB of weights per GPU on %s, even with no "
			    "memory for activations",
			    in.frac, o.weights_gib, p->hw->name);
		} else if (o.kv_tokens < (double)sp->max_model_len) {
			/* `show` prints the plan with its margin: say both, so the
			 * figures agree (the bound here, its estimate there) */
			char shown[96] = "";
			if (sp->in.margin_gib > 0)
				snprintf(shown, sizeof shown, " (the plan of `show`, with its %.1f GiB margin: %.1f GiB)",
					 sp->in.margin_gib, sp->out.kv_gib);
			add(out, r, at(s, key),
			    "one request of %ld tokens%s needs %.1f GiB of KV cache per GPU (%.0f bytes a token), the memory "
			    "setting (%g) leaves at most %.1f GiB on %s with no margin for activations: %.0f tokens%s",
			    sp->max_model_len, sp->max_model_len_default ? " (the model's positions, the engine's default)" : "",
			    need / GIB, o.kv_token_bytes, in.frac, o.kv_gib, p->hw->name, o.kv_tokens, shown);
		}
	}
}

static int has_env(const sl_service *s, const char *name)
{
	for (size_t k = 0; k < s->nenv; k++)
		if (!strcmp(s->env[k].name, name) && !(s->env[k].flags & SL_SET_OVERRIDDEN))
			return 1;
	return 0;
}

/* The context length an engine derives from the model's config, which a
 * longer max-model-len is held to; how, in how (a static phrase).
 *   vLLM (vllm/config/model.py@5ac2684, _get_and_verify_max_len):
 *     max_position_embeddings times the rope factor, except su, longrope
 *     and llama3 (and Gemma 3, already scaled); yarn scales
 *     original_max_position_embeddings instead
 *   SGLang (python/sglang/srt/utils/hf_transformers/common.py@65d3b47,
 *     get_context_length): times the factor only when the rope_scaling
 *     has no original_max_position_embeddings and is not llama3
 *   TensorRT-LLM (tensorrt_llm/_torch/pyexecutor/model_engine.py@95c8e29,
 *     _infer_max_seq_len_from_config): times the factor except su,
 *     longrope, llama3 and yarn
 * Another engine: max_position_embeddings. */
static long derived_positions(const sl_arch *a, const char *fam, const char **how)
{
	double f = a->rope_factor > 0 ? a->rope_factor : 1;
	long scaled = (long)(a->max_pos * f + 0.5);
	*how = "max_position_embeddings";
	if (a->rope_type == SL_ROPE_NONE || f == 1)
		return a->max_pos;
	if (!strcmp(fam, "vllm")) {
		if (a->rope_type == SL_ROPE_LLAMA3 || a->rope_type == SL_ROPE_LONG ||
		    (a->model_type && strstr(a->model_type, "gemma3")))
			return a->max_pos;
		*how = "vLLM's: the rope factor times original_max_position_embeddings";
		if (a->rope_type == SL_ROPE_YARN && a->rope_original > 0)
			return (long)(a->rope_original * f + 0.5);
		*how = "vLLM's: max_position_embeddings times the rope factor";
		return scaled;
	}
	if (!strcmp(fam, "sglang")) {
		if (a->rope_original > 0 || a->rope_type == SL_ROPE_LLAMA3)
			return a->max_pos;
		*how = "SGLang's: max_position_embeddings times the rope factor";
		return scaled;
	}
	if (!strcmp(fam, "trtllm")) {
		if (a->rope_type != SL_ROPE_OTHER)
			return a->max_pos;
		*how = "TensorRT-LLM's: max_position_embeddings times the rope factor";
		return scaled;
	}
	return a->max_pos;
}

static void max_len_positions(const sl_rule *r, const sl_entry_plan *p, sl_findings *out)
{
	const sl_arch *a = p->arch;
	if (!a || a->max_pos <= 0)
		return;
	for (size_t i = 0; i < p->nservices; i++) {
		const sl_service_plan *sp = &p->services[i];
		const sl_service *s = sp->service;
		const sl_setting *ml = sl_service_get(s, "limits.max_model_len");
		const char *how;
		long limit = derived_positions(a, family(s->engine), &how);
		if (!ml || sp->max_model_len_default || sp->max_model_len <= limit)
			continue;
		/* an override of the model's config or of the engine's check */
		int over = sl_service_get(s, "vllm.hf_overrides") || sl_service_get(s, "sglang.json_model_override_args") ||
			   has_env(s, "VLLM_ALLOW_LONG_MAX_MODEL_LEN") || has_env(s, "SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN") ||
			   has_env(s, "TLLM_ALLOW_LONG_MAX_MODEL_LEN");
		for (size_t k = 0; k < s->nsettings && !over; k++)
			over = strstr(s->settings[k].key, "rope") != NULL;
		if (over)
			continue;
		add(out, r, &ml->origin, "%ld tokens, %s has %ld positions (%s, %s)%s", sp->max_model_len, model_name(p),
		    limit, how, p->arch_from,
		    a->rope_scaling && !strcmp(how, "max_position_embeddings") ? "; this engine does not scale them by its rope_scaling" : "");
	}
}

/* vLLM MTP on a DeepSeek-style checkpoint: the draft is the model's own
 * num_nextn_predict_layers MTP modules (n_predict, hf_config_override,
 * vllm/config/speculative.py lines 339-354, vllm-project/vllm 5ac26849).
 * More draft tokens than modules are drafted by running the modules again
 * (`spec_step_idx % self.num_mtp_layers`, deepseek_mtp.py line 207), which
 * vLLM warns may lower the acceptance rate (speculative.py lines 934-943);
 * a count above them that they do not divide is refused at start
 * ("num_speculative_tokens ... must be divisible by n_predict", lines
 * 1032-1047). Held where the model's facts give the modules and the draft
 * is the model's own (no other draft model named). */
static void mtp_layers(const sl_rule *r, const sl_entry_plan *p, sl_findings *out)
{
	const sl_arch *a = p->arch;
	if (!a || a->mtp_layers < 1 || !a->model_type ||
	    (strcmp(a->model_type, "deepseek_v3") && strcmp(a->model_type, "deepseek_v32") &&
	     strcmp(a->model_type, "deepseek_v4") && strcmp(a->model_type, "glm_moe_dsa")))
		return;
	for (size_t i = 0; i < p->nservices; i++) {
		const sl_service *s = p->services[i].service;
		if (strcmp(family(s->engine), "vllm") || sl_service_get(s, "spec.draft_model"))
			continue;
		const sl_setting *meth = sl_service_get(s, "spec.method"), *nt = sl_service_get(s, "spec.num_tokens");
		if (!meth || !json_is_string(meth->value) || (meth->flags & (SL_SET_SYMBOLIC | SL_SET_PLACEHOLDER)) ||
		    (strcmp(json_string_value(meth->value), "mtp") && strcmp(json_string_value(meth->value), "deepseek_mtp")))
			continue;
		long n = ival(s, "spec.num_tokens"), k = a->mtp_layers;
		if (n <= k)
			continue;
		if (n % k)
			add(out, r, &nt->origin,
			    "%ld draft tokens, %s has %ld MTP module%s (num_nextn_predict_layers, %s): vLLM refuses to start, "
			    "a count above the modules must be a multiple of them",
			    n, model_name(p), k, k == 1 ? "" : "s", p->arch_from);
		else
			add(out, r, &nt->origin,
			    "%ld draft tokens, %s has %ld MTP module%s (num_nextn_predict_layers, %s): vLLM runs %s %ld "
			    "times a step, which it warns may lower the acceptance rate",
			    n, model_name(p), k, k == 1 ? "" : "s", p->arch_from, k == 1 ? "it" : "them", n / k);
	}
}

/* a quantization method or KV dtype as the hardware files name precisions */
static const char *precision_of(const char *m)
{
	if (!m)
		return NULL;
	if (!strcasecmp(m, "mxfp4"))
		return "mxfp4";
	if (!strcasecmp(m, "nvfp4") || !strcasecmp(m, "modelopt_fp4") || !strncasecmp(m, "fp4", 3))
		return "nvfp4";
	if (!strncasecmp(m, "fp8", 3) || !strcasecmp(m, "fbgemm_fp8") || !strcasecmp(m, "modelopt"))
		return "fp8";
	return NULL;
}

static int listed(char *const *v, size_t n, const char *x)
{
	for (size_t i = 0; i < n; i++)
		if (!strcasecmp(v[i], x))
			return 1;
	return 0;
}

static void precision_native(const sl_rule *r, const sl_entry_plan *p, sl_findings *out)
{
	if (!p->hw || !p->hw->nnone)
		return;
	for (size_t i = 0; i < p->nservices; i++) {
		const sl_service *s = p->services[i].service;
		const sl_setting *q = sl_service_get(s, "model.quantization");
		const char *wq = q && json_is_string(q->value) ? json_string_value(q->value) : p->arch ? p->arch->quant : NULL;
		const char *w = precision_of(wq);
		if (w && listed(p->hw->none, p->hw->nnone, w)) {
			sl_finding *f = add(out, r, q ? &q->origin : at(s, "model"),
					    "the weights are %s%s%s%s, which %s has no native kernels for (%s): the engine falls "
					    "back to a slower kernel, or refuses",
					    wq, q ? "" : " (", q ? "" : p->arch_from, q ? "" : ")", p->hw->name, p->hw->prec_source);
			related_system(f, p);
		}
		const sl_setting *kd = sl_service_get(s, "kv.dtype");
		const char *k = kd && json_is_string(kd->value) ? precision_of(json_string_value(kd->value)) : NULL;
		if (k && listed(p->hw->none, p->hw->nnone, k)) {
			sl_finding *f = add(out, r, &kd->origin, "the KV cache is %s, which %s has no native kernels for (%s)",
					    json_string_value(kd->value), p->hw->name, p->hw->prec_source);
			related_system(f, p);
		}
	}
}

/* The plan of the model being checked: its nine rules share one, where
 * each made its own (nine plans per model were a tenth of check's time).
 * Per thread; forgotten when sl_check_model is done with the model, so
 * that a later model at the same address is planned anew. */
static _Thread_local const sl_model *memo_model;
static _Thread_local sl_entry_plan *memo_plan;
static _Thread_local int memo_failed;

void sl_plan_check_forget(void)
{
	sl_entry_plan_free(memo_plan);
	memo_plan = NULL;
	memo_model = NULL;
	memo_failed = 0;
}

void sl_plan_check(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	const char *name = r->cname;
	if (memo_model != m) {
		sl_plan_check_forget();
		sl_error err = {0};
		memo_model = m;
		memo_failed = sl_plan_entry(m, &memo_plan, &err) != 0;
		sl_error_clear(&err);
	}
	if (memo_failed)
		return;  /* --model-config unreadable: the command said so before */
	const sl_entry_plan *p = memo_plan;
	if (!strcmp(name, "tp_heads"))
		tp_heads(r, p, out);
	else if (!strcmp(name, "ep_experts"))
		ep_experts(r, p, out);
	else if (!strcmp(name, "gpus_node"))
		gpus_node(r, p, out);
	else if (!strcmp(name, "tp_domain"))
		tp_domain(r, p, out);
	else if (!strcmp(name, "weights_memory"))
		weights_memory(r, p, out);
	else if (!strcmp(name, "kv_one_request"))
		kv_one_request(r, p, out);
	else if (!strcmp(name, "max_len_positions"))
		max_len_positions(r, p, out);
	else if (!strcmp(name, "precision_native"))
		precision_native(r, p, out);
	else if (!strcmp(name, "devices_node"))
		devices_node(r, p, out);
	else if (!strcmp(name, "mtp_layers"))
		mtp_layers(r, p, out);
}
