#!/usr/bin/env bash
# The same model in BF16, started by the library's helper; the library
# found through SCRIPT_DIR, as harnesses compute it.
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "${SCRIPT_DIR}/../lib.sh"

MODEL=Qwen/Qwen3-8B
start_server_default
wait
