#!/bin/bash
# The hardware decides the model and the config: compute capability 10.0
# (Blackwell) runs the FP4 checkpoint, anything else FP8; the GPU name
# picks the batch size.
CC=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1)
TP=8

if [[ "$CC" == "10.0" ]]; then
    SUFFIX=FP4
    KV_DTYPE=fp8
else
    SUFFIX=FP8
    KV_DTYPE=auto
fi

case "$GPU" in
    b200|b300) MAX_SEQS=512 ;;
    h100) MAX_SEQS=128 ;;
    *) MAX_SEQS=256 ;;
esac

if [ "$TP" -eq 8 ]; then
    EP_ARGS="--enable-expert-parallel"
fi

vllm serve "nvidia/DeepSeek-R1-$SUFFIX" --tensor-parallel-size $TP $EP_ARGS \
    --kv-cache-dtype $KV_DTYPE --max-num-seqs $MAX_SEQS
