/*
 * plan.h: the plan stage, its whole interface: what an entry's services
 * need of the GPUs they run on, before anything runs. Accelerator facts
 * (grammars/hardware/) and model facts (grammars/models/, or a config.json
 * the user names) meet the settings of the model (model.h): weights per
 * GPU, the memory the engine's fraction setting leaves, the KV cache bytes
 * per token and the tokens the pool holds. The formulas, their margins and
 * their sources are in docs/memory-plan.md.
 *
 * It is a check, not a simulator: every figure is conservative, and a fact
 * that is not known leaves the figures that need it out, with a note,
 * never a guess.
 *
 * Ownership: sl_facts owns its accelerators and models; an sl_entry_plan
 * owns its strings and points at facts (not owned): free the plan first.
 */
#ifndef SL_PLAN_H
#define SL_PLAN_H

#include <stddef.h>
#include <jansson.h>
#include "../model/model.h"

/* ---- accelerator facts ------------------------------------------------ */

typedef struct sl_hw {
	char *id, *name;          /* h200-sxm, "NVIDIA H200 SXM" */
	char **match;             /* words naming it (whole words, any case) */
	char **match_words;       /* each as the lookup compares it (" b200 sxm "), made once */
	size_t nmatch;
	char *vendor;             /* nvidia | amd */
	char *devices;            /* CUDA_VISIBLE_DEVICES | HIP_VISIBLE_DEVICES */
	double mem_gib;           /* memory per GPU in GiB, as the device reports it; 0 unknown */
	char *mem_source;
	long node_gpus;           /* GPUs in one node or tray; 0 unknown */
	char *node_source;
	long domain_gpus;         /* GPUs of one NVLink (Infinity Fabric) domain; 0 unknown */
	char *domain_source;
	char **native, **none;    /* precisions with native kernels; those without */
	size_t nnative, nnone;
	char *prec_source;
	char *file;               /* grammars/hardware/NAME.yaml */
} sl_hw;

/* ---- model facts: a config.json ---------------------------------------- */

typedef enum { SL_ATTN_UNKNOWN, SL_ATTN_GQA, SL_ATTN_MLA } sl_attn;

/* a rope_scaling's kind, where the engines' derived context lengths
 * differ: yarn, llama3, su/longrope, or another (linear, dynamic...) */
typedef enum { SL_ROPE_NONE, SL_ROPE_OTHER, SL_ROPE_YARN, SL_ROPE_LLAMA3, SL_ROPE_LONG } sl_rope;

/* Every count is -1 when the config does not give it. */
typedef struct sl_arch {
	char *id;                 /* deepseek-v3; or the config file's name */
	char **names;             /* the ids that map an entry to it */
	size_t nnames;
	char *source;             /* where its config.json was read */
	char *file;               /* the data file or config.json it was loaded from */
	char *model_type;         /* config.json model_type, or NULL */
	sl_attn attn;
	long layers, hidden, heads, kv_heads, head_dim, vocab;
	long intermediate, moe_intermediate;
	long experts, experts_per_tok, shared_experts, first_dense;
	long q_lora_rank, kv_lora_rank, qk_nope_head_dim, qk_rope_head_dim, v_head_dim;
	long full_layers;         /* layers with full attention (the rest a sliding window) */
	long sliding_window;      /* tokens, or -1 */
	long max_pos;             /* max_position_embeddings */
	long mtp_layers;          /* num_nextn_predict_layers: the MTP modules it ships */
	int rope_scaling;         /* 1 when config.json has a rope_scaling object */
	sl_rope rope_type;        /* its rope_type (or type), as the engines tell them apart */
	double rope_factor;       /* its factor, or 0 when it gives none */
	long rope_original;       /* its original_max_position_embeddings, or -1 */
	int tied;                 /* tie_word_embeddings: 1, 0, or -1 unknown */
	int attn_bias;            /* attention projections carry biases (gpt-oss, GLM-4.5) */
	int qk_norm;              /* use_qk_norm: q and k RMSNorms (GLM-4.5) */
	char *quant;              /* quantization_config.quant_method (fp8, mxfp4...), or NULL */
	char *dtype;              /* torch_dtype, or NULL */
	double params;            /* total parameters: the data's, else counted; 0 unknown */
	char *params_source;
	double params_experts;    /* of them, in routed experts (counted); 0 for dense */
	double params_embed;      /* of them, in the embeddings and the LM head (counted) */
} sl_arch;

/* Reads a config.json (parsed) into arch: the members above (a
 * text_config object is read when the top level has no layers). Counts
 * parameters from the shapes when the model_type's layout is known
 * (sl_arch_count). Returns 0, or -1 when it has no layers or hidden size. */
int sl_arch_from_config(const json_t *config, sl_arch *out);
/* Counts the parameters from the shapes: embeddings (and the LM head unless
 * tied), attention (GQA, or MLA's low-rank projections), MLP or experts
 * (SwiGLU: three matrices), router, norms; gpt-oss's biases and sinks;
 * GLM-4.5's dense first layers, shared experts and biased router.
 * Returns the total, or 0 when the layout is not one of these. */
double sl_arch_count(const sl_arch *a, double *experts, double *embed);
void sl_arch_free(sl_arch *a);

/* ---- the facts servelint ships ------------------------------------------ */

typedef struct sl_facts {
	sl_hw *hw;
	size_t nhw;
	sl_arch *arch;
	size_t narch;
} sl_facts;

/* The accelerator and model facts built into the binary: a static table
 * made at build time (cmake/data_ready.c), which sl_facts_free leaves alone
 * ($SERVELINT_FACTS names a folder holding hardware/ and models/ to read
 * instead, into an sl_facts of its own). */
int sl_facts_load(sl_facts **out, sl_error *err);
void sl_facts_free(sl_facts *f);
/* The accelerator a text names (a System claim, a folder name, --system):
 * the longest whole-word match, or NULL. */
const sl_hw *sl_facts_hw(const sl_facts *f, const char *text);
/* The model whose names hold the last path component of `weights`
 * (org/Name, /models/Name), case-insensitively, or NULL. */
const sl_arch *sl_facts_arch(const sl_facts *f, const char *weights);

/* ---- the arithmetic ------------------------------------------------------- */

/* What the engine's memory setting means (docs/memory-plan.md):
 * vLLM --gpu-memory-utilization: the share of the GPU's total memory for
 *   the whole engine (weights, activations, KV cache);
 * SGLang --mem-fraction-static: the share of the memory free when SGLang
 *   first measures it (the total less the CUDA context and communicators)
 *   for weights and the KV pool (activations and CUDA graphs live in the
 *   rest);
 * TensorRT-LLM kv_cache_config.free_gpu_memory_fraction: the share of what
 *   is free after the weights (and the runtime) that goes to the KV cache. */
typedef enum { SL_FRAC_NONE, SL_FRAC_TOTAL, SL_FRAC_STATIC, SL_FRAC_FREE } sl_frac_kind;

typedef struct sl_plan_in {
	const sl_arch *arch;
	double mem_gib;           /* per GPU */
	long tp, pp, dp;          /* >= 1 */
	int attention_dp;         /* attention data parallel inside the TP group */
	long ep;                  /* experts split over this many ranks; 0: split over TP */
	double bytes_dense;       /* per parameter, attention and dense MLP (quantization) */
	double bytes_expert;      /* per parameter, routed experts */
	double bytes_embed;       /* per parameter, embeddings and LM head */
	double kv_bytes;          /* per cached element (KV dtype) */
	sl_frac_kind frac_kind;
	double frac;              /* the setting's value, or the engine's default */
	double margin_gib;        /* activations, CUDA graphs, runtime: kept out of the KV pool;
				   * for SGLang (STATIC) the memory in use before it measures */
} sl_plan_in;

typedef struct sl_plan_out {
	double weights_gib;       /* per GPU */
	double budget_gib;        /* what the fraction gives weights and KV (TOTAL, STATIC) or KV (FREE) */
	double kv_gib;            /* the KV pool per GPU (may be <= 0) */
	double kv_token_bytes;    /* per token per GPU, full-attention layers */
	double kv_token_bytes_all;/* the same if every layer kept the whole context */
	double kv_tokens;         /* the pool over kv_token_bytes; 0 when kv_gib <= 0 */
	double kv_tokens_all;     /* over kv_token_bytes_all */
	long kv_heads_per_gpu;    /* GQA: the KV heads each GPU keeps (replicated when TP > KV heads) */
} sl_plan_out;

/* Bytes per parameter of a quantization method (quantization_config's
 * quant_method, or the engine's --quantization): fp8 1, mxfp4 0.53125
 * (4-bit values and an 8-bit scale per 32), nvfp4 0.5625 (an FP8 scale per
 * 16); NULL or none: bf16 2. -1 for a method it does not know. */
double sl_plan_quant_bytes(const char *method);
/* Bytes per KV cache element of a KV dtype (fp8 1, bf16/fp16/auto 2); -1
 * unknown. `auto` is the model's dtype (2 for bf16/fp16 models). */
double sl_plan_kv_bytes(const char *dtype);
/* KV cache bytes per token per GPU: GQA 2 x layers x kv_heads_per_gpu x
 * head_dim x bytes (kv_heads_per_gpu = KV heads / TP, at least 1, all of
 * them under attention DP); MLA layers x (kv_lora_rank + qk_rope_head_dim)
 * x bytes, not split by TP. Layers over PP. all: every layer, else the
 * full-attention ones. 0 when the attention is not known. */
double sl_plan_kv_token_bytes(const sl_arch *a, long tp, long pp, int attention_dp, double kv_bytes, int all,
			      long *heads_per_gpu);
/* Weights per GPU in bytes (see sl_plan_in). */
double sl_plan_weight_bytes(const sl_plan_in *in);
/* The whole plan of one worker. Returns 0, or -1 when the model's
 * parameters or the GPU's memory are not known. */
int sl_plan_compute(const sl_plan_in *in, sl_plan_out *out);

/* The margin the plan keeps for activations, CUDA graphs and the runtime:
 * 8% of the GPU's memory, at least 4 GiB (docs/memory-plan.md says why). */
double sl_plan_margin_gib(double mem_gib);
/* What is in use before SGLang measures the free memory its
 * --mem-fraction-static is a share of (the CUDA context and the
 * communicators): 2.5 GiB, the larger of the two public start-up logs
 * (docs/memory-plan.md). */
double sl_plan_start_gib(void);

/* ---- an entry's plan ---------------------------------------------------- */

typedef struct sl_service_plan {
	const sl_service *service;   /* not owned */
	int computed;                /* the figures below are set */
	sl_plan_in in;
	sl_plan_out out;
	long max_model_len;          /* the setting, or the model's positions (-1 unknown) */
	int max_model_len_default;   /* not set: the engine takes the model's */
	int unknown_config;          /* reads an engine config file the entry does not hold */
	long max_seqs;               /* -1 not set */
	char *quant;                 /* the weights' quantization as planned; owned */
	char *kv_dtype;              /* owned */
	char **notes;                /* assumptions and what was left out; owned */
	size_t nnotes;
} sl_service_plan;

typedef struct sl_entry_plan {
	const sl_entry *entry;       /* not owned */
	const sl_model *model;       /* not owned */
	const sl_hw *hw;             /* not owned; NULL unknown */
	char *hw_from;               /* "metadata", "folder name", "--system"; owned */
	const sl_origin *hw_origin;  /* the claim's place, or NULL */
	const sl_arch *arch;         /* the shipped facts' (not owned) or own_arch; NULL unknown */
	sl_arch *own_arch;           /* a config.json read for this entry; owned, may be NULL */
	char *arch_from;             /* "grammars/models/x.yaml", "--model-config FILE"...; owned */
	const char *weights;         /* what the workers load (not owned), or NULL */
	sl_service_plan *services;   /* the workers (prefill, decode, aggregated) */
	size_t nservices;
	char **notes;                /* why something is left out; owned */
	size_t nnotes;
} sl_entry_plan;

typedef struct sl_plan_options {
	const char *system;          /* --system TEXT, or NULL */
	const char *model_config;    /* --model-config FILE, or NULL */
} sl_plan_options;

/* Options for every plan after (the command line's); NULL: none. The
 * strings must outlive the plans. A --model-config is read once here:
 * returns 0, or an error (err set) when it cannot be read as a config.json. */
int sl_plan_set_options(const sl_plan_options *o, sl_error *err);
/* The facts every plan uses, loaded once (NULL when they cannot be, with
 * err set). */
const sl_facts *sl_plan_facts(sl_error *err);
/* The plan of one entry's model. Never fails for want of facts: what is
 * not known is a note. Returns 0, or an error when --model-config cannot
 * be read. */
int sl_plan_entry(const sl_model *m, sl_entry_plan **out, sl_error *err);
void sl_entry_plan_free(sl_entry_plan *p);

/* The config.json of model NAME in the catalogue's models/ folder at or
 * above entry E's path (models/NAME/config.json or models/NAME.json,
 * without case), up to the git repository's top folder and never the file
 * system's root; what each folder holds is read once per run
 * (models_dir.c), and what E's own listing showed is not asked again. A
 * new string, or NULL. */
char *sl_plan_catalogue_config(const sl_entry *e, const char *name);

/* The plan as JSON (the `plan` member of show --format json): a new reference. */
json_t *sl_plan_json(const sl_entry_plan *p);
/* One line of a service's headline: "weights 63.4 GiB/GPU, KV 1.2M tokens",
 * into a new string; NULL when there is no plan. */
char *sl_plan_headline(const sl_service_plan *sp);

#endif
