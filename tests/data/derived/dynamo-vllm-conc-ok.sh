#!/bin/bash
# The same disaggregated form at concurrency 384, the decode worker now
# capping 256 requests on each of its 8 DP ranks (2,048 in all, as the
# recipe it follows): no SL4012, though the prefill worker caps 32 x 8.
python3 -m dynamo.frontend --router-mode round-robin &
python3 -m dynamo.vllm --model org/m --is-prefill-worker \
    --data-parallel-size 8 --enable-expert-parallel --max-num-seqs 32 &
python3 -m dynamo.vllm --model org/m \
    --data-parallel-size 8 --enable-expert-parallel --max-num-seqs 256 &
wait
