#!/bin/bash
# Engine config files named on the command line, one per engine's flag:
# vLLM's --config and SGLang's --config name files this folder does not
# hold, and so does trtllm-serve's --extra_llm_api_options (a path on the
# machine it runs on): their settings are not checked, and SL0004 names
# each. trtllm-serve's --config names the file beside this script; the
# path of the fifth is the caller's (`$CFG`, a setting not known like any
# other); the last leaves both a file and a value unknown.
vllm serve org/model --config /configs/vllm_serve.yaml --port 8000 &
python3 -m sglang.launch_server --model-path org/model --config sglang_args.yaml --port 8001 &
trtllm-serve org/model --extra_llm_api_options /tmp/extra_llm_api.yml --port 8002 &
trtllm-serve org/model --config /work/engine.yaml --port 8003 &
trtllm-serve org/model --config "$CFG" --port 8004 &
vllm serve org/model --config=/configs/decode.yaml --port 8005 --tensor-parallel-size "$TP" &
wait
