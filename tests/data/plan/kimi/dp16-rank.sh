#!/bin/bash
# One data-parallel rank of sixteen, one process a rank (external load
# balancing, the form of vllm-project/recipes moonshotai/Kimi-K2.5.md)
vllm serve moonshotai/Kimi-K2-Instruct --port 8000 --trust-remote-code --tensor-parallel-size 1 --data-parallel-size 16 --data-parallel-rank 0 --data-parallel-address 10.0.0.1 --data-parallel-rpc-port 13345 --enable-expert-parallel --max-model-len 8192
