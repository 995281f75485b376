#!/bin/bash
# servelint run test entry: the engine file a here-document writes is
# written into the run's working folder, where the engine starts.
cat > extra.yaml <<EOF
max-num-seqs: 8
EOF
vllm serve <model-path> --config extra.yaml --port $PORT
