#!/bin/bash
# Kimi K2 80G*16 GPU with FP8 weights
vllm serve moonshotai/Kimi-K2-Instruct --trust-remote-code --tensor-parallel-size 16 --max-model-len 2048 --kv-cache-dtype fp8
