#!/bin/bash
# A benchmark harness's sweep, one script for every arm: eight settings, each
# chosen by an input of its own (256 combinations). The node has 8 GPUs; the
# arm with the larger TP and DP attention together asks for 16.
if [ "$BIG_TP" = 1 ]; then
    TP=8
else
    TP=4
fi
if [ "$DP_ATTENTION" = true ]; then
    DP=2
else
    DP=1
fi
if [ "$EP_SIZE" -gt 1 ]; then
    EP_ARGS=(--enable-expert-parallel)
else
    EP_ARGS=()
fi
if [ "$KV_FP8" = 1 ]; then
    KV_DTYPE=fp8
else
    KV_DTYPE=auto
fi
if [ "$LONG" = 1 ]; then
    MAX_LEN=131072
else
    MAX_LEN=32768
fi
if [ "$CONC" -ge 256 ]; then
    SEQS=512
else
    SEQS=128
fi
if [ "$PREFIX_CACHE" = off ]; then
    CACHE_ARGS=(--no-enable-prefix-caching)
else
    CACHE_ARGS=()
fi
if [ "$TIGHT" = 1 ]; then
    MEM=0.85
else
    MEM=0.92
fi
CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7 vllm serve Qwen/Qwen3-30B-A3B \
    --tensor-parallel-size "$TP" --data-parallel-size "$DP" "${EP_ARGS[@]}" \
    --kv-cache-dtype "$KV_DTYPE" --max-model-len "$MAX_LEN" --max-num-seqs "$SEQS" \
    "${CACHE_ARGS[@]}" --gpu-memory-utilization "$MEM" --port 8000
