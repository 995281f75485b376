# Kimi K3 (MXFP4) on GB300 NVL72 — SGLang, TP=8 / DCP=8 across 2 trays (8 GPUs), no speculative decoding. One launch per node.
sglang serve \
  --trust-remote-code \
  --max-running-requests 256 \
  --model-path /models/Kimi-K3 \
  --tp-size 8 \
  --nnodes 2 \
  --node-rank <0..1> \
  --dist-init-addr <head-ip>:20000 \
  --dcp-size 8 \
  --mem-fraction-static 0.85 \
  --context-length 262144 \
  --reasoning-parser kimi_k3 \
  --tool-call-parser kimi_k3 \
  --mamba-full-memory-ratio 1.89 \
  --host 0.0.0.0 \
  --port 30000
