#!/bin/bash
# Prefill writes fp8 (vLLM: fp8_e4m3), decode fp8_e5m2: two 8-bit formats
# that are not one another, so decode misreads every block prefill sends.
MODEL=org/m
python3 -m dynamo.frontend --http-port 8000 &
DYN_SYSTEM_PORT=8081 CUDA_VISIBLE_DEVICES=0,1 python3 -m dynamo.vllm --model $MODEL \
  --tensor-parallel-size 2 --kv-cache-dtype fp8 --disaggregation-mode prefill \
  --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_producer"}' &
DYN_SYSTEM_PORT=8082 VLLM_NIXL_SIDE_CHANNEL_PORT=20097 CUDA_VISIBLE_DEVICES=2,3 \
  python3 -m dynamo.vllm --model $MODEL \
  --tensor-parallel-size 2 --kv-cache-dtype fp8_e5m2 --disaggregation-mode decode \
  --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_consumer"}' &
wait
