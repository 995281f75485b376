#!/bin/bash
# Aggregated serving with KV routing: two vLLM workers behind the Dynamo
# frontend, in the form of Dynamo's agg_router.sh, but the frontend is
# started without --router-mode: it routes round-robin, its default (SL6009)

python3 -m dynamo.frontend --http-port 8000 &

CUDA_VISIBLE_DEVICES=0 python3 -m dynamo.vllm --model org/m --enforce-eager &
CUDA_VISIBLE_DEVICES=1 python3 -m dynamo.vllm --model org/m --enforce-eager &
wait
