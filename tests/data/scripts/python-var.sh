#!/usr/bin/env bash
# An SGLang server and its router launched by an interpreter held in a
# variable (the image's python, kept apart from a venv made for the
# client): `"$SGLANG_PYTHON" -m MODULE` is python whatever the variable
# holds, and the module names the engine. `-m venv` is not an engine.

SGLANG_PYTHON="$(command -v python3)"
"$SGLANG_PYTHON" -m venv "$CLIENT_VENV"

PORT=30000
SGLANG_CMD=(
    "$SGLANG_PYTHON" -m sglang.launch_server
    --model-path "$MODEL_PATH"
    --host 0.0.0.0
    --port $((PORT + 1))
    --tp 8
    --mem-fraction-static 0.85
    --trust-remote-code
)
"${SGLANG_CMD[@]}" > "$RESULT_DIR/server.log" 2>&1 &

"$SGLANG_PYTHON" -m sglang_router.launch_router \
    --worker-urls "http://127.0.0.1:$((PORT + 1))" \
    --host 0.0.0.0 --port "$PORT" &
wait
