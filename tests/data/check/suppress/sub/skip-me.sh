# Llama on H100 x8, TP8
# servelint disable=SL4001,SL5001 -- percent on purpose in this test
CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7 vllm serve org/model --tensor-parallel-size 8 \
  --gpu-memory-utilization 90 --enable-auto-tool-choice
vllm serve org/model --gpu-memory-utilization 91
