#!/bin/bash
# DeepSeek-V4 with the FP4 indexer cache, a member of vLLM's AttentionConfig
# (our own launch, in the form of the InferenceX vLLM recipes): no SL1001
vllm serve deepseek-ai/DeepSeek-V4 --tensor-parallel-size 4 \
  --attention-config '{"use_fp4_indexer_cache": true}'
