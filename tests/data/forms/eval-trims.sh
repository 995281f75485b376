#!/usr/bin/env bash
# A command built as a string and run with eval, another run word-split
# from a variable, and the trims harnesses use on known values.
MODEL_PATH=/models/org/Model-FP8
SIZES="1, 2, 4, 8, "
TAG=model-fp8
CMD="vllm serve $MODEL_PATH --served-model-name ${TAG/fp8/FP8} --port 8000"
CMD="$CMD --cudagraph-capture-sizes '[${SIZES%, }]' --download-dir ${MODEL_PATH%/*}"
eval "$CMD" &
SRV="python3 -m sglang.launch_server --model-path ${MODEL_PATH##*/} --tp 2 --port 8001"
$SRV &
wait
