#!/bin/bash
# Fixes inside a here-document and a `bash -c` string (tests/fix.sh). The
# key on the line an expansion wrote is not fixed: its place in the file
# is not the text read.
BS=64
cat > /tmp/cfg.yaml <<YAML
tensor_parallel_size: 4
max_num_tokenss: 8192
max_batch_sizee: $BS
YAML
docker run --gpus all nvcr.io/nvidia/tensorrt-llm/release:1.3.0 \
    bash -c "trtllm-serve org/model --tp_size 4 --extra_llm_api_options /tmp/cfg.yaml --max_seq_lenn 8192"
