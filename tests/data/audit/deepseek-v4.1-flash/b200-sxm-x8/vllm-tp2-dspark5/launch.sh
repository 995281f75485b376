# DeepSeek V4.1 Flash (MXFP4) on B200 (SXM) x8 — vLLM 0.31.0, TP2 on 2 of the node's 8 GPUs, DSpark speculative decoding
# (5 tokens, probabilistic draft, block verification; adaptive verification off, as it crashes vLLM DSpark at high concurrency on
# B300/GB300). Otherwise vLLM recipes B200 TP2 settings (FP8 KV cache, Engram tables in host memory, max-num-seqs 128)
# with Rust frontend, uvicorn access log off, max-model-len 262144.
# Weights: deepseek-ai/DeepSeek-V4.1-Flash @ dba1be0a40aa45a94ad051997016db3960a90277
# Image: vllm/vllm-openai:v0.31.0 (vLLM 0.31.0, CUDA 13.0)
# Server pinned to the GPUs' NUMA node.
docker run -d \
  --gpus '"device=<2 GPUs>"' \
  --ipc=host \
  --shm-size=32g \
  --network host \
  --ulimit memlock=-1 \
  -v <host-path>:/hub:ro \
  -e VLLM_ENGINE_READY_TIMEOUT_S=3600 \
  -e VLLM_USE_RUST_FRONTEND=1 \
  --entrypoint vllm \
  vllm/vllm-openai:v0.31.0 \
  serve deepseek-ai/DeepSeek-V4.1-Flash \
    --served-model-name deepseek-ai/DeepSeek-V4.1-Flash \
    --host 127.0.0.1 \
    --port 30014 \
    --tensor-parallel-size 2 \
    --trust-remote-code \
    --tokenizer-mode auto \
    --tool-call-parser deepseek_v41 \
    --enable-auto-tool-choice \
    --reasoning-parser deepseek_v41 \
    --attention-config '{"backend":"FLASHINFER_MLA_SPARSE_DSV41","indexer_kv_dtype":"mxfp4","indexer_sparse_logits":true}' \
    --kv-cache-dtype fp8 \
    --engram-config '{"cpu_offload":true}' \
    --max-model-len 262144 \
    --enable-prompt-tokens-details \
    --disable-uvicorn-access-log \
    --max-num-seqs 128 \
    --speculative-config '{"method":"dspark","num_speculative_tokens":5,"draft_sample_method":"probabilistic","rejection_sample_method":"block","enable_adaptive_verification":false}'
