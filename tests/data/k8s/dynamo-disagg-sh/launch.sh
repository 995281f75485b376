#!/bin/bash
# The graph of ../dynamo-disagg/graph.yaml as a shell script on one node,
# except that decode runs TP4.
export DYN_LOG=info
python3 -m dynamo.frontend --http-port 8000 --router-mode kv &
DYN_LOG=debug CUDA_VISIBLE_DEVICES=0,1 python3 -m dynamo.vllm --model Qwen/Qwen3-32B \
  --tensor-parallel-size 2 --is-prefill-worker &
# Decode workers
for gpus in 2,3 4,5; do
  CUDA_VISIBLE_DEVICES=$gpus python3 -m dynamo.vllm --model Qwen/Qwen3-32B \
    --tensor-parallel-size 4 --max-num-seqs 256 &
done
wait
