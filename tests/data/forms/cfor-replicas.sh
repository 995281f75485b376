#!/usr/bin/env bash
# Decode replicas started by a C-style loop, one GPU pair each; the capture
# sizes list built by a second loop is kept as the script writes it.
NUM_DECODE=2
GPUS_PER=2
BASE_PORT=8100
for ((i = 0; i < NUM_DECODE; i++)); do
    FIRST=$((i * GPUS_PER))
    CUDA_VISIBLE_DEVICES=$FIRST,$((FIRST + 1)) vllm serve org/Model \
        --tensor-parallel-size $GPUS_PER --port $((BASE_PORT + i)) &
done
SIZES=""
for ((bs = 1; bs <= 8; bs += 1)); do SIZES="$SIZES $bs"; done
for ((k = 0; k < $UNKNOWN_COUNT; k++)); do vllm serve org/Other --port 9000 & done
wait
