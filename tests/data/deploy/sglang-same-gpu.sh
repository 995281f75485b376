#!/bin/bash
# SGLang prefill and decode packed on one GPU on purpose: each caps its KV
# pool by tokens and gives the weights' memory back after loading.
CUDA_VISIBLE_DEVICES=0 python3 -m dynamo.sglang --model-path Qwen/Qwen3-0.6B \
  --disaggregation-mode prefill --disaggregation-transfer-backend nixl \
  --max-total-tokens 25000 --enable-memory-saver --delete-ckpt-after-loading &
CUDA_VISIBLE_DEVICES=0 python3 -m dynamo.sglang --model-path Qwen/Qwen3-0.6B \
  --disaggregation-mode decode --disaggregation-transfer-backend nixl \
  --max-total-tokens 25000 --enable-memory-saver --delete-ckpt-after-loading &
python3 -m dynamo.frontend &
wait
