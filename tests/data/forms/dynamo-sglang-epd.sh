#!/bin/bash
# Multimodal E/PD with Dynamo 1.4 and SGLang: a vision encode worker on
# GPU 0 hands image embeddings to one worker that prefills and decodes on
# GPU 1. (Our own input, in the form of Dynamo's multimodal launch scripts.)

set -e
trap 'echo Cleaning up...; kill 0' EXIT

MODEL_NAME="Qwen/Qwen2.5-VL-7B-Instruct"
TRANSFER_BACKEND="${DYN_SGLANG_DISAGGREGATION_TRANSFER_BACKEND:-nixl}"

while [[ $# -gt 0 ]]; do
    case $1 in
        --model)
            MODEL_NAME=$2
            shift 2
            ;;
        *)
            echo "Unknown option: $1"
            exit 1
            ;;
    esac
done

ENCODE_GPU=${DYN_ENCODE_WORKER_GPU:-0}
WORKER_GPU=${DYN_WORKER_GPU:-1}

python3 -m dynamo.frontend --http-port 8000 &

# the encode worker: the vision tower alone
DYN_SYSTEM_PORT=8081 \
CUDA_VISIBLE_DEVICES=$ENCODE_GPU python3 -m dynamo.sglang \
  --enable-multimodal \
  --disaggregation-mode encode \
  --model-path "$MODEL_NAME" \
  --chat-template qwen2-vl \
  --skip-tokenizer-init &

# the PD worker: prefill and decode in one process
DYN_SYSTEM_PORT=8082 \
CUDA_VISIBLE_DEVICES=$WORKER_GPU python3 -m dynamo.sglang \
  --enable-multimodal \
  --dedicated-mm-encoder \
  --disaggregation-mode pd \
  --model-path "$MODEL_NAME" \
  --page-size 16 \
  --tp 1 \
  --trust-remote-code \
  --skip-tokenizer-init \
  --disaggregation-transfer-backend "$TRANSFER_BACKEND" &

wait -n
