#!/bin/bash
# Runs inside the container.
vllm serve deepseek-ai/DeepSeek-R1 --tensor-parallel-size 8 --max-num-seqs 64
