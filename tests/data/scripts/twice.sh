#!/bin/bash
# A harness that picks its engine from flags (--mock, --trt), sets its
# arguments in one if/elif/else, then tests the same conditions again to
# launch: three variants, each with its own engine and arguments, never
# the mocker arguments given to TensorRT-LLM.
USE_MOCK=false
USE_TRT=false
while [ $# -gt 0 ]; do
    case "$1" in
        --mock) USE_MOCK=true; shift ;;
        --trt) USE_TRT=true; shift ;;
        *) shift ;;
    esac
done
if [ "$USE_MOCK" = true ]; then
    ARGS=(--block-size 64)
elif [ "$USE_TRT" = true ]; then
    ARGS=(--extra-engine-args /cfg/agg.yaml)
else
    ARGS=(--block-size 64 --enforce-eager)
fi
echo "starting"
if [ "$USE_MOCK" = true ]; then
    python3 -m dynamo.mocker --model-path Qwen/Qwen3-0.6B "${ARGS[@]}" &
else
    if [ "$USE_TRT" = true ]; then
        python3 -m dynamo.trtllm --model-path Qwen/Qwen3-0.6B "${ARGS[@]}" &
    else
        python3 -m dynamo.vllm --model Qwen/Qwen3-0.6B "${ARGS[@]}" &
    fi
fi
python3 -m dynamo.frontend --http-port 8000 &
wait
