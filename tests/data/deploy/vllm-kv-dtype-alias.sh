#!/bin/bash
# Prefill writes its KV cache dtype as fp8, decode as fp8_e4m3: vLLM reads
# fp8 as fp8_e4m3 (vllm/config/cache.py), so both store the same blocks and
# the pair is clean. Both trust the model's code.
MODEL=org/m
python3 -m dynamo.frontend --http-port 8000 &
DYN_SYSTEM_PORT=8081 CUDA_VISIBLE_DEVICES=0,1 python3 -m dynamo.vllm --model $MODEL \
  --tensor-parallel-size 2 --trust-remote-code --kv-cache-dtype fp8 \
  --disaggregation-mode prefill \
  --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_producer"}' &
DYN_SYSTEM_PORT=8082 VLLM_NIXL_SIDE_CHANNEL_PORT=20097 CUDA_VISIBLE_DEVICES=2,3 \
  python3 -m dynamo.vllm --model $MODEL \
  --tensor-parallel-size 2 --trust-remote-code --kv-cache-dtype fp8_e4m3 \
  --disaggregation-mode decode \
  --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_consumer"}' &
wait
