#!/bin/bash
# Concurrency stated where the cap is not known, or more than one load is
# stated: nothing is held (no SL4012).
#   - the harness passes the cap ($CONC);
#   - the second server leaves --max-num-seqs to its default, resolved at
#     run time from the GPU's memory.
# Tuned for concurrency 512.
vllm serve org/m --data-parallel-size 8 --max-num-seqs "$CONC" --port 8000 &
vllm serve org/m --data-parallel-size 2 --port 8001 &
wait
