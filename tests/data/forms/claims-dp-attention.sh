#!/usr/bin/env bash
# A MoE model in FP8 on MI300X, TP=4: attention data-parallel on request.
# TP and DP_ATTENTION come from the harness; with DP attention the GPUs
# are data-parallel ranks, the experts spread across them.
ARGS=(--tensor-parallel-size "$TP")
if [ "$DP_ATTENTION" = "true" ]; then
    ARGS=(--tensor-parallel-size 1 --data-parallel-size "$TP" --enable-expert-parallel)
fi
vllm serve org/moe-model --port 8000 "${ARGS[@]}" --max-model-len 8192 &
