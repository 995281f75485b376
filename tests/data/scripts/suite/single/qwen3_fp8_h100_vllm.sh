#!/usr/bin/env bash
# Qwen3 8B on H100, vLLM: the library one folder up sets the port and the
# memory share.
source "$(dirname "$0")/../lib.sh"

MODEL=Qwen/Qwen3-8B
check_env_vars TP CONC

vllm serve "$MODEL" --port "$PORT" \
    --tensor-parallel-size "$TP" \
    --gpu-memory-utilization "$GPU_MEM_UTIL" \
    --max-num-seqs "$CONC" &
wait
