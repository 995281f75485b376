# DeepSeek V4.1 Flash (MXFP4) on Vera Rubin NVL72 -- aggregated TP4, 4 GPUs, NVIDIA Dynamo + vLLM,
# DSpark speculative decoding (6 draft tokens). Weights: deepseek-ai/DeepSeek-V4.1-Flash @dba1be0a.
# Engine: vLLM 0.20.2rc1.dev6087+g0c1a8b357 (CentML DSv4.1-Flash branch + NVIDIA patches), ai-dynamo 1.6.0.dev20260924.
# GPU clocks: serving node: power limit 2300 W (default); HBM 4752 MHz (default).
# Each worker also sets a few build-specific tuning env flags of the patched vLLM (padding, Engram inlining); omitted here.
# Worker:
VLLM_MXFP8_TRITON_QUANT=1 VLLM_DSV41_FAST_CANDIDATE_TOPK=1 VLLM_DSV41_GRAPH_BOUNDED_REPLAY=1 VLLM_ENGINE_DEFER_FULL_GC=1 VLLM_WORKER_MULTIPROC_METHOD=spawn \
  python3 -m dynamo.vllm --model deepseek-ai/DeepSeek-V4.1-Flash --engram-config '{"cpu_offload":true,"dp_shared_memory":false,"embedding_across_dp":false,"use_thp":false}' --gpu-memory-utilization 0.92 --language-model-only --max-cudagraph-capture-size 2048 --max-model-len 1048576 --max-num-seqs 512 --speculative-config '{"draft_sample_method":"probabilistic","enable_adaptive_verification":false,"method":"dspark","num_speculative_tokens":6,"rejection_sample_method":"block"}' --tensor-parallel-size 4 --tokenizer-mode deepseek_v41 --trust-remote-code --numa-bind --numa-bind-nodes 0 0 1 1 --dyn-tool-call-parser deepseek_v41 --dyn-reasoning-parser deepseek_v41 --reasoning-parser deepseek_v41
# Frontend (fastokens tokenizer, default routing):
DYN_TOKENIZER=fastokens python3 -m dynamo.frontend --http-port 8000
