#!/bin/bash
# Kimi K2 with data parallel 16 over two nodes, 8 ranks each: the form of
# vllm-project/recipes moonshotai/Kimi-K2.md (its second node headless)
vllm serve moonshotai/Kimi-K2-Instruct --port 8000 --trust-remote-code --data-parallel-size 16 --data-parallel-size-local 8 --data-parallel-address 10.0.0.1 --data-parallel-rpc-port 13345 --enable-expert-parallel --max-model-len 8192
vllm serve moonshotai/Kimi-K2-Instruct --headless --data-parallel-start-rank 8 --trust-remote-code --data-parallel-size 16 --data-parallel-size-local 8 --data-parallel-address 10.0.0.1 --data-parallel-rpc-port 13345 --enable-expert-parallel --max-model-len 8192
