#!/bin/bash
# A header claim rewritten to the command's value (tests/fix.sh).
# Llama 3.1 70B on H100 x8, TP8, vLLM
vllm serve org/llama-70b --tensor-parallel-size 4 --max-num-seqs 64
