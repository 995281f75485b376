#!/usr/bin/env bash
# The harness's DP_ATTENTION decides two things, tested at two places: one
# decision, two variants (not four).
MOE_BACKEND=TRTLLM
if [[ "$DP_ATTENTION" == "true" ]]; then
    MOE_BACKEND=CUTLASS
fi
cat > extra.yml <<EOF
moe_config:
    backend: $MOE_BACKEND
EOF
if [[ "$DP_ATTENTION" == "true" ]]; then
    cat << EOF >> extra.yml
enable_attention_dp: true
EOF
fi
trtllm-serve org/Model --tp_size 8 --extra_llm_api_options extra.yml
