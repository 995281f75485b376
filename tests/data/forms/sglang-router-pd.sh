#!/usr/bin/env bash
# SGLang prefill/decode on one node: prefill on GPUs 0-3, decode on GPUs 4-7,
# the SGLang router in front (prefill bootstrap port 8998).
MODEL=deepseek-ai/DeepSeek-R1
CUDA_VISIBLE_DEVICES=0,1,2,3 python3 -m sglang.launch_server --model-path $MODEL \
    --disaggregation-mode prefill --tp 4 --port 30001 --disaggregation-bootstrap-port 8998 &
CUDA_VISIBLE_DEVICES=4,5,6,7 python3 -m sglang.launch_server --model-path $MODEL \
    --disaggregation-mode decode --tp 4 --port 30002 &
python3 -m sglang_router.launch_router --pd-disaggregation \
    --prefill http://127.0.0.1:30001 8998 \
    --decode http://127.0.0.1:30002 \
    --host 0.0.0.0 --port 30000 --policy cache_aware
