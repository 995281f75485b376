#!/usr/bin/env bash
# Routing tried without GPUs: Dynamo's mocker as a prefill pool and a decode
# pool (four simulated workers each), a standalone KV router in front of the
# prefill pool, the planner, and the frontend.
MODEL=Qwen/Qwen3-0.6B
python3 -m dynamo.mocker --model-path $MODEL --num-workers 4 --block-size 64 \
    --disaggregation-mode prefill --endpoint dyn://test.prefill.generate --speedup-ratio 10 &
python3 -m dynamo.mocker --model-path $MODEL --num-workers 4 --block-size 64 \
    --disaggregation-mode decode --no-enable-prefix-caching --router-kv-events &
python3 -m dynamo.router --endpoint dyn://test.prefill.generate --router-block-size 64 --no-router-track-active-blocks &
python3 -m dynamo.planner --config '{"environment": "virtual", "backend": "mocker"}' &
python3 -m dynamo.frontend --http-port 8000 --router-mode kv --kv-cache-block-size 64 &
wait
