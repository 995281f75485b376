#!/usr/bin/env bash
# DeepSeek R1 on B200 x8, TP8, 6 draft tokens (MTP speculative decoding).
# TP, CONC and the draft length come from the harness.
vllm serve deepseek-ai/DeepSeek-R1 --tensor-parallel-size $TP \
    --speculative-config "{\"method\": \"mtp\", \"num_speculative_tokens\": ${DRAFT:-6}}" \
    --max-num-seqs $CONC --port 8000
