#!/bin/bash
# Dynamo frontend with KV routing in front of two aggregated vLLM workers.
# The frontend's block size is not the workers', and it serves a name the
# workers do not register; the second worker turns its KV events off.
python3 -m dynamo.frontend --http-port 8000 --router-mode kv \
  --kv-cache-block-size 32 --model-name llama-chat &
DYN_SYSTEM_PORT=8081 CUDA_VISIBLE_DEVICES=0 python3 -m dynamo.vllm \
  --model meta-llama/Llama-3.1-8B-Instruct --served-model-name llama llama-3.1 \
  --block-size 16 \
  --kv-events-config '{"publisher":"zmq","endpoint":"tcp://*:20080","enable_kv_cache_events":true}' &
DYN_SYSTEM_PORT=8082 CUDA_VISIBLE_DEVICES=1 python3 -m dynamo.vllm \
  --model meta-llama/Llama-3.1-8B-Instruct --served-model-name llama-instruct \
  --block-size 32 \
  --kv-events-config '{"enable_kv_cache_events":false}' &
wait
