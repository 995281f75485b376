#!/bin/bash
# KV routing stated, but the frontend takes arguments the script does not
# know (the extra arguments may set the mode): no SL6009
python3 -m dynamo.frontend --http-port 8000 $FRONTEND_EXTRA_ARGS &
python3 -m dynamo.vllm --model org/m &
wait
