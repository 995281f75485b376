# DeepSeek V4.1 Flash (MXFP4) on GB300 NVL72 — SGLang in-flight batching on one 4-GPU tray, TP4 + EP4,
# DSPARK speculative decoding (block size 5), decode CUDA graphs up to batch 64; low-latency recipe.
# The server resolves FP8 (e4m3) KV cache, page size 256, MoE backend flashinfer_mxfp4, 256 max running
# requests; parsers auto-detect to deepseek-v41 / deepseekv41. No HiCache, no cache report, no extra env vars.
# Weights: deepseek-ai/DeepSeek-V4.1-Flash
# Image: lmsysorg/sglang:dev-cu13-dsv41@sha256:4a5d132a06a77c8331e15845f2e925adc788b00105097ad55409afa3f4fa4860
sglang serve \
  --trust-remote-code \
  --model-path deepseek-ai/DeepSeek-V4.1-Flash \
  --tp 4 \
  --ep-size 4 \
  --mem-fraction-static 0.8 \
  --speculative-algorithm DSPARK \
  --speculative-dspark-block-size 5 \
  --cuda-graph-max-bs-decode 64 \
  --reasoning-parser auto \
  --tool-call-parser auto \
  --host 0.0.0.0 \
  --port 30000 \
  --served-model-name deepseek-ai/DeepSeek-V4.1-Flash
