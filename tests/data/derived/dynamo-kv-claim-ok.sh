#!/bin/bash
# Two aggregated SGLang workers behind a KV-aware router (the form of
# Dynamo's sglang agg_router.sh): the frontend's arguments in an array,
# the KV mode among them; no SL6009. The workers' data-parallel balancer
# (round_robin) is no routing claim.
FRONTEND_ARGS=(--router-mode kv)

# Frontend with KV routing
python3 -m dynamo.frontend "${FRONTEND_ARGS[@]}" &

CUDA_VISIBLE_DEVICES=0 python3 -m dynamo.sglang --model-path org/m --load-balance-method round_robin &
CUDA_VISIBLE_DEVICES=1 python3 -m dynamo.sglang --model-path org/m --load-balance-method round_robin &
wait
