#!/bin/bash
# TP and CONC come from the harness.
python3 -m sglang.launch_server --model-path "$MODEL_PATH" \
  --tp $TP --max-running-requests $CONC --context-length $((ISL + OSL))
