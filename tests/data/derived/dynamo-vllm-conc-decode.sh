#!/bin/bash
# GB300 disaggregated DeepSeek: one DEP8 prefill worker and one DEP8 decode
# worker at concurrency 384 (the form of InferenceX's srt-slurm recipes,
# as Dynamo workers). The decode worker caps 32 requests on each of its 8
# DP ranks, 256 in all: SL4012. The prefill worker's cap is not counted.
python3 -m dynamo.frontend --router-mode round-robin &
python3 -m dynamo.vllm --model org/m --is-prefill-worker \
    --data-parallel-size 8 --enable-expert-parallel --max-num-seqs 32 &
python3 -m dynamo.vllm --model org/m \
    --data-parallel-size 8 --enable-expert-parallel --max-num-seqs 32 &
wait
