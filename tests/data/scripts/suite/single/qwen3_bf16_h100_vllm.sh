#!/usr/bin/env bash
# The same model in BF16, started by the library's helper (eager or not);
# the library found through SCRIPT_DIR, as harnesses compute it. The
# helper's arguments are set only after it ran (too late).
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "${SCRIPT_DIR}/../lib.sh"

MODEL=Qwen/Qwen3-8B
start_server_default
SERVE_ARGS="--max-model-len 8192"
wait
