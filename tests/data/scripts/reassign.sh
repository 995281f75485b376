#!/usr/bin/env bash
# Host KV cache pool: an override defaults to the configured total and then
# replaces it, so TOTAL_DRAM_GB's new value reads its own old one. That is
# ordinary reassignment, not recursion.
set -euo pipefail

TP=${TP:-8}
REQUESTED_POOL_GB="${POOL_OVERRIDE_GB:-$TOTAL_DRAM_GB}"
TOTAL_DRAM_GB="$REQUESTED_POOL_GB"
HOST_POOLS="${HOST_POOLS:-2}"
HICACHE_GB=$((TOTAL_DRAM_GB / TP / HOST_POOLS))

# the same through a second name, both read before either is set
PREV_PORT=$PORT
PORT=$PREV_PORT

python3 -m sglang.launch_server --model-path "$MODEL" --tp "$TP" \
    --port "$PORT" --page-size 64 \
    --enable-hierarchical-cache --hicache-size "$HICACHE_GB"
