/*
 * c_checks.c: the checks of one model that the vocabulary cannot say, written
 * in C and named by their rule files (`c: NAME`): unknown flags, flags and
 * variables given twice, GPUs needed against GPUs given, KV transfer roles,
 * engine-specific limits, claims of topology and flags, flag versions, and
 * (sl_check_input_error) the invalid JSON that stops an entry's reading.
 * Each is a fact of an engine's own source, named where it is written.
 * Uses vocabulary.c (its notions of workers, equal values and claims held
 * to settings), fact_checks.c (the checks by the engines' generated facts,
 * which unknown_flag and the value checks call) and findings.c; the checks
 * on the memory plan are plan_rules.c's, those of services against each
 * other (ports, GPUs, the router's KV events) deploy_checks.c's, those of
 * derived limits and of the claims of speculative decoding and precision
 * derived_checks.c's.
 */
#include "c_checks.h"

#include <stdlib.h>
#include <string.h>

#include "coverage_checks.h"
#include "deploy_checks.h"
#include "derived_checks.h"
#include "fact_checks.h"
#include "findings.h"
#include "plan_rules.h"
#include "vocabulary.h"

/* Whether a structure note is at o: the rule of that structure says why
 * the word is not a flag of the engine (a quote swallowed it, it is
 * mpirun's), so the unknown flag is not said again. */
static int structure_at(const sl_model *m, const sl_origin *o)
{
	for (size_t i = 0; i < m->nnotes; i++)
		if (m->notes[i].kind && m->notes[i].origin.src == o->src && m->notes[i].origin.off == o->off)
			return 1;
	return 0;
}

static void c_unknown_flag(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	for (size_t i = 0; i < m->nservices; i++) {
		const sl_service *s = &m->services[i];
		if (!strcmp(s->engine, "unknown"))
			continue;  /* an engine servelint does not know: no flag is a typo of it */
		for (size_t k = 0; k < s->nsettings; k++) {
			const sl_setting *st = &s->settings[k];
			if (!(st->flags & SL_SET_UNKNOWN) ||
			    (strcmp(st->via, "flag") && strcmp(st->via, "file") && strcmp(st->via, "json")) ||
			    structure_at(m, &st->origin))
				continue;
			/* a file's key is reported once, not once per service reading it */
			int again = 0;
			for (size_t j = 0; j < out->n && !again; j++)
				again = out->v[j].rule == r && out->v[j].where.src == st->origin.src &&
					out->v[j].where.off == st->origin.off;
			if (again)
				continue;
			sl_finding *f = !strcmp(st->via, "file")
					? sl_finding_add(out, r, &st->origin, "%s: `%s` is not a key %s reads", r->summary,
							 st->flag, s->engine)
				: !strcmp(st->via, "json")
					? sl_finding_add(out, r, &st->origin, "%s: `%s` is not a member of %.*s for %s",
							 r->summary, strchr(st->flag, ' ') ? strchr(st->flag, ' ') + 1 : st->flag,
							 (int)(strchr(st->flag, ' ') ? (size_t)(strchr(st->flag, ' ') - st->flag)
										    : strlen(st->flag)),
							 st->flag, s->engine)
					: sl_finding_add(out, r, &st->origin, "%s: `%s` is not a flag of %s", r->summary,
							 st->flag, s->engine);
			if (st->hint) {
				f->hint = sl_strdup(st->hint);
				/* the fix is certain only for the name itself (a flag
				 * at its place, a member inside its quotes), and only
				 * when no other known name is as close */
				char what[256];
				/* the flag it would become is given already: the
				 * typo may be of something else */
				int given = 0;
				for (size_t j = 0; j < s->nsettings && !given; j++)
					given = !(s->settings[j].flags & SL_SET_UNKNOWN) && !strcmp(s->settings[j].flag, st->hint);
				if (!strcmp(st->via, "flag") && !(st->flags & SL_SET_HINT_TIED) && !given &&
				    sl_finding_typo_close(st->flag, st->hint)) {
					snprintf(what, sizeof what, "replace `%s` with `%s`", st->flag, st->hint);
					sl_finding_fix(f, FIX_SPELLING, st->origin.src, st->origin.off, st->flag,
						       strlen(st->flag), st->hint, what);
				} else if (!strcmp(st->via, "file") && !(st->flags & SL_SET_HINT_TIED) && !given) {
					/* a key of an engine file: its own name, when the
					 * nearest key has the same parent */
					const char *k1 = strrchr(st->flag, '.'), *k2 = strrchr(st->hint, '.');
					size_t p1 = k1 ? (size_t)(k1 - st->flag) : 0, p2 = k2 ? (size_t)(k2 - st->hint) : 0;
					const char *name = k1 ? k1 + 1 : st->flag, *to = k2 ? k2 + 1 : st->hint;
					if (p1 == p2 && !strncmp(st->flag, st->hint, p1) && sl_finding_typo_close(name, to)) {
						snprintf(what, sizeof what, "replace `%s` with `%s`", name, to);
						sl_finding_fix(f, FIX_SPELLING, st->origin.src, st->origin.off, name,
							       strlen(name), to, what);
					}
				} else if (!strcmp(st->via, "json") && !(st->flags & SL_SET_HINT_TIED)) {
					const char *mem = strrchr(st->flag, ' ');
					mem = mem ? mem + 1 : st->flag;
					snprintf(what, sizeof what, "replace `%s` with `%s`", mem, st->hint);
					if (sl_finding_typo_close(mem, st->hint))
						sl_finding_fix(f, FIX_SPELLING, st->origin.src, (size_t)st->origin.off + 1,
							       mem, strlen(mem), st->hint, what);
				}
			}
		}
	}
}

/* the same flag twice on one command line: different values or the same */
/* Whether the export e of service s is in effect for some other service. */
static int export_used(const sl_model *m, const sl_service *s, const sl_env *e)
{
	for (size_t i = 0; i < m->nservices; i++) {
		const sl_service *o = &m->services[i];
		for (size_t k = 0; o != s && k < o->nenv; k++)
			if (!strcmp(o->env[k].name, e->name) && !strcmp(o->env[k].via, "export") &&
			    !(o->env[k].flags & SL_SET_OVERRIDDEN))
				return 1;
	}
	return 0;
}

static void c_duplicate(const sl_rule *r, const sl_model *m, sl_findings *out, int want_conflict)
{
	for (size_t i = 0; i < m->nservices; i++) {
		const sl_service *s = &m->services[i];
		for (size_t k = 0; k < s->nsettings; k++) {
			const sl_setting *a = &s->settings[k];
			if (!(a->flags & SL_SET_OVERRIDDEN) || strcmp(a->via, "flag"))
				continue;
			for (size_t j = k + 1; j < s->nsettings; j++) {
				const sl_setting *b = &s->settings[j];
				if (strcmp(b->key, a->key) || strcmp(b->via, "flag"))
					continue;
				int conflict = !sl_check_same_value(a->value, b->value);
				if (conflict != want_conflict)
					break;
				char *va = sl_finding_value_text(a->value), *vb = sl_finding_value_text(b->value);
				sl_finding *f = sl_finding_add(out, r, &b->origin,
							       conflict ? "%s: %s is given as %s and again as %s (the last wins)"
									: "%s: %s is given twice, both %s%.0s",
							       r->summary, b->flag, va, vb);
				sl_finding_related(f, &a->origin, "first given here");
				if (!conflict)
					sl_check_delete_setting(f, b, FIX_DELETE_REPEAT, "delete the repeated `%s`");
				free(va);
				free(vb);
				break;
			}
		}
		/* an environment variable set twice for one command (comments apart) */
		for (size_t k = 0; k < s->nenv; k++) {
			const sl_env *a = &s->env[k];
			if (!(a->flags & SL_SET_OVERRIDDEN) || !strcmp(a->via, "comment"))
				continue;
			for (size_t j = k + 1; j < s->nenv; j++) {
				const sl_env *b = &s->env[j];
				if (strcmp(a->name, b->name) || !strcmp(b->via, "comment"))
					continue;
				/* `export X=a` for the script, `X=b cmd` for one command:
				 * the usual way to give one command its own value, when
				 * the export holds for another command */
				if (!strcmp(a->via, "export") && !strcmp(b->via, "inline") && export_used(m, s, a))
					break;
				int conflict = strcmp(a->value, b->value) != 0;
				if (conflict != want_conflict)
					break;
				sl_finding *f = sl_finding_add(out, r, &b->origin,
							       conflict ? "%s: %s is set to %s and again to %s (the last wins)"
									: "%s: %s is set twice, both %s%.0s",
							       r->summary, b->name, a->value, b->value);
				sl_finding_related(f, &a->origin, "first set here");
				break;
			}
		}
	}
}

/* ranks the parallelism needs against GPUs the service is given */
static void c_gpus(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	for (size_t i = 0; i < m->nservices; i++) {
		const sl_service *s = &m->services[i];
		if (!sl_check_is_worker(s->role) || s->gpus < 1)
			continue;
		const sl_setting *tp = sl_service_get(s, "parallel.tensor");
		const sl_setting *pp = sl_service_get(s, "parallel.pipeline");
		const sl_setting *dp = sl_service_get(s, "parallel.data");
		const sl_setting *nn = sl_service_get(s, "parallel.nnodes");
		const sl_setting *adp = sl_service_get(s, "parallel.attention_data");
		if (!tp || !json_is_integer(tp->value) || (nn && json_integer_value(nn->value) > 1))
			continue;
		/* a pipeline or data-parallel size (or DP attention) the script
		 * does not know ("$DP") leaves the ranks unknown, not 1 x tensor */
		if ((pp && !json_is_integer(pp->value)) || (dp && !json_is_integer(dp->value)) ||
		    (adp && (adp->flags & (SL_SET_SYMBOLIC | SL_SET_PLACEHOLDER))))
			continue;
		long need = (long)json_integer_value(tp->value);
		if (pp && json_is_integer(pp->value))
			need *= (long)json_integer_value(pp->value);
		/* vLLM/SGLang data parallel multiplies the ranks; TensorRT-LLM's
		 * attention DP runs within the tensor-parallel ranks */
		if (dp && json_is_integer(dp->value) && !(adp && json_is_true(adp->value)))
			need *= (long)json_integer_value(dp->value);
		if (need == s->gpus)
			continue;
		sl_finding *f = sl_finding_add(out, r, &s->gpus_origin,
					       "%s: %s needs %ld GPUs (tensor x pipeline x data parallel) but is given %ld (%s)",
					       r->summary, s->name, need, s->gpus, s->gpus_from);
		sl_finding_related(f, &tp->origin, "tensor parallel size");
	}
}

static long ival(const sl_service *s, const char *key, long dflt)
{
	const sl_setting *st = sl_service_get(s, key);
	return st && json_is_integer(st->value) ? (long)json_integer_value(st->value) : dflt;
}

/* vLLM KV transfer roles: a prefill worker produces (or both), a decode
 * worker consumes (or both); a connector needs a role (kv_transfer.py) */
static void c_kv_roles(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	for (size_t i = 0; i < m->nservices; i++) {
		const sl_service *s = &m->services[i];
		const sl_setting *role = sl_service_get(s, "kv.transfer.role");
		const sl_setting *conn = sl_service_get(s, "kv.transfer.connector");
		if (conn && !role) {
			sl_finding_add(out, r, &conn->origin, "%s: %s has a KV connector but no kv_role", r->summary, s->name);
			continue;
		}
		if (!role || !json_is_string(role->value))
			continue;
		const char *v = json_string_value(role->value);
		if ((!strcmp(s->role, "prefill") && !strcmp(v, "kv_consumer")) ||
		    (!strcmp(s->role, "decode") && !strcmp(v, "kv_producer")))
			sl_finding_add(out, r, &role->origin, "%s: the %s worker has kv_role %s", r->summary, s->role, v);
	}
}

static int sval_is(const sl_service *s, const char *key, const char *v)
{
	const sl_setting *st = sl_service_get(s, key);
	return st && json_is_string(st->value) && !strcmp(json_string_value(st->value), v);
}

/*
 * --numa-bind-nodes: vLLM looks each GPU rank of one node up at index
 * local_rank + dp_local_rank * tp * pp (vllm/utils/numa_utils.py,
 * _get_gpu_index, vllm-project/vllm as mirrored at 5ac2684), so the list
 * needs one entry per rank on a node: tensor x pipeline x the data-parallel
 * ranks of that node. Those are known when --data-parallel-size-local is
 * given, data parallelism is 1, or `vllm serve` has no flag of a deployment
 * across nodes (--data-parallel-address, --headless, ...: it then runs every
 * rank itself); any other data-parallel deployment may span nodes (a
 * recipe's or launcher's nodes run data-parallel-size-local ranks each), so
 * there only a list shorter than one rank's tensor x pipeline is sure to
 * fail. With Ray or TP/PP across nodes (--nnodes) the
 * index is the local rank alone: not held to a count.
 */
static void c_numa_nodes(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	for (size_t i = 0; i < m->nservices; i++) {
		const sl_service *s = &m->services[i];
		const sl_setting *nb = sl_service_get(s, "vllm.numa_bind_nodes");
		if (!nb || !json_is_array(nb->value))
			continue;
		if (sval_is(s, "vllm.data_parallel_backend", "ray") ||
		    sval_is(s, "vllm.distributed_executor_backend", "ray") ||
		    sval_is(s, "vllm.distributed_executor_backend", "external_launcher") ||
		    ival(s, "parallel.nnodes", 1) > 1)
			continue;
		long tp_pp = ival(s, "parallel.tensor", 1) * ival(s, "parallel.pipeline", 1);
		long dp = ival(s, "parallel.data", 1), local = ival(s, "vllm.data_parallel_size_local", -1);
		long n = (long)json_array_size(nb->value);
		/* `vllm serve` itself with no flag of a deployment across nodes
		 * runs every data-parallel rank on its node */
		static const char *const across[] = {
			"vllm.data_parallel_address", "vllm.data_parallel_start_rank", "vllm.data_parallel_rank",
			"vllm.headless", "vllm.data_parallel_rpc_port", "vllm.data_parallel_hybrid_lb",
			"vllm.data_parallel_external_lb",
		};
		int one_node = s->engine && !strcmp(s->engine, "vllm");
		for (size_t k = 0; k < sizeof across / sizeof *across && one_node; k++)
			one_node = !sl_service_get(s, across[k]);
		if (local < 1 && one_node)
			local = dp;
		if (local >= 1 || dp == 1) {
			long ranks = tp_pp * (local >= 1 ? local : 1);
			if (n != ranks)
				sl_finding_add(out, r, &nb->origin,
					       "%s: %ld NUMA nodes for %ld GPU ranks on a node (tensor x pipeline%s)",
					       r->summary, n, ranks,
					       local < 1 || dp == 1 ? "" : local == dp && one_node ? " x data, all on one node"
					       : " x data-parallel-size-local");
		} else if (n < tp_pp) {
			sl_finding_add(out, r, &nb->origin,
				       "%s: %ld NUMA nodes for the %ld GPU ranks of one data-parallel rank (tensor x pipeline)",
				       r->summary, n, tp_pp);
		}
	}
}

/* "Accelerators used N of M" against the GPUs the services add up to */
static void c_gpus_total(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	const sl_claim *k = NULL;
	for (size_t c = 0; c < m->nclaims && !k; c++)
		if (!strcmp(m->claims[c].key, "gpus.total") && !strcmp(m->claims[c].from, "metadata"))
			k = &m->claims[c];
	if (!k || !json_is_integer(k->value))
		return;
	long sum = 0;
	for (size_t i = 0; i < m->nservices; i++) {
		const sl_service *s = &m->services[i];
		/* a multimodal encode worker's GPUs are used too */
		if (!sl_check_is_worker(s->role) && strcmp(s->role, "encode"))
			continue;
		long g = s->gpus;
		if (g < 0 || (s->gpus_from && strstr(s->gpus_from, "comment")))
			return;  /* not known for every worker: nothing to hold the claim to */
		if (s->gpus == 0)
			return;
		sum += g * (long)s->replicas;
	}
	if (sum && sum != (long)json_integer_value(k->value))
		sl_finding_add(out, r, &k->origin, "%s: the metadata says %lld GPUs, the services use %ld", r->summary,
			       (long long)json_integer_value(k->value), sum);
}

static long max_of(json_t *a)
{
	long mx = -1;
	size_t i;
	json_t *v;
	json_array_foreach(a, i, v)
		if (json_is_integer(v) && json_integer_value(v) > mx)
			mx = (long)json_integer_value(v);
	return mx;
}

/* vLLM: --max-cudagraph-capture-size below the largest listed capture size */
static void c_capture_sizes(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	for (size_t i = 0; i < m->nservices; i++) {
		const sl_service *s = &m->services[i];
		const sl_setting *mx = sl_service_get(s, "cudagraph.max_capture_size");
		const sl_setting *ls = sl_service_get(s, "cudagraph.capture_sizes");
		if (!mx || !ls || !json_is_integer(mx->value) || !json_is_array(ls->value) ||
		    strncmp(s->engine, "vllm", 4) != 0)
			continue;
		long big = max_of(ls->value);
		if (json_integer_value(mx->value) < big) {
			sl_finding *f = sl_finding_add(out, r, &mx->origin,
						       "%s: the largest capture size is %lld, the list goes to %ld", r->summary,
						       (long long)json_integer_value(mx->value), big);
			sl_finding_related(f, &ls->origin, "the capture sizes");
		}
	}
}

/* TensorRT-LLM: cuda_graph_config.batch_sizes beyond max_batch_size, and
 * cuda_graph_config.max_batch_size not the largest of them (llm_args.py) */
static void c_graph_batch_sizes(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	for (size_t i = 0; i < m->nservices; i++) {
		const sl_service *s = &m->services[i];
		if (!strstr(s->engine, "trtllm"))
			continue;
		const sl_setting *bs = sl_service_get(s, "cudagraph.capture_sizes");
		if (!bs || !json_is_array(bs->value))
			continue;
		long big = max_of(bs->value);
		const sl_setting *mb = sl_service_get(s, "limits.max_seqs");
		const sl_setting *gm = sl_service_get(s, "cudagraph.max_bs");
		if (mb && json_is_integer(mb->value) && big > json_integer_value(mb->value)) {
			sl_finding *f = sl_finding_add(out, r, &bs->origin, "%s: CUDA graphs up to batch %ld, max_batch_size %lld",
						       r->summary, big, (long long)json_integer_value(mb->value));
			sl_finding_related(f, &mb->origin, "max_batch_size");
		}
		if (gm && json_is_integer(gm->value) && json_integer_value(gm->value) != big) {
			sl_finding *f = sl_finding_add(out, r, &gm->origin,
						       "%s: cuda_graph_config.max_batch_size %lld is not the largest batch size %ld",
						       r->summary, (long long)json_integer_value(gm->value), big);
			sl_finding_related(f, &bs->origin, "the batch sizes");
		}
	}
}

/* vLLM: max_num_batched_tokens must hold at least max_num_seqs (SchedulerConfig) */
static void c_batched_tokens(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	for (size_t i = 0; i < m->nservices; i++) {
		const sl_service *s = &m->services[i];
		if (strncmp(s->engine, "vllm", 4) && strcmp(s->engine, "dynamo-vllm"))
			continue;
		const sl_setting *bt = sl_service_get(s, "limits.max_batched_tokens");
		const sl_setting *ms = sl_service_get(s, "limits.max_seqs");
		if (bt && ms && json_is_integer(bt->value) && json_is_integer(ms->value) &&
		    json_integer_value(bt->value) < json_integer_value(ms->value)) {
			sl_finding *f = sl_finding_add(out, r, &bt->origin, "%s: %lld batched tokens for %lld sequences",
						       r->summary, (long long)json_integer_value(bt->value),
						       (long long)json_integer_value(ms->value));
			sl_finding_related(f, &ms->origin, "max_num_seqs");
		}
	}
}

/* SGLang EAGLE with top-k 1: draft tokens are steps + 1 (server_args.py
 * _handle_speculative_decoding overrides anything else, with a warning) */
static void c_eagle_draft(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	for (size_t i = 0; i < m->nservices; i++) {
		const sl_service *s = &m->services[i];
		if (strcmp(s->engine, "sglang") && strcmp(s->engine, "dynamo-sglang"))
			continue;
		const sl_setting *topk = sl_service_get(s, "spec.eagle_topk");
		const sl_setting *steps = sl_service_get(s, "spec.num_steps");
		const sl_setting *draft = sl_service_get(s, "spec.num_draft_tokens");
		if (!topk || !steps || !draft || ival(s, "spec.eagle_topk", 0) != 1)
			continue;
		long st = ival(s, "spec.num_steps", -1), dr = ival(s, "spec.num_draft_tokens", -1);
		if (st >= 0 && dr >= 0 && dr != st + 1) {
			sl_finding *f = sl_finding_add(out, r, &draft->origin,
						       "%s: %ld draft tokens with %ld steps and top-k 1; SGLang uses %ld",
						       r->summary, dr, st, st + 1);
			sl_finding_related(f, &steps->origin, "the steps");
		}
	}
}

/* A flag a comment quotes with its value ("--max-num-seqs 64", or without
 * the dashes): the command must set it so. The claim kinds of their own
 * (parallelism, speculative decoding, GPUs, versions) have their own rules. */
static int claim_kind_of_its_own(const char *key)
{
	static const char *const pre[] = {"parallel.", "spec.", "gpus", "replicas", "precision", "engine",
					  "dynamo", "system", "serving", "submitter", "kv.block_size", "router.mode",
					  /* the load stated: SL4012 holds it to the running requests */
					  "load.",
					  /* a revision is a hash, its prefix enough: SL7004 holds it */
					  "model.revision"};
	for (size_t i = 0; i < sizeof pre / sizeof *pre; i++)
		if (sl_starts_with(key, pre[i]))
			return 1;
	return 0;
}

static void c_claims_flags(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	for (size_t c = 0; c < m->nclaims; c++)
		if (!strcmp(m->claims[c].from, "comment") && !claim_kind_of_its_own(m->claims[c].key))
			sl_check_hold_claim(r, m, &m->claims[c], out);
}

/* claims of replicas, GPUs per replica and engine version, held to the services */
static void c_claims_topology(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	for (size_t c = 0; c < m->nclaims; c++) {
		const sl_claim *k = &m->claims[c];
		int rep = !strcmp(k->key, "replicas"), gpu = !strcmp(k->key, "gpus");
		int ver = !strcmp(k->key, "engine.version");
		if (!(rep || gpu || ver))
			continue;
		const sl_service *seen = NULL;
		int agrees = 0;
		for (size_t i = 0; i < m->nservices && !agrees; i++) {
			const sl_service *s = &m->services[i];
			if (k->role ? strcmp(s->role, k->role) : !sl_check_is_worker(s->role))
				continue;
			if (rep) {
				seen = s;
				agrees = json_is_integer(k->value) && (long)json_integer_value(k->value) == (long)s->replicas;
			} else if (gpu && s->gpus > 0 && !(s->gpus_from && strstr(s->gpus_from, "comment"))) {
				seen = s;
				agrees = json_is_integer(k->value) && json_integer_value(k->value) == s->gpus;
			} else if (ver && s->version) {
				seen = s;
				/* "0.31.0" claimed, "0.31.0" or "0.31.0rc1..." known */
				size_t l = strlen(json_string_value(k->value));
				agrees = !strncmp(s->version, json_string_value(k->value), l) ||
					 !strncmp(json_string_value(k->value), s->version, strlen(s->version));
			}
		}
		if (!seen || agrees)
			continue;
		char *cv = sl_finding_value_text(k->value);
		sl_finding *f;
		if (rep)
			f = sl_finding_add(out, r, &k->origin, "%s: the %s says \"%s\" (%s replicas), %s has %u", r->summary,
					   k->from, k->text, cv, seen->name, seen->replicas);
		else if (gpu)
			f = sl_finding_add(out, r, &k->origin, "%s: the %s says \"%s\" (%s GPUs), %s has %ld", r->summary,
					   k->from, k->text, cv, seen->name, seen->gpus);
		else
			f = sl_finding_add(out, r, &k->origin, "%s: the %s says \"%s\", %s runs %s", r->summary, k->from,
					   k->text, seen->name, seen->version);
		free(f->where.raw);
		f->where.raw = sl_strdup(k->text);
		sl_finding_related(f, rep ? &seen->replicas_origin : gpu ? &seen->gpus_origin : &seen->version_origin,
			"the service");
		free(cv);
	}
}

/* Compares dotted versions numerically ("0.8.3" < "0.11.1"); -2 when a
 * version says nothing (a dev build without a tag, "0.1.devN" or "0.0.0") */
static int vcmp(const char *a, const char *b)
{
	if (!strncmp(a, "0.1.dev", 7) || !strncmp(a, "0.0.0", 5))
		return -2;
	return sl_version_cmp(a, b);
}

/* a flag the engine's version does not have yet, or no longer has */
static void c_flag_version(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	for (size_t i = 0; i < m->nservices; i++) {
		const sl_service *s = &m->services[i];
		if (!s->version)
			continue;
		for (size_t k = 0; k < s->nsettings; k++) {
			const sl_setting *st = &s->settings[k];
			/* a flag's JSON members share its facts: report the flag once */
			if (k && s->settings[k - 1].origin.src == st->origin.src && !strcmp(st->via, "json") &&
			    !strcmp(s->settings[k - 1].via, "json") && !strcmp(s->settings[k - 1].flag, st->flag))
				continue;
			int before = st->since && vcmp(s->version, st->since) == -1;
			int after = st->until && vcmp(s->version, st->until) >= 0 && vcmp(s->version, st->until) != -2;
			if (before)
				sl_finding_add(out, r, &st->origin, "%s: `%s` is in %s from %s on; this entry runs %s", r->summary,
					       st->flag, s->engine, st->since, s->version);
			else if (after)
				sl_finding_add(out, r, &st->origin, "%s: `%s` is gone from %s since %s; this entry runs %s",
					       r->summary, st->flag, s->engine, st->until, s->version);
		}
	}
}

/* A flag's invalid JSON, noted where it goes wrong while the rest of the
 * entry is read (sl_entry_models_lenient): one finding, the others stand. */
static void c_invalid_json(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	for (size_t i = 0; i < m->nnotes; i++)
		if (sl_starts_with(m->notes[i].msg, "invalid JSON") && m->notes[i].origin.src)
			sl_finding_add(out, r, &m->notes[i].origin, "%s: %s", r->summary, m->notes[i].msg);
}

void sl_check_c_done(void)
{
	sl_plan_check_forget();
	sl_fact_forget();
}

static void c_unknown_flag_and_version(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	c_unknown_flag(r, m, out);
	sl_fact_version(r, m, out);
}

/* a value outside its flag's choices, or a JSON member's outside its own */
static void c_value_choice(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	sl_fact_choices(r, m, out);
	sl_fact_member_choices(r, m, out);
}

static void c_duplicate_conflict(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	c_duplicate(r, m, out, 1);
}

static void c_duplicate_same(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	c_duplicate(r, m, out, 0);
}

typedef void (*c_check_fn)(const sl_rule *r, const sl_model *m, sl_findings *out);

static const struct {
	const char *cname;
	c_check_fn fn;
} c_checks[] = {
	{"invalid_json", c_invalid_json},
	{"unknown_flag", c_unknown_flag_and_version},
	{"value_choice", c_value_choice},
	{"value_type", sl_fact_types},
	{"stray_value", sl_fact_stray},
	{"deprecated_flag", sl_fact_deprecated},
	{"duplicate_conflict", c_duplicate_conflict},
	{"duplicate_same", c_duplicate_same},
	{"gpus_visible", c_gpus},
	{"kv_roles", c_kv_roles},
	{"numa_nodes", c_numa_nodes},
	{"gpus_total", c_gpus_total},
	{"capture_sizes", c_capture_sizes},
	{"graph_batch_sizes", c_graph_batch_sizes},
	{"batched_tokens", c_batched_tokens},
	{"eagle_draft_tokens", c_eagle_draft},
	{"claims_topology", c_claims_topology},
	{"flag_version", c_flag_version},
	{"claims_flags", c_claims_flags},
};

#define N_C_CHECKS (sizeof c_checks / sizeof *c_checks)

/* The check a rule's cname names: one of c_checks, or the plan's, the
 * deployment's, the derived values' or the coverage's (N_C_CHECKS + 0..3),
 * or none (N_C_CHECKS + 4). */
static size_t c_check_of(const char *cname)
{
	for (size_t i = 0; i < N_C_CHECKS; i++)
		if (!strcmp(cname, c_checks[i].cname))
			return i;
	if (sl_plan_check_known(cname))
		return N_C_CHECKS;
	if (sl_deploy_check_known(cname))
		return N_C_CHECKS + 1;
	if (sl_derived_check_known(cname))
		return N_C_CHECKS + 2;
	if (sl_coverage_check_known(cname))
		return N_C_CHECKS + 3;
	return N_C_CHECKS + 4;
}

void sl_check_c(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	/* each rule's check found once per thread, not by a string compare
	 * against every name for every model (265,300 strcmp over 350 entries):
	 * the rules live as long as the process, so their addresses are keys */
	static _Thread_local struct {
		const sl_rule *r;
		size_t k;
	} memo[64];
	size_t slot = ((uintptr_t)r / sizeof *r) % (sizeof memo / sizeof *memo);
	size_t k = memo[slot].k;
	/* an address is checked against the name it was found for (rules read
	 * from files again could reuse one): a compare, not twenty */
	if (memo[slot].r != r || (k < N_C_CHECKS ? strcmp(c_checks[k].cname, r->cname) != 0
				 : k == N_C_CHECKS ? !sl_plan_check_known(r->cname)
				 : k == N_C_CHECKS + 1 ? !sl_deploy_check_known(r->cname)
				 : k == N_C_CHECKS + 2 ? !sl_derived_check_known(r->cname)
				 : k == N_C_CHECKS + 3 ? !sl_coverage_check_known(r->cname) : 1)) {
		k = c_check_of(r->cname);
		memo[slot].r = r;
		memo[slot].k = k;
	}
	if (k < N_C_CHECKS)
		c_checks[k].fn(r, m, out);
	else if (k == N_C_CHECKS)
		sl_plan_check(r, m, out);
	else if (k == N_C_CHECKS + 1)
		sl_deploy_check(r, m, out);
	else if (k == N_C_CHECKS + 2)
		sl_derived_check(r, m, out);
	else if (k == N_C_CHECKS + 3)
		sl_coverage_check(r, m, out);
}

static const sl_rule *rule_c(const sl_rules *rs, const char *cname)
{
	for (size_t i = 0; i < rs->n; i++)
		if (rs->v[i].kind == K_C && !strcmp(rs->v[i].cname, cname))
			return &rs->v[i];
	return NULL;
}

/* The source of e that err's file names, or NULL. */
static const sl_source *source_named(const sl_entry *e, const char *file)
{
	if (!e || !file)
		return NULL;
	if (e->script && !strcmp(e->script->path, file))
		return e->script;
	for (size_t i = 0; i < e->nfiles; i++)
		if (!strcmp(e->files[i]->path, file))
			return e->files[i];
	if (e->metadata && !strcmp(e->metadata->path, file))
		return e->metadata;
	return NULL;
}

int sl_check_input_error(const sl_rules *rs, const sl_entry *e, const sl_error *err, sl_findings *out)
{
	int json = err->msg && sl_starts_with(err->msg, "invalid JSON");
	const sl_rule *r = rule_c(rs, json ? "invalid_json" : "unreadable");
	if (!r)
		return 0;
	const sl_source *src = source_named(e, err->file);
	if (src && err->line > src->line_base && err->line <= src->line_base + src->nlines) {
		sl_origin o;
		sl_origin_set(&o, src, (uint32_t)sl_source_offset(src, err->line - src->line_base, err->col ? err->col : 1),
			      NULL);
		sl_finding_add(out, r, &o, "%s: %s", r->summary, err->msg ? err->msg : "unknown error");
		sl_origin_clear(&o);
	} else {
		sl_origin none = {0};
		sl_finding *f = sl_finding_add(out, r, &none, "%s: %s", r->summary, err->msg ? err->msg : "unknown error");
		f->file = sl_strdup(err->file ? err->file : e ? e->path : "-");
		f->line = err->line ? err->line : 1;
		f->col = err->line && err->col ? err->col : 1;
	}
	return json ? 1 : 2;
}

int sl_check_unreadable(const sl_rules *rs, const char *path, const sl_error *err, sl_findings *out)
{
	sl_error e = {0};
	sl_error_set(&e, err->file ? err->file : path, err->line, err->col, "%s", err->msg ? err->msg : "cannot be read");
	int rc = sl_check_input_error(rs, NULL, &e, out);
	sl_error_clear(&e);
	return rc;
}
