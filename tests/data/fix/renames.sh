#!/bin/bash
# Renamed and deprecated flags (tests/fix.sh), in the form of real SGLang
# launch scripts for DeepSeek sparse attention models (GLM-5 benchmarks
# pass --nsa-decode-backend and --nsa-prefill-backend). SGLang 0.5.13
# deprecates the NSA backend flags for their DSA names, the same choices:
# a rename, fixed, the value kept. --enable-piecewise-cuda-graph points to
# --enforce-piecewise-cuda-graph, a switch of another meaning, and
# --enable-flashmla (removed in 0.4.10) to --attention-backend, which
# takes a value: named, not fixed.
# SGLang 0.5.13
python3 -m sglang.launch_server --model-path org/glm \
    --tp 8 \
    --nsa-decode-backend trtllm \
    --nsa-prefill-backend=flashmla_sparse \
    --enable-piecewise-cuda-graph \
    --enable-flashmla
