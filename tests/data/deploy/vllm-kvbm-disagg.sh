#!/bin/bash
# Dynamo + vLLM with KVBM offload on the prefill side: prefill's PdConnector
# wraps KVBM and NIXL, decode speaks NIXL alone; the two pair.
MODEL="Qwen/Qwen3-0.6B"
python -m dynamo.frontend --http-port 8000 &
DYN_SYSTEM_PORT=8081 CUDA_VISIBLE_DEVICES=0 python3 -m dynamo.vllm --model "$MODEL" \
  --disaggregation-mode decode \
  --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_both"}' &
DYN_SYSTEM_PORT=8082 VLLM_NIXL_SIDE_CHANNEL_PORT=20097 CUDA_VISIBLE_DEVICES=1 \
  python3 -m dynamo.vllm --model "$MODEL" --disaggregation-mode prefill \
  --kv-transfer-config '{"kv_connector":"PdConnector","kv_role":"kv_both","kv_connector_extra_config":{"connectors":[{"kv_connector":"DynamoConnector","kv_connector_module_path":"kvbm.vllm_integration.connector","kv_role":"kv_both"},{"kv_connector":"NixlConnector","kv_role":"kv_both"}]}}' &
wait
