#!/usr/bin/env bash
# A benchmark script that sources the suite's shared library after setting
# its port: the library is not read, so the port may be what it sets and is
# unknown after it; what the script sets after the library is known.

PORT=8888
SCRIPT_DIR="$(cd "$(dirname "$0")" && pwd)"
source "$SCRIPT_DIR/../benchmark_lib.sh"

MAX_NUM_SEQS=256
vllm serve "$MODEL" --port "$PORT" \
    --tensor-parallel-size "$TP" \
    --max-num-seqs "$MAX_NUM_SEQS" \
    --gpu-memory-utilization 0.9 &
