/* test_rules.c: every rule's bad example fires it, its good example does not. */
#include "helpers.h"
#include "check/check.h"
#include "normalize/normalize.h"
#include "report/report.h"
#include "diff/diff.h"
#include <stdint.h>

static sl_grammars *gs;
static sl_rules *rules;

static int setup(void **st)
{
	(void)st;
	sl_error err = {0};
	int rc = sl_normalize_grammars_load(&gs, &err) || sl_rules_load(&rules, &err);
	if (rc)
		fprintf(stderr, "%s:%u:%u: %s\n", err.file, err.line, err.col, err.msg);
	sl_error_clear(&err);
	return rc;
}

static int teardown(void **st)
{
	(void)st;
	sl_rules_free(rules);
	sl_normalize_grammars_free(gs);
	return 0;
}

/* findings of a catalogue rule on an example catalogue: a small page of
 * entries, each ending with its `Submitted by` line; entries whose commands
 * are the same after normalization are told as audit tells them */
static size_t fires_catalogue(const sl_rule *only, const char *example, const char *which)
{
	char path[64];
	snprintf(path, sizeof path, "%s.%s", sl_rule_id(only), which);
	sl_error err = {0};
	sl_source *page = NULL;
	sl_page_entry *pes = NULL;
	size_t npe = 0;
	assert_int_equal(sl_source_from_memory(path, example, strlen(example), &page, &err), 0);
	assert_int_equal(sl_page_split(page, &pes, &npe, &err), 0);
	sl_entry **es = calloc(npe, sizeof *es);
	sl_model **ms = calloc(npe, sizeof *ms);
	sl_catalogue_entry *v = calloc(npe, sizeof *v);
	for (size_t i = 0; i < npe; i++) {
		size_t a = page->lines[pes[i].first - 1];
		size_t b = pes[i].last < page->nlines ? page->lines[pes[i].last] : page->len;
		assert_int_equal(sl_entry_from_memory(path, page->text + a, b - a, pes[i].first - 1, &es[i], &err), 0);
		assert_int_equal(sl_normalize_entry(es[i], gs, &ms[i], &err), 0);
		v[i].llm = pes[i].model;  /* the page's model heading, as audit takes it */
		v[i].same_as = SIZE_MAX;
		json_t *vi;
		char *ki = sl_diff_command_print(ms[i], &vi);
		for (size_t j = 0; j < i; j++) {
			sl_diff d;
			sl_diff_opts o = {0};
			sl_diff_models(ms[j], ms[i], &o, &d);
			int same = sl_diff_same_command(&d);
			if (same && v[i].same_as == SIZE_MAX)
				v[i].same_as = j;
			sl_diff_free(&d);
			/* audit finds duplicates by the key and its values, without
			 * the models: they must say what the diff says */
			json_t *vj;
			char *kj = sl_diff_command_print(ms[j], &vj);
			int by_print = !strcmp(ki, kj) && sl_diff_same_print(vj, vi);
			assert_int_equal(by_print, same);
			free(kj);
			json_decref(vj);
		}
		free(ki);
		json_decref(vi);
	}
	/* the catalogue rules read the summaries alone: the models are gone
	 * (their here-documents, none in these examples, would be kept) */
	sl_catalogue_summary **sums = calloc(npe, sizeof *sums);
	for (size_t i = 0; i < npe; i++) {
		assert_int_equal(sl_catalogue_summarize(rules, ms[i], &sums[i]), 0);
		assert_int_equal(ms[i]->nfiles, 0);
		sl_model_free(ms[i]);
		ms[i] = NULL;
		v[i].sum = sums[i];
	}
	sl_findings fs = {0};
	sl_check_catalogue(rules, v, npe, only, &fs);
	size_t n = fs.n;
	for (size_t i = 0; i < fs.n; i++) {
		assert_ptr_equal(fs.v[i].rule, only);
		assert_non_null(fs.v[i].where.src);  /* every finding has its place */
	}
	sl_findings_free(&fs);
	for (size_t i = 0; i < npe; i++) {
		sl_catalogue_summary_free(sums[i]);
		sl_entry_free(es[i]);
	}
	free(sums);
	free(v);
	free(ms);
	free(es);
	sl_page_entries_free(pes, npe);
	sl_source_free(page);
	return n;
}

/* findings of `only` on an example entry */
static size_t fires(const sl_rule *only, const char *example, const char *which)
{
	if (sl_rule_is_catalogue(only))
		return fires_catalogue(only, example, which);
	sl_entry *e = NULL;
	sl_model *m = NULL;
	sl_error err = {0};
	char path[64];
	snprintf(path, sizeof path, "%s.%s", sl_rule_id(only), which);
	int rc = sl_entry_from_memory(path, example, strlen(example), 0, &e, &err);
	assert_int_equal(rc, 0);
	sl_findings fs = {0};
	rc = sl_normalize_entry(e, gs, &m, &err);
	if (rc) {
		/* only invalid JSON is a finding rather than an error */
		int as_finding = sl_check_input_error(rules, e, &err, &fs);
		if (!as_finding)
			fprintf(stderr, "%s: %s:%u:%u: %s\n", sl_rule_id(only), err.file, err.line, err.col, err.msg);
		assert_true(as_finding);
		sl_error_clear(&err);
		size_t n = 0;
		for (size_t i = 0; i < fs.n; i++)
			n += fs.v[i].rule == only;
		sl_findings_free(&fs);
		sl_entry_free(e);
		return n;
	}
	sl_check_model(rules, m, only, &fs);
	sl_model_free(m);
	/* an example with conditionals is read as check reads it: every
	 * variant (SL0005's shape); a script without them is one model, the
	 * one above */
	sl_model **ms = NULL;
	size_t nm = 0;
	rc = sl_entry_models_lenient(e, gs, NULL, 0, &ms, &nm, &err);
	if (rc)
		fprintf(stderr, "%s: %s:%u:%u: %s\n", sl_rule_id(only), err.file, err.line, err.col, err.msg);
	assert_int_equal(rc, 0);
	for (size_t k = 0; nm > 1 && k < nm; k++)
		sl_check_model(rules, ms[k], only, &fs);
	for (size_t k = 0; k < nm; k++)
		sl_model_free(ms[k]);
	free(ms);
	size_t n = fs.n;
	for (size_t i = 0; i < fs.n; i++)
		assert_ptr_equal(fs.v[i].rule, only);
	sl_findings_free(&fs);
	sl_entry_free(e);
	return n;
}

static void test_every_rule_example(void **st)
{
	(void)st;
	assert_true(sl_rules_count(rules) >= 15);
	for (size_t i = 0; i < sl_rules_count(rules); i++) {
		const sl_rule *r = sl_rules_at(rules, i);
		size_t bad = fires(r, sl_rule_bad(r), "bad"), good = fires(r, sl_rule_good(r), "good");
		if (bad == 0 || good != 0)
			fprintf(stderr, "%s: bad example gives %zu findings, good %zu\n", sl_rule_id(r), bad, good);
		assert_true(bad > 0);
		assert_int_equal(good, 0);
	}
}

/* the corpus is what real catalogues publish: no rule fires on it (each
 * finding would have to be a true one, and then it belongs in README),
 * but an advisory one saying what was not checked (SL0004: the gpt-oss
 * entries name engine config files the catalogue does not publish) */
static void test_corpus_is_clean(void **st)
{
	(void)st;
	const char *entries[] = {
		"deepseek-v4.1-flash/vera-rubin-nvl72/dynamo-vllm-disagg-2p-tp2-1d-dep4-dspark6",
		"deepseek-v4.1-flash/gb300-nvl72/dynamo-vllm-disagg-1p-tp2-1d-tp2-dspark5",
		"deepseek-v4-pro/b300-x8/trtllm-disagg-1p-dep4-1d-dep4-mtp3",
		"gpt-oss-120b/b200-sxm-x8/dynamo-trtllm-disagg-1p-1gpu-1d-4gpu",
		"deepseek-v4.1-flash/mi355x-x8/vllm-tp2-dspark5-mns64",
	};
	for (size_t i = 0; i < sizeof entries / sizeof *entries; i++) {
		char path[512];
		snprintf(path, sizeof path, "%s/corpus/%s", SL_SOURCE_DIR, entries[i]);
		sl_entry *e = NULL;
		sl_model *m = NULL;
		sl_error err = {0};
		assert_int_equal(sl_entry_load(path, &e, &err), 0);
		assert_int_equal(sl_normalize_entry(e, gs, &m, &err), 0);
		sl_findings fs = {0};
		sl_check_model(rules, m, NULL, &fs);
		size_t n = 0;
		for (size_t k = 0; k < fs.n; k++)
			if (!sl_rule_advisory(fs.v[k].rule)) {
				fprintf(stderr, "%s: %s\n", entries[i], fs.v[k].message);
				n++;
			}
		assert_int_equal(n, 0);
		sl_findings_free(&fs);
		sl_model_free(m);
		sl_entry_free(e);
	}
}

/* SL1001 and SL1002 beyond their examples: an unknown key of an engine
 * file, once even when two services read the file; an env var set twice */
static void test_more_cases(void **st)
{
	(void)st;
	const char *text = "trtllm-serve m --config c.yaml &\ntrtllm-serve m --config c.yaml\n"
			   "# ---------------- c.yaml ----------------\nmax_batch_size: 8\nno_such_key: 1\n"
			   "SystemB200 x8EngineTRT-LLMPrecisionFP8Accelerators used2 of 8\nSubmitted by X\n";
	const sl_rule *unk = sl_rules_find(rules, "SL1001");
	assert_int_equal(fires(unk, text, "yaml"), 1);
	const sl_rule *dup = sl_rules_find(rules, "SL1002");
	assert_int_equal(fires(dup, "export A=1\nA=2 vllm serve m\n", "env"), 1);
	assert_int_equal(fires(dup, "export A=1\nA=1 vllm serve m\n", "env"), 0);
	/* the export holds for another command: giving one its own value is not a conflict */
	assert_int_equal(fires(dup, "export A=1\nA=2 vllm serve m &\nvllm serve m2 --port 8001\n", "env"), 0);
	assert_int_equal(fires(sl_rules_find(rules, "SL1003"), "export A=1\nA=1 vllm serve m\n", "env"), 1);
	/* a misspelled JSON member of a flag whose members the grammar lists */
	assert_int_equal(fires(unk, "vllm serve m --speculative-config '{\"method\":\"mtp\",\"num_speculative_token\":3}'\n",
			       "json"), 1);
	assert_int_equal(fires(unk, "vllm serve m --speculative-config '{\"method\":\"mtp\",\"num_speculative_tokens\":3}'\n",
			       "json"), 0);
	/* SL3002: one NUMA node per GPU rank of a node. On one node every
	 * data-parallel rank counts; across nodes (an address, a local size)
	 * only the node's own, and with data parallelism left to a launcher
	 * only a list shorter than one rank's tensor x pipeline is sure */
	const sl_rule *numa = sl_rules_find(rules, "SL3002");
	assert_int_equal(fires(numa, "vllm serve m -tp 2 -dp 4 --numa-bind-nodes 0 0 0 0 1 1 1 1\n", "n1"), 0);
	assert_int_equal(fires(numa, "vllm serve m -tp 2 -dp 4 --numa-bind-nodes 0 0 1 1\n", "n2"), 1);
	assert_int_equal(fires(numa, "vllm serve m -dp 8 --data-parallel-size-local 4 --data-parallel-address 10.0.0.1 "
				     "--numa-bind-nodes 0 0 1 1\n", "n3"), 0);
	assert_int_equal(fires(numa, "vllm serve m -dp 8 --data-parallel-size-local 4 --numa-bind-nodes 0 0 1 1 1 1 1 1\n",
			       "n4"), 1);
	assert_int_equal(fires(numa, "vllm serve m -dp 8 --data-parallel-address 10.0.0.1 --data-parallel-start-rank 4 "
				     "--headless --numa-bind-nodes 0 0 1 1\n", "n5"), 0);
	assert_int_equal(fires(numa, "vllm serve m -tp 4 -dp 2 --data-parallel-address 10.0.0.1 --numa-bind-nodes 0 1\n",
			       "n6"), 1);
	assert_int_equal(fires(numa, "vllm serve m -tp 8 --nnodes 2 --numa-bind-nodes 0 0 1 1\n", "n7"), 0);
}

static json_t *need(json_t *o, const char *key, json_type type)
{
	json_t *v = json_object_get(o, key);
	if (!v || json_typeof(v) != type)
		fail_msg("SARIF: `%s` missing or of the wrong type", key);
	return v;
}

/* SARIF 2.1.0: the fields the schema requires (sarifLog: version, runs;
 * run: tool; tool: driver; toolComponent: name; result: message; message:
 * text; reportingDescriptor: id), and those GitHub code scanning reads
 * (ruleId, level, locations with a region, partialFingerprints). */
static void test_sarif_required_fields(void **st)
{
	(void)st;
	sl_entry *e = NULL;
	sl_model *m = NULL;
	sl_error err = {0};
	assert_int_equal(sl_entry_load(SL_SOURCE_DIR "/tests/data/check/planted.sh", &e, &err), 0);
	assert_int_equal(sl_normalize_entry(e, gs, &m, &err), 0);
	sl_findings fs = {0};
	sl_check_model(rules, m, NULL, &fs);
	assert_true(fs.n >= 5);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_int_equal(sl_report_findings(f, SL_FMT_SARIF, rules, &fs, SL_SEV_STYLE, 0), 0);
	fclose(f);
	json_error_t je;
	json_t *doc = json_loads(buf, 0, &je);
	assert_non_null(doc);
	assert_string_equal(json_string_value(need(doc, "version", JSON_STRING)), "2.1.0");
	json_t *run = json_array_get(need(doc, "runs", JSON_ARRAY), 0);
	json_t *driver = need(need(run, "tool", JSON_OBJECT), "driver", JSON_OBJECT);
	need(driver, "name", JSON_STRING);
	json_t *rl = need(driver, "rules", JSON_ARRAY);
	assert_int_equal(json_array_size(rl), sl_rules_count(rules));
	size_t i;
	json_t *x;
	json_array_foreach(rl, i, x) {
		need(x, "id", JSON_STRING);
		need(need(x, "shortDescription", JSON_OBJECT), "text", JSON_STRING);
		need(need(x, "fullDescription", JSON_OBJECT), "text", JSON_STRING);
		need(need(x, "help", JSON_OBJECT), "text", JSON_STRING);
	}
	json_t *res = need(run, "results", JSON_ARRAY);
	assert_int_equal(json_array_size(res), fs.n);
	json_array_foreach(res, i, x) {
		const char *id = json_string_value(need(x, "ruleId", JSON_STRING));
		size_t idx = (size_t)json_integer_value(need(x, "ruleIndex", JSON_INTEGER));
		assert_string_equal(json_string_value(json_object_get(json_array_get(rl, idx), "id")), id);
		const char *lvl = json_string_value(need(x, "level", JSON_STRING));
		assert_true(!strcmp(lvl, "error") || !strcmp(lvl, "warning") || !strcmp(lvl, "note"));
		need(need(x, "message", JSON_OBJECT), "text", JSON_STRING);
		json_t *pl = need(json_array_get(need(x, "locations", JSON_ARRAY), 0), "physicalLocation", JSON_OBJECT);
		need(need(pl, "artifactLocation", JSON_OBJECT), "uri", JSON_STRING);
		json_t *rg = need(pl, "region", JSON_OBJECT);
		assert_true(json_integer_value(need(rg, "startLine", JSON_INTEGER)) >= 1);
		assert_true(json_integer_value(need(rg, "endColumn", JSON_INTEGER)) >
			    json_integer_value(need(rg, "startColumn", JSON_INTEGER)));
		need(need(x, "partialFingerprints", JSON_OBJECT), "primaryLocationLineHash", JSON_STRING);
	}
	json_decref(doc);
	free(buf);
	sl_findings_free(&fs);
	sl_model_free(m);
	sl_entry_free(e);
}

/* the catalogue rules beyond their examples: one model under its several
 * names; parsers of different engines apart; revisions as hash prefixes */
static void test_catalogue_cases(void **st)
{
	(void)st;
	const char *keys[][2] = {
		{"Kimi K3 (max)", "kimi-k3"},
		{"moonshotai/Kimi-K3", "kimi-k3"},
		{"DeepSeek V4.1 Flash", "deepseek-v4.1-flash"},
		{"deepseek-ai/DeepSeek-V4.1-Flash", "deepseek-v4.1-flash"},
		{"gpt-oss-120b (high)", "gpt-oss-120b"},
	};
	for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
		char *k = sl_catalogue_model_key(keys[i][0]);
		assert_string_equal(k, keys[i][1]);
		free(k);
	}
	/* SGLang's parser names are not vLLM's: no finding between them */
	const char *engines = "vllm serve org/m --tool-call-parser deepseek_v41 --tensor-parallel-size 2\n"
			      "Submitted by A\n"
			      "python3 -m sglang.launch_server --model-path org/m --tool-call-parser auto --tp 4\n"
			      "Submitted by A\n";
	assert_int_equal(fires_catalogue(sl_rules_find(rules, "SL7002"), engines, "engines"), 0);
	/* entries named by the page's model heading are one model, whatever
	 * path their weights load from */
	const char *named = "M \xe2\x80\x94 2 configurations\n"
			    "vllm serve /models/m --tool-call-parser a --tensor-parallel-size 2\n"
			    "Submitted by A\n"
			    "vllm serve org/m --tool-call-parser b --tensor-parallel-size 4\n"
			    "Submitted by A\n";
	assert_int_equal(fires_catalogue(sl_rules_find(rules, "SL7002"), named, "named"), 1);
	/* a short hash and its full form are one revision; another one is not */
	const char *revs = "# Weights: org/m @ dba1be0a\nvllm serve org/m --tensor-parallel-size 2\nSubmitted by A\n"
			   "# Weights: org/m @ dba1be0a40aa45a94ad051997016db3960a90277\n"
			   "vllm serve org/m --tensor-parallel-size 4\nSubmitted by A\n";
	assert_int_equal(fires_catalogue(sl_rules_find(rules, "SL7004"), revs, "revs"), 0);
	const char *other = "# Weights: org/m @ dba1be0a\nvllm serve org/m --tensor-parallel-size 2\nSubmitted by A\n"
			    "# Weights: org/m @ 7c3e2f10\nvllm serve org/m --tensor-parallel-size 4\nSubmitted by A\n";
	assert_int_equal(fires_catalogue(sl_rules_find(rules, "SL7004"), other, "other"), 1);
	/* a catalogue rule never runs on one entry alone */
	sl_entry *e = NULL;
	sl_model *m = NULL;
	sl_error err = {0};
	const char *one = "vllm serve org/m --tokenizer-mode auto\n";
	assert_int_equal(sl_entry_from_memory("one.sh", one, strlen(one), 0, &e, &err), 0);
	assert_int_equal(sl_normalize_entry(e, gs, &m, &err), 0);
	sl_findings fs = {0};
	sl_check_model(rules, m, sl_rules_find(rules, "SL7001"), &fs);
	assert_int_equal(fs.n, 0);
	sl_findings_free(&fs);
	sl_model_free(m);
	sl_entry_free(e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_rule_example),
		cmocka_unit_test(test_corpus_is_clean),
		cmocka_unit_test(test_sarif_required_fields),
		cmocka_unit_test(test_more_cases),
		cmocka_unit_test(test_catalogue_cases),
	};
	return cmocka_run_group_tests_name("rules", tests, setup, teardown);
}
