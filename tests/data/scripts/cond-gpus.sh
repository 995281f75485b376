#!/bin/bash
# Two sizes from one script: the big one asks for more GPUs than it sees
# (a real finding in that variant only).
if [ "$MODE" = big ]; then
    TP=8
else
    TP=4
fi
CUDA_VISIBLE_DEVICES=0,1,2,3 vllm serve Qwen/Qwen3-235B-A22B -tp $TP --port 8000
