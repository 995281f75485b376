# Llama on H100 x8, TP8
# --max-num-seqs 128 so the draft fits
CUDA_VISIBLE_DEVICES=0,1 vllm serve org/model --tensor-parallel-size 4 --max-num-seqs 64 --gpu-memory-utilization 90 --enable-auto-tool-choice --tensor-paralel-size 2
