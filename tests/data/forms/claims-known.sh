#!/usr/bin/env bash
# Llama 70B on H100 x8, TP4 on 4 of the node's 8 GPUs, --max-num-seqs 128.
# The TP value is the harness's ($TP); the header states what it runs.
MODEL=meta-llama/Llama-3.3-70B-Instruct
CUDA_VISIBLE_DEVICES=0,1,2,3 vllm serve $MODEL --tensor-parallel-size 8 \
    --max-num-seqs 64
