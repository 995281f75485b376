vllm serve m \
  --max-num-seqs 256 -tp 4 --port 8000 \
  --speculative-config '{ "num_speculative_tokens": 3, "method": "mtp" }'
