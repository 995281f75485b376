#!/bin/bash
# A sweep: the header states the load at concurrency 64 for the
# latency arm and at concurrency 1024 for the throughput arm; no one load is
# stated, so nothing is held against --max-num-seqs 128 (no SL4012).
vllm serve org/m --max-num-seqs 128 --port 8000
