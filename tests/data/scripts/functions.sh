#!/bin/bash
# Servers started by a helper function: its body runs where it is called,
# with the call's words as $1, "$@" (after a shift).
start_worker() {
    local gpus=$1 port=$2
    shift 2
    CUDA_VISIBLE_DEVICES=$gpus python3 -m sglang.launch_server \
        --model-path deepseek-ai/DeepSeek-V3 --port "$port" "$@" &
}

wait_for_server() {
    until curl -sf "localhost:$1/health"; do sleep 5; done
}

start_worker 0,1,2,3 30000 --tp 4 --disaggregation-mode prefill
start_worker 4,5,6,7 30001 --tp 4 --disaggregation-mode decode --max-running-requests 128
wait_for_server 30000
