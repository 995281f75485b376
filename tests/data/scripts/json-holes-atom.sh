#!/bin/bash
# ATOM prefill and decode built as command strings and run with eval, their
# --kv-transfer-config holding the node's address and a port the caller
# gives (the form benchmark harnesses across nodes use): the roles are read
# from kv_role, the address and the port left unknown.
MODEL_DIR=/models/org-model
HANDSHAKE_PORT=6301

PREFILL_CMD="python3 -m atom.entrypoints.openai_server \
    --model ${MODEL_DIR} --server-port 8010 --trust-remote-code \
    --kv-transfer-config '{\"kv_role\":\"kv_producer\",\"kv_connector\":\"mooncake\",\"proxy_ip\":\"${NODE0_ADDR}\",\"handshake_port\":${HANDSHAKE_PORT}}'"
eval "$PREFILL_CMD" 2>&1 | tee prefill.log &

DECODE_CMD="python3 -m atom.entrypoints.openai_server \
    --model ${MODEL_DIR} --server-port 8020 --trust-remote-code \
    --kv-transfer-config '{\"kv_role\":\"kv_consumer\",\"kv_connector\":\"mooncake\",\"proxy_ip\":\"${NODE0_ADDR}\",\"handshake_port\":${PROXY_PORT}}'"
eval "$DECODE_CMD" 2>&1 | tee decode.log &
wait
