#!/usr/bin/env bash
# The suite's library named through `.` and `..` (read, and named as the
# file it is: ../lib.sh), and after the server a missing file named so
# (named as the file that is not there: ../common/gone.sh).
source "$(dirname "$0")/./../common/../lib.sh"
vllm serve Qwen/Qwen3-8B --port "$PORT" --tensor-parallel-size 2 &
source "$(dirname "$0")/../single/../common/./gone.sh"
wait
