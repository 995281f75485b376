#!/bin/bash
# Approximate KV routing (Dynamo 0.4-0.6 spelling): the router predicts the
# cache, so workers without KV events are what it expects.
python -m dynamo.frontend --router-mode kv --no-kv-events &
DYN_SYSTEM_PORT=8081 CUDA_VISIBLE_DEVICES=0 python3 -m dynamo.vllm --model org/m \
  --kv-events-config '{"enable_kv_cache_events": false}' &
DYN_SYSTEM_PORT=8082 CUDA_VISIBLE_DEVICES=1 python3 -m dynamo.vllm --model org/m \
  --kv-events-config '{"enable_kv_cache_events": false}' &
wait
