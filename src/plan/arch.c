/* arch.c (plan): a model's config.json as the facts the plan needs, and
 * its parameters counted from the shapes. */
#include "plan.h"

#include <stdlib.h>
#include <string.h>

#include "../util/util.h"

static long num(const json_t *o, const char *k)
{
	const json_t *v = json_object_get(o, k);
	if (json_is_integer(v))
		return (long)json_integer_value(v);
	if (json_is_real(v) && json_real_value(v) == (double)(long)json_real_value(v))
		return (long)json_real_value(v);
	return -1;
}

static char *str_or_null(const json_t *o, const char *k)
{
	const json_t *v = json_object_get(o, k);
	return json_is_string(v) ? sl_strdup(json_string_value(v)) : NULL;
}

static int is(const sl_arch *a, const char *type)
{
	return a->model_type && !strcmp(a->model_type, type);
}

/* rope_scaling (or transformers v5's rope_parameters, which may hold one
 * object per layer type: the first is read, as vLLM assumes they agree):
 * its kind, factor and original length, which the engines' derived
 * context lengths read (plan_rules.c, SL4008) */
static void read_rope(const json_t *c, sl_arch *a)
{
	a->rope_original = -1;
	const json_t *r = json_object_get(c, "rope_scaling");
	if (!json_is_object(r))
		r = json_object_get(c, "rope_parameters");
	if (!json_is_object(r))
		return;
	if (!json_object_get(r, "rope_type") && !json_object_get(r, "type")) {
		const char *k;
		const json_t *v;
		json_object_foreach((json_t *)r, k, v)
			if (json_is_object(v)) {
				r = v;
				break;
			}
	}
	const json_t *t = json_object_get(r, "rope_type");
	if (!json_is_string(t))
		t = json_object_get(r, "type");
	const char *ty = json_is_string(t) ? json_string_value(t) : "";
	a->rope_type = !strcmp(ty, "yarn")                           ? SL_ROPE_YARN
		       : !strcmp(ty, "llama3")                       ? SL_ROPE_LLAMA3
		       : !strcmp(ty, "su") || !strcmp(ty, "longrope") ? SL_ROPE_LONG
								     : SL_ROPE_OTHER;
	const json_t *f = json_object_get(r, "factor");
	a->rope_factor = json_is_number(f) ? json_number_value(f) : 0;
	a->rope_original = num(r, "original_max_position_embeddings");
}

int sl_arch_from_config(const json_t *config, sl_arch *a)
{
	memset(a, 0, sizeof *a);
	if (!json_is_object(config))
		return -1;
	const json_t *c = config;
	/* multimodal configs keep the language model under text_config */
	const json_t *tc = json_object_get(config, "text_config");
	if (num(c, "num_hidden_layers") < 0 && json_is_object(tc))
		c = tc;
	a->model_type = str_or_null(c, "model_type");
	if (!a->model_type)
		a->model_type = str_or_null(config, "model_type");
	a->layers = num(c, "num_hidden_layers");
	a->hidden = num(c, "hidden_size");
	a->heads = num(c, "num_attention_heads");
	a->kv_heads = num(c, "num_key_value_heads");
	/* the transformers configs' own defaults: no num_key_value_heads is
	 * multi-head attention, no head_dim is hidden_size / heads */
	if (a->kv_heads < 0 && a->heads > 0)
		a->kv_heads = a->heads;
	a->head_dim = num(c, "head_dim");
	if (a->head_dim < 0 && a->heads > 0 && a->hidden > 0 && a->hidden % a->heads == 0)
		a->head_dim = a->hidden / a->heads;
	a->vocab = num(c, "vocab_size");
	a->intermediate = num(c, "intermediate_size");
	a->moe_intermediate = num(c, "moe_intermediate_size");
	a->experts = num(c, "n_routed_experts");
	if (a->experts < 0)
		a->experts = num(c, "num_local_experts");
	if (a->experts < 0)
		a->experts = num(c, "num_experts");
	a->experts_per_tok = num(c, "num_experts_per_tok");
	if (a->experts_per_tok < 0)
		a->experts_per_tok = num(c, "experts_per_token");
	a->shared_experts = num(c, "n_shared_experts");
	a->first_dense = num(c, "first_k_dense_replace");
	a->q_lora_rank = num(c, "q_lora_rank");
	a->kv_lora_rank = num(c, "kv_lora_rank");
	a->qk_nope_head_dim = num(c, "qk_nope_head_dim");
	a->qk_rope_head_dim = num(c, "qk_rope_head_dim");
	a->v_head_dim = num(c, "v_head_dim");
	a->max_pos = num(c, "max_position_embeddings");
	a->mtp_layers = num(c, "num_nextn_predict_layers");
	a->sliding_window = num(c, "sliding_window");
	a->rope_scaling = json_is_object(json_object_get(c, "rope_scaling")) ||
			  json_is_object(json_object_get(c, "rope_parameters"));
	read_rope(c, a);
	const json_t *tie = json_object_get(c, "tie_word_embeddings");
	if (!tie)
		tie = json_object_get(config, "tie_word_embeddings");
	a->tied = json_is_boolean(tie) ? json_is_true(tie) : -1;
	a->attn_bias = json_is_true(json_object_get(c, "attention_bias"));
	a->qk_norm = json_is_true(json_object_get(c, "use_qk_norm"));
	const json_t *q = json_object_get(c, "quantization_config");
	if (!json_is_object(q))
		q = json_object_get(config, "quantization_config");
	if (json_is_object(q) && json_is_string(json_object_get(q, "quant_method")))
		a->quant = sl_strdup(json_string_value(json_object_get(q, "quant_method")));
	a->dtype = str_or_null(c, "torch_dtype");
	if (!a->dtype)
		a->dtype = str_or_null(config, "torch_dtype");
	/* full-attention layers: layer_types names each; without it, all */
	a->full_layers = a->layers;
	const json_t *lt = json_object_get(c, "layer_types");
	if (json_is_array(lt) && json_array_size(lt) == (size_t)a->layers) {
		size_t i;
		const json_t *v;
		a->full_layers = 0;
		json_array_foreach(lt, i, v)
			if (!json_is_string(v) || strcmp(json_string_value(v), "sliding_attention"))
				a->full_layers++;
	}
	if (a->kv_lora_rank > 0 && a->qk_rope_head_dim >= 0)
		a->attn = SL_ATTN_MLA;
	else if (a->heads > 0 && a->kv_heads > 0 && a->head_dim > 0)
		a->attn = SL_ATTN_GQA;
	if (a->layers <= 0 || a->hidden <= 0)
		return -1;
	a->params = sl_arch_count(a, &a->params_experts, &a->params_embed);
	if (a->params > 0)
		a->params_source = sl_strdup("counted from the config's shapes");
	return 0;
}

/* SwiGLU MLP: gate, up, down */
static double mlp(double h, double i)
{
	return 3.0 * h * i;
}

double sl_arch_count(const sl_arch *a, double *experts, double *embed)
{
	*experts = 0;
	*embed = 0;
	const double H = (double)a->hidden, L = (double)a->layers;
	if (a->layers <= 0 || a->hidden <= 0 || a->vocab <= 0 || a->tied < 0 || !a->model_type)
		return 0;
	double emb = (double)a->vocab * H * (a->tied ? 1 : 2);
	double per_layer = 2.0 * H;  /* the two RMSNorms */
	double total = 0, exp = 0;
	if (is(a, "llama") || is(a, "mistral") || is(a, "qwen2") || is(a, "qwen3") || is(a, "qwen3_moe") ||
	    is(a, "mixtral") || is(a, "gpt_oss")) {
		if (a->attn != SL_ATTN_GQA)
			return 0;
		double q = (double)a->heads * (double)a->head_dim, kv = (double)a->kv_heads * (double)a->head_dim;
		double att = H * q + 2.0 * H * kv + q * H;
		if (is(a, "qwen2"))
			att += q + 2.0 * kv;  /* q, k, v biases */
		if (is(a, "qwen3") || is(a, "qwen3_moe"))
			att += 2.0 * (double)a->head_dim;  /* q_norm, k_norm */
		if (is(a, "gpt_oss"))
			att += q + 2.0 * kv + H + (double)a->heads;  /* biases, attention sinks */
		per_layer += att;
		if (is(a, "llama") || is(a, "mistral") || is(a, "qwen2") || is(a, "qwen3")) {
			if (a->intermediate <= 0)
				return 0;
			per_layer += mlp(H, (double)a->intermediate);
		} else {
			double E = (double)a->experts;
			double I = is(a, "qwen3_moe") ? (double)a->moe_intermediate : (double)a->intermediate;
			if (a->experts <= 0 || I <= 0)
				return 0;
			double e = E * mlp(H, I);
			if (is(a, "gpt_oss"))
				e += E * (2.0 * I + H);       /* gate_up and down biases */
			per_layer += e + H * E;            /* the router */
			if (is(a, "gpt_oss"))
				per_layer += E;                /* router bias */
			exp = L * e;
		}
		total = emb + L * per_layer + H;  /* the final norm */
	} else if (is(a, "glm4_moe")) {
		/* GQA with q/k/v biases and (use_qk_norm) q/k norms; first_k_dense_replace
		 * dense layers, then routed and shared experts with a biased router */
		if (a->attn != SL_ATTN_GQA || a->intermediate <= 0 || a->moe_intermediate <= 0 || a->experts <= 0 ||
		    a->first_dense < 0 || a->shared_experts < 0 || a->first_dense > a->layers)
			return 0;
		double q = (double)a->heads * (double)a->head_dim, kv = (double)a->kv_heads * (double)a->head_dim;
		double att = H * q + 2.0 * H * kv + q * H;
		if (a->attn_bias)
			att += q + 2.0 * kv;
		if (a->qk_norm)
			att += 2.0 * (double)a->head_dim;
		double E = (double)a->experts, MI = (double)a->moe_intermediate, kd = (double)a->first_dense;
		double e = E * mlp(H, MI);
		double moe_layer = e + (double)a->shared_experts * mlp(H, MI) + H * E + E;
		total = emb + L * (att + per_layer) + kd * mlp(H, (double)a->intermediate) + (L - kd) * moe_layer + H;
		exp = (L - kd) * e;
	} else if (is(a, "deepseek_v3") || is(a, "deepseek_v2") || is(a, "kimi_k2")) {
		if (a->attn != SL_ATTN_MLA || a->heads <= 0 || a->qk_nope_head_dim < 0 || a->v_head_dim <= 0 ||
		    a->intermediate <= 0 || a->moe_intermediate <= 0 || a->experts <= 0 || a->first_dense < 0 ||
		    a->shared_experts < 0)
			return 0;
		double nh = (double)a->heads, nope = (double)a->qk_nope_head_dim, rope = (double)a->qk_rope_head_dim;
		double kvl = (double)a->kv_lora_rank, vd = (double)a->v_head_dim;
		double att = H * (kvl + rope) + kvl + kvl * nh * (nope + vd) + nh * vd * H;
		if (a->q_lora_rank > 0) {
			double ql = (double)a->q_lora_rank;
			att += H * ql + ql + ql * nh * (nope + rope);
		} else {
			att += H * nh * (nope + rope);
		}
		double E = (double)a->experts, MI = (double)a->moe_intermediate;
		double e = E * mlp(H, MI);
		double moe_layer = e + (double)a->shared_experts * mlp(H, MI) + H * E;
		if (!is(a, "deepseek_v2"))
			moe_layer += E;  /* the router's score correction bias (noaux_tc) */
		double kd = (double)a->first_dense;
		if (kd > L)
			return 0;
		total = emb + L * (att + per_layer) + kd * mlp(H, (double)a->intermediate) + (L - kd) * moe_layer + H;
		exp = (L - kd) * e;
	} else {
		return 0;
	}
	*experts = exp;
	*embed = emb;
	return total;
}

void sl_arch_free(sl_arch *a)
{
	if (!a)
		return;
	free(a->id);
	for (size_t i = 0; i < a->nnames; i++)
		free(a->names[i]);
	free(a->names);
	free(a->source);
	free(a->file);
	free(a->model_type);
	free(a->quant);
	free(a->dtype);
	free(a->params_source);
	memset(a, 0, sizeof *a);
}
