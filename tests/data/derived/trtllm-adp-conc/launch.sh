#!/bin/bash
# trtllm-serve with attention DP on 8 GPUs (DEP8) at concurrency 1024.
# Tuned at batch 128 per rank. Each tensor-parallel rank holds requests of
# its own under enable_attention_dp, up to max_batch_size each: 8 x 64 =
# 512 run at once, below the 1024 stated, and 64 below the batch per rank
# (SL4012 twice).
cat > /tmp/extra.yaml <<YAML
enable_attention_dp: true
cuda_graph_config:
  enable_padding: true
  max_batch_size: 64
kv_cache_config:
  free_gpu_memory_fraction: 0.8
YAML
trtllm-serve org/moe-model --backend pytorch --host 0.0.0.0 --port 8000 \
    --tp_size 8 --ep_size 8 --max_batch_size 64 --max_num_tokens 8192 \
    --extra_llm_api_options /tmp/extra.yaml
