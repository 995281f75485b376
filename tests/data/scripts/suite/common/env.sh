# settings of the machines the suite runs on
export VLLM_USE_DEEP_GEMM=1
GPU_MEM_UTIL=0.92
