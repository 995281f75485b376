#!/bin/bash
# The same server run by hand, with a larger context and two GPUs.
export VLLM_ATTENTION_BACKEND=FLASHINFER
CUDA_VISIBLE_DEVICES=0,1 vllm serve meta-llama/Llama-3.3-70B-Instruct \
  -tp 2 --max-model-len 65536 --gpu-memory-utilization 0.9 --kv-cache-dtype fp8
