#!/usr/bin/env bash
# A benchmark harness whose conditionals are mostly about the job: result
# folders, job tags, profiling and eval switches, client arguments. They
# assign variables that only the harness reads (the client, echo, mkdir,
# logs), never the server: no decision about what is served. One is about
# the server (DP attention).

source "$(dirname "$0")/../common/bench_lib.sh"

RESULT_DIR="${RESULT_DIR:-/tmp/results}"
if [[ -n "${SLURM_JOB_ID:-}" ]]; then
    JOB_TAG="slurm-$SLURM_JOB_ID"
    RESULT_DIR="$RESULT_DIR/$SLURM_JOB_ID"
else
    JOB_TAG="local"
fi
mkdir -p "$RESULT_DIR"

if [ "${PROFILE:-0}" = "1" ]; then
    PROFILE_ARGS="--profile --profile-dir $RESULT_DIR/profile"
else
    PROFILE_ARGS=""
fi

case "${ISL}_${OSL}" in
    1024_1024) NUM_PROMPTS=$((CONC * 10)) ;;
    8192_1024) NUM_PROMPTS=$((CONC * 5)) ;;
    *) NUM_PROMPTS=$((CONC * 2)) ;;
esac

if (( CONC >= 256 )); then
    WARMUP=32
else
    WARMUP=4
fi

SERVER_LOG="$RESULT_DIR/server-$JOB_TAG.log"
if [ "${APPEND_LOG:-0}" = "1" ]; then
    SERVER_LOG="$RESULT_DIR/server.log"
fi

# the server's own decisions
PARALLEL_ARGS=(--tensor-parallel-size "$TP")
if [ "$DP_ATTENTION" = "true" ]; then
    PARALLEL_ARGS=(--tensor-parallel-size 1 --data-parallel-size "$TP" --enable-expert-parallel)
fi

vllm serve "$MODEL" --port "$PORT" "${PARALLEL_ARGS[@]}" > "$SERVER_LOG" 2>&1 &
SERVER_PID=$!
wait_for_server_ready --port "$PORT" --server-log "$SERVER_LOG" --server-pid "$SERVER_PID"

if [ "${EVAL_ONLY}" = "true" ]; then
    run_eval --port "$PORT"
else
    CLIENT_ARGS=(--num-prompts "$NUM_PROMPTS" --num-warmups "$WARMUP")
    CLIENT_ARGS+=($PROFILE_ARGS)
    run_benchmark_serving --model "$MODEL" --port "$PORT" "${CLIENT_ARGS[@]}" \
        --result-dir "$RESULT_DIR" | tee "$RESULT_DIR/client.log"
fi
echo "done: $JOB_TAG"
