#!/usr/bin/env bash
# A fork's own server: not an engine servelint knows, but it serves a model.
my-llm-server --model org/Model --port 8000 --tp 8 --fancy-mode &
python3 -m myfork.serve --model org/Model --port 8001 &
benchmark_client --model org/Model --port 8000 --num-prompts 100
