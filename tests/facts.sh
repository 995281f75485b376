#!/bin/sh
# facts.sh SERVELINT: the engines' generated facts in use. A one-flag script
# for a sample of every surface's flags at its newest recorded release
# (bench/coverage.py --sample) fires no SL1001; a flag removed in a later
# release is quiet under the image it was written for and reported with the
# versions under a newer one; an abbreviation is judged in the release the
# entry runs.
set -u
. tests/lib.sh
py=${PYTHON:-python3}
if "$py" bench/coverage.py "$bin" --sample 5 --strict > "${TMPDIR:-/tmp}/cov.$$"; then ok; else
	cat "${TMPDIR:-/tmp}/cov.$$"; ko "a sampled flag of a newest release is unknown"; fi
rm -f "${TMPDIR:-/tmp}/cov.$$"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
# the old script with the image it was written for: no finding on the flag
printf '#!/bin/bash\ndocker run --gpus all vllm/vllm-openai:v0.8.5 --model org/model --max-seq-len-to-capture 8192\n' > "$t/old.sh"
out=$("$bin" check --no-config --format gcc "$t/old.sh")
case "$out" in *SL1001*|*SL1005*) echo "$out"; ko "old image: a finding on --max-seq-len-to-capture" ;; *) ok ;; esac
# the same with a newer image: the removal, with versions
printf '#!/bin/bash\ndocker run --gpus all vllm/vllm-openai:v0.31.0 --model org/model --max-seq-len-to-capture 8192\n' > "$t/new.sh"
out=$("$bin" check --no-config --format gcc "$t/new.sh")
want='`--max-seq-len-to-capture` was removed in vLLM 0.11.0, last accepted in 0.10.1; this entry runs 0.31.0 [SL1001]'
case "$out" in *"$want"*) ok ;; *) echo "$out"; ko "new image: the removal with versions" ;; esac
# no version: the union of the releases knows it
printf '#!/bin/bash\nvllm serve org/model --max-seq-len-to-capture 8192 --prefill-schedule-interval 2\n' > "$t/any.sh"
out=$("$bin" check --no-config --format gcc "$t/any.sh")
case "$out" in *SL1001*) echo "$out"; ko "no version: a flag of some release reported" ;; *) ok ;; esac
# an abbreviation: unique in 0.4.10, ambiguous in 0.5.13 (three --pp-* flags)
printf '#!/bin/bash\ndocker run lmsysorg/sglang:v0.4.10 python3 -m sglang.launch_server --model-path m --pp 2\n' > "$t/pp-old.sh"
printf '#!/bin/bash\ndocker run lmsysorg/sglang:v0.5.13 python3 -m sglang.launch_server --model-path m --pp 2\n' > "$t/pp-new.sh"
out=$("$bin" check --no-config --format gcc "$t/pp-old.sh")
case "$out" in *SL1001*) echo "$out"; ko "--pp on 0.4.10" ;; *) ok ;; esac
out=$("$bin" check --no-config --format gcc "$t/pp-new.sh")
case "$out" in *'`--pp` is ambiguous in SGLang 0.5.13'*) ok ;; *) echo "$out"; ko "--pp on 0.5.13" ;; esac
# a value the release's choices lack, and one an older release has
printf '#!/bin/bash\ndocker run --gpus all vllm/vllm-openai:v0.8.5 --model m --kv-cache-dtype fp8_inc\n' > "$t/ch-old.sh"
printf '#!/bin/bash\ndocker run --gpus all vllm/vllm-openai:v0.11.0 --model m --kv-cache-dtype fp8_inc\n' > "$t/ch-new.sh"
out=$("$bin" check --no-config --format gcc "$t/ch-old.sh")
case "$out" in *'`fp8_inc` for `--kv-cache-dtype`'*'in vLLM 0.8.5'*SL1007*) ok ;; *) echo "$out"; ko "fp8_inc on 0.8.5" ;; esac
out=$("$bin" check --no-config --format gcc "$t/ch-new.sh")
case "$out" in *SL1007*) echo "$out"; ko "fp8_inc on 0.11.0" ;; *) ok ;; esac
finish
