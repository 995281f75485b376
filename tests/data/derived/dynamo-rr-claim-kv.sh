#!/bin/bash
# The header says round-robin routing, but the frontend routes by the
# workers' KV caches: SL6009 points at the header and names the setting
python3 -m dynamo.frontend --http-port 8000 --router-mode kv &
python3 -m dynamo.vllm --model org/m &
wait
