#!/bin/bash
# trtllm-serve with attention DP on 8 GPUs (DEP8) at concurrency 1024:
# max_batch_size 128 is each rank's, 8 x 128 = 1024 run at once (no
# SL4012, where one batch of 128 for the worker would be a finding). The
# same worker without attention DP runs one batch: at concurrency 1024 with
# max_batch_size 128 that is below (tests/data/derived/trtllm-tep-conc.sh).
cat > /tmp/extra.yaml <<YAML
enable_attention_dp: true
cuda_graph_config:
  enable_padding: true
  max_batch_size: 128
YAML
trtllm-serve org/moe-model --backend pytorch --host 0.0.0.0 --port 8000 \
    --tp_size 8 --ep_size 8 --max_batch_size 128 --max_num_tokens 8192 \
    --extra_llm_api_options /tmp/extra.yaml
