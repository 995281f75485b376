#!/bin/bash
# A flag given three times, the last ending its command, in a `bash -c`
# string and in the script, and a switch given `true` (tests/fix.sh): one
# --fix run deletes every repeat and the stray word.
docker run --gpus all --network host vllm/vllm-openai:v0.11.0 bash -c "vllm serve org/m \
    --max-num-seqs 64 \
    --max-num-seqs 64 \
    --max-num-seqs 64 \
    --enforce-eager true"
vllm serve org/m2 --port 8001 --trust-remote-code true \
    --max-model-len 4096 \
    --max-model-len 4096 \
    --max-model-len 4096
