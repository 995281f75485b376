#!/bin/bash
# Kimi K2 over two 8-GPU H200 nodes, pipeline across them: our own launch
# in the form of vllm-project/recipes moonshotai/Kimi-K2.md, where the
# comment alone says the command runs on a Ray cluster of both nodes

# start ray on node 0 and node 1

# node 0:
vllm serve moonshotai/Kimi-K2-Instruct --trust-remote-code --tensor-parallel-size 8 --pipeline-parallel-size 2 --max-model-len 2048 --kv-cache-dtype fp8
