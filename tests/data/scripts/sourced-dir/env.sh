# settings shared by the scripts of this folder
MODEL=Qwen/Qwen3-8B
TP=4
export VLLM_USE_DEEP_GEMM=0

serve_decode() {
    vllm serve "$MODEL" --port 8001 --tensor-parallel-size "$TP" --max-num-seqs 64 --gpu-memory-utilisation 0.9
}
