#!/bin/bash
# Two small models on GPU 0, split on purpose (0.45 + 0.45); a third and
# fourth on GPU 1 that each keep vLLM's default 0.9.
CUDA_VISIBLE_DEVICES=0 vllm serve org/small-a --gpu-memory-utilization 0.45 --port 8001 &
CUDA_VISIBLE_DEVICES=0 vllm serve org/small-b --gpu-memory-utilization 0.45 --port 8002 &
CUDA_VISIBLE_DEVICES=1 vllm serve org/small-c --port 8003 &
CUDA_VISIBLE_DEVICES=1 vllm serve org/small-d --port 8004 &
wait
