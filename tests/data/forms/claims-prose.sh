#!/usr/bin/env bash
# Trace-replay benchmark for a large MoE model on an 8-GPU node, with vLLM.
# Sweep arms: TP4, DEP4 and DEP8 (the harness passes TP and DP_ATTENTION).
#
# The serving command follows the upstream recipe, run as:
#
#   --trust-remote-code --moe-backend auto --tensor-parallel-size 8
#   --gpu-memory-utilization 0.95 --max-num-seqs 128
#
# We keep --gpu-memory-utilization 0.9 here; the KV pool holds 2,646,059 tokens
# at that setting.

source "$(dirname "$0")/bench_lib.sh"

# Memory per rank for the layouts we tried:
#     DP1/TP8  195.1 GB   <- today
#     DP2/TP4  209.4 GB   <- fits
#     DP8/TP1  295.2 GB   <- does NOT fit
# The guard passes --attention-backend and the rest through unchanged; at
# c12 the real peak was 14 seqs = 42 tokens.
PARALLEL_ARGS=(--tensor-parallel-size "$TP" --data-parallel-size 1)
if [ "$DP_ATTENTION" = "true" ]; then
    PARALLEL_ARGS=(--tensor-parallel-size 1 --data-parallel-size "$TP" --enable-expert-parallel)
fi

# Tensor parallel TP8 on all 8 GPUs, --max-num-seqs 64.
vllm serve org/Big-MoE "${PARALLEL_ARGS[@]}" \
    --gpu-memory-utilization 0.9 --max-num-seqs 64 --port 8000
