#!/bin/bash
# Kimi K2 (FP8) on one 8-GPU H200 node: our own launch, in the
# form of vllm-project/recipes moonshotai/Kimi-K2.md
vllm serve moonshotai/Kimi-K2-Instruct --trust-remote-code --tensor-parallel-size 8 --max-model-len 131072
