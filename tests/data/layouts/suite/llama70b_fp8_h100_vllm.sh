#!/usr/bin/env bash
# Llama 3.3 70B, FP8, on 8x H100 with vLLM: TP8.
MODEL=meta-llama/Llama-3.3-70B-Instruct
PORT=8888

vllm serve $MODEL --port $PORT \
  --tensor-parallel-size 8 \
  --max-num-seqs 256 \
  --gpu-memory-utilization 0.9 &

wait_for_server() { curl -sf localhost:$PORT/health; }
wait_for_server
