#!/bin/bash
# TensorRT-LLM, TP4, its LLM API options in trt.yaml.
trtllm-serve serve nvidia/Llama-3.3-70B-Instruct-FP8 --port 8000 \
  --extra_llm_api_options trt.yaml
