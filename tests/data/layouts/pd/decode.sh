#!/bin/bash
# Decode worker: one TP2 engine on GPUs 2-3.
export CUDA_VISIBLE_DEVICES=2,3
python3 -m dynamo.vllm --model Qwen/Qwen3-8B --tensor-parallel-size 2 \
  --block-size 128
