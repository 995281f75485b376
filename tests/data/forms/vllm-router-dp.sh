#!/usr/bin/env bash
# vLLM with 8 DP ranks behind vLLM's router, KV offloaded to a Mooncake store.
mooncake_master --port 50051 --eviction_high_watermark_ratio=0.80 --eviction_ratio=0.10 &
vllm serve org/Model --data-parallel-size 8 --enable-expert-parallel --port 8001 &
vllm-router \
    --worker-urls "http://localhost:8001" \
    --policy consistent_hash \
    --intra-node-data-parallel-size 8 \
    --host 0.0.0.0 --port 8000 \
    --request-timeout-secs 14400 \
    --disable-retries
