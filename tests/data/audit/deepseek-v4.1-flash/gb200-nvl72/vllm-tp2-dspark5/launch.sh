# DeepSeek V4.1 Flash (MXFP4) on GB200 NVL72 — vLLM 0.31.0 in-flight batching on 2 of a tray's 4 GPUs, TP2,
# DSpark speculative decoding (5 draft tokens, probabilistic drafts, block rejection, adaptive verification off),
# FlashInfer sparse MLA attention with an MXFP4 indexer, FP8 KV cache, Engram tables in host memory,
# Rust frontend.
# Weights: deepseek-ai/DeepSeek-V4.1-Flash
# Image: vllm-v0310.sqsh (vLLM 0.31.0, aarch64)
# Server pinned to the Grace CPU socket attached to its GPUs.
export CUDA_VISIBLE_DEVICES=0,1
export VLLM_ENGINE_READY_TIMEOUT_S=3600
export VLLM_USE_RUST_FRONTEND=1
vllm serve deepseek-ai/DeepSeek-V4.1-Flash \
  --served-model-name deepseek-ai/DeepSeek-V4.1-Flash \
  --host 0.0.0.0 \
  --port 8000 \
  --tensor-parallel-size 2 \
  --trust-remote-code \
  --tokenizer-mode deepseek_v41 \
  --tool-call-parser deepseek_v41 \
  --enable-auto-tool-choice \
  --reasoning-parser deepseek_v41 \
  --language-model-only \
  --enable-prompt-tokens-details \
  --disable-uvicorn-access-log \
  --attention-config '{"backend":"FLASHINFER_MLA_SPARSE_DSV41","indexer_kv_dtype":"mxfp4","indexer_sparse_logits":true}' \
  --kv-cache-dtype fp8 \
  --engram-config '{"cpu_offload":true}' \
  --max-num-seqs 128 \
  --max-model-len 262144 \
  --speculative-config '{"method":"dspark","num_speculative_tokens":5,"draft_sample_method":"probabilistic","rejection_sample_method":"block","enable_adaptive_verification":false}'
