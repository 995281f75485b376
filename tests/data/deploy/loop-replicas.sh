#!/bin/bash
# Four vLLM replicas, one per GPU, and a fifth server put on GPU 3 as well.
for i in 0 1 2 3; do
  CUDA_VISIBLE_DEVICES=$i vllm serve org/m --port $((8000 + i)) &
done
CUDA_VISIBLE_DEVICES=3 vllm serve org/draft --port 9000 &
wait
