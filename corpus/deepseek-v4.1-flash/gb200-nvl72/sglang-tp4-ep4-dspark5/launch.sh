# DeepSeek V4.1 Flash (MXFP4) on GB200 NVL72 — SGLang in-flight batching on one 4-GPU tray, TP4 + EP4,
# DSPARK speculative decoding (block size 5), decode CUDA graphs up to batch 128, cache reporting on.
# Weights: deepseek-ai/DeepSeek-V4.1-Flash
# Image: sglang-dsv41.sqsh (SGLang 0.0.0.dev1+gda64c5cbb, aarch64)
export SGLANG_JIT_DEEPGEMM_PRECOMPILE=0
export SGLANG_JIT_DEEPGEMM_FAST_WARMUP=1
export SGLANG_DEFAULT_THINKING=true
export PYTORCH_CUDA_ALLOC_CONF=
python3 -m sglang.launch_server \
  --model-path deepseek-ai/DeepSeek-V4.1-Flash \
  --served-model-name deepseek-ai/DeepSeek-V4.1-Flash \
  --trust-remote-code \
  --tp 4 \
  --ep-size 4 \
  --page-size 256 \
  --mem-fraction-static 0.8 \
  --max-running-requests 256 \
  --speculative-algorithm DSPARK \
  --speculative-dspark-block-size 5 \
  --cuda-graph-max-bs-decode 128 \
  --enable-cache-report \
  --reasoning-parser auto \
  --tool-call-parser auto \
  --watchdog-timeout 3600 \
  --host 0.0.0.0 \
  --port 30000
