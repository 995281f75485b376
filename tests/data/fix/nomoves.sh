#!/bin/bash
# Misplaced arguments whose move is not certain (tests/fix.sh): found, not fixed.
docker run --gpus all --tensor-parallel-size 8 -p 8000:8000 vllm/vllm-openai:v0.11.0 --model org/m1 --tensor-parallel-size 4
docker run --gpus all --tensor-parallel-size $TP -p 8001:8001 vllm/vllm-openai:v0.11.0 --model org/m2 --port 8001
docker run --gpus all --max-num-seqs 64 -p 8002:8002 vllm/vllm-openai:v0.11.0 bash -c "vllm serve org/m3 --port 8002"
docker run --gpus all --max-num-seqs \
    64 -p 8003:8003 vllm/vllm-openai:v0.11.0 --model org/m4 --port 8003
mpirun -n 4 trtllm-serve org/m5 --tp_size 4 --port 8004 -n 8
mpirun -n 4 trtllm-serve org/m6 --tp_size 4 --port 8005 -x A=1 -x A=2
