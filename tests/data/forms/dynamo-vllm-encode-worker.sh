#!/bin/bash
# Multimodal E/PD with Dynamo 0.9's vLLM worker, as its examples wrote it
# before --disaggregation-mode encode: --multimodal-encode-worker runs the
# vision encoder alone, --multimodal-worker the LLM. (Our own input.)
IMAGE=nvcr.io/nvidia/ai-dynamo/vllm-runtime:0.9.0
MODEL=llava-hf/llava-1.5-7b-hf

docker run -d --network host $IMAGE python -m dynamo.frontend --http-port 8000
docker run -d --gpus '"device=0"' --network host $IMAGE \
  python -m dynamo.vllm --multimodal-encode-worker --model $MODEL
docker run -d --gpus '"device=1"' --network host $IMAGE \
  python -m dynamo.vllm --multimodal-worker --model $MODEL --max-model-len 8192
