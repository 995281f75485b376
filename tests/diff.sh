#!/bin/sh
# diff.sh SERVELINT [--update]: `servelint diff` against outputs read and
# judged (tests/golden/diff/), exit statuses, and REV:path read from a real
# git repository built here (reformat-only commit, alias swap, real change).
set -u
. "$(dirname "$0")/lib.sh"
gold=diff
# formatting, flag order, aliases, =, JSON member order: equal; --port 8000
# is vLLM's default written out: an explicit default, not a difference
golden aliases.tty "$bin" diff --exit-code --color never tests/data/diff/a.sh tests/data/diff/b.sh
[ "$("$bin" diff --exit-code tests/data/diff/a.sh tests/data/diff/b.sh > /dev/null; echo $?)" -eq 0 ] &&
	pass=$((pass + 1)) || { echo "FAIL equal entries exit"; fails=$((fails + 1)); }
# Dynamo 0.4-0.6's store_false `--no-kv-events` and 1.x's
# `--no-router-kv-events` both turn the router's KV events off
golden kv-events-spellings.tty "$bin" diff --exit-code --color never tests/data/diff/kv-events-old.sh tests/data/diff/kv-events-new.sh
v=corpus/deepseek-v4.1-flash/vera-rubin-nvl72
golden disagg-vs-agg.tty "$bin" diff --color never $v/dynamo-vllm-disagg-2p-tp2-1d-dep4-dspark6 $v/dynamo-vllm-tp4-dspark6
b=corpus/deepseek-v4.1-flash/b300-x8
golden tp2-vs-tp8.json "$bin" diff --format json $b/vllm-tp2-dspark5 $b/vllm-tp8-dspark5
golden tp2-vs-tp8.md "$bin" diff --format markdown $b/vllm-tp2-dspark5 $b/vllm-tp8-dspark5
"$bin" diff --exit-code --only 'parallel.*' $b/vllm-tp2-dspark5 $b/vllm-tp8-dspark5 > /dev/null
[ $? -eq 1 ] && pass=$((pass + 1)) || { echo "FAIL --exit-code on a difference"; fails=$((fails + 1)); }
n=$("$bin" diff --ignore 'vllm.*' --ignore 'parallel.*' --ignore 'gpus.*' $b/vllm-tp2-dspark5 $b/vllm-tp8-dspark5 | grep -c '^  ')
[ "$n" -eq 0 ] && pass=$((pass + 1)) || { echo "FAIL --ignore left $n lines"; fails=$((fails + 1)); }
"$bin" diff - tests/data/diff/a.sh < tests/data/diff/a.sh | grep -q 'no difference' &&
	pass=$((pass + 1)) || { echo "FAIL stdin"; fails=$((fails + 1)); }
# an entry's launch.sh given alone is read with the files beside it (its
# metadata.txt here), which standard input does not have
"$bin" diff --color never - $b/vllm-tp2-dspark5/launch.sh < $b/vllm-tp2-dspark5/launch.sh | grep -q 'claim system (metadata): (unset) -> B300 x8  \[- -> metadata.txt:2:7\]' &&
	ok || ko "launch.sh read as its entry"
# git: REV:path without a checkout
repo=$(mktemp -d)
trap 'rm -rf "$repo"' EXIT
mkdir -p "$repo/e" && cp $b/vllm-tp2-dspark5/* "$repo/e/"
(cd "$repo" && git init -q && git add -A && git -c user.name=t -c user.email=t@t commit -qm one &&
	sed -i 's/--tensor-parallel-size 2/-tp 2/; s/^  --host/    --host/' e/launch.sh &&
	git -c user.name=t -c user.email=t@t commit -qam "alias swap, reindent" &&
	sed -i 's/--max-num-seqs 256/--max-num-seqs 128/' e/launch.sh &&
	git -c user.name=t -c user.email=t@t commit -qam "real change") || { echo "FAIL git setup"; exit 1; }
(cd "$repo" && "$bin" diff --exit-code HEAD~2:e HEAD~1:e) | grep -q 'no difference' &&
	pass=$((pass + 1)) || { echo "FAIL reformat-only commit"; fails=$((fails + 1)); }
golden git-change.tty sh -c 'cd "$1" && exec "$2" diff --color never HEAD~1:e HEAD:e' sh "$repo" "$bin"
# a binary blob, as a file and inside an entry folder
(cd "$repo" && mkdir bin && printf 'vllm serve m\0\001\002\n' > bin/launch.sh && git add bin &&
	git -c user.name=t -c user.email=t@t commit -qm binary) || { echo "FAIL binary setup"; exit 1; }
for bad in "HEAD:bin/launch.sh" "HEAD:bin"; do
	(cd "$repo" && "$bin" diff "$bad" HEAD:e > /dev/null 2> "$repo/err")
	[ $? -eq 2 ] && grep -q 'binary' "$repo/err" && ok || ko "binary blob $bad"
done
for bad in "nosuch:e" "HEAD:missing" ; do
	(cd "$repo" && "$bin" diff "$bad" HEAD:e > /dev/null 2>&1)
	[ $? -eq 2 ] && pass=$((pass + 1)) || { echo "FAIL bad input $bad"; fails=$((fails + 1)); }
done
(cd /tmp && "$bin" diff HEAD:e HEAD:e > /dev/null 2> "$repo/err"; [ $? -eq 2 ] && grep -q "not in a git repository" "$repo/err" &&
	! grep -qi "libgit2" "$repo/err") &&
	pass=$((pass + 1)) || { echo "FAIL not a repository"; fails=$((fails + 1)); }
# REV REV: every entry touched, over a history with a reformat-only
# commit, an alias swap, a flag change, a YAML change, a rename, a deletion
# and a new entry (tests/data/mkrepo.sh)
mkhist
hd() { (cd "$hist" && "$bin" diff "$@"); }
golden rev-all.tty hd --color never HEAD~7 HEAD
golden rev-yaml-rename.md hd --format markdown HEAD~4 HEAD~1
golden rev-all.json hd --format json HEAD~7 HEAD
for r in "HEAD~7 HEAD~6" "HEAD~6 HEAD~5"; do
	hd --exit-code --color never $r > "$hist.out"
	[ $? -eq 0 ] && grep -q '^reformatted only: cat/vllm$' "$hist.out" && ok || ko "reformat-only $r"
done
hd --exit-code HEAD~7 HEAD > /dev/null
[ $? -eq 1 ] && ok || ko "REV REV --exit-code on changes"
hd --color never HEAD~7 HEAD -- cat/vllm > "$hist.out"
[ "$(grep -c '^[a-z].*: cat/' "$hist.out")" -eq 1 ] && grep -q '^changed: cat/vllm$' "$hist.out" && ok || ko "pathspec"
hd HEAD~7 nosuchrev > /dev/null 2>&1
[ $? -eq 2 ] && ok || ko "unknown revision"
hd a.sh b.sh -- cat > /dev/null 2>&1
[ $? -eq 3 ] && ok || ko "pathspec without revisions"
# paths from the current folder, as git: pathspecs, REV:./path, and a
# REV:path not at the top but there from the current folder (defect 11)
(cd "$hist/cat" && "$bin" diff --color never HEAD~7 HEAD -- vllm) > "$hist.out"
[ "$(grep -c '^[a-z].*: cat/' "$hist.out")" -eq 1 ] && grep -q '^changed: cat/vllm$' "$hist.out" && ok ||
	{ ko "pathspec from a subfolder"; cat "$hist.out"; }
(cd "$hist/cat" && "$bin" diff --color never --exit-code HEAD~5:./vllm HEAD~4:vllm) > "$hist.out"
[ $? -eq 1 ] && grep -q 'limits.max_seqs: 256 -> 128' "$hist.out" && ok || { ko "REV:path from a subfolder"; cat "$hist.out"; }
# the names servelint gives a page's entries are inputs (defect 12)
P0=corpus/pages/000_a3b24a2c279fc8de.txt
"$bin" diff --color never $P0:472 $P0:393 > "$hist.out" 2>&1
[ $? -eq 0 ] && grep -q "^--- $P0:472$" "$hist.out" && grep -q '~ version: 0.1.dev20904+g179dd0fa9 -> 0.31.0' "$hist.out" &&
	! grep -qi libgit2 "$hist.out" && ok || { ko "diff page:LINE"; cat "$hist.out"; }
"$bin" show --format json $P0:472 | jq -e '.entries | length == 1 and .[0].entry == "'$P0':472"' > /dev/null && ok || ko "show page:LINE"
"$bin" check --format gcc $P0:472 > /dev/null && ok || ko "check page:LINE"
"$bin" matrix --format csv $P0:472 $P0:393 > "$hist.out" 2>&1 && grep -q '472' "$hist.out" && ok || ko "matrix page:LINE"
# an input with no service is said to be none, never "no difference" (defect 3)
printf 'hello world\n' > "$hist.junk.txt"
"$bin" diff --exit-code "$hist.junk.txt" "$hist.junk.txt" > "$hist.out" 2>&1
[ $? -eq 2 ] && grep -q "junk.txt:1:1: no service" "$hist.out" && ! grep -q 'no difference' "$hist.out" && ok || ko "diff of no service"
rm -f "$hist.junk.txt"
"$bin" show $P0:473 > /dev/null 2> "$hist.out"
[ $? -eq 2 ] && grep -q 'no entry of .* starts at line 473 (its entries start at lines 19, 39' "$hist.out" && ok || ko "page:LINE of no entry"
# a helper script changed between two revisions is no entry, never
# "reformatted only" (nothing in it starts a service)
c2=$(mktemp -d)
git clone -q "$hist" "$c2/c" && mkdir -p "$c2/c/tools" && printf '#!/bin/sh\ngit pull\n' > "$c2/c/tools/update.sh" &&
	(cd "$c2/c" && git add -A && git -c user.name=T -c user.email=t@e commit -qm helper &&
	printf '#!/bin/sh\ngit pull --rebase\n' > tools/update.sh && git -c user.name=T -c user.email=t@e commit -qam "helper again")
(cd "$c2/c" && "$bin" diff --exit-code HEAD~1 HEAD) > "$hist.out"
[ $? -eq 0 ] && grep -q '^not an entry (nothing in it starts a service): tools$' "$hist.out" &&
	grep -q '^0 entries touched' "$hist.out" && ! grep -q 'reformatted only: tools' "$hist.out" && ok || { ko "helper between revisions"; cat "$hist.out"; }
rm -rf "$c2"
# a whole page is many entries: refused, never read as its first
"$bin" diff corpus/pages/000_a3b24a2c279fc8de.txt corpus/deepseek-v4-pro/b300-x8/trtllm-disagg-1p-dep4-1d-dep4-mtp3 > /dev/null 2> "$hist.err"
[ $? -eq 2 ] && grep -q 'holds 20 entries' "$hist.err" && ok || ko "a page as a side"
# git's external diff driver (seven or nine arguments) driven by real git
# diff; git difftool --extcmd with two files
ext() { (cd "$hist" && GIT_EXTERNAL_DIFF="$bin diff --color never" git --no-pager diff "$@"); }
golden ext-change.txt ext HEAD~5 HEAD~4
golden ext-yaml.txt ext HEAD~4 HEAD~3
golden ext-rename.txt ext HEAD~3 HEAD~2
ext HEAD~6 HEAD~5 > "$hist.out"
[ $? -eq 0 ] && grep -q '^no difference in how the model is served$' "$hist.out" && ok || ko "external diff, alias swap"
(cd "$hist" && git difftool --no-prompt --extcmd "$bin diff --color never" HEAD~5 HEAD~4 -- cat/vllm/launch.sh) > "$hist.out" 2>&1
grep -q 'limits.max_seqs: 256 -> 128' "$hist.out" && ok || ko "difftool --extcmd"
# a YAML engine file is diffed as part of its entry, never "no difference":
# by difftool (cat/trt is renamed since: found by the files' blobs), and
# given as two files inside entries; two YAML files of no entry are read
# alone, each as the engine config file its keys say it is
(cd "$hist" && git difftool --no-prompt --extcmd "$bin diff --color never --exit-code" HEAD~4 HEAD~3 -- cat/trt/gen_config.yaml) > "$hist.out" 2>&1
grep -q '^note: compared as part of its entry cat/trt ' "$hist.out" &&
	grep -q 'memory.kv_free_fraction: 0.8 -> 0.7  \[gen_config.yaml:19:3 -> gen_config.yaml:19:3\]' "$hist.out" && ok ||
	{ ko "difftool on a YAML file"; cat "$hist.out"; }
(cd "$hist" && git show HEAD~4:cat/trt/gen_config.yaml > "$hist.old.yaml" && git show HEAD~3:cat/trt/gen_config.yaml > "$hist.new.yaml")
"$bin" diff --exit-code "$hist.old.yaml" "$hist.new.yaml" > "$hist.out" 2>&1
[ $? -eq 1 ] && grep -q "^  ~ memory.kv_free_fraction: 0.8 -> 0.7  \[$(basename "$hist").old.yaml:19:3 -> $(basename "$hist").new.yaml:19:3\]$" "$hist.out" &&
	! grep -q 'no difference' "$hist.out" && ok || { ko "two YAML files of no entry"; cat "$hist.out"; }
# the same YAML file alone under two names: a file read alone names
# itself on the command line servelint makes for it, and that name is not
# served (no engine.config_file noise in diff, matrix or audit's duplicates)
cp "$hist.new.yaml" "$hist.copy.yaml"
"$bin" diff --color never --exit-code "$hist.new.yaml" "$hist.copy.yaml" > "$hist.out" 2>&1
[ $? -eq 0 ] && grep -q '^no difference in how the model is served$' "$hist.out" && ! grep -q config_file "$hist.out" &&
	ok || { ko "one YAML file alone under two names"; cat "$hist.out"; }
"$bin" matrix --color never "$hist.new.yaml" "$hist.copy.yaml" > "$hist.out" 2>&1
grep -q '^no difference between the two entries$' "$hist.out" && ! grep -q config_file "$hist.out" &&
	ok || { ko "matrix: one YAML file alone under two names"; cat "$hist.out"; }
"$bin" diff --color never --exit-code "$hist.old.yaml" "$hist.copy.yaml" > "$hist.out" 2>&1
[ $? -eq 1 ] && [ "$(grep -c '^  [~+-]' "$hist.out")" -eq 1 ] && grep -q '^  ~ memory.kv_free_fraction: 0.8 -> 0.7 ' "$hist.out" &&
	ok || { ko "two YAML files alone: only the served change"; cat "$hist.out"; }
rm -f "$hist.old.yaml" "$hist.new.yaml" "$hist.copy.yaml"
# between revisions: a changed engine config YAML in a folder with no
# entry is compared alone, by meaning; a changed YAML that is no engine
# config is "not an entry", never an error or a change
y=$(mktemp -d)
mkdir "$y/cfg" "$y/ci"
printf 'backend: pytorch\ntensor_parallel_size: 4\nkv_cache_config:\n  free_gpu_memory_fraction: 0.8\n' > "$y/cfg/extra_engine_args.yaml"
printf 'on: push\njobs: {}\n' > "$y/ci/workflow.yml"
git -C "$y" init -q && git -C "$y" add . && git -C "$y" -c user.name=T -c user.email=t@e commit -qm one
sed -i 's/0.8/0.75/' "$y/cfg/extra_engine_args.yaml"
printf 'on: [push]\njobs: {}\n' > "$y/ci/workflow.yml"
git -C "$y" -c user.name=T -c user.email=t@e commit -qam two
(cd "$y" && "$bin" diff --color never HEAD~1 HEAD) > "$hist.out"
[ $? -eq 0 ] && grep -q '^changed: cfg/extra_engine_args.yaml$' "$hist.out" &&
	grep -q '^  ~ memory.kv_free_fraction: 0.8 -> 0.75  \[extra_engine_args.yaml:4:3 -> extra_engine_args.yaml:4:3\]$' "$hist.out" &&
	grep -q '^not an entry (nothing in it starts a service): ci/workflow.yml$' "$hist.out" &&
	grep -q '^1 entry touched: 1 changed,' "$hist.out" && ok || { ko "diff REV REV: a YAML alone"; cat "$hist.out"; }
(cd "$y" && "$bin" review --format gcc HEAD~1 HEAD) > "$hist.out" 2>&1
[ $? -eq 0 ] && [ ! -s "$hist.out" ] && ok || { ko "review: YAML alone"; cat "$hist.out"; }
sed -i 's/0.75/0.7/' "$y/cfg/extra_engine_args.yaml"
(cd "$y" && "$bin" diff --color never HEAD) | grep -q '^  ~ memory.kv_free_fraction: 0.75 -> 0.7 ' && ok || ko "diff HEAD: a YAML alone in the working tree"
rm -rf "$y"
g5=corpus/deepseek-v4-pro/gb300-nvl72
"$bin" diff --color never --exit-code $g5/dynamo-trtllm-disagg-5p-dep4-1d-dep16-mtp3/gen_config.yaml \
	$g5/dynamo-trtllm-disagg-6p-dep4-1d-dep8-mtp3/gen_config.yaml > "$hist.out"
[ $? -eq 1 ] && grep -q '^  ~ parallel.tensor: 16 -> 8 ' "$hist.out" && ok || { ko "two YAML files of entries"; cat "$hist.out"; }
# a speculative method in each engine's own case (SGLang's EAGLE, vLLM's
# eagle) is no difference between engines, and one within an engine
printf 'python3 -m sglang.launch_server --model-path org/m --tp 2 --speculative-algorithm EAGLE\n' > "$hist.s.sh"
printf 'python3 -m sglang.launch_server --model-path org/m --tp 2 --speculative-algorithm eagle\n' > "$hist.s2.sh"
printf '%s\n' "vllm serve org/m -tp 2 --speculative-config '{\"method\":\"eagle\"}'" > "$hist.v.sh"
"$bin" diff --color never "$hist.s.sh" "$hist.v.sh" > "$hist.out"
grep -q '^  ~ engine: sglang -> vllm ' "$hist.out" && ! grep -q spec.method "$hist.out" && ok || { ko "spec.method's case across engines"; cat "$hist.out"; }
"$bin" diff --color never "$hist.s.sh" "$hist.s2.sh" | grep -q '^  ~ spec.method: EAGLE -> eagle ' && ok || ko "spec.method's case within an engine"
"$bin" matrix --color never "$hist.s.sh" "$hist.v.sh" | grep -q '^  aggregated spec.method: EAGLE$' && ok || ko "matrix: spec.method's case across engines"
rm -f "$hist.out" "$hist.s.sh" "$hist.s2.sh" "$hist.v.sh"

# spellings of one meaning, as the engine reads them, are no served change:
# Dynamo's SGLang worker reads --disaggregation-mode agg and pd as SGLang's
# null (aggregated, as no flag is) from 1.4.0 on (ai-dynamo/dynamo
# components/src/dynamo/sglang/args.py@e147cee), so null -> agg -> pd ->
# no flag is reformatted only; in 1.2.0 it hands agg to SGLang as written,
# a change. vLLM reads --kv-cache-dtype fp8 as fp8_e4m3 (vllm.yaml same:).
same=$(mktemp -d)
sc() { git -c user.name=t -c user.email=t@t commit -qam "$1"; }
printf '%s\n' '#!/usr/bin/env bash' '# Dynamo 1.4.0' 'python3 -m dynamo.frontend --http-port 8000 &' \
	'python3 -m dynamo.sglang --model-path Qwen/Qwen3-0.6B --disaggregation-mode null &' > "$same/dynamo.sh"
printf 'docker run --gpus all nvcr.io/nvidia/ai-dynamo/sglang-runtime:1.2.0 python3 -m dynamo.sglang --model-path Qwen/Qwen3-0.6B --disaggregation-mode null\n' > "$same/old.sh"
printf 'vllm serve org/m --kv-cache-dtype fp8\n' > "$same/vllm.sh"
(cd "$same" && git init -q && git add -A && sc one &&
	sed -i 's/mode null &/mode agg \&/' dynamo.sh && sc agg &&
	sed -i 's/mode agg &/mode pd \&/' dynamo.sh && sc pd &&
	sed -i 's/ --disaggregation-mode pd &/ \&/' dynamo.sh && sc none &&
	sed -i 's/mode null$/mode agg/' old.sh && sed -i 's/fp8$/fp8_e4m3/' vllm.sh && sc "old: agg") ||
	ko "same-meaning repository setup"
for r in "HEAD~4 HEAD~3" "HEAD~3 HEAD~2" "HEAD~2 HEAD~1" "HEAD~4 HEAD~1"; do
	(cd "$same" && "$bin" diff --color never $r -- dynamo.sh) > "$same.out"
	grep -q '^reformatted only: dynamo.sh$' "$same.out" && ! grep -q '^changed' "$same.out" &&
		ok || { ko "diff $r: Dynamo's agg, pd and null are one meaning"; cat "$same.out"; }
done
(cd "$same" && "$bin" diff --color never HEAD~1 HEAD) > "$same.out"
grep -q '^changed: old.sh$' "$same.out" && grep -q '^  ~ disagg.mode: null -> agg ' "$same.out" &&
	grep -q '^reformatted only: vllm.sh$' "$same.out" && ok || { ko "diff: agg under Dynamo 1.2.0, fp8 as fp8_e4m3"; cat "$same.out"; }
rm -rf "$same" "$same.out"

# a library that a folder of scripts sources from outside its folder
# (benchmarks/single_node/x.sh: source "$(dirname "$0")/../benchmark_lib.sh"):
# a commit that changes the library alone touches every script that sources
# it, in `diff REV REV` (with and without a pathspec), the working tree, and
# `log` of a script or of the folder; a change of a served flag is changed,
# one of nothing served (a comment, a value only the client reads) reformatted
# only, told by the models at both sides (not assumed from the files)
lib=$(mktemp -d)
gc() { git -c user.name=t -c user.email=t@t commit -qam "$1"; }
mkdir -p "$lib/benchmarks/single_node" "$lib/other"
printf '#!/usr/bin/env bash\n# shared by the scripts\nGPU_MEM_UTIL=0.9\nPORT=8888\nCLIENT_ARGS="--num-prompts 100"\n' > "$lib/benchmarks/benchmark_lib.sh"
for m in llama qwen; do
	printf '#!/usr/bin/env bash\nsource "$(dirname "$0")/../benchmark_lib.sh"\nvllm serve org/%s --port "$PORT" --tensor-parallel-size 8 --gpu-memory-utilization "$GPU_MEM_UTIL" &\nbench $CLIENT_ARGS\n' "$m" \
		> "$lib/benchmarks/single_node/${m}_fp8_h100_vllm.sh"
done
# a script that sources nothing, and one elsewhere: never touched by the library
printf '#!/usr/bin/env bash\nvllm serve org/gemma --port 8000 &\n' > "$lib/benchmarks/single_node/gemma_bf16_h100_vllm.sh"
printf '#!/usr/bin/env bash\nvllm serve org/phi --port 8000 &\n' > "$lib/other/launch.sh"
(cd "$lib" && git init -q && git add -A && gc one &&
	sed -i 's/0.9/0.85/' benchmarks/benchmark_lib.sh && gc "lib: memory" &&
	sed -i 's/^PORT=8888$/PORT=8888  # the client reads it too/' benchmarks/benchmark_lib.sh && gc "lib: comment" &&
	sed -i 's/--num-prompts 100/--num-prompts 200/' benchmarks/benchmark_lib.sh && gc "lib: client only") ||
	ko "library repository setup"
ld() { (cd "$lib" && "$bin" diff --color never "$@"); }
ld HEAD~3 HEAD~2 > "$lib.out"
[ "$(grep -c '^changed: benchmarks/single_node/' "$lib.out")" -eq 2 ] &&
	[ "$(grep -c '^  ~ memory.gpu_utilization: 0.9 -> 0.85 ' "$lib.out")" -eq 2 ] &&
	! grep -q 'gemma\|other' "$lib.out" &&
	grep -q '^2 entries touched: 2 changed, 0 reformatted only' "$lib.out" && ok || { ko "diff: a library change of a served flag"; cat "$lib.out"; }
for r in "HEAD~2 HEAD~1" "HEAD~1 HEAD"; do
	ld $r > "$lib.out"
	[ "$(grep -c '^reformatted only: benchmarks/single_node/' "$lib.out")" -eq 2 ] && ! grep -q '^changed' "$lib.out" &&
		ok || { ko "diff $r: a library change of nothing served"; cat "$lib.out"; }
done
# reformatted only is the models' word: the entries read at both sides are equal
(cd "$lib" && "$bin" diff --exit-code HEAD~2:benchmarks/single_node/qwen_fp8_h100_vllm.sh HEAD:benchmarks/single_node/qwen_fp8_h100_vllm.sh > /dev/null) &&
	ok || ko "diff: qwen after the comment and client-only commits is the same"
(cd "$lib" && "$bin" diff --exit-code HEAD~3:benchmarks/single_node/qwen_fp8_h100_vllm.sh HEAD:benchmarks/single_node/qwen_fp8_h100_vllm.sh > /dev/null)
[ $? -eq 1 ] && ok || ko "diff: qwen before and after the memory commit differs"
ld HEAD~3 HEAD~2 -- benchmarks/single_node/qwen_fp8_h100_vllm.sh > "$lib.out"
[ "$(grep -c '^changed: ' "$lib.out")" -eq 1 ] && grep -q '^changed: benchmarks/single_node/qwen_fp8_h100_vllm.sh$' "$lib.out" &&
	ok || { ko "diff -- script: the library change"; cat "$lib.out"; }
ld HEAD~3 HEAD~2 -- other > "$lib.out"
! grep -q '^changed' "$lib.out" && ok || { ko "diff -- other: the library is not its"; cat "$lib.out"; }
# the working tree
sed -i 's/^PORT=8888 /PORT=9999 /' "$lib/benchmarks/benchmark_lib.sh"
ld HEAD > "$lib.out"
[ "$(grep -c '^  ~ server.port: 8888 -> 9999 ' "$lib.out")" -eq 2 ] && ok || { ko "diff HEAD: the library changed in the working tree"; cat "$lib.out"; }
(cd "$lib" && git checkout -q .)
# log of a script, and of the folder: each commit with what it did
(cd "$lib" && "$bin" log --oneline --color never benchmarks/single_node/llama_fp8_h100_vllm.sh) | cut -d' ' -f2- > "$lib.out"
printf '%s\n' 'lib: client only (reformatted only)' 'lib: comment (reformatted only)' 'lib: memory (changed)' 'one (added)' |
	cmp -s - "$lib.out" && ok || { ko "log of a script: the library's commits"; cat "$lib.out"; }
(cd "$lib" && "$bin" log --oneline --no-reformat --color never benchmarks/single_node) | cut -d' ' -f2- > "$lib.out"
printf '%s\n' 'lib: memory (changed: benchmarks/single_node/llama_fp8_h100_vllm.sh; changed: benchmarks/single_node/qwen_fp8_h100_vllm.sh)' \
	'one (added: benchmarks/single_node/gemma_bf16_h100_vllm.sh; added: benchmarks/single_node/llama_fp8_h100_vllm.sh; added: benchmarks/single_node/qwen_fp8_h100_vllm.sh)' |
	cmp -s - "$lib.out" && ok || { ko "log of the folder: the library's commits"; cat "$lib.out"; }
rm -rf "$lib" "$lib.out"
finish
