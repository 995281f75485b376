#!/bin/bash
# servelint run test entry: vLLM inside docker; --native runs the stand-in
# directly with the container's env and the -v paths mapped back.
docker run --gpus all --network host \
  -v <host-path>:/models \
  -e STANDIN_MODE=serve -e HF_HOME=/models/hf \
  vllm/vllm-openai:v0.11.0 \
  vllm serve /models/Qwen3-0.6B --port $PORT --download-dir /models/cache
