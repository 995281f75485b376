#!/bin/bash
# SGLang PD disaggregation behind sglang_router with cache-aware routing
# stated, in the form of SGLang's PD launch docs, but the router's policy
# is round_robin (SL6009); its default is cache_aware
python3 -m sglang.launch_server --model-path org/m --disaggregation-mode prefill --port 30000 --base-gpu-id 0 &
python3 -m sglang.launch_server --model-path org/m --disaggregation-mode decode --port 30001 --base-gpu-id 1 &
python3 -m sglang_router.launch_router --pd-disaggregation --prefill http://127.0.0.1:30000 --decode http://127.0.0.1:30001 --policy round_robin --port 8000
