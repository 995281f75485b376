#!/bin/bash
# Dynamo frontend with KV routing and a block size of 64 in front of a
# TensorRT-LLM worker that sets none: Dynamo's TensorRT-LLM worker
# registers its default of 32 (--kv-block-size), so no hash matches. The
# vLLM worker sets none either, and vLLM's default depends on its
# attention backend: not compared.
python3 -m dynamo.frontend --http-port 8000 --router-mode kv --kv-cache-block-size 64 &
CUDA_VISIBLE_DEVICES=0 python3 -m dynamo.trtllm --model-path Qwen/Qwen3-0.6B \
  --served-model-name Qwen/Qwen3-0.6B --extra-engine-args agg.yaml &
DYN_SYSTEM_PORT=8082 CUDA_VISIBLE_DEVICES=1 python3 -m dynamo.vllm --model Qwen/Qwen3-0.6B &
wait
