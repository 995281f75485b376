# DeepSeek V4.1 Flash (MXFP4) on H200 (SXM) x8 — vLLM, TP4 on 4 of the node's 8 GPUs, DSpark speculative decoding
# (5 tokens, block rejection sampling, adaptive verification).
# --max-model-len 262144 and --gpu-memory-utilization 0.92: at the default 1M context the draft left no KV blocks.
# Weights: deepseek-ai/DeepSeek-V4.1-Flash @ dba1be0a40aa45a94ad051997016db3960a90277
# Image: vllm/vllm-openai:deepseekv41-flash-0909 (vLLM 0.1.dev20904+g179dd0fa9)
docker run -d \
  --gpus '"device=<4 GPUs>"' \
  --ipc=host --shm-size=32g --network host \
  --ulimit memlock=-1 \
  -v <host-path>:/hub:ro \
  -e VLLM_ENGINE_READY_TIMEOUT_S=3600 \
  --entrypoint vllm \
  vllm/vllm-openai:deepseekv41-flash-0909 \
  serve deepseek-ai/DeepSeek-V4.1-Flash \
    --served-model-name deepseek-ai/DeepSeek-V4.1-Flash \
    --host 127.0.0.1 \
    --port 30002 \
    --tensor-parallel-size 4 \
    --trust-remote-code \
    --tokenizer-mode deepseek_v41 \
    --tool-call-parser deepseek_v41 \
    --enable-auto-tool-choice \
    --reasoning-parser deepseek_r1 \
    --gpu-memory-utilization 0.92 \
    --max-model-len 262144 \
    --enable-prompt-tokens-details \
    --speculative-config '{"method":"dspark","num_speculative_tokens":5,"draft_sample_method":"probabilistic","rejection_sample_method":"block","enable_adaptive_verification":true}'
