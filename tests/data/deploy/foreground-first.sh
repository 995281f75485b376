#!/bin/bash
# A warm-up run in the foreground, then the server: the first is over
# before the second starts, so port 8000 and GPU 0 are never shared.
CUDA_VISIBLE_DEVICES=0 vllm serve org/m --port 8000 --max-num-seqs 1
CUDA_VISIBLE_DEVICES=0 vllm serve org/m --port 8000 &
wait
