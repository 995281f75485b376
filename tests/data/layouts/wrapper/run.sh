#!/bin/bash
# Starts the server container; the server itself is inner.sh.
docker run --rm --gpus all --ipc=host \
  -e VLLM_USE_V1=1 \
  -v "$PWD":/work \
  --entrypoint=/bin/bash \
  vllm/vllm-openai:v0.11.0 /work/inner.sh
