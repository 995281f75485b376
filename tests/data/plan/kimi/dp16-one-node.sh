#!/bin/bash
# Data parallel 16 in one `vllm serve` with no flag of a deployment across
# nodes: it starts all sixteen ranks on its own node of 8 GPUs
vllm serve moonshotai/Kimi-K2-Instruct --port 8000 --trust-remote-code --data-parallel-size 16 --enable-expert-parallel --max-model-len 8192
