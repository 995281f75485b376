#!/bin/bash
# Prefill worker: one TP2 engine on GPUs 0-1.
export CUDA_VISIBLE_DEVICES=0,1
python3 -m dynamo.vllm --model Qwen/Qwen3-8B --tensor-parallel-size 2 \
  --disaggregation-mode prefill --block-size 64
