#!/usr/bin/env bash
# Parameters as variables, the way benchmark harnesses pass them: the
# harness exports CONC and SERVER_LOG; everything else has a default here.
set -x

MODEL=${MODEL:-deepseek-ai/DeepSeek-R1}
TP=8
EP_SIZE=${EP_SIZE:-4}
export PORT=8888
MAX_BATCH=$((CONC * 3 / 2))
CTX=$(( 1024 * 8 + 256 ))

wait_for_server() {
    until curl -s "localhost:$1/health" > /dev/null; do sleep 5; done
}

trtllm-serve "$MODEL" --tp_size $TP --ep_size=$EP_SIZE \
    --max_batch_size "$MAX_BATCH" --max_seq_len ${CTX} \
    --port $PORT > $SERVER_LOG 2>&1 &

wait_for_server $PORT
