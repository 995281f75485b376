#!/bin/bash
# A fix in a here-document whose tabs `<<-` removes (tests/fix.sh).
write_config() {
	cat > /tmp/cfg.yaml <<-YAML
		tensor_parallel_size: 4
		kv_cache_config:
		  free_gpu_memory_fractio: 0.8
		YAML
}
write_config
trtllm-serve org/model --tp_size 4 --extra_llm_api_options /tmp/cfg.yaml
