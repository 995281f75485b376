#!/bin/bash
# Kimi K2 at TP8 x PP2 started as one process with nothing that spreads it
# over nodes: 16 ranks, one 8-GPU H200 node
vllm serve moonshotai/Kimi-K2-Instruct --trust-remote-code --tensor-parallel-size 8 --pipeline-parallel-size 2 --max-model-len 2048 --kv-cache-dtype fp8
