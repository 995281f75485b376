#!/bin/bash
# Findings of variants merged: the flag repeated in the else branch (line 7,
# the second variant only) comes before the one of every variant (line 9).
if [ "$MODE" = short ]; then
  ARGS=(--max-num-seqs 8)
else
  ARGS=(--max-num-seqs 8 --max-num-seqs 16)
fi
vllm serve org/m --port 8000 --port 8001 "${ARGS[@]}"
