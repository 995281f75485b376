#!/bin/bash
# servelint run test entry: one vLLM server (the stand-in from tests/run.sh).
# STANDIN_* come from the test's environment; the port is the caller's.
STANDIN_NAME=agg vllm serve <model-path> \
  --served-model-name standin-agg \
  --tensor-parallel-size 1 \
  --max-num-seqs 8 \
  --port "$PORT"
