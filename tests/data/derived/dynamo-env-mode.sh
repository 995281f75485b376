#!/bin/bash
# KV-aware routing set through the frontend's environment (DYN_ROUTER_MODE,
# the twin of --router-mode): no SL6009
DYN_ROUTER_MODE=kv python3 -m dynamo.frontend --http-port 8000 &
python3 -m dynamo.vllm --model org/m &
wait
