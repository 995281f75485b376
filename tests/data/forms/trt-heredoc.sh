#!/usr/bin/env bash
# TensorRT-LLM, one node: the engine file is written in steps, with values
# the harness passes in (BATCH, ATTN_DP) and a list built at run time.
CONFIG=extra.yml
cat > $CONFIG <<EOF
cuda_graph_config:
    enable_padding: true
    max_batch_size: $BATCH
enable_attention_dp: $ATTN_DP
kv_cache_config:
    free_gpu_memory_fraction: 0.85
EOF

sizes=(1 2 4 8)
sizes+=( $(seq 16 16 $MAX_TOKENS) )
SIZE_LIST=$(printf "%s, " "${sizes[@]}")
cat << EOF >> $CONFIG
torch_compile_config:
    capture_num_tokens: [${SIZE_LIST%, }]
    enable_piecewise_cuda_graph: true
EOF

trtllm-serve nvidia/Model-FP4 --port 8000 --backend pytorch --tp_size 4 \
    --extra_llm_api_options $CONFIG
