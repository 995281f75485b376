#!/bin/bash
# Gemma on a TPU v6e host, the published vLLM TPU image given engine flags
# alone, the way vLLM's recipes run it: its entrypoint is assumed to be
# `vllm serve` (show notes it).
docker run -it --rm --privileged --net host --shm-size 16G \
    -v "$HOME/.cache/huggingface:/root/.cache/huggingface" \
    vllm/vllm-tpu:nightly \
    --model google/gemma-4-12b-it --tensor-parallel-size 4 --max-model-len 16384 --port 8000
