#!/bin/bash
# TensorRT-LLM disaggregated serving with MTP on both roles, in the form of
# the trtllm-serve disaggregated launchers: one server of each role with
# its engine YAML, and the orchestrator. The generation server's batch of
# 64 with its drafts needs a budget of 256 a step; 192 is given (SL4011).
# The context server's limits are lower still, but it runs no decode batch.

# Generation worker:
trtllm-serve org/model --host 0.0.0.0 --port 8001 --extra_llm_api_options gen.yaml &
# Context worker:
trtllm-serve org/model --host 0.0.0.0 --port 8002 --extra_llm_api_options ctx.yaml &
# Orchestrator:
trtllm-serve disaggregated -c server.yaml
