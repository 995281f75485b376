#!/bin/bash
# vLLM with a YAML config written by a quoted here-document (no expansion);
# the command line wins over the file for --max-num-seqs.
cat <<'YAML' > vllm-config.yaml
tensor-parallel-size: 4
max-num-seqs: 128
gpu-memory-utilization: 0.92
# a comment inside the here-document
enable-prefix-caching: false
speculative-config:
  method: eagle3
  model: nvidia/gpt-oss-120b-Eagle3
  num_speculative_tokens: 3
YAML
vllm serve openai/gpt-oss-120b --config ./vllm-config.yaml --port 8000 \
  --max-num-seqs 256
