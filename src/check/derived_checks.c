/*
 * derived_checks.c: checks that hold one setting to a limit others derive
 * (vLLM's batched tokens against the maximum length when prefill is not
 * chunked, its CUDA graph capture sizes against the batched tokens,
 * TensorRT-LLM's token budget against a decode batch with its draft
 * tokens, SGLang's EAGLE draft tokens against the tree they are taken
 * from), and the claims of the text that are not a setting's value
 * alone: speculative decoding stated but not configured (or the other way
 * round), the stated precision against the quantization the command asks
 * for, the stated routing against the frontend's or router's, and the
 * stated concurrency against the running requests the workers allow. A
 * claim is held only to what the command states for certain: a value the
 * script does not know, or a service whose arguments are not all read, is
 * not held. Uses vocabulary.c (workers, equal values) and
 * findings.c.
 */
#include "derived_checks.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "findings.h"
#include "vocabulary.h"

static int is_vllm(const sl_service *s)
{
	return !strcmp(s->engine, "vllm") || !strcmp(s->engine, "dynamo-vllm");
}

static const sl_setting *known(const sl_service *s, const char *key)
{
	const sl_setting *st = sl_service_get(s, key);
	return st && !(st->flags & (SL_SET_SYMBOLIC | SL_SET_PLACEHOLDER)) ? st : NULL;
}

/* vLLM: max_num_batched_tokens below max_model_len with chunked prefill off
 * is refused: SchedulerConfig.verify_max_model_len (vllm/config/scheduler.py,
 * 22quinn/vllm e675dda, lines 249-261) */
static void batched_tokens_model_len(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	for (size_t i = 0; i < m->nservices; i++) {
		const sl_service *s = &m->services[i];
		if (!is_vllm(s))
			continue;
		const sl_setting *ch = known(s, "vllm.enable_chunked_prefill");
		if (!ch)
			ch = known(s, "dynamo-vllm.enable_chunked_prefill");
		const sl_setting *bt = known(s, "limits.max_batched_tokens"), *ml = known(s, "limits.max_model_len");
		if (!ch || !json_is_false(ch->value) || !bt || !ml || !json_is_integer(bt->value) ||
		    !json_is_integer(ml->value) || json_integer_value(bt->value) >= json_integer_value(ml->value))
			continue;
		sl_finding *f = sl_finding_add(out, r, &bt->origin,
					       "%s: %lld batched tokens, max-model-len %lld, and chunked prefill off",
					       r->summary, (long long)json_integer_value(bt->value),
					       (long long)json_integer_value(ml->value));
		sl_finding_related(f, &ml->origin, "max-model-len");
		sl_finding_related(f, &ch->origin, "chunked prefill switched off");
	}
}

/* vLLM keeps only the CUDA graph capture sizes up to max_num_batched_tokens
 * (VllmConfig._set_cudagraph_sizes: `[i for i in dedup_sizes if i <=
 * max_num_tokens]`, vllm/config/vllm.py, 22quinn/vllm e675dda, lines
 * 1118-1135), and refuses a --max-cudagraph-capture-size given beside the
 * list that is not the largest size kept (lines 1162-1177) */
static void capture_beyond_tokens(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	for (size_t i = 0; i < m->nservices; i++) {
		const sl_service *s = &m->services[i];
		if (!is_vllm(s))
			continue;
		const sl_setting *ls = known(s, "cudagraph.capture_sizes"), *bt = known(s, "limits.max_batched_tokens");
		if (!ls || !bt || !json_is_array(ls->value) || !json_is_integer(bt->value))
			continue;
		long limit = (long)json_integer_value(bt->value), big = -1, kept = -1, dropped = 0;
		size_t k;
		json_t *v;
		json_array_foreach(ls->value, k, v) {
			if (!json_is_integer(v))
				continue;
			long x = (long)json_integer_value(v);
			big = x > big ? x : big;
			if (x > limit)
				dropped++;
			else if (x > kept)
				kept = x;
		}
		if (!dropped)
			continue;
		const sl_setting *mx = known(s, "cudagraph.max_capture_size");
		sl_buf extra = {0};
		if (mx && json_is_integer(mx->value) && json_integer_value(mx->value) != kept)
			sl_buf_printf(&extra, ", and refuses --max-cudagraph-capture-size %lld, not the largest size kept (%ld)",
				      (long long)json_integer_value(mx->value), kept);
		sl_finding *f = sl_finding_add(out, r, &ls->origin,
					       "%s: capture sizes up to %ld, max-num-batched-tokens %ld: vLLM drops the %ld "
					       "size%s above it%s",
					       r->summary, big, limit, dropped, dropped == 1 ? "" : "s",
					       extra.len ? extra.data : "");
		sl_buf_free(&extra);
		sl_finding_related(f, &bt->origin, "max-num-batched-tokens");
	}
}

/* TensorRT-LLM with speculative decoding: a generation request takes 1 +
 * max_total_draft_tokens tokens of a step's max_num_tokens, so the largest
 * decode batch is min(max_batch_size, max_num_tokens / (1 + draft tokens))
 * (_filter_cuda_graph_batch_sizes, tensorrt_llm/_torch/pyexecutor/
 * model_engine.py, NVIDIA/TensorRT-LLM 1a0dc5f7; CUDA graphs above it are
 * not captured). Held only where both limits are written and the draft
 * count is known (MTP's num_nextn_predict_layers defaults to 1), and not on
 * a prefill (context) worker, which runs no decode batch. */
static void tokens_draft_batch(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	for (size_t i = 0; i < m->nservices; i++) {
		const sl_service *s = &m->services[i];
		if (!strstr(s->engine, "trtllm") || !strcmp(s->role, "prefill") || !sl_check_is_worker(s->role))
			continue;
		const sl_setting *meth = known(s, "spec.method"), *nt = known(s, "limits.max_batched_tokens");
		const sl_setting *bs = known(s, "limits.max_seqs");
		const sl_setting *dr = known(s, "trtllm.speculative_config.max_total_draft_tokens");
		if (!dr)
			dr = known(s, "spec.num_tokens");
		if (!meth || !json_is_string(meth->value) || !nt || !bs || !json_is_integer(nt->value) ||
		    !json_is_integer(bs->value))
			continue;
		long draft;
		if (dr && json_is_integer(dr->value))
			draft = (long)json_integer_value(dr->value);
		else if (!dr && !strcasecmp(json_string_value(meth->value), "MTP"))
			draft = 1;
		else
			continue;
		long tokens = (long)json_integer_value(nt->value), batch = (long)json_integer_value(bs->value);
		if (draft < 1 || batch < 1 || tokens >= batch * (1 + draft))
			continue;
		sl_finding *f = sl_finding_add(out, r, &nt->origin,
					       "%s: max_num_tokens %ld, max_batch_size %ld x (1 + %ld draft token%s) = %ld: "
					       "a decode step holds at most %ld requests",
					       r->summary, tokens, batch, draft, draft == 1 ? "" : "s", batch * (1 + draft),
					       tokens / (1 + draft));
		sl_finding_related(f, &bs->origin, "max_batch_size");
		if (dr)
			sl_finding_related(f, &dr->origin, "the draft tokens");
		else
			sl_finding_related(f, &meth->origin, "MTP, one draft token by default");
	}
}

/* SGLang EAGLE with top-k above 1 verifies the num_draft_tokens - 1 best
 * of the tree's candidates, top-k from the first step and top-k x top-k
 * from each later one (tree_info of _select_top_k_tokens_first/_later,
 * python/sglang/srt/speculative/spec_utils.py; torch.topk(score_list,
 * num_draft_token - 1) in organize_draft_results, eagle_utils.py, BBuf/sglang
 * 65d3b47): more draft tokens than candidates is a k out of range at the
 * first draft step. Top-k 1 is SL5002's (SGLang sets steps + 1). */
static void eagle_draft_tree(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	for (size_t i = 0; i < m->nservices; i++) {
		const sl_service *s = &m->services[i];
		if (strcmp(s->engine, "sglang") && strcmp(s->engine, "dynamo-sglang"))
			continue;
		const sl_setting *meth = known(s, "spec.method"), *topk = known(s, "spec.eagle_topk");
		const sl_setting *steps = known(s, "spec.num_steps"), *draft = known(s, "spec.num_draft_tokens");
		if (!meth || !json_is_string(meth->value) || !topk || !steps || !draft || !json_is_integer(topk->value) ||
		    !json_is_integer(steps->value) || !json_is_integer(draft->value))
			continue;
		const char *a = json_string_value(meth->value);
		if (strcasecmp(a, "EAGLE") && strcasecmp(a, "EAGLE3") && strcasecmp(a, "NEXTN") && strcasecmp(a, "MTP"))
			continue;
		long k = (long)json_integer_value(topk->value), n = (long)json_integer_value(steps->value);
		long d = (long)json_integer_value(draft->value);
		if (k <= 1 || n < 1 || n > 64 || k > 1024)
			continue;
		long cand = k + (n - 1) * k * k;
		if (d - 1 <= cand)
			continue;
		char how[96];
		if (n == 1)
			snprintf(how, sizeof how, "top-k %ld of its one step", k);
		else
			snprintf(how, sizeof how, "top-k %ld, then %ld from each of %ld later step%s", k, k * k, n - 1,
				 n - 1 == 1 ? "" : "s");
		sl_finding *f = sl_finding_add(out, r, &draft->origin,
					       "%s: %ld draft tokens verify the %ld best of a tree of %ld candidates (%s)",
					       r->summary, d, d - 1, cand, how);
		sl_finding_related(f, &topk->origin, "the top-k");
		sl_finding_related(f, &steps->origin, "the steps");
	}
}

/* How many requests one worker runs at once, by its engine's cap on the
 * running requests of one DP rank, and over how many ranks:
 *  - vLLM: every DP rank is an engine core with a scheduler of its own
 *    (EngineCore.__init__, vllm/v1/engine/core.py), which schedules no
 *    waiting request once max_num_seqs run (Scheduler: max_num_running_reqs
 *    = max_num_seqs, `if num_running >= self.max_num_running_reqs: break`,
 *    vllm/v1/core/sched/scheduler.py lines 110 and 700, vllm-project/vllm
 *    5ac26849 as read in EmbeddedLLM/vllm): DP x --max-num-seqs.
 *  - SGLang: --max-running-requests is the whole server's with DP attention,
 *    max_running_requests // dp_size on each rank (_resolve_max_num_reqs,
 *    python/sglang/srt/model_executor/model_runner_kv_cache_mixin.py, and
 *    dp_size = dp if enable_dp_attention else 1, model_runner.py line 376,
 *    sgl-project/sglang 65d3b47 as read in BBuf/sglang); without it each of
 *    the --dp-size replicas has the whole limit.
 *  - TensorRT-LLM (trtllm-serve, Dynamo's TensorRT-LLM worker): each rank's
 *    executor caps its active requests at max_num_active_requests =
 *    model_engine.get_max_num_sequences(), the max_batch_size; with
 *    enable_attention_dp every tensor-parallel rank holds requests of its
 *    own, the worker tp_size x that (`total_max_num_active_requests =
 *    self.dist.tp_size * self.max_num_active_requests`), without it the
 *    ranks run one batch of at most max_batch_size (PyExecutor.
 *    _fetch_new_requests, tensorrt_llm/_torch/pyexecutor/py_executor.py,
 *    NVIDIA/TensorRT-LLM 9521caf4; the ADP router's max_num_active_requests
 *    is "Maximum active requests per rank"). Held only with pipeline
 *    parallelism 1 (the number of sequences counts micro-batches there).
 * 1 with *per_rank, *ranks and the settings read; 0 when the engine is
 * another, the limit is not written (its default is resolved at run time
 * from the GPU's memory) or a value is not known. */
static int running_cap(const sl_service *s, long *per_rank, long *ranks, const sl_setting **lim,
		       const sl_setting **dp)
{
	int vllm = is_vllm(s), sglang = !strcmp(s->engine, "sglang") || !strcmp(s->engine, "dynamo-sglang");
	int trtllm = !strcmp(s->engine, "trtllm") || !strcmp(s->engine, "dynamo-trtllm");
	if (!vllm && !sglang && !trtllm)
		return 0;
	*lim = known(s, "limits.max_seqs");
	*dp = sl_service_get(s, "parallel.data");
	if (!*lim || !json_is_integer((*lim)->value) || json_integer_value((*lim)->value) < 1)
		return 0;
	if (trtllm) {
		/* attention DP: the tensor-parallel ranks are the DP ranks */
		const sl_setting *ad = sl_service_get(s, "parallel.attention_data");
		const sl_setting *tp = sl_service_get(s, "parallel.tensor");
		const sl_setting *pp = sl_service_get(s, "parallel.pipeline");
		if ((ad && (ad->flags & (SL_SET_SYMBOLIC | SL_SET_PLACEHOLDER))) ||
		    (pp && (!known(s, "parallel.pipeline") || !json_is_integer(pp->value) || json_integer_value(pp->value) != 1)))
			return 0;
		long n = 1;
		if (ad && json_is_true(ad->value)) {
			if (!tp || !known(s, "parallel.tensor") || !json_is_integer(tp->value) || json_integer_value(tp->value) < 1)
				return 0;
			n = (long)json_integer_value(tp->value);
			*dp = tp;
		} else {
			*dp = NULL;
		}
		*per_rank = (long)json_integer_value((*lim)->value);
		*ranks = n;
		return 1;
	}
	long d = 1;
	if (*dp) {
		if (((*dp)->flags & (SL_SET_SYMBOLIC | SL_SET_PLACEHOLDER)) || !json_is_integer((*dp)->value) ||
		    json_integer_value((*dp)->value) < 1)
			return 0;
		d = (long)json_integer_value((*dp)->value);
	}
	long l = (long)json_integer_value((*lim)->value);
	if (sglang) {
		const sl_setting *ad = sl_service_get(s, "parallel.attention_data");
		if (ad && (ad->flags & (SL_SET_SYMBOLIC | SL_SET_PLACEHOLDER)))
			return 0;
		if (ad && json_is_true(ad->value))
			l /= d;
	}
	*per_rank = l;
	*ranks = d;
	return 1;
}

/* The decode workers, or with none the aggregated ones: where a request
 * stays running until it ends (a prefill worker holds it for its prefill). */
static int holds_running(const sl_model *m, const sl_service *s)
{
	int decode = 0;
	for (size_t i = 0; i < m->nservices && !decode; i++)
		decode = !strcmp(m->services[i].role, "decode");
	return decode ? !strcmp(s->role, "decode") : sl_check_is_worker(s->role) && strcmp(s->role, "prefill");
}

/* The concurrency the text states (or the batch of one rank) against what
 * the workers can run at once: more requests than that wait in the queue,
 * so the entry is not measured at the load it states. Held only where
 * every worker that holds running requests has a known cap, and the text
 * states one load (two concurrencies are a sweep). */
static void running_below_claim(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	const sl_claim *conc = NULL, *batch = NULL;
	for (size_t c = 0; c < m->nclaims; c++) {
		const sl_claim *k = &m->claims[c];
		const sl_claim **slot = !strcmp(k->key, "load.concurrency")      ? &conc
				       : !strcmp(k->key, "load.batch_per_rank") ? &batch
										 : NULL;
		if (!slot || !json_is_integer(k->value))
			continue;
		if (*slot && !json_equal((*slot)->value, k->value))
			return;  /* a sweep of loads, or a comparison */
		if (!*slot)
			*slot = k;
	}
	if (!conc && !batch)
		return;
	long total = 0, workers = 0;
	const sl_service *low = NULL;
	long low_rank = 0, low_ranks = 0;
	const sl_setting *low_lim = NULL, *low_dp = NULL;
	for (size_t i = 0; i < m->nservices; i++) {
		const sl_service *s = &m->services[i];
		if (!holds_running(m, s))
			continue;
		long pr, nr;
		const sl_setting *lim, *dp;
		if (!running_cap(s, &pr, &nr, &lim, &dp) || sl_check_symbolic_argv(s))
			return;
		workers++;
		total += pr * nr * (long)(s->replicas ? s->replicas : 1);
		if (!low || pr < low_rank) {
			low = s;
			low_rank = pr;
			low_ranks = nr;
			low_lim = lim;
			low_dp = dp;
		}
	}
	if (!workers)
		return;
	const char *flag = is_vllm(low) ? "--max-num-seqs"
			   : !strcmp(low->engine, "trtllm") || !strcmp(low->engine, "dynamo-trtllm") ? "max_batch_size"
			   : "--max-running-requests";
	if (conc && json_integer_value(conc->value) > total) {
		sl_finding *f = sl_finding_add(out, r, &conc->origin,
					       "%s: the %s says \"%s\" (%lld), the workers run at most %ld at once (%s: %ld "
					       "DP rank%s x %ld%s%s%s)",
					       r->summary, conc->from, conc->text, (long long)json_integer_value(conc->value),
					       total, low->name, low_ranks, low_ranks == 1 ? "" : "s", low_rank,
					       low_rank == (long)json_integer_value(low_lim->value) ? " by " : " of ",
					       flag, workers > 1 || low->replicas > 1 ? "; the other workers and replicas added" : "");
		free(f->where.raw);
		f->where.raw = sl_strdup(conc->text);
		sl_finding_related(f, &low_lim->origin, flag);
		if (low_dp)
			sl_finding_related(f, &low_dp->origin,
					   strcmp(flag, "max_batch_size") ? "the data-parallel size"
									 : "the tensor-parallel size, the attention-DP ranks");
	}
	if (batch && json_integer_value(batch->value) > low_rank) {
		sl_finding *f = sl_finding_add(out, r, &batch->origin,
					       "%s: the %s says \"%s\" (%lld), a DP rank of %s runs at most %ld (%s %lld%s)",
					       r->summary, batch->from, batch->text, (long long)json_integer_value(batch->value),
					       low->name, low_rank, flag, (long long)json_integer_value(low_lim->value),
					       low_rank == (long)json_integer_value(low_lim->value) ? "" : " over its DP ranks");
		free(f->where.raw);
		f->where.raw = sl_strdup(batch->text);
		sl_finding_related(f, &low_lim->origin, flag);
	}
}

/* "eagle3", "EAGLE-3", "deepseek_mtp" -> "eagle3", "eagle3", "deepseekmtp" */
static void squeeze(const char *s, char *out, size_t n)
{
	size_t k = 0;
	for (; *s && k + 1 < n; s++)
		if (isalnum((unsigned char)*s))
			out[k++] = (char)tolower((unsigned char)*s);
	out[k] = '\0';
}

/* One method's name within the other's (`eagle` and `eagle3`, `mtp` and
 * `deepseek_mtp`): the same family of method, told apart by version or
 * model, which the text does not always say. */
static int same_method(const sl_service *s, const char *a, const char *b)
{
	char x[64], y[64];
	squeeze(a, x, sizeof x);
	squeeze(b, y, sizeof y);
	if (!*x || !*y)
		return 1;
	/* SGLang runs a model's MTP layers as EAGLE: NEXTN and EAGLE are one
	 * algorithm (python/sglang/srt/arg_groups/speculative_hook.py, BBuf/sglang
	 * 65d3b47, line 38), and MTP recipes write either */
	if (strstr(s->engine, "sglang") && (!strcmp(x, "mtp") || !strcmp(y, "mtp")) &&
	    (!strcmp(x, "eagle") || !strcmp(y, "eagle") || !strcmp(x, "nextn") || !strcmp(y, "nextn")))
		return 1;
	return strstr(x, y) || strstr(y, x);
}

/* Whether everything a worker runs with is read: no unknown engine, no
 * value left unknown, no file or argument it was given that was not read. */
static int fully_read(const sl_model *m)
{
	for (size_t i = 0; i < m->nnotes; i++) {
		const char *t = m->notes[i].msg;
		if (strstr(t, "not part of the entry") || strstr(t, "not analysed") || strstr(t, "not read") ||
		    strstr(t, "unknown"))
			return 0;
	}
	for (size_t i = 0; i < m->nservices; i++) {
		const sl_service *s = &m->services[i];
		if (!sl_check_is_worker(s->role))
			continue;
		if (!strcmp(s->engine, "unknown"))
			return 0;
		for (size_t k = 0; k < s->nsettings; k++)
			if (s->settings[k].flags & (SL_SET_SYMBOLIC | SL_SET_PLACEHOLDER))
				return 0;
	}
	return 1;
}

/* The text states a speculative method (or none); the workers it speaks
 * of configure another, or none (or one where it says none). */
static void claim_spec_method(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	int complete = -1;
	for (size_t c = 0; c < m->nclaims; c++) {
		const sl_claim *k = &m->claims[c];
		if (strcmp(k->key, "spec.method") || !json_is_string(k->value))
			continue;
		const char *said = json_string_value(k->value);
		int none = !strcmp(said, "none");
		const sl_service *w = NULL;
		const sl_setting *set = NULL;
		int agrees = 0, workers = 0;
		for (size_t i = 0; i < m->nservices && !agrees; i++) {
			const sl_service *s = &m->services[i];
			if (k->role ? strcmp(s->role, k->role) : !sl_check_is_worker(s->role))
				continue;
			workers++;
			const sl_setting *st = sl_service_get(s, "spec.method");
			if (st && (st->flags & SL_SET_SYMBOLIC))
				agrees = 1;  /* a method the script does not know is not held */
			else if (st && json_is_string(st->value))
				agrees = !none && same_method(s, said, json_string_value(st->value));
			else
				agrees = none;
			if (!agrees && !w) {
				w = s;
				set = st;
			}
		}
		if (!workers || agrees || !w)
			continue;
		sl_finding *f;
		if (set) {
			char *v = sl_finding_value_text(set->value);
			f = sl_finding_add(out, r, &k->origin, "%s: the %s says \"%s\", %s configures %s", r->summary,
					   k->from, k->text, w->name, v);
			sl_finding_related(f, &set->origin, "the method configured");
			free(v);
		} else {
			/* stated but not configured: only when every argument is read,
			 * since a config file not read may configure it */
			if (complete < 0)
				complete = fully_read(m);
			if (!complete)
				continue;
			f = sl_finding_add(out, r, &k->origin,
					   "%s: the %s says \"%s\", but %s configures no speculative decoding", r->summary,
					   k->from, k->text, w->name);
			sl_finding_related(f, &w->command_origin, "the service");
		}
		free(f->where.raw);
		f->where.raw = sl_strdup(k->text);
	}
}

/* A router's policy as the claims name routing: SGLang's and vLLM's
 * router policies (cache_aware, round_robin, random) in Dynamo's words
 * (kv, round-robin, random); others as written, '_' as '-'. */
static void route_name(const char *v, char *out, size_t n)
{
	size_t k = 0;
	for (; *v && k + 1 < n; v++)
		out[k++] = *v == '_' ? '-' : (char)tolower((unsigned char)*v);
	out[k] = '\0';
	if (!strcmp(out, "cache-aware"))
		snprintf(out, n, "kv");
}

/* How the routers of the entry route: 1 when one of them routes as the
 * claim says, or may (a value or an argument not known), 0 when none does;
 * *how and *set tell the first that does not (the setting, or NULL for the
 * default), -1 when the entry has no router. */
static int routes_as(const sl_model *m, const char *said, int complete, const sl_service **how,
		     const sl_setting **set, char *val, size_t vn)
{
	static const char *const keys[] = {"router.mode", "router.policy", "router.prefill_policy",
					   "router.decode_policy"};
	int routers = 0;
	*how = NULL;
	for (size_t i = 0; i < m->nservices; i++) {
		const sl_service *s = &m->services[i];
		if (strcmp(s->role, "frontend") && strcmp(s->role, "router"))
			continue;
		int dynamo = !strcmp(s->engine, "dynamo-frontend");
		if (!dynamo && strcmp(s->engine, "sglang-router") && strcmp(s->engine, "vllm-router"))
			continue;
		routers++;
		if (sl_check_symbolic_argv(s))
			return 1;
		const sl_setting *first = NULL;
		int any = 0;
		for (size_t k = dynamo ? 0 : 1; k < (dynamo ? 1 : sizeof keys / sizeof *keys); k++) {
			const sl_setting *st = sl_service_get(s, keys[k]);
			if (!st)
				continue;
			if ((st->flags & (SL_SET_SYMBOLIC | SL_SET_PLACEHOLDER)) || !json_is_string(st->value))
				return 1;
			char v[64];
			route_name(json_string_value(st->value), v, sizeof v);
			if (!strcmp(v, said))
				return 1;
			any = 1;
			if (!first) {
				first = st;
				snprintf(val, vn, "%s", v);
			}
		}
		if (!any) {
			/* the router's default: only when nothing not read may set it */
			json_t *d = s->defaults ? json_object_get(s->defaults, keys[dynamo ? 0 : 1]) : NULL;
			if (!complete || !json_is_string(d))
				return 1;
			char v[64];
			route_name(json_string_value(d), v, sizeof v);
			if (!strcmp(v, said))
				return 1;
			if (!*how)
				snprintf(val, vn, "%s", v);
		}
		if (!*how) {
			*how = s;
			*set = first;
		}
	}
	return routers ? 0 : -1;
}

/* The text states the routing ("KV-aware routing", "round-robin
 * routing"); the entry's frontend or router routes otherwise (Dynamo's
 * --router-mode, round-robin by default: components/src/dynamo/frontend,
 * router_args.py; SGLang's and vLLM's router --policy, cache_aware by
 * default). Text that names two kinds of routing is not held. */
static void claim_router_mode(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	const sl_claim *k = NULL;
	for (size_t c = 0; c < m->nclaims; c++) {
		const sl_claim *x = &m->claims[c];
		if (strcmp(x->key, "router.mode") || !json_is_string(x->value))
			continue;
		if (k && strcmp(json_string_value(k->value), json_string_value(x->value)))
			return;  /* alternatives, or a comparison */
		if (!k)
			k = x;
	}
	if (!k)
		return;
	const sl_service *how = NULL;
	const sl_setting *set = NULL;
	char val[64] = "";
	if (routes_as(m, json_string_value(k->value), fully_read(m), &how, &set, val, sizeof val) || !how)
		return;
	sl_finding *f = sl_finding_add(out, r, &k->origin, "%s: the %s says \"%s\", %s routes %s%s", r->summary, k->from,
				       k->text, how->name, val, set ? "" : " (its default)");
	sl_finding_related(f, set ? &set->origin : &how->command_origin, set ? "the routing set" : "the router");
	free(f->where.raw);
	f->where.raw = sl_strdup(k->text);
}

/* The precision a quantization method stores the weights in, for the
 * methods whose name says it: vLLM's QuantizationMethods
 * (vllm/model_executor/layers/quantization/__init__.py, 22quinn/vllm
 * e675dda: fp8, ptpc_fp8, fbgemm_fp8, modelopt_fp4, mxfp4, petit_nvfp4) and
 * SGLang's --quantization choices (python/sglang/srt/server_args.py,
 * BBuf/sglang 65d3b47: w8a8_fp8, modelopt_fp4, mxfp4); NULL for the others
 * (modelopt is FP8 or FP4 by its checkpoint, awq, gptq, compressed-tensors
 * say nothing here). */
static const char *precision_of(const char *method)
{
	static const char *const map[][2] = {
		{"fp8", "FP8"}, {"ptpc_fp8", "FP8"}, {"fbgemm_fp8", "FP8"}, {"w8a8_fp8", "FP8"},
		{"modelopt_fp4", "FP4"}, {"petit_nvfp4", "FP4"}, {"mxfp4", "FP4"},
	};
	for (size_t i = 0; i < sizeof map / sizeof *map; i++)
		if (!strcasecmp(method, map[i][0]))
			return map[i][1];
	return NULL;
}

/* The claim's family: "NVFP4", "MXFP4", "FP4" -> FP4; "FP8" -> FP8; "BF16",
 * "FP16" -> 16; anything else (INT4, W4A16, mixed) NULL. */
static const char *family_of(const char *claim)
{
	char x[32];
	squeeze(claim, x, sizeof x);
	if (!strcmp(x, "nvfp4") || !strcmp(x, "mxfp4") || !strcmp(x, "fp4"))
		return "FP4";
	if (!strcmp(x, "fp8"))
		return "FP8";
	if (!strcmp(x, "bf16") || !strcmp(x, "fp16") || !strcmp(x, "bfloat16") || !strcmp(x, "float16"))
		return "16";
	return NULL;
}

/* The stated precision against the quantization the command asks for:
 * only a method that names a precision is held (`--quantization fp8`
 * with "Precision BF16" or "NVFP4"); the KV cache's data type is not the
 * weights' precision, and a checkpoint's own quantization is not read. */
static void claim_precision(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	for (size_t c = 0; c < m->nclaims; c++) {
		const sl_claim *k = &m->claims[c];
		if (strcmp(k->key, "precision") || !json_is_string(k->value))
			continue;
		const char *fam = family_of(json_string_value(k->value));
		if (!fam)
			continue;
		for (size_t i = 0; i < m->nservices; i++) {
			const sl_service *s = &m->services[i];
			if (!sl_check_is_worker(s->role))
				continue;
			const sl_setting *q = known(s, "model.quantization");
			const char *p = q && json_is_string(q->value) ? precision_of(json_string_value(q->value)) : NULL;
			if (!p || !strcmp(p, fam))
				continue;
			sl_finding *f = sl_finding_add(out, r, &k->origin,
						       "%s: the %s says \"%s\", %s quantizes the weights to %s (%s)", r->summary,
						       k->from, k->text, s->name, p, json_string_value(q->value));
			free(f->where.raw);
			f->where.raw = sl_strdup(k->text);
			sl_finding_related(f, &q->origin, "the quantization");
			break;
		}
	}
}

int sl_derived_check_known(const char *name)
{
	return !strcmp(name, "batched_tokens_model_len") || !strcmp(name, "capture_beyond_tokens") ||
	       !strcmp(name, "tokens_draft_batch") || !strcmp(name, "claim_router_mode") ||
	       !strcmp(name, "eagle_draft_tree") ||
	       !strcmp(name, "claim_spec_method") ||
	       !strcmp(name, "claim_precision") || !strcmp(name, "running_below_claim");
}

void sl_derived_check(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	if (!strcmp(r->cname, "batched_tokens_model_len"))
		batched_tokens_model_len(r, m, out);
	else if (!strcmp(r->cname, "capture_beyond_tokens"))
		capture_beyond_tokens(r, m, out);
	else if (!strcmp(r->cname, "tokens_draft_batch"))
		tokens_draft_batch(r, m, out);
	else if (!strcmp(r->cname, "claim_router_mode"))
		claim_router_mode(r, m, out);
	else if (!strcmp(r->cname, "eagle_draft_tree"))
		eagle_draft_tree(r, m, out);
	else if (!strcmp(r->cname, "claim_spec_method"))
		claim_spec_method(r, m, out);
	else if (!strcmp(r->cname, "claim_precision"))
		claim_precision(r, m, out);
	else if (!strcmp(r->cname, "running_below_claim"))
		running_below_claim(r, m, out);
}
