#!/bin/bash
# servelint run test entry: a Dynamo deployment of stand-ins: etcd, the
# frontend, a prefill and a decode worker (tests/run.sh).
export ETCD_ENDPOINTS=http://127.0.0.1:$ETCD_PORT
export STANDIN_WORKERS=2

etcd --listen-client-urls http://127.0.0.1:$ETCD_PORT \
  --advertise-client-urls http://127.0.0.1:$ETCD_PORT \
  --data-dir <host-path>
python3 -m dynamo.frontend --http-host 127.0.0.1 --http-port $PORT --router-mode kv

# Prefill worker
python3 -m dynamo.vllm --model Qwen/Qwen3-0.6B --tensor-parallel-size 1 \
  --disaggregation-mode prefill

# Decode worker
python3 -m dynamo.vllm --model Qwen/Qwen3-0.6B --tensor-parallel-size 1 \
  --disaggregation-mode decode
