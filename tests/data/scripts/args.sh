#!/bin/bash
# Expert-parallel serving with its defaults, which the script's arguments
# may replace: after the loop DP_SIZE and PORT are whatever was passed.
HOST="0.0.0.0"
PORT=8006
DP_SIZE=4
MODEL_NAME="deepseek-ai/DeepSeek-V2-Lite"

while [[ $# -gt 0 ]]; do
    case $1 in
        --dp)
            DP_SIZE="$2"
            shift 2
            ;;
        --port)
            PORT="$2"
            shift 2
            ;;
        -h|--help)
            echo "Usage: $0 [--dp SIZE] [--port PORT]"
            exit 0
            ;;
        *)
            echo "Unknown option: $1"
            exit 1
            ;;
    esac
done

vllm serve $MODEL_NAME \
    --data-parallel-size $DP_SIZE \
    --enable-expert-parallel \
    --host $HOST \
    --port $PORT
