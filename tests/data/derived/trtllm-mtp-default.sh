#!/bin/bash
# MTP without num_nextn_predict_layers drafts one: a batch of 64 wants a
# budget of 128 a step, and that is given (no SL4011; the limit exactly met
# is how real recipes size it, MAX_NUM_TOKENS=(MTP+1)*MAX_BATCH_SIZE+...)
cat > /tmp/extra.yaml <<YAML
max_batch_size: 64
max_num_tokens: 128
speculative_config:
  decoding_type: MTP
YAML
trtllm-serve org/model --backend pytorch --extra_llm_api_options /tmp/extra.yaml
