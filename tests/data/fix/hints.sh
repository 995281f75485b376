#!/bin/bash
# Hints that are no fix (tests/fix.sh), in the forms real scripts have:
# a flag of a newer release three edits from a known one (sglang's
# --grpc-port, a flag from 0.5.16 on, is no typo of 0.5.13's --grpc-mode),
# and a role the recorded releases do not know two edits from one they do
# (encode is no typo of decode).
# SGLang 0.5.13
python3 -m sglang.launch_server --model-path org/m --grpc-port 50051 --disaggregation-mode encode
