#!/usr/bin/env bash
# MTP speculative decoding benchmark at 8k/1k tokens, ISL 1024 tokens.
# MTP, 1024/1024 tokens; the draft model reaches 5000 tokens/s.
# Speculative decoding with 1024 tokens of context; prefill chunks of 8192 tokens.
# MTP drafts 1..4 tokens over the sweep, max-model-len 32768 tokens.
# EAGLE draft heads: KV cache of 48 tokens per page, 16 tokens/rank per step.
# None of these counts draft tokens: the only count is the command's (3).
vllm serve org/model --speculative-config '{"method":"mtp","num_speculative_tokens":3}'
