#!/bin/bash
# Line continuations gone wrong: an empty line after a backslash ends the
# command (the flags below it are a command of their own), and the last
# line ends with a backslash before the end of the file.
python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --tp 8 \

    --mem-fraction-static 0.85

python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --tp 8 --port 30001 \
