#!/bin/bash
# Prose that weighs or denies a routing claims none: this layout runs
# without KV routing on purpose, faster than round-robin routing for short
# prompts; the frontend routes at random: no SL6009
python3 -m dynamo.frontend --http-port 8000 --router-mode random &
python3 -m dynamo.vllm --model org/m &
wait
