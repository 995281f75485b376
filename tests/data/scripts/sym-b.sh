#!/bin/bash
# TP fixed, CONC still from the harness, written with braces.
python3 -m sglang.launch_server --model-path "${MODEL_PATH}" \
  --tp 8 --max-running-requests "${CONC}" --context-length $((ISL + OSL))
