#!/usr/bin/env bash
# Qwen3 32B, BF16, on 2x MI300X with vLLM: TP2.
export HIP_VISIBLE_DEVICES=0,1
vllm serve Qwen/Qwen3-32B --tensor-parallel-size 2 --max-model-len 32768
