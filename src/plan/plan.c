/* plan.c (plan): the arithmetic of the memory plan, on numbers alone
 * (docs/memory-plan.md gives every formula and its source). */
#include "plan.h"

#include <math.h>
#include <string.h>
#include <strings.h>

#define GIB (1024.0 * 1024.0 * 1024.0)

double sl_plan_quant_bytes(const char *m)
{
	if (!m || !*m || !strcasecmp(m, "none") || !strcasecmp(m, "bf16") || !strcasecmp(m, "bfloat16") ||
	    !strcasecmp(m, "fp16") || !strcasecmp(m, "float16") || !strcasecmp(m, "half") || !strcasecmp(m, "auto"))
		return 2.0;
	/* FP8 weights: one byte, block scales negligible (one float per 128 x 128) */
	if (!strcasecmp(m, "fp8") || !strcasecmp(m, "fbgemm_fp8") || !strcasecmp(m, "modelopt") ||
	    !strcasecmp(m, "fp8_e4m3") || !strcasecmp(m, "mxfp8"))
		return 1.0;
	/* OCP MXFP4: 4-bit values, one 8-bit (E8M0) scale per 32 values */
	if (!strcasecmp(m, "mxfp4"))
		return 4.25 / 8.0;
	/* NVFP4: 4-bit values, one FP8 (E4M3) scale per 16 values */
	if (!strcasecmp(m, "nvfp4") || !strcasecmp(m, "modelopt_fp4"))
		return 4.5 / 8.0;
	return -1;
}

double sl_plan_kv_bytes(const char *d)
{
	if (!d || !*d || !strcasecmp(d, "auto") || !strcasecmp(d, "bf16") || !strcasecmp(d, "bfloat16") ||
	    !strcasecmp(d, "fp16") || !strcasecmp(d, "float16") || !strcasecmp(d, "half"))
		return 2.0;
	if (!strncasecmp(d, "fp8", 3))  /* fp8, fp8_e4m3, fp8_e5m2 */
		return 1.0;
	if (!strcasecmp(d, "float32") || !strcasecmp(d, "fp32"))
		return 4.0;
	return -1;
}

double sl_plan_start_gib(void)
{
	return 2.5;
}

double sl_plan_margin_gib(double mem_gib)
{
	double m = 0.08 * mem_gib;
	return m < 4.0 ? 4.0 : m;
}

static long at_least_1(long v)
{
	return v < 1 ? 1 : v;
}

double sl_plan_kv_token_bytes(const sl_arch *a, long tp, long pp, int attention_dp, double kv_bytes, int all,
			      long *heads_per_gpu)
{
	tp = at_least_1(tp);
	pp = at_least_1(pp);
	if (heads_per_gpu)
		*heads_per_gpu = -1;
	double layers = (double)(all ? a->layers : a->full_layers);
	if (a->attn == SL_ATTN_MLA)
		/* one latent vector and the shared rope key per token and layer,
		 * the same on every TP rank */
		return layers * (double)(a->kv_lora_rank + a->qk_rope_head_dim) * kv_bytes / (double)pp;
	if (a->attn != SL_ATTN_GQA)
		return 0;
	/* KV heads split over TP; past one head per rank they are replicated;
	 * under attention DP every rank keeps them all */
	long h = attention_dp ? a->kv_heads : a->kv_heads / tp;
	if (h < 1)
		h = 1;
	if (heads_per_gpu)
		*heads_per_gpu = h;
	return 2.0 * layers * (double)h * (double)a->head_dim * kv_bytes / (double)pp;
}

double sl_plan_weight_bytes(const sl_plan_in *in)
{
	const sl_arch *a = in->arch;
	long tp = at_least_1(in->tp), pp = at_least_1(in->pp);
	double experts = a->params_experts, embed = a->params_embed;
	double dense = a->params - experts - embed;
	if (dense < 0)
		dense = 0;
	/* attention and dense MLP over TP (whole on each rank under attention
	 * DP: a conservative figure, the dense MLP may still be split) */
	double w = dense * in->bytes_dense / (double)(in->attention_dp ? 1 : tp);
	/* experts: over EP when experts are parallel, else each rank keeps
	 * 1/TP of every expert */
	w += experts * in->bytes_expert / (double)(in->ep > 0 ? in->ep : tp);
	/* the vocabulary is split over TP (vocab-parallel embedding and LM head) */
	w += embed * in->bytes_embed / (double)tp;
	return w / (double)pp;
}

int sl_plan_compute(const sl_plan_in *in, sl_plan_out *out)
{
	memset(out, 0, sizeof *out);
	if (!in->arch || in->arch->params <= 0 || in->mem_gib <= 0)
		return -1;
	const sl_arch *a = in->arch;
	out->weights_gib = sl_plan_weight_bytes(in) / GIB;
	double total = in->mem_gib;
	switch (in->frac_kind) {
	case SL_FRAC_TOTAL:
		/* vLLM: the engine may use frac x total for everything it
		 * allocates; the KV cache gets what weights and activations leave */
		out->budget_gib = in->frac * total;
		out->kv_gib = out->budget_gib - out->weights_gib - in->margin_gib;
		break;
	case SL_FRAC_STATIC:
		/* SGLang: frac of the memory free when it first measures (the
		 * total less what is in use at start, the margin here) holds the
		 * weights and the KV pool; activations and graphs use the rest */
		out->budget_gib = in->frac * (total - in->margin_gib);
		out->kv_gib = out->budget_gib - out->weights_gib;
		break;
	case SL_FRAC_FREE:
		/* TensorRT-LLM: frac of what is free once the weights (and the
		 * runtime, the margin) are in */
		out->budget_gib = total - out->weights_gib - in->margin_gib;
		out->kv_gib = in->frac * out->budget_gib;
		break;
	case SL_FRAC_NONE:
		out->kv_gib = 0;
		break;
	}
	out->kv_token_bytes =
		sl_plan_kv_token_bytes(a, in->tp, in->pp, in->attention_dp, in->kv_bytes, 0, &out->kv_heads_per_gpu);
	out->kv_token_bytes_all = sl_plan_kv_token_bytes(a, in->tp, in->pp, in->attention_dp, in->kv_bytes, 1, NULL);
	if (out->kv_gib > 0 && out->kv_token_bytes > 0) {
		out->kv_tokens = floor(out->kv_gib * GIB / out->kv_token_bytes);
		out->kv_tokens_all = floor(out->kv_gib * GIB / out->kv_token_bytes_all);
	}
	return 0;
}
