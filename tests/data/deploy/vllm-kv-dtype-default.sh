#!/bin/bash
# Prefill stores its KV cache in fp8 and decode sets nothing: decode runs
# with vLLM's default `auto` (the model's dtype), so the blocks prefill
# sends are not what decode reads. Both trust the model's code.
MODEL=org/m
python3 -m dynamo.frontend --http-port 8000 &
DYN_SYSTEM_PORT=8081 CUDA_VISIBLE_DEVICES=0,1 python3 -m dynamo.vllm --model $MODEL \
  --tensor-parallel-size 2 --trust-remote-code --kv-cache-dtype fp8 \
  --disaggregation-mode prefill \
  --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_producer"}' &
DYN_SYSTEM_PORT=8082 VLLM_NIXL_SIDE_CHANNEL_PORT=20097 CUDA_VISIBLE_DEVICES=2,3 \
  python3 -m dynamo.vllm --model $MODEL \
  --tensor-parallel-size 2 --trust-remote-code \
  --disaggregation-mode decode \
  --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_consumer"}' &
wait
