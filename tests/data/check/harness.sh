#!/usr/bin/env bash
# A benchmark harness script in the form suites use: the job passes the
# model, the parallelism and the lengths in the environment, so the script
# sets none of them (SL0004 names them, one finding for the service, and
# does not fail check by default; tests/check.sh).
set -euo pipefail

PORT=${PORT:-8888}
MAX_MODEL_LEN=$((ISL + OSL + 256))

vllm serve "$MODEL" --host 0.0.0.0 --port "$PORT" \
    --tensor-parallel-size "$TP" \
    --max-model-len "$MAX_MODEL_LEN" \
    --max-num-seqs "$CONC" \
    --gpu-memory-utilization 0.9 > "$SERVER_LOG" 2>&1 &
wait
