# NVIDIA Dynamo 1.5.0 + vLLM 0.30.0 disaggregated serving of DeepSeek V4.1 Flash (MXFP4) on GB300 NVL72 —
# 4 GPUs: 1x prefill worker + 1x decode worker, each TP2 on GPUs 0-1 of its own tray; DSpark speculative
# decoding on both (5 draft tokens, probabilistic drafts, block rejection, adaptive verification); NIXL (UCX)
# KV transfer. etcd and the Dynamo frontend (KV-aware routing) share a third tray that does no GPU work.
# Weights: deepseek-ai/DeepSeek-V4.1-Flash
# Image: vllm-v0.30.0-dynamo-rel.sqsh (vLLM 0.30.0 + Dynamo 1.5.0)
# Patched over stock vLLM 0.30.0: vllm#58784, vllm#57662.

# Frontend / router and worker environment (every role; JIT cache paths omitted):
#   ETCD_ENDPOINTS=http://<node2>:2379 HF_HUB_OFFLINE=1 PYTHONUNBUFFERED=1 DSV41_DROP_FIRST_DRAFT=
#   UCX_RCACHE_MAX_UNRELEASED=1024 VLLM_ENGINE_READY_TIMEOUT_S=3600
#   DYN_TCP_RPC_HOST=<node-ip> DYN_TCP_RESPONSE_STREAM_HOST=<node-ip> DYN_EVENT_PLANE_HOST=<node-ip>
#   (<node-ip> = that node's own cluster-network IP)

# Worker environment, in addition:
#   DYN_SYSTEM_PORT=8081 (prefill) / 8091 (decode)

# etcd and the frontend (node 2, no GPUs; OpenAI-compatible on :8000, KV routing, no session-affinity TTL here):
etcd \
  --listen-client-urls http://0.0.0.0:2379 \
  --advertise-client-urls http://<node2>:2379 \
  --listen-peer-urls http://127.0.0.1:2380 \
  --initial-advertise-peer-urls http://127.0.0.1:2380 \
  --initial-cluster default=http://127.0.0.1:2380 \
  --data-dir <host-path>
python3 -m dynamo.frontend \
  --http-host 0.0.0.0 \
  --http-port 8000 \
  --router-mode kv \
  --kv-cache-block-size 128

# Prefill worker (node 0, TP2 on GPUs 0-1):
python3 -m dynamo.vllm \
  --model deepseek-ai/DeepSeek-V4.1-Flash \
  --served-model-name deepseek-ai/DeepSeek-V4.1-Flash \
  --tokenizer-mode deepseek_v41 \
  --dyn-tool-call-parser deepseek_v41 \
  --dyn-reasoning-parser deepseek_v41 \
  --gpu-memory-utilization 0.9 \
  --max-model-len 1048576 \
  --kv-events-config '{"enable_kv_cache_events":true,"publisher":"zmq"}' \
  --trust-remote-code \
  --tensor-parallel-size 2 \
  --speculative-config '{"method":"dspark","num_speculative_tokens":5,"draft_sample_method":"probabilistic","rejection_sample_method":"block","enable_adaptive_verification":true}' \
  --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_producer"}' \
  --disaggregation-mode prefill \
  --router-mode kv \
  --router-session-affinity-ttl-secs 3600

# Decode worker (node 1, TP2 on GPUs 0-1; no --router-* flags):
python3 -m dynamo.vllm \
  --model deepseek-ai/DeepSeek-V4.1-Flash \
  --served-model-name deepseek-ai/DeepSeek-V4.1-Flash \
  --tokenizer-mode deepseek_v41 \
  --dyn-tool-call-parser deepseek_v41 \
  --dyn-reasoning-parser deepseek_v41 \
  --gpu-memory-utilization 0.9 \
  --max-model-len 1048576 \
  --kv-events-config '{"enable_kv_cache_events":true,"publisher":"zmq"}' \
  --trust-remote-code \
  --tensor-parallel-size 2 \
  --speculative-config '{"method":"dspark","num_speculative_tokens":5,"draft_sample_method":"probabilistic","rejection_sample_method":"block","enable_adaptive_verification":true}' \
  --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_consumer"}' \
  --disaggregation-mode decode
