#!/bin/bash
# A disaggregated pair whose commands are built as strings and run by eval;
# the strings hold values the shell computes with commands whose own text
# has quotes (awk programs, a python one-liner with a parenthesis inside
# its quotes). Each value is unknown to servelint; the rest is read.
NODE_IP=$(ip -4 route get 8.8.8.8 | awk '/src/ {for (i = 1; i < NF; i++) if ($i == "src") print $(i + 1)}')
SIDE_PORT=$(python3 -c 'print(")".count(")") + 5556)')

PREFILL_CMD="vllm serve Qwen/Qwen3-8B --port 8100 --tensor-parallel-size 2 \
  --kv-transfer-config '{\"kv_connector\":\"NixlConnector\",\"kv_role\":\"kv_producer\",\"kv_ip\":\"${NODE_IP}\",\"kv_port\":$SIDE_PORT}'"
DECODE_CMD="vllm serve Qwen/Qwen3-8B --port 8200 --tensor-parallel-size 2 \
  --kv-transfer-config '{\"kv_connector\":\"NixlConnector\",\"kv_role\":\"kv_consumer\",\"kv_ip\":\"$(hostname -I | awk '{print $1}')\"}'"

CUDA_VISIBLE_DEVICES=0,1 eval "$PREFILL_CMD" &
CUDA_VISIBLE_DEVICES=2,3 eval "$DECODE_CMD" &
wait
