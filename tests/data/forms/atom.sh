#!/usr/bin/env bash
# ATOM on MI355X x8, TP8, fp8 KV cache.
export OMP_NUM_THREADS=1
BLOCK_SIZE=${BLOCK_SIZE:-16}
python3 -m atom.entrypoints.openai_server \
    --model amd/Model-MXFP4 \
    --server-port 8888 \
    -tp 8 \
    --kv_cache_dtype fp8 --enable-expert-parallel \
    --block-size $BLOCK_SIZE > server.log 2>&1 &
SERVER_PID=$!
run_benchmark_serving --model amd/Model-MXFP4 --port 8888 --backend vllm --num-prompts 80
