#!/bin/bash
# Prefill on node 0, decode on node 1: the same port and GPUs on each is fine.
python3 -m dynamo.frontend --http-port 8000 &
# prefill (node 0)
DYN_SYSTEM_PORT=8081 CUDA_VISIBLE_DEVICES=0,1 python3 -m dynamo.vllm --model org/m \
  --tensor-parallel-size 2 --disaggregation-mode prefill \
  --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_producer"}' &
# decode (node 1)
DYN_SYSTEM_PORT=8081 CUDA_VISIBLE_DEVICES=0,1 python3 -m dynamo.vllm --model org/m \
  --tensor-parallel-size 2 --disaggregation-mode decode \
  --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_consumer"}' &
wait
