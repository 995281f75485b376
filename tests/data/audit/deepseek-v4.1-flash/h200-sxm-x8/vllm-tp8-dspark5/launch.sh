# DeepSeek V4.1 Flash (MXFP4) on H200 (SXM) x8 — vLLM, TP8 on all 8 GPUs, DSpark speculative decoding
# (5 tokens, block rejection sampling, adaptive verification), Rust frontend, uvicorn access log off.
# --max-model-len 262144 and --gpu-memory-utilization 0.92: at the default 1M context the draft left no KV blocks.
# Weights: deepseek-ai/DeepSeek-V4.1-Flash @ dba1be0a40aa45a94ad051997016db3960a90277
# Image: vllm/vllm-openai:deepseekv41-flash-0909 (vLLM 0.1.dev20904+g179dd0fa9)
docker run -d \
  --gpus '"device=<8 GPUs>"' \
  --ipc=host --shm-size=32g --network host \
  --ulimit memlock=-1 \
  -v <host-path>:/hub:ro \
  -e VLLM_ENGINE_READY_TIMEOUT_S=3600 \
  -e VLLM_USE_RUST_FRONTEND=1 \
  --entrypoint vllm \
  vllm/vllm-openai:deepseekv41-flash-0909 \
  serve deepseek-ai/DeepSeek-V4.1-Flash \
    --served-model-name deepseek-ai/DeepSeek-V4.1-Flash \
    --host 127.0.0.1 \
    --port 30000 \
    --tensor-parallel-size 8 \
    --trust-remote-code \
    --tokenizer-mode deepseek_v41 \
    --tool-call-parser deepseek_v41 \
    --enable-auto-tool-choice \
    --reasoning-parser deepseek_v41 \
    --gpu-memory-utilization 0.92 \
    --max-model-len 262144 \
    --enable-prompt-tokens-details \
    --disable-uvicorn-access-log \
    --speculative-config '{"method":"dspark","num_speculative_tokens":5,"draft_sample_method":"probabilistic","rejection_sample_method":"block","enable_adaptive_verification":true}'
