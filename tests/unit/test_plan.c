/* test_plan.c: the memory plan's arithmetic against figures worked out by
 * hand (each test's comment), for three architectures: dense GQA (Llama
 * 3.1 70B; Mistral Small 3, whose head_dim is not hidden / heads), MoE
 * (gpt-oss-120b, Qwen3-235B-A22B, Mixtral 8x22B) and MLA (DeepSeek V3);
 * and the facts built into the binary. */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "plan/plan.h"

#define GIB (1024.0 * 1024.0 * 1024.0)

static const sl_facts *facts(void)
{
	sl_error err = {0};
	const sl_facts *f = sl_plan_facts(&err);
	if (!f)
		fprintf(stderr, "%s: %s\n", err.file ? err.file : "", err.msg ? err.msg : "");
	sl_error_clear(&err);
	assert_non_null(f);
	return f;
}

static const sl_arch *arch(const char *name)
{
	const sl_arch *a = sl_facts_arch(facts(), name);
	assert_non_null(a);
	return a;
}

static void near(double got, double want, double tol)
{
	if (fabs(got - want) > tol)
		fail_msg("%.6f is not %.6f (within %g)", got, want, tol);
}

/* Every model file's parameter count is what the shapes give. */
static void test_counts_match_the_data(void **st)
{
	(void)st;
	const sl_facts *f = facts();
	assert_true(f->narch >= 8);
	for (size_t i = 0; i < f->narch; i++) {
		double e, b;
		double c = sl_arch_count(&f->arch[i], &e, &b);
		if (c != f->arch[i].params)
			fail_msg("%s: counted %.0f, the data says %.0f", f->arch[i].id, c, f->arch[i].params);
	}
}

/* Llama 3.1 70B (dense GQA), by hand:
 *   embeddings 128256 x 8192 = 1,050,673,152, untied: x2 = 2,101,346,304
 *   per layer: q 8192x8192 = 67,108,864; k, v 8192x1024 = 8,388,608 each;
 *   o 67,108,864; MLP 3 x 8192 x 28672 = 704,643,072; 2 norms 16,384
 *   = 855,654,400; x 80 = 68,452,352,000; + final norm 8,192
 *   total 70,553,706,496 (Meta's published count).
 * BF16, TP4 on an H100 (80 GiB), vLLM --gpu-memory-utilization 0.9:
 *   weights/GPU = 70,553,706,496 x 2 / 4 = 35,276,853,248 B = 32.8541 GiB
 *   budget 0.9 x 80 = 72 GiB; margin max(4, 8% of 80) = 6.4 GiB
 *   KV pool = 72 - 32.8541 - 6.4 = 32.7459 GiB
 *   KV/token/GPU = 2 x 80 layers x (8 KV heads / 4) x 128 x 2 B = 81,920 B
 *   (327,680 B for the whole model at TP1)
 *   tokens = floor(32.7459 x 2^30 / 81,920) = 429,206 */
static void test_dense_gqa_llama_70b(void **st)
{
	(void)st;
	const sl_arch *a = arch("meta-llama/Llama-3.1-70B-Instruct");
	assert_int_equal(a->attn, SL_ATTN_GQA);
	double e, b;
	assert_true(sl_arch_count(a, &e, &b) == 70553706496.0);
	assert_true(e == 0 && b == 2101346304.0);
	assert_true(sl_plan_kv_token_bytes(a, 1, 1, 0, 2, 1, NULL) == 327680.0);
	sl_plan_in in = {.arch = a, .mem_gib = 80, .tp = 4, .pp = 1, .dp = 1, .bytes_dense = 2, .bytes_expert = 2,
			 .bytes_embed = 2, .kv_bytes = 2, .frac_kind = SL_FRAC_TOTAL, .frac = 0.9,
			 .margin_gib = sl_plan_margin_gib(80)};
	near(in.margin_gib, 6.4, 1e-12);
	sl_plan_out o;
	assert_int_equal(sl_plan_compute(&in, &o), 0);
	near(o.weights_gib * GIB, 35276853248.0, 1);
	near(o.weights_gib, 32.8541, 1e-4);
	near(o.budget_gib, 72, 1e-9);
	near(o.kv_gib, 32.7459, 1e-4);
	assert_true(o.kv_token_bytes == 81920.0);
	assert_int_equal(o.kv_heads_per_gpu, 2);
	assert_true(o.kv_tokens == 429206.0);
	/* TP16: 8 KV heads, one per rank, replicated on every second */
	assert_true(sl_plan_kv_token_bytes(a, 16, 1, 0, 2, 0, NULL) == 2.0 * 80 * 1 * 128 * 2);
	/* PP2 halves the layers each GPU holds */
	assert_true(sl_plan_kv_token_bytes(a, 4, 2, 0, 2, 0, NULL) == 40960.0);
}

/* gpt-oss-120b (MoE, MXFP4 experts), by hand:
 *   36 layers, 128 experts of hidden 2880, intermediate 2880
 *   experts: 36 x 128 x (3 x 2880 x 2880 + 2 x 2880 + 2880 biases)
 *          = 36 x 128 x 24,891,840 = 114,701,598,720
 *   embeddings 201088 x 2880 x 2 (untied) = 1,158,266,880
 *   total 116,829,156,672 (the model card's 116.83B), so the rest
 *   (attention, router, norms) is 969,291,072
 * TensorRT-LLM, TP1 on a B200 (180 GiB), free_gpu_memory_fraction 0.9, FP8 KV:
 *   weights = 969,291,072 x 2 + 114,701,598,720 x 4.25/8 + 1,158,266,880 x 2
 *           = 65,190,340,224 B = 60.7132 GiB (the checkpoint is 60.8 GiB)
 *   margin 8% of 180 = 14.4 GiB; free = 180 - 60.7132 - 14.4 = 104.8868 GiB
 *   KV pool = 0.9 x 104.8868 = 94.3981 GiB
 *   KV/token: 18 full-attention layers x 2 x 8 KV heads x 64 x 1 B = 18,432 B
 *   (36,864 B if the 18 sliding-window layers kept the whole context)
 *   tokens = floor(94.3981 x 2^30 / 18,432) = 5,499,087 (2,749,543) */
static void test_moe_gpt_oss_120b(void **st)
{
	(void)st;
	const sl_arch *a = arch("openai/gpt-oss-120b");
	assert_int_equal(a->full_layers, 18);
	near(a->params_experts, 114701598720.0, 0.5);
	near(a->params_embed, 1158266880.0, 0.5);
	near(sl_plan_quant_bytes(a->quant), 0.53125, 1e-12);
	sl_plan_in in = {.arch = a, .mem_gib = 180, .tp = 1, .pp = 1, .dp = 1, .bytes_dense = 2,
			 .bytes_expert = sl_plan_quant_bytes("mxfp4"), .bytes_embed = 2, .kv_bytes = sl_plan_kv_bytes("fp8"),
			 .frac_kind = SL_FRAC_FREE, .frac = 0.9, .margin_gib = sl_plan_margin_gib(180)};
	sl_plan_out o;
	assert_int_equal(sl_plan_compute(&in, &o), 0);
	near(o.weights_gib * GIB, 65190340224.0, 1);
	near(o.budget_gib, 104.8868, 1e-4);
	near(o.kv_gib, 94.3981, 1e-4);
	assert_true(o.kv_token_bytes == 18432.0 && o.kv_token_bytes_all == 36864.0);
	assert_true(o.kv_tokens == 5499087.0 && o.kv_tokens_all == 2749543.0);
}

/* Qwen3-235B-A22B (MoE, BF16), the experts over EP, by hand:
 *   experts 94 x 128 x 3 x 4096 x 1536 = 227,096,395,776
 *   total (counted, the model card's 235B) 235,093,634,560
 * vLLM TP4 x DP2 with --enable-expert-parallel (EP 8) on 8 H200s:
 *   embeddings 151936 x 4096 x 2 = 1,244,659,712, over TP4
 *   dense = 235,093,634,560 - 227,096,395,776 - 1,244,659,712 = 6,752,579,072, over TP4
 *   weights/GPU = (6,752,579,072 + 1,244,659,712) x 2 / 4 + 227,096,395,776 x 2 / 8
 *              = 3,998,619,392 + 56,774,098,944 = 60,772,718,336 B */
static void test_moe_experts_over_ep(void **st)
{
	(void)st;
	const sl_arch *a = arch("Qwen/Qwen3-235B-A22B");
	near(a->params_experts, 227096395776.0, 0.5);
	sl_plan_in in = {.arch = a, .mem_gib = 141, .tp = 4, .pp = 1, .dp = 2, .ep = 8, .bytes_dense = 2,
			 .bytes_expert = 2, .bytes_embed = 2};
	near(sl_plan_weight_bytes(&in), 60772718336.0, 1);
	/* without EP each rank keeps 1/TP of every expert */
	in.ep = 0;
	near(sl_plan_weight_bytes(&in), 3998619392.0 + 227096395776.0 * 2 / 4, 1);
}

/* DeepSeek V3 (MLA, FP8), by hand:
 *   total (counted, without the MTP module) 671,026,419,200; routed experts
 *   58 MoE layers x 256 x 3 x 7168 x 2048 = 653,908,770,816; embeddings
 *   129280 x 7168 x 2 = 1,853,358,080; the rest 15,264,290,304
 * SGLang TP8 on H200 (141 GiB), --mem-fraction-static 0.85, BF16 KV:
 *   weights/GPU = (15,264,290,304 + 653,908,770,816) x 1 / 8 + 1,853,358,080 x 2 / 8
 *              = 84,109,972,160 B = 78.3335 GiB
 *   static budget 0.85 x (141 - 2.5 in use at start) = 117.725 GiB;
 *   KV pool = 117.725 - 78.3335 = 39.3915 GiB
 *   KV/token: 61 layers x (512 + 64) x 2 B = 70,272 B, the same on every TP rank
 *   tokens = floor(39.3915 x 2^30 / 70,272) = 601,893 */
static void test_mla_deepseek_v3(void **st)
{
	(void)st;
	const sl_arch *a = arch("deepseek-ai/DeepSeek-V3");
	assert_int_equal(a->attn, SL_ATTN_MLA);
	near(a->params_experts, 653908770816.0, 0.5);
	sl_plan_in in = {.arch = a, .mem_gib = 141, .tp = 8, .pp = 1, .dp = 1, .bytes_dense = 1, .bytes_expert = 1,
			 .bytes_embed = 2, .kv_bytes = 2, .frac_kind = SL_FRAC_STATIC, .frac = 0.85,
			 .margin_gib = sl_plan_start_gib()};
	sl_plan_out o;
	assert_int_equal(sl_plan_compute(&in, &o), 0);
	near(o.weights_gib * GIB, 84109972160.0, 1);
	near(in.margin_gib, 2.5, 0);
	near(o.budget_gib, 117.725, 1e-9);
	near(o.kv_gib, 39.3915, 1e-4);
	assert_true(o.kv_token_bytes == 70272.0);
	assert_true(sl_plan_kv_token_bytes(a, 1, 1, 0, 2, 0, NULL) == 70272.0);
	assert_true(o.kv_tokens == 601893.0);
	/* BF16 at TP8: 671B x 2 / 8 = 156 GiB, more than the H200 has */
	in.bytes_dense = in.bytes_expert = 2;
	assert_int_equal(sl_plan_compute(&in, &o), 0);
	assert_true(o.weights_gib > 141 && o.kv_gib < 0 && o.kv_tokens == 0);
}

/* Mistral Small 3 (24B, dense GQA whose head_dim is not hidden / heads), by hand:
 *   head_dim 128 with 32 heads: q is 4096 wide in a 5120 model (5120 / 32
 *   would be 160, which the config overrides)
 *   embeddings 131072 x 5120 = 671,088,640, untied: x2 = 1,342,177,280
 *   per layer: q 5120x4096 = 20,971,520; k, v 5120x1024 = 5,242,880 each;
 *   o 4096x5120 = 20,971,520; MLP 3 x 5120 x 32768 = 503,316,480; 2 norms
 *   10,240 = 555,755,520; x 40 = 22,230,220,800; + final norm 5,120
 *   total 23,572,403,200 (the checkpoint's index: 47,144,806,400 BF16 bytes)
 * vLLM TP1 on an H100 (79.65 GiB), --gpu-memory-utilization 0.9:
 *   weights 47,144,806,400 B = 43.9070 GiB; margin 8% of 79.65 = 6.372 GiB
 *   KV pool = 0.9 x 79.65 - 43.9070 - 6.372 = 21.4060 GiB
 *   KV/token = 2 x 40 layers x 8 KV heads x 128 x 2 B = 163,840 B
 *   tokens = floor(21.4060 x 2^30 / 163,840) = 140,286: 4 requests of the
 *   model's 32,768 positions */
static void test_dense_head_dim_mistral_small(void **st)
{
	(void)st;
	const sl_arch *a = arch("mistralai/Mistral-Small-24B-Instruct-2501");
	assert_int_equal(a->attn, SL_ATTN_GQA);
	assert_int_equal(a->head_dim, 128);
	assert_int_equal(a->max_pos, 32768);
	double e, b;
	assert_true(sl_arch_count(a, &e, &b) == 23572403200.0);
	assert_true(e == 0 && b == 1342177280.0);
	sl_plan_in in = {.arch = a, .mem_gib = 79.65, .tp = 1, .pp = 1, .dp = 1, .bytes_dense = 2, .bytes_expert = 2,
			 .bytes_embed = 2, .kv_bytes = 2, .frac_kind = SL_FRAC_TOTAL, .frac = 0.9,
			 .margin_gib = sl_plan_margin_gib(79.65)};
	near(in.margin_gib, 6.372, 1e-9);
	sl_plan_out o;
	assert_int_equal(sl_plan_compute(&in, &o), 0);
	near(o.weights_gib * GIB, 47144806400.0, 1);
	near(o.kv_gib, 21.4060, 1e-4);
	assert_true(o.kv_token_bytes == 163840.0);
	assert_int_equal(o.kv_heads_per_gpu, 8);
	assert_true(o.kv_tokens == 140286.0);
	assert_int_equal((long)o.kv_tokens / a->max_pos, 4);
	/* without its head_dim the config would be read as 160 wide (hidden /
	 * heads), a different model: the member is what the count rests on */
	json_error_t je;
	json_t *j = json_loads("{\"model_type\": \"mistral\", \"num_hidden_layers\": 40, \"hidden_size\": 5120, "
			       "\"num_attention_heads\": 32, \"num_key_value_heads\": 8, \"intermediate_size\": 32768, "
			       "\"vocab_size\": 131072, \"tie_word_embeddings\": false}",
			       0, &je);
	assert_non_null(j);
	sl_arch c;
	assert_int_equal(sl_arch_from_config(j, &c), 0);
	assert_int_equal(c.head_dim, 160);
	assert_true(c.params != 23572403200.0);
	sl_arch_free(&c);
	json_decref(j);
}

/* Mixtral 8x22B (MoE, 8 experts, every layer), by hand:
 *   experts 56 x 8 x 3 x 6144 x 16384 = 135,291,469,824
 *   embeddings 32768 x 6144 x 2 (untied) = 402,653,184
 *   the rest: attention 56 x (2 x 6144 x 6144 + 2 x 6144 x 1024) = 4,932,501,504,
 *   router 56 x 6144 x 8 = 2,752,512, norms 56 x 12,288 + 6,144 = 694,272
 *   = 4,935,948,288; total 140,630,071,296 (the model card's 141B)
 * SGLang TP8 on an H200 (140.40 GiB), --mem-fraction-static 0.85, BF16:
 *   weights/GPU = 140,630,071,296 x 2 / 8 = 35,157,517,824 B = 32.7430 GiB
 *   KV pool = 0.85 x (140.40 - 2.5 in use at start) - 32.7430 = 84.4720 GiB
 *   KV/token = 2 x 56 layers x (8 KV heads / 8 = 1) x 128 x 2 B = 28,672 B
 *   tokens = floor(84.4720 x 2^30 / 28,672) = 3,163,404
 * vLLM TP4 x DP2 with --enable-expert-parallel (EP 8: one expert a GPU):
 *   (4,935,948,288 + 402,653,184) x 2 / 4 + 135,291,469,824 x 2 / 8
 *   = 2,669,300,736 + 33,822,867,456 = 36,492,168,192 B */
static void test_moe_mixtral_8x22b(void **st)
{
	(void)st;
	const sl_arch *a = arch("mistralai/Mixtral-8x22B-Instruct-v0.1");
	assert_int_equal(a->experts, 8);
	assert_int_equal(a->experts_per_tok, 2);
	near(a->params_experts, 135291469824.0, 0.5);
	near(a->params_embed, 402653184.0, 0.5);
	near(a->params - a->params_experts - a->params_embed, 4935948288.0, 0.5);
	sl_plan_in in = {.arch = a, .mem_gib = 140.40, .tp = 8, .pp = 1, .dp = 1, .bytes_dense = 2, .bytes_expert = 2,
			 .bytes_embed = 2, .kv_bytes = 2, .frac_kind = SL_FRAC_STATIC, .frac = 0.85,
			 .margin_gib = sl_plan_start_gib()};
	sl_plan_out o;
	assert_int_equal(sl_plan_compute(&in, &o), 0);
	near(o.weights_gib * GIB, 35157517824.0, 1);
	near(o.kv_gib, 84.4720, 1e-4);
	assert_true(o.kv_token_bytes == 28672.0);
	assert_int_equal(o.kv_heads_per_gpu, 1);
	assert_true(o.kv_tokens == 3163404.0);
	/* TP16 over two nodes: 8 KV heads, each replicated on two ranks */
	long h = 0;
	assert_true(sl_plan_kv_token_bytes(a, 16, 1, 0, 2, 0, &h) == 28672.0);
	assert_int_equal(h, 1);
	sl_plan_in ep = {.arch = a, .mem_gib = 140.40, .tp = 4, .pp = 1, .dp = 2, .ep = 8, .bytes_dense = 2,
			 .bytes_expert = 2, .bytes_embed = 2};
	near(sl_plan_weight_bytes(&ep), 36492168192.0, 1);
}

static void test_bytes(void **st)
{
	(void)st;
	near(sl_plan_quant_bytes(NULL), 2, 0);
	near(sl_plan_quant_bytes("fp8"), 1, 0);
	near(sl_plan_quant_bytes("nvfp4"), 0.5625, 0);
	assert_true(sl_plan_quant_bytes("awq") < 0);
	near(sl_plan_kv_bytes("fp8_e4m3"), 1, 0);
	near(sl_plan_kv_bytes("auto"), 2, 0);
	assert_true(sl_plan_kv_bytes("int3") < 0);
	near(sl_plan_margin_gib(24), 4, 0);
}

static void test_hardware_names(void **st)
{
	(void)st;
	const sl_facts *f = facts();
	struct { const char *text, *id; } cases[] = {
		{"B200 (SXM) x8", "b200-sxm"}, {"b200-sxm-x8", "b200-sxm"}, {"GB300 NVL72", "gb300"},
		{"gb300-nvl72", "gb300"},       {"B300 x8", "b300-sxm"},     {"H200 (SXM) x8", "h200-sxm"},
		{"h100-sxm-x8", "h100-sxm"},    {"MI355X x8", "mi355x"},     {"vera-rubin-nvl72", "vera-rubin"},
		{"Vera Rubin NVL72", "vera-rubin"}, {"gb200-nvl72", "gb200"}, {"8x A100 80GB", "a100-sxm"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		const sl_hw *h = sl_facts_hw(f, cases[i].text);
		if (!h || strcmp(h->id, cases[i].id))
			fail_msg("%s: %s, not %s", cases[i].text, h ? h->id : "none", cases[i].id);
	}
	assert_null(sl_facts_hw(f, "kimi-k3"));
	assert_null(sl_facts_hw(f, "gpt-oss-120b"));
	assert_null(sl_facts_hw(f, "TPU v5e"));
	/* every corpus system is known, with its memory */
	const char *ids[] = {"h100-sxm", "h200-sxm", "b200-sxm", "b300-sxm", "gb200", "gb300", "mi355x", "vera-rubin",
			     "a100-sxm", "mi300x", "mi325x", "l40s"};
	for (size_t i = 0; i < sizeof ids / sizeof *ids; i++) {
		const sl_hw *h = NULL;
		for (size_t k = 0; k < f->nhw && !h; k++)
			if (!strcmp(f->hw[k].id, ids[i]))
				h = &f->hw[k];
		assert_non_null(h);
		assert_true(h->mem_gib > 0 && h->mem_source && h->prec_source);
	}
}

static void test_model_names(void **st)
{
	(void)st;
	const sl_facts *f = facts();
	assert_non_null(sl_facts_arch(f, "/models/GPT-OSS-120B/"));
	assert_non_null(sl_facts_arch(f, "openai/gpt-oss-20b"));
	assert_null(sl_facts_arch(f, "/models/Kimi-K3"));
	assert_null(sl_facts_arch(f, "deepseek-ai/DeepSeek-V4-Pro"));
	assert_null(sl_facts_arch(f, "<model-path>"));
}

/* A config.json of the user's: the members read, defaults only where the
 * transformers configs define them (KV heads = heads, head_dim = hidden / heads). */
static void test_config_json(void **st)
{
	(void)st;
	json_error_t je;
	json_t *j = json_loads("{\"model_type\": \"llama\", \"num_hidden_layers\": 2, \"hidden_size\": 64, "
			       "\"num_attention_heads\": 4, \"intermediate_size\": 128, \"vocab_size\": 100, "
			       "\"tie_word_embeddings\": true, \"torch_dtype\": \"bfloat16\"}",
			       0, &je);
	assert_non_null(j);
	sl_arch a;
	assert_int_equal(sl_arch_from_config(j, &a), 0);
	assert_int_equal(a.kv_heads, 4);
	assert_int_equal(a.head_dim, 16);
	assert_int_equal(a.max_pos, -1);
	/* 100 x 64 + 2 x (4 x 64 x 64 + 3 x 64 x 128 + 2 x 64) + 64 */
	assert_true(a.params == 6400.0 + 2 * (16384 + 24576 + 128) + 64);
	sl_arch_free(&a);
	json_decref(j);
	/* without a vocabulary the count is not known, not guessed */
	j = json_loads("{\"model_type\": \"llama\", \"num_hidden_layers\": 2, \"hidden_size\": 64}", 0, &je);
	assert_int_equal(sl_arch_from_config(j, &a), 0);
	assert_true(a.params == 0);
	sl_arch_free(&a);
	json_decref(j);
	j = json_loads("{\"hidden_size\": 64}", 0, &je);
	assert_int_equal(sl_arch_from_config(j, &a), -1);
	sl_arch_free(&a);
	json_decref(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts_match_the_data), cmocka_unit_test(test_dense_gqa_llama_70b),
		cmocka_unit_test(test_moe_gpt_oss_120b),      cmocka_unit_test(test_moe_experts_over_ep),
		cmocka_unit_test(test_mla_deepseek_v3),       cmocka_unit_test(test_dense_head_dim_mistral_small),
		cmocka_unit_test(test_moe_mixtral_8x22b),     cmocka_unit_test(test_bytes),
		cmocka_unit_test(test_hardware_names),        cmocka_unit_test(test_model_names),
		cmocka_unit_test(test_config_json),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
