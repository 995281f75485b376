#!/bin/bash
# Approximate KV routing, the new spelling: the negated router flag
python3 -m dynamo.frontend --http-port 8000 --router-mode kv --no-router-kv-events &
python3 -m dynamo.vllm --model org/m --enable-prefix-caching &
wait
