#!/bin/bash
# vLLM MTP on a made-up DeepSeek-V3-shaped model of 3 MTP modules
# (../mtp3-config.json), 6 draft tokens.
vllm serve org/Tiny-MTP3 --speculative-config '{"method":"mtp","num_speculative_tokens":6}'
