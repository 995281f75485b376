#!/bin/bash
# <<- drops the leading tabs of the here-document (and of its end line);
# a here-document no command names is listed, not read.
BATCH=64
tee llm-api.yaml <<-EOF >/dev/null
	kv_cache_config:
	  dtype: fp8
	max_batch_size: $BATCH
	EOF
cat > unused.yaml <<EOF
not: read
EOF
trtllm-serve Qwen/Qwen3-8B --config llm-api.yaml --tp_size 2
