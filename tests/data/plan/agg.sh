vllm serve org/some-model --tensor-parallel-size 2 --gpu-memory-utilization 0.8
