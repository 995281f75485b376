#!/usr/bin/env bash
# A launch script that keeps its settings in scripts beside it: env.sh
# (model, TP, an export, the function that starts the decode worker) and
# args.sh (batching), which sources env.sh again; loop.sh sources itself (a
# cycle, refused); a script of a subfolder is read as well; the suite's
# library one folder up is not there (not found: unknown after it).
PORT=8000
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$SCRIPT_DIR/env.sh"
. ./args.sh
source loop.sh
vllm serve "$MODEL" --port "$PORT" --tensor-parallel-size "$TP" --max-num-seqs "$SEQS" &
serve_decode &
source lib/extra.sh
vllm serve "$MODEL" --port 8002 &
source "$(dirname "$0")/../benchmark_lib.sh"
vllm serve "$MODEL" --port 8003 &
wait
