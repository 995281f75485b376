#!/bin/bash
# One data-parallel worker per GPU, the ranks written as a brace
# expansion (bash expands {0..3} to 0 1 2 3 before anything else), as
# Dynamo's vLLM launch examples start them.
python3 -m dynamo.frontend --http-port 8000 &

for i in {0..3}; do
	CUDA_VISIBLE_DEVICES=$i python3 -m dynamo.vllm \
		--model Qwen/Qwen3-30B-A3B \
		--data-parallel-rank $i \
		--data-parallel-size 4 \
		--enable-expert-parallel &
done

wait
