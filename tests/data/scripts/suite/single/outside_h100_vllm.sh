#!/usr/bin/env bash
# A script that names a library above the repository's top and one that
# is not there: neither is read, and what they may set is unknown after.
TP=8
source "$(dirname "$0")/../../../../../../../../../../../../lib.sh"
source ../missing.sh
vllm serve Qwen/Qwen3-8B --port 8000 --tensor-parallel-size "$TP" &
wait
