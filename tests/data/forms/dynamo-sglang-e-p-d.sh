#!/bin/bash
# Multimodal E/P/D with Dynamo 1.4 and SGLang: encode, prefill and decode
# workers, one GPU each, KV moved by NIXL. The prefill and decode workers
# pair; the encode worker is neither. (Our own input, in the form of
# Dynamo's multimodal launch scripts.)

MODEL="Qwen/Qwen2.5-VL-7B-Instruct"

python3 -m dynamo.frontend &

DYN_SYSTEM_PORT=8081 CUDA_VISIBLE_DEVICES=0 python3 -m dynamo.sglang \
  --enable-multimodal --disaggregation-mode encode --model-path "$MODEL" &

DYN_SYSTEM_PORT=8082 CUDA_VISIBLE_DEVICES=1 python3 -m dynamo.sglang \
  --enable-multimodal --dedicated-mm-encoder --disaggregation-mode prefill \
  --model-path "$MODEL" --page-size 16 --disaggregation-transfer-backend nixl \
  --disaggregation-bootstrap-port 12345 &

DYN_SYSTEM_PORT=8083 CUDA_VISIBLE_DEVICES=2 python3 -m dynamo.sglang \
  --enable-multimodal --dedicated-mm-encoder --disaggregation-mode decode \
  --model-path "$MODEL" --page-size 16 --disaggregation-transfer-backend nixl &

wait
