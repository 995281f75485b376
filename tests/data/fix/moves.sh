#!/bin/bash
# Arguments in the wrong place, moved where their program reads them
# (tests/fix.sh): engine flags before a docker image, mpirun options after
# the program mpirun runs.
TP=8
docker run --gpus all \
    --tensor-parallel-size "$TP" \
    --ipc host \
    -p 8000:8000 \
    vllm/vllm-openai:v0.11.0 \
    --model org/m1 \
    --max-num-seqs 64
docker run --gpus all --enable-prefix-caching --max-model-len=8192 -p 8001:8001 vllm/vllm-openai:v0.11.0 vllm serve org/m2 --port 8001 2>&1 | tee log
mpirun -n 4 \
    trtllm-llmapi-launch trtllm-serve org/m3 --tp_size 4 --port 8002 \
    -x NCCL_DEBUG=INFO \
    --bind-to none
mpirun -n 2 bash -c "trtllm-serve org/m4 --tp_size 2 --port 8003 --allow-run-as-root"
