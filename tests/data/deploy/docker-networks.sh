#!/bin/bash
# Two servers in containers. The bridged ones each have a network of their
# own (port 8000 twice is fine); the two on the host's network collide.
docker run -d --gpus '"device=0"' vllm/vllm-openai:v0.11.0 --model org/a --port 8000
docker run -d --gpus '"device=1"' vllm/vllm-openai:v0.11.0 --model org/b --port 8000
docker run -d --gpus '"device=2"' --network host vllm/vllm-openai:v0.11.0 --model org/c --port 9000
docker run -d --gpus '"device=3"' --network host vllm/vllm-openai:v0.11.0 --model org/d --port 9000
