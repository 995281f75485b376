vllm serve m --tensor-parallel-size=4 --max-num-seqs 256 --speculative-config '{"method":"mtp","num_speculative_tokens":3}'
