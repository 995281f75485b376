#!/usr/bin/env bash
# Three containers on one node: the vLLM image's own entrypoint, an image
# whose entrypoint is not listed but whose name says vLLM, and the SGLang
# image, which runs the command it is given; then NGC's TensorRT-LLM image
# given only flags (it runs a command: engine unknown) and an unknown image
# given --model and --port (an unknown engine).
docker run -itd --rm --name vllm-a --gpus '"device=0,1"' --ipc host --shm-size 32g \
    --network host --ulimit memlock=-1 --security-opt seccomp=unconfined \
    -e VLLM_LOGGING_LEVEL=INFO -v /models:/models \
    vllm/vllm-openai:v0.11.0 --model /models/org-m --tensor-parallel-size 2 --port 8000
docker run -d --rm --device /dev/kfd --device /dev/dri --group-add video --cap-add SYS_PTRACE \
    --privileged -w /work --env-file run.env \
    myorg/vllm-rocm-custom:nightly --model org/m --tensor-parallel-size 4 --port 8001
docker run --rm --gpus all --ipc=host lmsysorg/sglang:v0.5.4 \
    python3 -m sglang.launch_server --model-path org/m --tp 2 --port 8002
docker run --rm --gpus all nvcr.io/nvidia/tensorrt-llm/release:1.2.0 --model org/m --port 8003
docker run --rm --gpus all other/server:1 --model org/m --port 8003
