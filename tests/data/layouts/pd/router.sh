#!/bin/bash
# The OpenAI frontend in front of both workers.
python3 -m dynamo.frontend --http-port 8000 --router-mode kv
