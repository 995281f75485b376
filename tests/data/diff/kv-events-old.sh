#!/bin/bash
# Approximate KV routing, the old spelling: a store_false flag of its own
python3 -m dynamo.frontend --http-port 8000 --router-mode kv --no-kv-events &
python3 -m dynamo.vllm --model org/m --enable-prefix-caching &
wait
