#!/bin/bash
# SGLang DP attention on one 8-GPU node, batch 64 per rank at concurrency
# 256. --max-running-requests is the server's under DP attention, 256 // 8
# = 32 on each rank: the batch stated is beyond it (SL4012); the 256 in
# all are not.
python3 -m sglang.launch_server --model-path org/m --tp 8 --dp 8 --enable-dp-attention \
    --max-running-requests 256 --port 30000
