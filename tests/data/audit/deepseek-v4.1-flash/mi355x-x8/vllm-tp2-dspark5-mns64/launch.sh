# DeepSeek V4.1 Flash (MXFP4) on MI355X x8 — vLLM ROCm nightly, TP2 on GPUs 0-1, DSpark speculative decoding
# (5 tokens, probabilistic draft, block verification; adaptive verification off, not supported on ROCm).
# vLLM recipes DeepSeek V4.1 Flash MI355X settings: AITER MoE, MXFP4 sparse indexer, block size 128, breakable CUDA
# graphs, --no-swa-bounded-replay, Engram tables in pinned host memory; Rust frontend, max-model-len 262144, max-num-seqs 64.
# Weights: deepseek-ai/DeepSeek-V4.1-Flash @ dba1be0a40aa45a94ad051997016db3960a90277
# Image: vllm/vllm-openai-rocm:nightly-rocm100-bb87d227d4b964abb2a966cdf9194f3d376d9bbe (vLLM 0.31.1rc1.dev1+gbb87d227d, ROCm 10.0.0)
# Server pinned to the GPUs' NUMA node.
docker run -d \
  --device=/dev/kfd \
  --device=/dev/dri \
  --group-add 44 \
  --group-add 992 \
  --security-opt seccomp=unconfined \
  --ipc=host \
  --shm-size=32g \
  --network host \
  --privileged \
  --ulimit memlock=-1 \
  --ulimit nofile=1048576:1048576 \
  -v <host-path>:/cache \
  -v <host-path>:/root/.cache/vllm \
  -e HF_HOME=/cache \
  -e HF_HUB_OFFLINE=1 \
  -e VLLM_ROCM_USE_AITER=1 \
  -e VLLM_ROCM_USE_AITER_MOE=1 \
  -e AITER_TRITON_LOG_LEVEL=ERROR \
  -e VLLM_USE_BREAKABLE_CUDAGRAPH=1 \
  -e VLLM_ROCM_USE_AITER_TRITON_SPARSE_MLA=1 \
  -e VLLM_ROCM_QUICK_REDUCE_QUANTIZATION=INT4 \
  -e OMP_NUM_THREADS=1 \
  -e VLLM_ENGINE_READY_TIMEOUT_S=3600 \
  -e VLLM_USE_RUST_FRONTEND=1 \
  -e ROCR_VISIBLE_DEVICES=0,1 \
  -e HIP_VISIBLE_DEVICES=0,1 \
  --entrypoint bash \
  vllm/vllm-openai-rocm:nightly-rocm100-bb87d227d4b964abb2a966cdf9194f3d376d9bbe \
  -c "exec vllm serve deepseek-ai/DeepSeek-V4.1-Flash \
    --served-model-name '<b class=x>flash</b>' \
    --host 127.0.0.1 \
    --port 30000 \
    --language-model-only \
    --tokenizer-mode deepseek_v41 \
    --tool-call-parser deepseek_v41 \
    --enable-auto-tool-choice \
    --reasoning-parser deepseek_v41 \
    --moe-backend aiter \
    --gpu-memory-utilization 0.9 \
    --no-swa-bounded-replay \
    --attention-config '{\"indexer_kv_dtype\":\"mxfp4\",\"indexer_sparse_logits\":true}' \
    --block-size 128 \
    --speculative-config '{\"method\":\"dspark\",\"num_speculative_tokens\":5,\"draft_sample_method\":\"probabilistic\",\"rejection_sample_method\":\"block\",\"enable_adaptive_verification\":false}' \
    --max-model-len 262144 \
    --max-num-batched-tokens 16384 \
    --enable-prompt-tokens-details \
    --disable-uvicorn-access-log \
    --tensor-parallel-size 2 \
    --engram-config '{\"cpu_offload\":true}' \
    --max-num-seqs 64 \
    --max-cudagraph-capture-size 384"
