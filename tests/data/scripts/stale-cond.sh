#!/bin/bash
# The same test twice with its variable assigned in between: two decisions,
# not one (four variants), since $MODE may differ the second time.
MODE=$(cat /etc/mode)
if [ "$MODE" = small ]; then SEQS=64; else SEQS=128; fi
MODE=$(cat /etc/mode.override)
if [ "$MODE" = small ]; then TP=1; else TP=2; fi
vllm serve Qwen/Qwen3-0.6B --max-num-seqs "$SEQS" --tensor-parallel-size "$TP"
