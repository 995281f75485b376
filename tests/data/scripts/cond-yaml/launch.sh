#!/bin/bash
# The compute capability picks the engine YAML of the entry.
CC=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1)
if [ "$CC" = "10.0" ]; then
    CFG=b200.yaml
else
    CFG=h200.yaml
fi
trtllm-serve nvidia/DeepSeek-R1-FP4 --tp_size 8 --config "$CFG"
