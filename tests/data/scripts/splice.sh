#!/bin/bash
# A command built in an array and in flag strings, then run.
MODEL="Qwen/Qwen3-235B-A22B-FP8"
TP=4
OFFLOAD_ARGS="--no-disable-hybrid-kv-cache-manager   --block-size 32"
EXTRA=""

VLLM_CMD=( vllm serve "$MODEL" --tensor-parallel-size "$TP" )
VLLM_CMD+=( --max-num-seqs $((TP * 64)) )
if_unset_dp=${DP_SIZE:+--data-parallel-size $DP_SIZE}

"${VLLM_CMD[@]}" $OFFLOAD_ARGS $EXTRA $if_unset_dp \
  --gpu-memory-utilization ${GPU_MEM_UTIL:-0.9} --served-model-name "${SERVED_NAME}"
