#!/bin/bash
# vLLM, its flags in vllm.yaml.
vllm serve Qwen/Qwen3-32B --config ./vllm.yaml --port 8001
