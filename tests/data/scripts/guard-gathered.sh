#!/bin/bash
# A check of the inputs written in the script: the names not set are
# gathered first, then one test exits. The variant that exits starts no
# service: a guard's failure, not a variant.
missing=()
for v in MODEL_PATH TP; do
    if [ -z "${!v:-}" ]; then
        missing+=("$v")
    fi
done
if [ "${#missing[@]}" -gt 0 ]; then
    echo "missing: ${missing[*]}" >&2
    exit 1
fi
vllm serve "$MODEL_PATH" --tensor-parallel-size "$TP" &
wait
