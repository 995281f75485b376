#!/usr/bin/env bash
# The same model in BF16, started by the library's helper, whose own test
# (eager or not) is no variant of the script; the library found through
# SCRIPT_DIR, as harnesses compute it; the helper's arguments set too late.
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "${SCRIPT_DIR}/../lib.sh"

MODEL=Qwen/Qwen3-8B
start_server_default
SERVE_ARGS="--max-model-len 8192"
wait
