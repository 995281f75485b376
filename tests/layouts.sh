#!/bin/sh
# layouts.sh SERVELINT [--update]: how files are laid out (tests/data/layouts/):
# a folder of many scripts, one entry each; groups of scripts that are one
# deployment (role siblings, a script and the YAML it names, a docker
# wrapper and the script it runs, a group stated in .servelint.yaml); diff
# and log of one script of a folder of many; recipes and more Kubernetes.
set -u
. "$(dirname "$0")/lib.sh"
gold=layouts
d=tests/data/layouts
T0=$(mktemp)
golden suite.tty "$bin" show --color never $d/suite
golden pd.tty "$bin" show --color never $d/pd
golden pd.json "$bin" show --format json $d/pd/decode.sh
golden server-yaml.tty "$bin" show --color never $d/server-yaml
golden wrapper.tty "$bin" show --color never $d/wrapper
golden stated.tty "$bin" show --color never $d/stated
# the pair's block sizes differ: the cross-role rule fires on the group
golden pd-check.gcc "$bin" check --format gcc $d/pd

out=$("$bin" check --format json $d/pd 2>&1 | grep -c '"rule": "SL2004"')
[ "$out" -eq 1 ] && ok || ko "SL2004 once on the pair, not once per script: $out"
# recipes that are not Kubernetes: srt-slurm (SGLang, vLLM, TensorRT-LLM), llm-d style and vLLM recipes' strategies
for r in sglang-1p2d vllm-agg trtllm-1p1d llmd-pd vllm-strategy-pd template; do
	golden recipe-$r.tty "$bin" show --color never $d/recipes/$r.yaml
done
golden recipe-sglang.json "$bin" show --format json $d/recipes/sglang-1p2d.yaml
# a folder of recipes is an entry per recipe
n=$("$bin" show --color never $d/recipes | grep -c ': [0-9]* services$')
[ "$n" -eq 6 ] && ok || ko "show on the recipes folder: $n entries"
# a catalogue folder (entries in folders under it) is an entry per one
# found, the same entries as `show` of each and as check reads
n=$("$bin" show --color never corpus | grep -c ': [0-9]* services*$')
m=$("$bin" show --color never corpus/*/*/*/ | grep -c ': [0-9]* services*$')
[ "$n" -eq 35 ] && [ "$n" -eq "$m" ] && ok || ko "show on the catalogue folder: $n entries, $m given one by one"
E=$(mktemp -d); mkdir "$E/sub"
out=$("$bin" show "$E" 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q "entry folder has no launch script" && ok || ko "show of a folder with no entry: $rc $out"
rm -rf "$E"
# the cross-role rules hold recipes' roles against each other
golden recipes-check.gcc "$bin" check --format gcc $d/recipes
# vLLM model recipes (vllm-project/recipes models/<Provider>/<Model>.yaml):
# one model per variant, each argv item a word at its place
v=tests/data/vllm-recipes
golden vllm-recipe-misspelt.tty "$bin" show --color never $v/misspelt.yaml
golden vllm-recipe-items.tty "$bin" show --color never $v/items.yaml
golden vllm-recipe-items.json "$bin" show --format json $v/items.yaml
# the misspelt flag at its item's line:col, once for both variants
golden vllm-recipe-misspelt.gcc "$bin" check --format gcc $v/misspelt.yaml
# found by a folder's search as given one by one; a file that does not
# parse and a vLLM-Omni recipe are errors at their place (exit 2), never
# a clean run over files not read
golden vllm-recipes-check.gcc "$bin" check --format gcc -j 1 $v
"$bin" check --format gcc $v > /dev/null 2>&1
[ $? -eq 2 ] && ok || ko "check on the vLLM recipes folder: not exit 2"
out=$("$bin" check --format gcc $v/bad/malformed.yaml 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q 'malformed.yaml:7:4: error: .*YAML' && ok || ko "malformed recipe: $rc $out"
out=$("$bin" show $v/bad/omni.yaml 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q 'omni.yaml:8:1: a vLLM-Omni recipe' && ok || ko "omni recipe: $rc $out"
n=$("$bin" show --color never $v/misspelt.yaml $v/items.yaml | grep -c '^service ')
[ "$n" -eq 3 ] && ok || ko "vLLM recipes' services: $n, not 3 (two variants and one)"
# Kubernetes, more of it: multinode.nodeCount, engine configs in ConfigMaps
# mounted where the command names them, a frontend left to the operator
golden k8s-dgd.tty "$bin" show --color never $d/k8s/dgd-multinode.yaml
golden k8s-dgd.json "$bin" show --format json $d/k8s/dgd-multinode.yaml
golden k8s-configmap.tty "$bin" show --color never $d/k8s/vllm-configmap.yaml
"$bin" check --format gcc $d/k8s > "$T0" 2>&1
[ $? -eq 0 ] && [ ! -s "$T0" ] && ok || ko "check on the manifests: $(cat "$T0")"
# .servelint.yaml's entries: refused with their place when not so shaped
B=$(mktemp -d)
printf 'vllm serve m\n' > "$B/a.sh"; printf 'vllm serve m --max-num-seqs 8\n' > "$B/b.sh"
printf 'entries: 5\n' > "$B/.servelint.yaml"
out=$("$bin" show "$B/a.sh" 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q '\.servelint\.yaml:1:10: entries: expected a list of {name, files}' && ok || ko "entries: 5: $rc $out"
printf 'entries:\n  - name: x\n    files: [a.sh, missing.sh]\n' > "$B/.servelint.yaml"
out=$("$bin" check "$B" 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q '\.servelint\.yaml:3:19: .*entries: `missing.sh` is not a file beside .servelint.yaml' && ok || ko "missing file: $rc $out"
rm -rf "$B"
# a script of a folder of many, in git: diff and log follow that script
T=$(mktemp -d)
trap 'rm -rf "$T" "$T0"' EXIT
sh $d/mkrepo.sh "$T" > /dev/null 2>&1 || ko "history setup"
cd "$T"
golden hist-diff.txt "$bin" diff --color never HEAD~5 HEAD~4
golden hist-comment.txt "$bin" diff --color never HEAD~4 HEAD~3
golden hist-pair.txt "$bin" diff --color never HEAD~3 HEAD~2 -- pd/prefill.sh
golden hist-two.txt "$bin" diff --color never HEAD~1 HEAD -- bench/llama70b_fp8_h200_sglang.sh
golden hist-log.txt "$bin" log --color never bench/llama70b_fp8_h100_vllm.sh
golden hist-log-renamed.txt "$bin" log --color never --no-reformat bench/qwen3_bf16_mi325x_vllm.sh
golden hist-log-pair.txt "$bin" log --color never pd/decode.sh
cd "$root"
finish
