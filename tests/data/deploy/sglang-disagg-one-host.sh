#!/bin/bash
# SGLang PD on one 8-GPU host: two prefill servers left on the default
# bootstrap port's explicit value, and decode on the default transfer
# backend (mooncake) while the prefill servers use NIXL.
MODEL=deepseek-ai/DeepSeek-R1
CUDA_VISIBLE_DEVICES=0,1 python3 -m sglang.launch_server --model-path $MODEL --tp 2 \
  --disaggregation-mode prefill --disaggregation-transfer-backend nixl \
  --disaggregation-bootstrap-port 8998 --port 30000 &
CUDA_VISIBLE_DEVICES=2,3 python3 -m sglang.launch_server --model-path $MODEL --tp 2 \
  --disaggregation-mode prefill --disaggregation-transfer-backend nixl \
  --disaggregation-bootstrap-port 8998 --port 30001 &
CUDA_VISIBLE_DEVICES=4,5,6,7 python3 -m sglang.launch_server --model-path $MODEL --tp 4 \
  --disaggregation-mode decode --port 30002 &
python3 -m sglang_router.launch_router --pd-disaggregation \
  --prefill http://127.0.0.1:30000 8998 --prefill http://127.0.0.1:30001 8998 \
  --decode http://127.0.0.1:30002 --port 8000
