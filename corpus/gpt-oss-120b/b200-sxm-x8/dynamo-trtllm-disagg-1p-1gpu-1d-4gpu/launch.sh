#!/bin/bash
# gpt-oss-120b (FP4) on B200 — TensorRT-LLM 1.3.0rc12.post1 + NVIDIA Dynamo, disaggregated:
# 1x prefill worker (GPU0, TP1) + 1x decode worker (GPU1..4, TP4 via
# mpirun trtllm-llmapi-launch per the NVIDIA recipe), Dynamo frontend (:8000)
# with KV-aware routing. EAGLE3 speculative decoding (3 draft tokens) on both roles.
set -u
export DYN_REQUEST_PLANE=tcp
export DYN_EVENT_PLANE=zmq
export UCX_TLS=cuda_ipc,cuda_copy,tcp,self
export DYN_REASONING_PARSER=gpt_oss
export DYN_TOOL_CALL_PARSER=harmony
export ETCD_ENDPOINTS=http://localhost:2379
MODEL_PATH=openai/gpt-oss-120b
SERVED=gpt-oss-120b

etcd --data-dir /tmp/etcd --listen-client-urls http://0.0.0.0:2379 \
  --advertise-client-urls http://localhost:2379 &
sleep 4

# Prefill worker (GPU0, TP1)
CUDA_VISIBLE_DEVICES=0 python3 -m dynamo.trtllm \
  --model-path "$MODEL_PATH" --served-model-name "$SERVED" \
  --disaggregation-mode prefill --extra-engine-args /work/nsc_prefill_engine.yaml \
  --request-plane tcp --event-plane zmq &

# Decode worker (GPU1..4, TP4 via mpirun)
CUDA_VISIBLE_DEVICES=1,2,3,4 mpirun --allow-run-as-root -n 4 trtllm-llmapi-launch \
  python3 -m dynamo.trtllm \
  --model-path "$MODEL_PATH" --served-model-name "$SERVED" \
  --disaggregation-mode decode --extra-engine-args /work/nsc_decode_engine_tp4.yaml \
  --request-plane tcp --event-plane zmq &

# Dynamo frontend (KV router, :8000)
python3 -m dynamo.frontend --http-port 8000 --request-plane tcp --event-plane zmq \
  --router-mode kv --no-router-kv-events --router-ttl-secs 2400.0 &
