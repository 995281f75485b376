#!/bin/bash
# Engine YAML written by a here-document, then named by the command.
MODEL=nvidia/DeepSeek-R1-FP4
TP=8
EP=8
MAX_BATCH=${MAX_BATCH:-256}
CONFIG=/tmp/extra-llm-api-config.yml

cat > $CONFIG <<EOF
enable_attention_dp: true
max_batch_size: $MAX_BATCH
kv_cache_config:
  free_gpu_memory_fraction: 0.85
  dtype: fp8
cuda_graph_config:
  enable_padding: true
  max_batch_size: $MAX_BATCH
moe_config:
  backend: CUTLASS
speculative_config:
  decoding_type: MTP
  num_nextn_predict_layers: ${MTP_LAYERS}
EOF

trtllm-serve $MODEL --tp_size $TP --ep_size $EP \
    --max_num_tokens 8192 --extra_llm_api_options $CONFIG \
    --host 0.0.0.0 --port 8000 > server.log 2>&1 &
