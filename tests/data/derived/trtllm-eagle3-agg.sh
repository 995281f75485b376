#!/bin/bash
# TensorRT-LLM aggregated with Eagle3 (the form of the gpt-oss Eagle3
# recipes: an extra_llm_api_options YAML written by a here-document): a
# batch of 32 with its drafts wants a budget of 128 a step, 120 is given
# (SL4011)
cat > /tmp/extra.yaml <<YAML
max_batch_size: 32
max_num_tokens: 120
speculative_config:
  decoding_type: Eagle3
  max_draft_len: 3
  speculative_model_dir: org/eagle3-draft
YAML
trtllm-serve org/model --backend pytorch --extra_llm_api_options /tmp/extra.yaml
