# DeepSeek V4.1 Flash (MXFP4) on B300 x8 — vLLM 0.31.0, TP=8 on all 8 GPUs with vLLM NUMA binding, Rust frontend.
# vLLM recipes B300 settings at TP8 (FLASHINFER_MLA_SPARSE_DSV41 attention, MXFP4 indexer with sparse logits, FP8 KV cache,
# Engram CPU offload, B300 compile and CUDA graph sizes, --max-num-seqs 256, --max-num-batched-tokens 8192), plus text-only mode
# and DSpark speculative decoding (5 tokens, adaptive verification on).
# Weights: deepseek-ai/DeepSeek-V4.1-Flash @ dba1be0a40aa45a94ad051997016db3960a90277
# Image: vllm/vllm-openai:v0.31.0@sha256:c1c9f6fd5c109ba7f0546a59f5b2f15fb87f64c77782e90a27b648b42a8e67c3
VLLM_ENGINE_READY_TIMEOUT_S=3600 \
VLLM_USE_RUST_FRONTEND=1 \
vllm serve deepseek-ai/DeepSeek-V4.1-Flash \
  --served-model-name deepseek-ai/DeepSeek-V4.1-Flash \
  --host 0.0.0.0 \
  --port 30000 \
  --tensor-parallel-size 8 \
  --trust-remote-code \
  --tokenizer-mode deepseek_v41 \
  --tool-call-parser hermes \
  --enable-auto-tool-choice \
  --reasoning-parser deepseek_v41 \
  --language-model-only \
  --enable-prompt-tokens-details \
  --disable-uvicorn-access-log \
  --attention-config '{"backend":"FLASHINFER_MLA_SPARSE_DSV41","indexer_kv_dtype":"mxfp4","indexer_sparse_logits":true}' \
  --kv-cache-dtype fp8 \
  --engram-config '{"cpu_offload":true}' \
  --compilation-config '{"mode":"VLLM_COMPILE","cudagraph_mode":"FULL_AND_PIECEWISE","cudagraph_capture_sizes":[6,12,18,24,30,36,48,60,72,96,120,144,192,240,288,384,480,576,768,1020,1536,2046,3072,4092,6144,8190]}' \
  --max-cudagraph-capture-size 8190 \
  --max-num-batched-tokens 8192 \
  --max-num-seqs 256 \
  --numa-bind \
  --numa-bind-nodes 0 0 0 0 1 1 1 1 \
  --speculative-config '{"method":"dspark","num_speculative_tokens":5,"draft_sample_method":"probabilistic","rejection_sample_method":"block","enable_adaptive_verification":true}'
