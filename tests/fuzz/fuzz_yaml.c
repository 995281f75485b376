/* fuzz_yaml: the input is an engine YAML file. It is loaded and turned to
 * JSON as the readers do, then placed as the config file of an entry under
 * each of six launch scripts (TensorRT-LLM --extra_llm_api_options and
 * --config, vLLM --config, Dynamo --extra-engine-args, the disaggregated
 * orchestrator, a docker -v mount, SGLang), each with a metadata file; every
 * entry is shown (json) and checked. */
#include "fuzz.h"
#include "parse/parse.h"

static const char *const scripts[] = {
	"trtllm-serve /models/m --extra_llm_api_options cfg.yaml --tp_size 4\n",
	"vllm serve /models/m --config cfg.yaml --max-num-seqs 64\n",
	"python3 -m dynamo.trtllm --model-path /models/m --extra-engine-args cfg.yaml\n",
	("# Generation worker (CUDA_VISIBLE_DEVICES=0,1,2,3):\n"
	"trtllm-serve /models/m --config cfg.yaml\n"
	"# Context worker (CUDA_VISIBLE_DEVICES=4,5,6,7):\n"
	"trtllm-serve /models/m --config cfg.yaml\n"
	"trtllm-serve disaggregated -c cfg.yaml -t 7200 -r 7200\n"),
	("docker run --gpus all -v $PWD:/cfg vllm/vllm-openai:v0.11.0 \\\n"
	"  vllm serve /models/m --config /cfg/cfg.yaml\n"),
	"python3 -m sglang.launch_server --model-path /models/m --config cfg.yaml --tp 8\n",
};

static const char metadata[] =
	"Model: Fuzz M1\nSystem: B300 x8\nFramework: vLLM 0.11.0\nPrecision: FP8\n"
	"Tensor parallel: 4\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fz_setup();
	sl_source *src = NULL;
	sl_error err = {0};
	if (!sl_source_from_memory("fuzz.yaml", (const char *)data, size, &src, &err)) {
		sl_yaml_doc *doc = NULL;
		if (!sl_yaml_load(src, &doc, &err)) {
			for (size_t k = 0; k < doc->ndocs; k++)
				json_decref(sl_yaml_to_json(doc->roots[k]));
			sl_yaml_free(doc);
		}
		sl_source_free(src);
	}
	sl_error_clear(&err);
	for (size_t i = 0; i < sizeof scripts / sizeof *scripts; i++) {
		char rel[32];
		snprintf(rel, sizeof rel, "e%zu", i);
		fz_mkdirs(rel);
		char f[64];
		snprintf(f, sizeof f, "e%zu/launch.sh", i);
		fz_write_str(f, scripts[i]);
		snprintf(f, sizeof f, "e%zu/metadata.txt", i);
		fz_write_str(f, metadata);
		snprintf(f, sizeof f, "e%zu/cfg.yaml", i);
		fz_write(f, data, size);
		const char *e = fz_path(rel);
		fz_run(sl_cmd_show, "show", "--format", "json", e, NULL);
		fz_run(sl_cmd_check, "check", "--no-config", "--format", "gcc", e, NULL);
	}
	return 0;
}
