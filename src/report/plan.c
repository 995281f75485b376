/* plan.c (report): an entry's memory and shape plan for a terminal
 * (docs/memory-plan.md); the JSON is the plan stage's own (sl_plan_json).
 * Uses no other file of the stage (show.c calls it). */
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *engine_setting(const sl_service_plan *sp)
{
	switch (sp->in.frac_kind) {
	case SL_FRAC_TOTAL: return "--gpu-memory-utilization";
	case SL_FRAC_STATIC: return "--mem-fraction-static";
	case SL_FRAC_FREE: return "free_gpu_memory_fraction";
	case SL_FRAC_NONE: break;
	}
	return "";
}

static void tokens(FILE *f, double t)
{
	if (t < 1e4)
		fprintf(f, "%.0f", t);
	else if (t < 1e6)
		fprintf(f, "%.0fK", t / 1e3);
	else
		fprintf(f, "%.2fM", t / 1e6);
}

static void service_tty(FILE *f, const sl_entry_plan *p, const sl_service_plan *sp)
{
	const sl_plan_in *in = &sp->in;
	const sl_plan_out *o = &sp->out;
	fprintf(f, "  %s", sp->service->name);
	if (in->tp >= 1)
		fprintf(f, "  TP%ld PP%ld DP%ld%s", in->tp, in->pp, in->dp, in->attention_dp ? " (attention DP)" : "");
	if (in->ep > 0)
		fprintf(f, " EP%ld", in->ep);
	fputc('\n', f);
	if (sp->computed) {
		fprintf(f, "    weights   %.1f GiB per GPU (%s", o->weights_gib, sp->quant);
		if (in->bytes_expert != in->bytes_dense)
			fprintf(f, " experts, BF16 the rest");
		fprintf(f, ") of %g GiB\n", in->mem_gib);
		if (in->frac_kind != SL_FRAC_NONE) {
			fprintf(f, "    memory    %s %g: ", engine_setting(sp), in->frac);
			if (in->frac_kind == SL_FRAC_TOTAL)
				fprintf(f, "%g x %g - %.1f weights - %.1f margin", in->frac, in->mem_gib, o->weights_gib,
					in->margin_gib);
			else if (in->frac_kind == SL_FRAC_STATIC)
				fprintf(f, "%g x (%g - %.1f in use at start) - %.1f weights", in->frac, in->mem_gib,
					in->margin_gib, o->weights_gib);
			else
				fprintf(f, "%g x (%g - %.1f weights - %.1f margin)", in->frac, in->mem_gib, o->weights_gib,
					in->margin_gib);
			fprintf(f, " = %.1f GiB KV pool", o->kv_gib);
			/* the margin is an estimate: where it alone leaves no pool,
			 * the bound without it is what SL4007 holds a request to */
			sl_plan_in bare = *in;
			sl_plan_out bo;
			bare.margin_gib = 0;
			bare.attention_dp = 0;
			if (o->kv_gib <= 0 && in->margin_gib > 0 && !sl_plan_compute(&bare, &bo) && bo.kv_gib > 0)
				fprintf(f, " (at most %.1f GiB with no margin: %.0f tokens)", bo.kv_gib, bo.kv_tokens);
			fputc('\n', f);
		}
		if (o->kv_token_bytes > 0) {
			fprintf(f, "    kv cache  %.0f bytes a token per GPU (%s, ", o->kv_token_bytes, sp->kv_dtype);
			const sl_arch *a = p->arch;
			if (a->attn == SL_ATTN_MLA)
				fprintf(f, "MLA: %ld layers x (%ld + %ld)", a->full_layers, a->kv_lora_rank, a->qk_rope_head_dim);
			else
				fprintf(f, "%ld%s layers x %ld KV heads x %ld", a->full_layers,
					a->full_layers != a->layers ? " full-attention" : "", o->kv_heads_per_gpu, a->head_dim);
			if (in->pp > 1)
				fprintf(f, " / PP%ld", in->pp);
			fputs(")", f);
			if (in->frac_kind != SL_FRAC_NONE && o->kv_gib > 0) {
				fputs(": ", f);
				tokens(f, o->kv_tokens);
				fputs(" tokens", f);
				if (o->kv_tokens_all != o->kv_tokens) {
					fputs(" (", f);
					tokens(f, o->kv_tokens_all);
					fputs(" if every layer kept the whole context)", f);
				}
			} else if (in->frac_kind != SL_FRAC_NONE) {
				fputs(in->margin_gib > 0 ? ": no KV pool left after the margin" : ": no KV pool left", f);
			}
			fputc('\n', f);
		}
	}
	if (sp->max_model_len > 0 || sp->max_seqs > 0) {
		fputs("    requests ", f);
		if (sp->max_model_len > 0) {
			fprintf(f, " max-model-len %ld%s", sp->max_model_len,
				sp->max_model_len_default ? " (not set: the model's positions)" : "");
			if (sp->computed && o->kv_tokens > 0 && in->frac_kind != SL_FRAC_NONE)
				fprintf(f, ", %.0f of that length at once", floor(o->kv_tokens / (double)sp->max_model_len));
		}
		if (sp->max_seqs > 0)
			fprintf(f, "%s max-num-seqs %ld", sp->max_model_len > 0 ? ";" : "", sp->max_seqs);
		fputc('\n', f);
	}
	for (size_t k = 0; k < sp->nnotes; k++)
		fprintf(f, "    note      %s\n", sp->notes[k]);
}

int sl_report_plan_tty(FILE *f, const sl_entry_plan *p)
{
	fputs("\nplan (docs/memory-plan.md)\n", f);
	if (p->hw) {
		char w[600] = "";
		if (p->hw_origin && p->hw_origin->src) {
			unsigned l, c;
			sl_origin_pos(p->hw_origin, &l, &c);
			snprintf(w, sizeof w, "%s:%u:%u", p->hw_origin->src->path, l, c);
		}
		fprintf(f, "  system    %s, %g GiB per GPU", p->hw->name, p->hw->mem_gib);
		if (p->hw->node_gpus)
			fprintf(f, ", %ld per node", p->hw->node_gpus);
		if (p->hw->domain_gpus)
			fprintf(f, ", %ld per %s domain", p->hw->domain_gpus,
				!strcmp(p->hw->vendor, "amd") ? "Infinity Fabric" : "NVLink");
		fprintf(f, " (from %s%s%s; %s)\n", p->hw_from, *w ? ", " : "", w, p->hw->file);
	}
	if (p->arch) {
		fprintf(f, "  model     %s", p->arch->id);
		if (p->arch->params > 0)
			fprintf(f, ", %.2fB parameters", p->arch->params / 1e9);
		if (p->arch->experts > 0)
			fprintf(f, ", %ld experts (%ld a token)", p->arch->experts, p->arch->experts_per_tok);
		fprintf(f, " (%s)\n", p->arch_from);
	}
	for (size_t i = 0; i < p->nservices; i++)
		if (p->arch)
			service_tty(f, p, &p->services[i]);
	for (size_t k = 0; k < p->nnotes; k++)
		fprintf(f, "  note      %s\n", p->notes[k]);
	return ferror(f) ? -1 : 0;
}
