#!/bin/bash
# trtllm-serve TEP8 at concurrency 1024.
# Tensor parallel 8 with the experts over 8 and attention not data
# parallel: the eight ranks run one batch of at most max_batch_size 128,
# below the load stated (SL4012).
trtllm-serve org/moe-model --backend pytorch --host 0.0.0.0 --port 8000 \
    --tp_size 8 --ep_size 8 --max_batch_size 128 --max_num_tokens 8192
