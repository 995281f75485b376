#!/bin/bash
# servelint run test entry: a detached container whose entrypoint is bash
# (as ROCm entries publish them); only --native can run it.
docker run -d --network host \
  -v <host-path>:/models \
  -e STANDIN_NAME=detached \
  --entrypoint bash \
  vllm/vllm-openai-rocm:nightly \
  -c 'exec vllm serve /models/Qwen3-0.6B --port $PORT --max-num-seqs 16'
