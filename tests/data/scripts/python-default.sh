#!/bin/bash
# vLLM's OpenAI server run as a module by an interpreter the caller may
# choose: ${PY:-python3} falls back to python3 when PY is unset, and
# $PYTHON -X options before -m are the interpreter's, not the engine's.
# An interpreter running a module servelint does not know stays unknown.

PY=${PYTHON:-python3}
$PY -c 'import vllm; print(vllm.__version__)'

$PYTHON -X faulthandler -m vllm.entrypoints.openai.api_server \
    --model "$MODEL" \
    --tensor-parallel-size "${TP:-4}" \
    --max-num-seqs 256 \
    --port 8000 &

$PYTHON -m my_tools.warmup --port 8000
