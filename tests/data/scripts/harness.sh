#!/usr/bin/env bash
# A benchmark harness around one vLLM server: most of its conditionals are
# about the job (slurm, downloads, eval runs, log names), two are about
# the server (DP attention, tested twice, and expert parallelism, whose
# ${EP_SIZE:-1} the harness may well set).

if [[ -n "$SLURM_JOB_ID" ]]; then
  echo "JOB $SLURM_JOB_ID running on $SLURMD_NODENAME"
fi

nvidia-smi
if [[ "$MODEL" != /* ]]; then hf download "$MODEL"; fi

PARALLEL_ARGS=(--tensor-parallel-size "$TP" --data-parallel-size 1)
if [ "${DP_ATTENTION}" = "true" ]; then
    PARALLEL_ARGS=(--tensor-parallel-size 1 --data-parallel-size "$TP")
fi

EP_ARGS=()
if [ "${EP_SIZE:-1}" -gt 1 ]; then
    EP_ARGS=(--enable-expert-parallel)
fi

MOE_ARGS=()
if [ "${DP_ATTENTION}" = "true" ]; then
    MOE_ARGS=(--enable-eplb)
fi

if [ "${EVAL_ONLY}" = "true" ]; then
    SERVER_LOG=/workspace/eval_server.log
else
    SERVER_LOG=/workspace/server.log
fi

vllm serve "$MODEL" --host 0.0.0.0 --port "$PORT" \
    --kv-cache-dtype fp8 \
    "${PARALLEL_ARGS[@]}" \
    "${EP_ARGS[@]}" \
    "${MOE_ARGS[@]}" \
    --max-model-len "$MAX_MODEL_LEN" > "$SERVER_LOG" 2>&1 &

SERVER_PID=$!
wait_for_server_ready --port "$PORT" --server-log "$SERVER_LOG" --server-pid "$SERVER_PID"

run_benchmark_serving --model "$MODEL" --port "$PORT" --max-concurrency "$CONC"

if [ "${RUN_EVAL}" = "true" ]; then
    run_eval --framework lm-eval --port "$PORT"
    append_lm_eval_summary
fi
