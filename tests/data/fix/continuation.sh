#!/bin/bash
# Backslashes that do not continue (tests/fix.sh): a blank after one, in
# the script and in a `bash -c` string, and one onto an empty line.
vllm serve org/m \ 
    --max-num-seqs 64 \

    --port 8000
docker run --gpus all --network host vllm/vllm-openai:v0.11.0 bash -c "vllm serve org/m2 \	
    --port 8001"
