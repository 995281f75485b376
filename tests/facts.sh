#!/bin/sh
# facts.sh SERVELINT: the engines' generated facts in use. A one-flag script
# for a sample of every surface's flags at its newest recorded release
# (bench/coverage.py --sample) fires no SL1001; a flag removed in a later
# release is quiet under the image it was written for and reported with the
# versions under a newer one; an abbreviation is judged in the release the
# entry runs; a JSON flag's member value held to its release's choices;
# -O, a default and an env var twin resolved by the release.
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
# a JSON flag's member by its release (grammars/facts/vllm-members.tsv):
# a method no release has, with the nearest; a method of a later release,
# with that release when the entry runs a recorded one; a role misspelt; none in 0.8.5, whose plain dataclass
# checks nothing; a method the release has, and a value the script does
# not know ($M), quiet
spec() { printf '#!/bin/bash\ndocker run --gpus all vllm/vllm-openai:%s --model m --speculative-config %s\n' "$1" "'$2'" > "$t/$3.sh"; }
spec v0.11.0 '{"method":"eagle4","num_speculative_tokens":3}' sp-typo
spec v0.10.1 '{"num_speculative_tokens":3,"method":"mtp"}' sp-later
spec v0.11.0 '{"method":"mtp","num_speculative_tokens":3}' sp-good
spec v0.14.0 '{"method":"dspark","num_speculative_tokens":3}' sp-between
spec v0.8.5 '{"method":"eagle4","num_speculative_tokens":3}' sp-old
printf '#!/bin/bash\ndocker run --gpus all vllm/vllm-openai:v0.11.0 --model m --speculative-config "{\\"method\\":\\"$M\\"}"\n' > "$t/sp-hole.sh"
out=$("$bin" check --no-config --format gcc "$t/sp-typo.sh")
want='sp-typo.sh:2:91: warning: value outside the flag'"'"'s choices: `eagle4` for `method` of --speculative-config, which takes ngram, eagle, eagle3, medusa, mlp_speculator, draft_model, deepseek_mtp, ernie_mtp, qwen3_next_mtp, mimo_mtp, longcat_flash_mtp, mtp in vLLM 0.11.0 (did you mean `eagle`?) [SL1007]'
case "$out" in *"$want"*) ok ;; *) echo "$out"; ko "--speculative-config method eagle4 on 0.11.0" ;; esac
out=$("$bin" check --no-config --format gcc "$t/sp-later.sh")
want='`mtp` for `method` of --speculative-config, which takes ngram, eagle, eagle3, medusa, mlp_speculator, draft_model, deepseek_mtp in vLLM 0.10.1; vLLM 0.11.0 takes it, and this entry runs 0.10.1 [SL1007]'
case "$out" in *"$want"*) ok ;; *) echo "$out"; ko "--speculative-config method mtp on 0.10.1" ;; esac
# (sp-between: a release between the records, 0.11.0 and 0.27.0, which
# has dspark, may have it already: the records cannot tell)
for x in sp-good sp-old sp-hole sp-between; do
	out=$("$bin" check --no-config --format gcc "$t/$x.sh")
	case "$out" in *SL1007*) echo "$out"; ko "$x: a method reported" ;; *) ok ;; esac
done
printf '#!/bin/bash\ndocker run --gpus all vllm/vllm-openai:v0.11.0 --model m --kv-transfer-config %s\n' "'{\"kv_connector\":\"NixlConnector\",\"kv_role\":\"kv_prod\"}'" > "$t/kv.sh"
out=$("$bin" check --no-config --format gcc "$t/kv.sh")
case "$out" in *'`kv_prod` for `kv_role` of --kv-transfer-config, which takes kv_producer, kv_both, kv_consumer in vLLM 0.11.0 [SL1007]'*) ok ;;
*) echo "$out"; ko "--kv-transfer-config kv_role kv_prod on 0.11.0" ;; esac
# a config file: every LlmArgs key the source declares known at every depth,
# one it lacks reported with the nearest real key
printf '#!/bin/bash\ncat > /tmp/c.yml <<EOF\nattention_dp_config:\n  timeout_iters: 50\nscheduler_config:\n  context_chunking_policy: EQUAL_PROGRESS\nkv_cache_config:\n  dtpye: fp8\nEOF\ntrtllm-serve org/model --extra_llm_api_options /tmp/c.yml\n' > "$t/cfg.sh"
out=$("$bin" check --no-config --color never "$t/cfg.sh")
case "$out" in *timeout_iters*|*context_chunking*) echo "$out"; ko "config: a declared LlmArgs key reported" ;;
*'`kv_cache_config.dtpye` is not a key'*'did you mean `kv_cache_config.dtype`'*) ok ;;
*) echo "$out"; ko "config: the typo with the nearest key" ;; esac
# TensorRT-LLM config keys by release: a key 1.3.0rc3 declares and the 1.3
# record lacks is quiet under the image it was written for and under no
# version, reported with the versions under a newer image; a key only 1.3
# declares is reported under 1.3.0rc3; between the two records (1.3.0rc24)
# the records cannot tell, and nothing is said
for v in 1.3.0rc3 1.3.0rc24 1.4.0 none; do
	img="nvcr.io/nvidia/tensorrt-llm/release:$v"
	[ "$v" = none ] && img=nvcr.io/nvidia/tensorrt-llm/release:latest
	printf '#!/bin/bash\ncat > /tmp/c.yml <<EOF\nenable_sleep: true\nEOF\ndocker run --gpus all %s trtllm-serve org/model --extra_llm_api_options /tmp/c.yml\n' "$img" > "$t/ck-$v.sh"
	printf '#!/bin/bash\ncat > /tmp/c.yml <<EOF\nsleep_config:\n  restore_modes: {}\nEOF\ndocker run --gpus all %s trtllm-serve org/model --config /tmp/c.yml\n' "$img" > "$t/cn-$v.sh"
done
for v in 1.3.0rc3 1.3.0rc24 none; do
	out=$("$bin" check --no-config --format gcc "$t/ck-$v.sh")
	case "$out" in *SL1001*) echo "$out"; ko "config key of 1.3.0rc3 reported under $v" ;; *) ok ;; esac
done
out=$("$bin" check --no-config --format gcc "$t/ck-1.4.0.sh")
want='`enable_sleep` was removed in TensorRT-LLM (trtllm-serve) 1.3, last accepted in 1.3.0rc3; this entry runs 1.4.0 [SL1001]'
case "$out" in *"$want"*) ok ;; *) echo "$out"; ko "config key removed in 1.3: the removal with versions" ;; esac
out=$("$bin" check --no-config --format gcc "$t/cn-1.3.0rc3.sh")
want='`sleep_config.restore_modes` is accepted from TensorRT-LLM (trtllm-serve) 1.3 on; this entry runs 1.3.0rc3 [SL1001]'
case "$out" in *"$want"*) ok ;; *) echo "$out"; ko "config key new in 1.3 under 1.3.0rc3" ;; esac
for v in 1.3.0rc24 1.4.0 none; do
	out=$("$bin" check --no-config --format gcc "$t/cn-$v.sh")
	case "$out" in *SL1001*) echo "$out"; ko "config key of 1.3 reported under $v" ;; *) ok ;; esac
done
# a TensorRT-LLM 1.0-era entry (release:1.0.0rc6, as real recipes pin it)
# runs a release older than every record (1.3.0rc3 is the oldest: no 1.0,
# 1.1 or 1.2 source could be pinned, docs/engine-facts.md): the records
# cannot say what it lacked, so a flag, a key or a value some release has is
# quiet, never "accepted from 1.3 on"
printf '#!/bin/bash\ncat > /tmp/c.yml <<EOF\nenable_sleep: true\nsleep_config:\n  restore_modes: {}\nEOF\ndocker run --gpus all nvcr.io/nvidia/tensorrt-llm/release:1.0.0rc6 trtllm-serve serve org/model --backend tensorrt --tp_size 2 --num_postprocess_workers 2 --extra_llm_api_options /tmp/c.yml\n' > "$t/t10.sh"
out=$("$bin" check --no-config --format gcc "$t/t10.sh")
case "$out" in *SL1001*|*SL1007*|*SL1014*) echo "$out"; ko "a 1.0-era entry judged by a later release" ;; *) ok ;; esac
# a trtllm-serve value by release: --backend tensorrt is a choice of
# 1.3.0rc3 that the 1.3 record no longer has
printf '#!/bin/bash\ndocker run --gpus all nvcr.io/nvidia/tensorrt-llm/release:%s trtllm-serve org/model --backend tensorrt\n' 1.3.0rc3 > "$t/tb-old.sh"
printf '#!/bin/bash\ndocker run --gpus all nvcr.io/nvidia/tensorrt-llm/release:%s trtllm-serve org/model --backend tensorrt\n' 1.4.0 > "$t/tb-new.sh"
out=$("$bin" check --no-config --format gcc "$t/tb-old.sh")
case "$out" in *SL1007*) echo "$out"; ko "--backend tensorrt on 1.3.0rc3" ;; *) ok ;; esac
out=$("$bin" check --no-config --format gcc "$t/tb-new.sh")
case "$out" in *'`tensorrt` for `--backend`, which takes _autodeploy, pytorch in TensorRT-LLM (trtllm-serve) 1.3'*SL1007*) ok ;;
*) echo "$out"; ko "--backend tensorrt on 1.4.0" ;; esac
# vLLM's -O by the entry's release: --compilation-config (a bare number is
# its level) up to 0.11.0, --optimization-level after; with no version the
# newest meaning, said to be a guess
for v in 0.8.5 0.10.1 0.27.0; do
	printf '#!/bin/bash\ndocker run --gpus all vllm/vllm-openai:v%s --model m -O3\n' "$v" > "$t/o-$v.sh"
done
printf '#!/bin/bash\nvllm serve m -O3\n' > "$t/o-any.sh"
printf '#!/bin/bash\ndocker run --gpus all vllm/vllm-openai:v0.10.1 --model m --compilation-config %s\n' \
	"'{\"level\": 3}'" > "$t/cc-0.10.1.sh"
for v in 0.8.5 0.10.1; do
	out=$("$bin" show "$t/o-$v.sh")
	case "$out" in *'vllm.compilation_config.level  3 '*'-O3'*) ok ;; *) echo "$out"; ko "-O3 on $v" ;; esac
done
out=$("$bin" show "$t/o-0.27.0.sh")
case "$out" in *'vllm.optimization_level  3 '*) ok ;; *) echo "$out"; ko "-O3 on 0.27.0" ;; esac
out=$("$bin" show "$t/o-any.sh")
want='`-O3` means `--compilation-config` in vLLM 0.8.5 to 0.11.0 and `--optimization-level` after'
case "$out" in *'vllm.optimization_level'*"$want"*) ok ;; *) echo "$out"; ko "-O3 with no version" ;; esac
out=$("$bin" diff "$t/o-0.10.1.sh" "$t/cc-0.10.1.sh")
case "$out" in *compilation*) echo "$out"; ko "-O3 and --compilation-config '{level: 3}' on 0.10.1 differ" ;; *) ok ;; esac
# a default that changed (--gpu-memory-utilization 0.9 up to 0.11.0, 0.92
# in 0.27.0) is the entry's release's; with no version, none
for v in 0.10.1 0.27.0 any; do
	img="vllm/vllm-openai:v$v"
	[ "$v" = any ] && img=vllm/vllm-openai:latest
	printf '#!/bin/bash\ndocker run --gpus all %s --model m --gpu-memory-utilization 0.9\n' "$img" > "$t/g-$v.sh"
	printf '#!/bin/bash\ndocker run --gpus all %s --model m\n' "$img" > "$t/u-$v.sh"
done
out=$("$bin" diff "$t/g-0.10.1.sh" "$t/u-0.10.1.sh")
case "$out" in *'= memory.gpu_utilization: 0.9 -> (unset)  (explicit default)'*) ok ;; *) echo "$out"; ko "0.9 on 0.10.1 is the default" ;; esac
for v in 0.27.0 any; do
	out=$("$bin" diff "$t/g-$v.sh" "$t/u-$v.sh")
	case "$out" in *'- memory.gpu_utilization: 0.9 -> (unset)  ['*) ok ;; *) echo "$out"; ko "0.9 on $v is not the default" ;; esac
done
# matrix lends such a default only to an entry of the same release: the
# unset 0.10.1 entry takes 0.10.1's 0.9, the unset 0.27.0 one 0.27.0's 0.92
# (learnt from the 0.27.0 entry that sets it), never 0.10.1's
for v in 0.10.1 0.27.0; do
	printf '#!/bin/bash\ndocker run --gpus all vllm/vllm-openai:v%s --model m --gpu-memory-utilization 0.9 --max-num-seqs 8\n' "$v" > "$t/mg-$v.sh"
	printf '#!/bin/bash\ndocker run --gpus all vllm/vllm-openai:v%s --model m --max-num-seqs 16\n' "$v" > "$t/mu-$v.sh"
done
out=$("$bin" matrix --color never "$t/mg-0.10.1.sh" "$t/mu-0.10.1.sh" "$t/mu-0.27.0.sh" | grep gpu_utilization)
case "$out" in *' 0.9 '*' 0.9 (default) '*' -'*) ok ;; *) echo "$out"; ko "matrix lends 0.10.1's default to 0.27.0" ;; esac
out=$("$bin" matrix --color never "$t/mg-0.10.1.sh" "$t/mu-0.10.1.sh" "$t/mg-0.27.0.sh" "$t/mu-0.27.0.sh" | grep gpu_utilization)
case "$out" in *' 0.9 '*' 0.9 (default) '*' 0.9 '*' 0.92 (default)'*) ok ;; *) echo "$out"; ko "matrix: each release's own default" ;; esac
# Dynamo's env var twin of a flag is the same setting as the flag
printf '#!/bin/bash\nDYN_TRTLLM_MAX_FILE_SIZE_MB=80 DYN_ROUTER_TTL_SECS=60 python3 -m dynamo.trtllm --model-path m\n' > "$t/env.sh"
printf '#!/bin/bash\npython3 -m dynamo.trtllm --model-path m --max-file-size-mb 80 --router-ttl-secs 60\n' > "$t/flag.sh"
out=$("$bin" diff "$t/env.sh" "$t/flag.sh")
case "$out" in *max_file_size*|*ttl_secs*) echo "$out"; ko "env var twin and flag differ" ;;
*'env DYN_TRTLLM_MAX_FILE_SIZE_MB'*) ok ;; *) echo "$out"; ko "env var twin: the variable itself" ;; esac
# a Dynamo worker's flag is judged by Dynamo's releases, never by the
# backend's version the entry names (TensorRT-LLM 1.3.0rc5 is no Dynamo 1.3)
printf '#!/bin/bash\n# TensorRT-LLM 1.3.0rc5\npython3 -m dynamo.trtllm --model-path m --migration-limit 3\n' > "$t/dyn.sh"
out=$("$bin" check --no-config --format gcc "$t/dyn.sh")
case "$out" in *SL1001*) echo "$out"; ko "Dynamo flag judged by the backend's version" ;; *) ok ;; esac
# a Dynamo worker's own flags and env var twins by Dynamo's release, which
# its runtime image's tag gives: DYN_TRTLLM_MAX_FILE_SIZE_MB is read from
# Dynamo 1.2.0 on (its flag from 0.6.1), DYN_ROUTER_KV_OVERLAP_SCORE_WEIGHT
# in 1.2.0 only; with no Dynamo release known, every release's twins count
for v in 0.9.0 1.2.0 1.4.0 none; do
	img="nvcr.io/nvidia/ai-dynamo/tensorrtllm-runtime:$v"
	[ "$v" = none ] && img=example/trtllm:latest
	printf '#!/bin/bash\ndocker run --gpus all -e DYN_TRTLLM_MAX_FILE_SIZE_MB=80 -e DYN_ROUTER_KV_OVERLAP_SCORE_WEIGHT=1.5 %s python3 -m dynamo.trtllm --model-path m --max-file-size-mb 80\n' "$img" > "$t/dt-$v.sh"
done
out=$("$bin" check --no-config --format gcc "$t/dt-0.9.0.sh")
want='`DYN_TRTLLM_MAX_FILE_SIZE_MB` is accepted from NVIDIA Dynamo + TensorRT-LLM worker 1.2.0 on; this entry runs 0.9.0 [SL1001]'
case "$out" in *--max-file-size-mb*) echo "$out"; ko "Dynamo 0.9.0: its own --max-file-size-mb reported" ;;
*"$want"*) ok ;; *) echo "$out"; ko "Dynamo 0.9.0: an env var twin it does not read" ;; esac
out=$("$bin" check --no-config --format gcc "$t/dt-1.2.0.sh")
case "$out" in *SL1001*) echo "$out"; ko "Dynamo 1.2.0 reads both variables" ;; *) ok ;; esac
out=$("$bin" check --no-config --format gcc "$t/dt-1.4.0.sh")
want='`DYN_ROUTER_KV_OVERLAP_SCORE_WEIGHT` was removed in NVIDIA Dynamo + TensorRT-LLM worker 1.4.0, last accepted in 1.2.0; this entry runs 1.4.0 [SL1001]'
case "$out" in *MAX_FILE_SIZE*) echo "$out"; ko "Dynamo 1.4.0 reads DYN_TRTLLM_MAX_FILE_SIZE_MB" ;;
*"$want"*) ok ;; *) echo "$out"; ko "Dynamo 1.4.0: a twin it no longer reads" ;; esac
out=$("$bin" check --no-config --format gcc "$t/dt-none.sh")
case "$out" in *SL1001*) echo "$out"; ko "no Dynamo release: a twin reported" ;; *) ok ;; esac
# --no-kv-events, a store_false flag of Dynamo 0.4.1-0.6.1, is still the
# negation of the negatable --kv-events from 0.9.0 on: never "removed"
printf '#!/bin/bash\ndocker run nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.3.0 python3 -m dynamo.frontend --router-mode kv --no-kv-events\n' > "$t/nke.sh"
out=$("$bin" check --no-config --format gcc "$t/nke.sh")
case "$out" in *SL1001*) echo "$out"; ko "--no-kv-events on Dynamo 1.3.0" ;; *) ok ;; esac
# a switch is a switch by what its action does: SGLang 0.5.13's
# --stream-output (action=DeprecatedStoreTrueAction, nargs=0) takes no
# value, so --tp 2 after it is the tensor-parallel width, not its value
printf '#!/bin/bash\ndocker run lmsysorg/sglang:v0.5.13 python3 -m sglang.launch_server --model-path m --stream-output --tp 2\n' > "$t/so.sh"
out=$("$bin" show "$t/so.sh")
case "$out" in *'stream_output  true'*'parallel.tensor       2'*) ok ;; *) echo "$out"; ko "--stream-output took a value" ;; esac
# a value that may be left out (argparse nargs="?"): vLLM 0.27.0's
# --hf-token (a `bool | str | None` field, made type=str, nargs="?" by
# get_kwargs) takes the token after it, which is no positional model
printf '#!/bin/bash\ndocker run --gpus all vllm/vllm-openai:v0.27.0 --model m --hf-token hf_abc --tensor-parallel-size 2\n' > "$t/hf.sh"
out=$("$bin" check --no-config --format gcc "$t/hf.sh")
case "$out" in *SL1013*|*SL1009*) echo "$out"; ko "--hf-token's value taken for the model" ;; *) ok ;; esac
# a replacement stated by field name (vLLM 0.11.0's override_pooler_config:
# "[DEPRECATED] Use `pooler_config` instead.") is named where the flag is
# deprecated and where it was removed (the value an empty object: one setting)
printf '#!/bin/bash\ndocker run --gpus all vllm/vllm-openai:v0.11.0 --model m --override-pooler-config %s\n' "'{}'" > "$t/pool.sh"
out=$("$bin" check --no-config --format gcc "$t/pool.sh")
case "$out" in *'`--override-pooler-config` is deprecated since vLLM 0.11.0 (its source points to `--pooler-config`)'*SL1014*) ok ;;
*) echo "$out"; ko "override-pooler-config deprecated: its replacement" ;; esac
sed 's/v0.11.0/v0.27.0/' "$t/pool.sh" > "$t/pool-new.sh"
out=$("$bin" check --no-config --format gcc "$t/pool-new.sh")
case "$out" in *'`--override-pooler-config` was removed in vLLM 0.27.0, last accepted in 0.11.0; this entry runs 0.27.0; use `--pooler-config`'*) ok ;;
*) echo "$out"; ko "override-pooler-config removed: its replacement" ;; esac
# a JSON value with members is split into one setting per member
# (vllm.override_pooler_config.pooling_type): the flag's facts still judge
# the flag as written, once, at the flag: quiet under 0.8.5, where it
# exists, deprecated under 0.11.0, removed under 0.27.0; the replacement
# --pooler-config is new in 0.11.0 (quiet with no version)
for v in 0.8.5 0.11.0 0.27.0; do
	printf '#!/bin/bash\ndocker run --gpus all vllm/vllm-openai:v%s --model m --override-pooler-config %s\n' "$v" "'{\"pooling_type\": \"MEAN\", \"normalize\": true}'" > "$t/poolm-$v.sh"
done
out=$("$bin" check --no-config --format gcc "$t/poolm-0.8.5.sh")
case "$out" in *SL1001*|*SL1014*) echo "$out"; ko "split --override-pooler-config under 0.8.5 reported" ;; *) ok ;; esac
out=$("$bin" check --no-config --format gcc "$t/poolm-0.11.0.sh")
want='poolm-0.11.0.sh:2:58: note: flag the engine version the entry runs marks deprecated: `--override-pooler-config` is deprecated since vLLM 0.11.0 (its source points to `--pooler-config`); this entry runs 0.11.0 [SL1014]'
[ "$out" = "$t/$want" ] && ok || { echo "$out"; ko "split --override-pooler-config under 0.11.0: deprecated, once, at the flag"; }
out=$("$bin" check --no-config --format gcc "$t/poolm-0.27.0.sh")
want='poolm-0.27.0.sh:2:58: warning: flag unknown to the engine: `--override-pooler-config` was removed in vLLM 0.27.0, last accepted in 0.11.0; this entry runs 0.27.0; use `--pooler-config` [SL1001]'
[ "$out" = "$t/$want" ] && ok || { echo "$out"; ko "split --override-pooler-config under 0.27.0: removed, once, at the flag"; }
out=$("$bin" show "$t/poolm-0.27.0.sh")
case "$out" in *'vllm.override_pooler_config.pooling_type  MEAN'*'vllm.override_pooler_config.normalize     true'*) ok ;;
*) echo "$out"; ko "split --override-pooler-config: its members' settings" ;; esac
printf '#!/bin/bash\ndocker run --gpus all vllm/vllm-openai:v0.8.5 --model m --pooler-config %s\n' "'{\"pooling_type\": \"MEAN\"}'" > "$t/pc-old.sh"
out=$("$bin" check --no-config --format gcc "$t/pc-old.sh")
case "$out" in *'`--pooler-config` is accepted from vLLM 0.11.0 on; this entry runs 0.8.5 [SL1001]'*) ok ;;
*) echo "$out"; ko "split --pooler-config under 0.8.5: new in 0.11.0" ;; esac
printf '#!/bin/bash\nvllm serve m --override-pooler-config %s\n' "'{\"pooling_type\": \"MEAN\"}'" > "$t/pool-any.sh"
out=$("$bin" check --no-config --format gcc "$t/pool-any.sh")
case "$out" in *SL1001*|*SL1014*) echo "$out"; ko "split --override-pooler-config, no version, reported" ;; *) ok ;; esac
# the twin is still the flag's setting in every release (as a flag the
# release lacks still is): the same as --max-file-size-mb
out=$("$bin" show "$t/dt-0.9.0.sh")
case "$out" in *'max_file_size'*'DYN_TRTLLM_MAX_FILE_SIZE_MB'*) ok ;; *) echo "$out"; ko "twin under 0.9.0 not the flag's setting" ;; esac
# SGLang from 0.5.14 on declares its flags as annotated fields with a bare
# help string (A[T, "help", NS(...)]): a sample of the flags of the newest
# releases, one per script, is known under the image of the release that
# has them and under no version; --grpc-port (from 0.5.16) is reported as
# new under v0.5.15; --enable-piecewise-cuda-graph, deprecated in 0.5.13
# and removed in 0.5.14, is reported with the versions under v0.5.17 and
# only deprecated (SL1014, no SL1001) under v0.5.13
for f in '--enable-deepseek-v4-fp4-indexer' '--kv-canary-sweep-interval 8' '--encoder-bootstrap-port 9000' \
	'--bf16-gemm-backend cutedsl' '--grpc-port 50051' '--cuda-graph-max-bs-decode 64' '--disable-prefill-cuda-graph'; do
	for img in lmsysorg/sglang:v0.5.17-cu130 lmsysorg/sglang:latest; do
		printf '#!/bin/bash\ndocker run --gpus all %s python3 -m sglang.launch_server --model-path m %s\n' "$img" "$f" > "$t/sg.sh"
		out=$("$bin" check --no-config --format gcc "$t/sg.sh")
		case "$out" in *SL1001*) echo "$out"; ko "SGLang flag $f under $img" ;; *) ok ;; esac
	done
done
printf '#!/bin/bash\ndocker run --gpus all lmsysorg/sglang:v0.5.13 python3 -m sglang.launch_server --model-path m --enable-deepseek-v4-fp4-indexer\n' > "$t/fp4.sh"
out=$("$bin" check --no-config --format gcc "$t/fp4.sh")
case "$out" in *SL1001*) echo "$out"; ko "--enable-deepseek-v4-fp4-indexer under v0.5.13" ;; *) ok ;; esac
printf '#!/bin/bash\ndocker run --gpus all lmsysorg/sglang:v0.5.15 python3 -m sglang.launch_server --model-path m --grpc-port 50051\n' > "$t/grpc.sh"
out=$("$bin" check --no-config --format gcc "$t/grpc.sh")
want='`--grpc-port` is accepted from SGLang 0.5.16 on; this entry runs 0.5.15'
case "$out" in *"$want"*SL1001*) ok ;; *) echo "$out"; ko "--grpc-port under v0.5.15: new in 0.5.16" ;; esac
printf '#!/bin/bash\ndocker run --gpus all lmsysorg/sglang:v0.5.17-cu130 python3 -m sglang.launch_server --model-path m --enable-piecewise-cuda-graph\n' > "$t/pcg-new.sh"
out=$("$bin" check --no-config --format gcc "$t/pcg-new.sh")
want='`--enable-piecewise-cuda-graph` was removed in SGLang 0.5.14, last accepted in 0.5.13; this entry runs 0.5.17'
case "$out" in *"$want"*SL1001*) ok ;; *) echo "$out"; ko "--enable-piecewise-cuda-graph under v0.5.17: the removal with versions" ;; esac
printf '#!/bin/bash\ndocker run --gpus all lmsysorg/sglang:v0.5.13 python3 -m sglang.launch_server --model-path m --enable-piecewise-cuda-graph\n' > "$t/pcg-old.sh"
out=$("$bin" check --no-config --format gcc "$t/pcg-old.sh")
case "$out" in *SL1001*) echo "$out"; ko "--enable-piecewise-cuda-graph under v0.5.13 called unknown" ;;
*SL1014*) ok ;; *) echo "$out"; ko "--enable-piecewise-cuda-graph under v0.5.13 not deprecated" ;; esac
# SGLang 0.5.18 (the v0.5.18 tag's commit, 71de97b2): --torchao-config,
# declared up to 0.5.17, is quiet under the image it was written for and
# reported removed, with the versions, under v0.5.18 (and a later tag);
# --startup-weight-load-mode, declared from 0.5.18 on, is known under
# v0.5.18 and reported as new under v0.5.17
sg18() { printf '#!/bin/bash\ndocker run --gpus all lmsysorg/sglang:%s python3 -m sglang.launch_server --model-path m %s\n' "$1" "$2" > "$t/sg18.sh"
	"$bin" check --no-config --format gcc "$t/sg18.sh"; }
out=$(sg18 v0.5.17 '--torchao-config int8wo')
case "$out" in *SL1001*) echo "$out"; ko "--torchao-config under v0.5.17 called unknown" ;; *) ok ;; esac
want='`--torchao-config` was removed in SGLang 0.5.18, last accepted in 0.5.17; this entry runs 0.5.18 [SL1001]'
out=$(sg18 v0.5.18-cu130 '--torchao-config int8wo')
case "$out" in *"$want"*) ok ;; *) echo "$out"; ko "--torchao-config under v0.5.18: the removal with versions" ;; esac
out=$(sg18 v0.5.19 '--torchao-config int8wo')
case "$out" in *'`--torchao-config` was removed in SGLang 0.5.18'*SL1001*) ok ;; *) echo "$out"; ko "--torchao-config under v0.5.19: removed in 0.5.18" ;; esac
out=$(sg18 v0.5.18 '--startup-weight-load-mode overlap')
case "$out" in *SL100*) echo "$out"; ko "--startup-weight-load-mode under v0.5.18" ;; *) ok ;; esac
want='`--startup-weight-load-mode` is accepted from SGLang 0.5.18 on; this entry runs 0.5.17 [SL1001]'
out=$(sg18 v0.5.17 '--startup-weight-load-mode overlap')
case "$out" in *"$want"*) ok ;; *) echo "$out"; ko "--startup-weight-load-mode under v0.5.17: new in 0.5.18" ;; esac
# a flag whose action refuses it (DeprecatedAction(error_message=...):
# argparse exits) is no flag of that release: reported removed, with what
# its source says to use, under v0.5.18; quiet under v0.5.17
want='`--enable-expert-distribution-metrics` was removed in SGLang 0.5.18, last accepted in 0.5.17; this entry runs 0.5.18; use `--expert-balancedness-report-mode` [SL1001]'
out=$(sg18 v0.5.18 '--enable-expert-distribution-metrics')
case "$out" in *"$want"*) ok ;; *) echo "$out"; ko "--enable-expert-distribution-metrics under v0.5.18: refused, removed" ;; esac
out=$(sg18 v0.5.17 '--enable-expert-distribution-metrics')
case "$out" in *SL10*) echo "$out"; ko "--enable-expert-distribution-metrics under v0.5.17" ;; *) ok ;; esac
# ATOM: the release an image's tag names at its end (`-atom0.1.2`); a flag
# the release lacks, named as written (main after 0.1.6rc0 added the '-'
# spelling of `--kv_cache_dtype`, FlexibleArgumentParser); a value that may
# be left out (`--enable-tbo`, nargs="?") before another flag; the negation
# of a BooleanOptionalAction
atom='python3 -m atom.entrypoints.openai_server --model m'
printf '#!/bin/bash\ndocker run --rm rocm/atom:rocm7.2.1-ubuntu24.04-pytorch2.9.1-atom0.1.2 %s --no-enable_prefix_caching --enable-tbo --kv-cache-dtype fp8 --kv_cache_dtype fp8\n' "$atom" > "$t/at-old.sh"
out=$("$bin" check --no-config --format gcc "$t/at-old.sh")
case "$out" in *'`--no-enable_prefix_caching` is accepted from ATOM 0.1.3 on (`--enable_prefix_caching` is a plain switch before); this entry runs 0.1.2 [SL1001]'*'`--enable-tbo` is accepted from ATOM 0.1.3 on; this entry runs 0.1.2 [SL1001]'*'`--kv-cache-dtype` is accepted from ATOM 0.1.6rc1.dev323 on; this entry runs 0.1.2 [SL1001]'*) ok ;;
*) echo "$out"; ko "ATOM 0.1.2 image: --no-enable_prefix_caching, --enable-tbo and --kv-cache-dtype are later" ;; esac
case "$out" in *'`--kv_cache_dtype` is'*) echo "$out"; ko "ATOM 0.1.2: --kv_cache_dtype is accepted" ;; *) ok ;; esac
printf '#!/bin/bash\n%s --enable-tbo --max-num-seqs 8 --no-enable_prefix_caching --online_quant_config %s --default-chat-template-kwargs %s --kv-transfer-config %s\n' \
	"$atom" "'{}'" "'{}'" "'{\"kv_role\":\"kv_consumer\"}'" > "$t/at-new.sh"
out=$("$bin" check --no-config --format gcc "$t/at-new.sh")
case "$out" in *SL1001*) echo "$out"; ko "ATOM flags of later releases called unknown" ;; *) ok ;; esac
out=$("$bin" show "$t/at-new.sh")
case "$out" in *'atom.enable_tbo '*'true'*'limits.max_seqs '*'8'*'atom.enable_prefix_caching '*'false'*) ok ;;
*) echo "$out"; ko "ATOM --enable-tbo took the next flag, or --no-enable_prefix_caching not its negation" ;; esac
case "$out" in *'role      decode (from kv_role)'*) ok ;; *) echo "$out"; ko "ATOM --kv-transfer-config kv_role" ;; esac
# a JSON value written as '${X}' in a command string run by eval: bash
# expanded X when the string was made, so the value is X's, unknown
cat > "$t/at-eval.sh" <<'EOF'
#!/bin/bash
Q=""
if [ -n "$CFG" ]; then Q="--online_quant_config '${CFG}'"; fi
CMD="python3 -m atom.entrypoints.openai_server --model m ${Q}"
eval "$CMD"
EOF
out=$("$bin" check --no-config --format gcc "$t/at-eval.sh")
case "$out" in *SL1004*) echo "$out"; ko "an unknown value in single quotes of an eval'd string read as JSON text" ;; *) ok ;; esac
out=$("$bin" show "$t/at-eval.sh")
case "$out" in *'atom.online_quant_config'*'(symbolic)'*) ok ;; *) echo "$out"; ko "--online_quant_config '\${CFG}' not symbolic" ;; esac
# Dynamo 1.4.0's --frontend-decoding, declared through a helper that
# backend_args.py calls (add_frontend_decoding_arg), and its env var twin
printf '#!/bin/bash\ndocker run --gpus all nvcr.io/nvidia/ai-dynamo/sglang-runtime:1.4.0 python3 -m dynamo.sglang --model-path m --frontend-decoding\n' > "$t/fd.sh"
out=$("$bin" check --no-config --format gcc "$t/fd.sh")
case "$out" in *SL1001*) echo "$out"; ko "dynamo.sglang 1.4.0 --frontend-decoding" ;; *) ok ;; esac
printf '#!/bin/bash\ndocker run --gpus all -e DYN_SGL_FRONTEND_DECODING=1 nvcr.io/nvidia/ai-dynamo/sglang-runtime:1.4.0 python3 -m dynamo.sglang --model-path m\n' > "$t/fde.sh"
out=$("$bin" show "$t/fde.sh")
case "$out" in *'frontend_decoding'*'DYN_SGL_FRONTEND_DECODING'*) ok ;; *) echo "$out"; ko "DYN_SGL_FRONTEND_DECODING not --frontend-decoding's twin" ;; esac
# Dynamo's SGLang worker reads --disaggregation-mode before SGLang does
# (grammar include_choices): from Dynamo 1.4.0 on, agg and pd are SGLang's
# null and encode its multimodal encode worker; SGLang's own choices stay.
# Under 1.2.0's image they are reported with the release that takes them;
# with no Dynamo release known, taken; a typo still is one
for v in 1.2.0 1.4.0 none; do
	img="nvcr.io/nvidia/ai-dynamo/sglang-runtime:$v"
	[ "$v" = none ] && img=example/sglang:latest
	printf '#!/bin/bash\ndocker run --gpus all %s python3 -m dynamo.sglang --model-path m --disaggregation-mode encode\ndocker run --gpus all %s python3 -m dynamo.sglang --model-path m --disaggregation-mode pd\ndocker run --gpus all %s python3 -m dynamo.sglang --model-path m --disaggregation-mode prefill\n' "$img" "$img" "$img" > "$t/dm-$v.sh"
done
out=$("$bin" check --no-config --format gcc "$t/dm-1.4.0.sh")
case "$out" in *SL1007*) echo "$out"; ko "dynamo.sglang 1.4.0: --disaggregation-mode encode/pd reported" ;; *) ok ;; esac
out=$("$bin" check --no-config --format gcc "$t/dm-none.sh")
case "$out" in *SL1007*) echo "$out"; ko "dynamo.sglang, no release: --disaggregation-mode encode/pd reported" ;; *) ok ;; esac
out=$("$bin" check --no-config --format gcc "$t/dm-1.2.0.sh")
want='`encode` for `--disaggregation-mode`, which takes null, prefill, decode in SGLang; NVIDIA Dynamo + SGLang worker takes it from 1.4.0 on, and this entry runs 1.2.0 [SL1007]'
case "$out" in *"$want"*'`pd` for `--disaggregation-mode`'*SL1007*) ok ;; *) echo "$out"; ko "dynamo.sglang 1.2.0: encode and pd with the release that takes them" ;; esac
case "$out" in *'`prefill` for'*) echo "$out"; ko "dynamo.sglang 1.2.0: SGLang's own prefill reported" ;; *) ok ;; esac
printf '#!/bin/bash\ndocker run --gpus all nvcr.io/nvidia/ai-dynamo/sglang-runtime:1.4.0 python3 -m dynamo.sglang --model-path m --disaggregation-mode encod\n' > "$t/dm-typo.sh"
out=$("$bin" check --no-config --format gcc "$t/dm-typo.sh")
want='`encod` for `--disaggregation-mode`, which takes null, prefill, decode, agg, pd, encode in SGLang under NVIDIA Dynamo + SGLang worker 1.4.0 (did you mean `encode`?) [SL1007]'
case "$out" in *"$want"*) ok ;; *) echo "$out"; ko "dynamo.sglang 1.4.0: a typo of encode" ;; esac
# plain SGLang keeps its own three
printf '#!/bin/bash\ndocker run --gpus all lmsysorg/sglang:v0.5.17 python3 -m sglang.launch_server --model-path m --disaggregation-mode encode\n' > "$t/dm-sgl.sh"
out=$("$bin" check --no-config --format gcc "$t/dm-sgl.sh")
case "$out" in *'`encode` for `--disaggregation-mode`, which takes null, prefill, decode in SGLang 0.5.17'*SL1007*) ok ;;
*) echo "$out"; ko "sglang: --disaggregation-mode encode not reported" ;; esac
# include_choices' `only:` replaces the included flag's choices (no
# grammar of ours needs it: tried on a copy of the grammars)
g=$(mktemp -d)
cp grammars/engines/*.yaml "$g/"
sed 's/    add: \[agg, pd, encode\]/    only: [agg, encode]/' grammars/engines/dynamo-sglang.yaml > "$g/dynamo-sglang.yaml"
printf '#!/bin/bash\ndocker run --gpus all nvcr.io/nvidia/ai-dynamo/sglang-runtime:1.4.0 python3 -m dynamo.sglang --model-path m --disaggregation-mode prefill\ndocker run --gpus all nvcr.io/nvidia/ai-dynamo/sglang-runtime:1.4.0 python3 -m dynamo.sglang --model-path m --disaggregation-mode encode\n' > "$t/dm-only.sh"
out=$(SERVELINT_GRAMMARS="$g" "$bin" check --no-config --format gcc "$t/dm-only.sh")
want='dm-only.sh:2:131: warning: value outside the flag'"'"'s choices: `prefill` for `--disaggregation-mode`, which takes agg, encode in NVIDIA Dynamo + SGLang worker 1.4.0 [SL1007]'
[ "$out" = "$t/$want" ] && ok || { echo "$out"; ko "include_choices only: the wrapper's choices alone"; }
rm -rf "$g"
finish
