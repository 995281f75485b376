#!/usr/bin/env bash
# Images whose entrypoint is the engine take the model as the first word
# after the image, as `vllm serve MODEL` does: the vLLM image, its ROCm
# build written over several lines, and a model held in a quoted variable.
# Not read as a model: an unquoted unknown expansion (it may be several
# words), a word after an image only guessed to be vLLM from its name, and
# a model name after the SGLang and TensorRT-LLM images, which run the
# command they are given. `vllm serve` written after the vLLM image is read
# as written, with a note; `--entrypoint /bin/bash` alone starts a shell.
SERVED=${SERVED:-acme/chat-7b}
docker run -d --gpus all -p 8000:8000 --ipc=host \
    vllm/vllm-openai:v0.10.1 acme/big-moe-fp8 --tensor-parallel-size 8 --max-model-len 32768
docker run -d --device=/dev/kfd --device=/dev/dri --group-add video \
  --security-opt seccomp=unconfined -e VLLM_ROCM_USE_AITER=1 \
  vllm/vllm-openai-rocm:latest \
  acme/big-moe-fp8 \
    --tensor-parallel-size 4 \
    --port 8001
docker run -d --gpus '"device=4"' vllm/vllm-openai:latest "$SERVED" --port 8002
docker run -d --gpus all vllm/vllm-openai:latest $EXTRA_ARGS
docker run -d --gpus all vllm/vllm-openai:v0.11.0 vllm serve acme/small --port 8003
docker run -d --gpus all acme/vllm-fork:2 acme/small --port 8004
docker run -d --gpus all lmsysorg/sglang:v0.5.4 acme/small --tp 2
docker run -d --gpus all nvcr.io/nvidia/tensorrt-llm/release:1.2.0 acme/small
docker run --rm -it --gpus all --entrypoint /bin/bash vllm/vllm-openai:latest
