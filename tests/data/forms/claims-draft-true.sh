#!/usr/bin/env bash
# DeepSeek MTP3 on one node; num draft tokens: 2 with the sibling recipe's
# acceptance.
# MTP (3 tokens, probabilistic drafts), 3 draft tokens per step.
vllm serve org/model --speculative-config '{"method":"mtp","num_speculative_tokens":3}'
