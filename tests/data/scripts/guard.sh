#!/bin/bash
# Guards: `|| exit 1` may not run, so the script goes on; a missing token
# makes the script fail before the server starts: a note, not a variant.
cd /workspace || exit 1
if [ -z "$HF_TOKEN" ]; then
    echo "HF_TOKEN is not set" >&2
    exit 1
fi
python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B --tp 1 --port 30000
