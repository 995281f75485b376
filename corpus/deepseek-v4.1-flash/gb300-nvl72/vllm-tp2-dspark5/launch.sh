# DeepSeek V4.1 Flash (NVFP4) on GB300 NVL72 — vLLM 0.30.0 in-flight batching, TP2 on GPUs 0-1 of a 4-GPU
# tray, DSpark speculative decoding (5 draft tokens, probabilistic drafts, block rejection, adaptive verification),
# 4 API servers, Engram tables offloaded to host memory.
# Image: vllm/vllm-openai:v0.30.0-aarch64 with Dynamo 1.5.0 added (Dynamo unused here)
# Patched over stock vLLM 0.30.0: vllm#58784, plus a local patch (NVFP4 DSpark-drafter fix: the draft experts
# keep MXFP4; same dispatch as draft PR vllm#59655).
# SM clock capped at 1200 MHz (memory clock set high, 3996 MHz; default power limit).
# VLLM_USE_BREAKABLE_CUDAGRAPH is left unset (vLLM auto-enables it).
VLLM_ENGINE_READY_TIMEOUT_S=3600 \
PYTHONUNBUFFERED=1 \
vllm serve <model-path> \
  --served-model-name deepseek-ai/DeepSeek-V4.1-Flash \
  --host 0.0.0.0 \
  --port 8000 \
  --tensor-parallel-size 2 \
  --speculative-config '{"method":"dspark","num_speculative_tokens":5,"draft_sample_method":"probabilistic","rejection_sample_method":"block","enable_adaptive_verification":true}' \
  --engram-config '{"cpu_offload":true}' \
  --language-model-only \
  --max-cudagraph-capture-size 2048 \
  --api-server-count 4 \
  --max-num-seqs 512 \
  --tokenizer-mode deepseek_v41 \
  --tool-call-parser deepseek_v41 \
  --enable-auto-tool-choice \
  --reasoning-parser deepseek_v41 \
  --gpu-memory-utilization 0.92 \
  --max-model-len 1048576 \
  --enable-prompt-tokens-details \
  --trust-remote-code
