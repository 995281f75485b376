#!/bin/bash
# Fixes of servelint's own making (tests/fix.sh): every kind on one script.
# Llama 3.1 70B on H100 x8, TP8, vLLM
vllm serve org/llama-70b \
    --tensor-parallel-size 4 \
    --max-num-seqs 64 \
    --max-num-seqs 64 \
    --trust-remote-code --trust-remote-code \
    --kv-cache-dtype fp9 \
    --gpu-memory-utilisation 0.9 \
    --hort 0.0.0.0 \
    --max-model-len 4096 \
    --max-model-len 4096
