#!/bin/bash
# Disaggregated vLLM: JSON flag values with escaped quotes inside double
# quotes, irregular spacing and tabs, and a backslash followed by a space.
PORT=8100
KV_ROLE=kv_producer
CUDA_VISIBLE_DEVICES=0,1 vllm serve  meta-llama/Llama-3.3-70B-Instruct   --port $PORT \
	--tensor-parallel-size 2    \
    --kv-transfer-config "{\"kv_connector\":\"NixlConnector\", \"kv_role\":\"$KV_ROLE\"}" \
  --speculative-config '{"method":"eagle3",   "num_speculative_tokens" :  3,"model":"yuhuili/EAGLE3-LLaMA3.3-Instruct-70B"}' &

CUDA_VISIBLE_DEVICES=2,3 vllm serve meta-llama/Llama-3.3-70B-Instruct --port 8200 \ 
  --kv-transfer-config={\"kv_connector\":\"NixlConnector\",\"kv_role\":\"kv_consumer\"} &
