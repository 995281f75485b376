#!/usr/bin/env bash
# Llama 3.3 70B, FP8, on 4x H200 with SGLang: TP4.
MODEL=meta-llama/Llama-3.3-70B-Instruct

python3 -m sglang.launch_server --model-path $MODEL --port 8888 \
  --tp 4 \
  --max-running-requests 128 \
  --mem-fraction-static 0.88
