#!/bin/bash
# The first worker drafts nothing: a batch of 256 fits a budget of 256 (no
# SL4011); the second writes max_num_tokens but no max_batch_size, which
# is not held either
cat > /tmp/a.yaml <<YAML
max_batch_size: 256
max_num_tokens: 256
YAML
cat > /tmp/b.yaml <<YAML
max_num_tokens: 64
speculative_config:
  decoding_type: MTP
  num_nextn_predict_layers: 3
YAML
trtllm-serve org/model --port 8001 --extra_llm_api_options /tmp/a.yaml &
trtllm-serve org/model --port 8002 --extra_llm_api_options /tmp/b.yaml &
wait
