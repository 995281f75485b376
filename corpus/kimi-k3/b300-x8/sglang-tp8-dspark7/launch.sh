# Kimi K3 (MXFP4) on B300 x8 — SGLang low-latency profile, TP=8, DSPARK speculative decoding.
docker run --gpus all --shm-size 32g --network host --ipc=host \
  lmsysorg/sglang:kimi-k3 sglang serve \
    --trust-remote-code --model-path moonshotai/Kimi-K3 --tp-size 8 \
    --disable-custom-all-reduce --mem-fraction-static 0.85 \
    --reasoning-parser kimi_k3 --tool-call-parser kimi_k3 --max-running-requests 256 \
    --enable-cache-report --enable-metrics --enable-symm-mem \
    --speculative-algorithm DSPARK --speculative-draft-model-path RadixArk/Kimi-K3-DSpark \
    --speculative-dspark-block-size 7 --enable-linear-replayssm-spec
