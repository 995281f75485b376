#!/bin/sh
# check.sh SERVELINT: `servelint check` formats against outputs read and
# judged (tests/golden/check/), exit statuses, and a clean corpus.
# Regenerate with: tests/check.sh SERVELINT --update
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
upd=${2:-}
fails=0
pass=0
ok() { pass=$((pass + 1)); }
ko() { echo "FAIL $1"; fails=$((fails + 1)); }
t=tests/data/check/planted.sh
# SARIF's helpUri and informationUri are the build's web address of the
# repository (SERVELINT_DOCS_URL, checked on their own below): the goldens
# are kept without them
nouri() { jq --indent 2 'del(.runs[].tool.driver.informationUri, .runs[].tool.driver.rules[].helpUri)' "$@"; }
for fmt in gcc json tty sarif github checkstyle; do
	out=$(mktemp)
	if [ $fmt = sarif ]; then
		"$bin" check --format "$fmt" --color never "$t" > "$out.raw"
		rc=$?
		nouri "$out.raw" > "$out"
		rm -f "$out.raw"
	else
		"$bin" check --format "$fmt" --color never "$t" > "$out"
		rc=$?
	fi
	if [ "$upd" = --update ]; then cp "$out" "tests/golden/check/planted.$fmt"; fi
	if [ $rc -ne 1 ]; then echo "FAIL $fmt: exit $rc, want 1"; fails=$((fails + 1));
	elif ! diff -u "tests/golden/check/planted.$fmt" "$out"; then echo "FAIL $fmt output"; fails=$((fails + 1));
	else pass=$((pass + 1)); fi
	rm -f "$out"
done
# every format on a corpus entry with findings
e=corpus/deepseek-v4-pro/gb300-nvl72/dynamo-trtllm-disagg-6p-dep4-1d-dep8-mtp3
for fmt in gcc json tty sarif github checkstyle; do
	out=$(mktemp)
	"$bin" check --format "$fmt" --color never "$e" > "$out"
	if [ $fmt = sarif ]; then nouri "$out" > "$out.s" && mv "$out.s" "$out"; fi
	if [ "$upd" = --update ]; then cp "$out" "tests/golden/check/corpus-6p.$fmt"; fi
	diff -u "tests/golden/check/corpus-6p.$fmt" "$out" > /dev/null && pass=$((pass + 1)) ||
		{ echo "FAIL corpus $fmt"; fails=$((fails + 1)); }
	rm -f "$out"
done
# several reports in one run, each to its file
d=$(mktemp -d)
"$bin" check --format sarif --output "$d/r.sarif" --format gcc --output "$d/r.gcc" "$t" > "$d/stdout"
if [ $? -eq 1 ] && [ ! -s "$d/stdout" ] && cmp -s "$d/r.gcc" tests/golden/check/planted.gcc &&
   nouri "$d/r.sarif" | cmp -s - tests/golden/check/planted.sarif; then pass=$((pass + 1)); else
	echo "FAIL --output pairs"; fails=$((fails + 1)); fi
rm -rf "$d"
# thresholds: only errors shown; warnings do not fail with --failure-threshold error
n=$("$bin" check --format gcc --severity error "$t" | wc -l)
[ "$n" -eq 3 ] && pass=$((pass + 1)) || { echo "FAIL --severity error gave $n lines"; fails=$((fails + 1)); }
"$bin" check --format gcc --severity warning --failure-threshold error tests/data/check/planted.sh > /dev/null
[ $? -eq 1 ] && pass=$((pass + 1)) || { echo "FAIL failure threshold"; fails=$((fails + 1)); }
# the corpus: exactly the findings of the golden, each true: two warnings
# (SL4002) and, advisory, the settings not checked (SL0004: the two
# gpt-oss entries name engine config files the catalogue does not
# publish, one note per worker), nothing else
out=$(mktemp)
"$bin" check --format gcc corpus > "$out"
rc=$?
if [ "$upd" = --update ]; then cp "$out" tests/golden/check/corpus.gcc; fi
if [ $rc -eq 1 ] && diff -u tests/golden/check/corpus.gcc "$out" && ! grep -q ': error:' "$out" &&
   [ "$(grep -c ': warning: .*\[SL4002\]$' "$out")" -eq 2 ] &&
   [ "$(grep -c ': note: settings not checked, .*\[SL0004\]$' "$out")" -eq 4 ] &&
   [ "$(grep -v '\[SL4002\]$' "$out" | grep -v ': note: .*\[SL0004\]$' | grep -c .)" -eq 0 ] &&
   [ "$(grep '\[SL0004\]$' "$out" | grep -v -c '/gpt-oss-120b/b200-sxm-x8/dynamo-trtllm-disagg-1p-1gpu-[13]d-')" -eq 0 ]; then
	pass=$((pass + 1)); else echo "FAIL corpus findings"; fails=$((fails + 1)); fi
rm -f "$out"
# config files named and not held (vLLM's and SGLang's --config,
# trtllm-serve's --extra_llm_api_options, with a value unknown beside one):
# SL0004 per service naming the flag, the path and where the file was
# looked for, not for the file the entry holds nor twice for the unknown
# path; advisory (exit 0) unless a --failure-threshold says otherwise
cm=tests/data/check/config-missing
out=$(mktemp)
"$bin" check --color never "$cm" > "$out"
rc=$?
if [ "$upd" = --update ]; then cp "$out" tests/golden/check/config-missing.tty; fi
[ $rc -eq 0 ] && diff -u tests/golden/check/config-missing.tty "$out" && ok || ko "config files not held: SL0004, exit $rc"
"$bin" check --format gcc --failure-threshold info "$cm" > /dev/null
[ $? -eq 1 ] && ok || ko "config files not held: --failure-threshold info fails"
rm -f "$out"
# advisory only, the corpus passes CI: SL0004 alone does not fail check
"$bin" check --format gcc corpus/gpt-oss-120b/b200-sxm-x8/dynamo-trtllm-disagg-1p-1gpu-3d-1gpu > /dev/null
[ $? -eq 0 ] && ok || ko "an entry naming config files it does not hold: exit 0 (advisory)"
# suppression: a comment above a command (kept in SARIF with its reason),
# the nearest .servelint.yaml (disable, exclude), --no-config
sup=tests/data/check/suppress
out=$("$bin" check --format gcc --no-config "$sup/sub/x.sh")
[ "$(printf '%s\n' "$out" | grep -c SL4001)" -eq 1 ] && ! printf '%s' "$out" | grep -q SL5001 &&
	pass=$((pass + 1)) || { echo "FAIL disable comment: $out"; fails=$((fails + 1)); }
"$bin" check --format sarif --no-config "$sup/sub/x.sh" | grep -q '"justification": "percent on purpose in this test"' &&
	pass=$((pass + 1)) || { echo "FAIL SARIF suppressions"; fails=$((fails + 1)); }
out=$("$bin" check --format gcc "$sup")
[ $? -eq 0 ] && [ -z "$out" ] && pass=$((pass + 1)) || { echo "FAIL .servelint.yaml: $out"; fails=$((fails + 1)); }
n=$("$bin" check --format gcc --no-config "$sup" | grep -c SL4001)
[ "$n" -eq 2 ] && pass=$((pass + 1)) || { echo "FAIL folder search gave $n"; fails=$((fails + 1)); }
# an id in a disable comment that names no rule (a typo, the wrong case):
# SL0002 at the id, and what it meant to suppress still reported; the
# comment's known ids still suppress
s2=$(mktemp)
printf '# servelint disable=SL9999,SL4001 -- x\nvllm serve org/m --gpu-memory-utilization 90 --tensor-paralel-size 2\n# servelint disable-file=sl1001\n' > "$s2"
out=$("$bin" check --format gcc --no-config "$s2")
[ $? -eq 1 ] && printf '%s\n' "$out" | grep -q "^$s2:1:21: warning: a suppression comment names no rule: \`SL9999\` names no rule.*\[SL0002\]$" &&
	printf '%s\n' "$out" | grep -q "^$s2:3:26: warning: .*\`sl1001\` names no rule.*\[SL0002\]$" &&
	printf '%s\n' "$out" | grep -q '\[SL1001\]$' && ! printf '%s\n' "$out" | grep -q SL4001 && [ "$(printf '%s\n' "$out" | wc -l)" -eq 3 ] &&
	ok || { ko "SL0002: a disable comment naming no rule"; printf '%s\n' "$out"; }
rm -f "$s2"
# usage 3, unreadable input 2
"$bin" check --format xml "$t" > /dev/null 2>&1
[ $? -eq 3 ] && pass=$((pass + 1)) || { echo "FAIL usage exit"; fails=$((fails + 1)); }
"$bin" check /nonexistent/entry > /dev/null 2>&1
[ $? -eq 2 ] && pass=$((pass + 1)) || { echo "FAIL input error exit"; fails=$((fails + 1)); }
# an entry that cannot be read is a finding (SL0001) at its place; every
# other entry is still checked and reported, every --output written; exit 2
d=$(mktemp -d)
mkdir -p "$d/m/a" "$d/m/b"
printf 'vllm serve "x\n' > "$d/m/a/launch.sh"
cp "$t" "$d/m/b/launch.sh"
"$bin" check -f gcc "$d/m" > "$d/out"
[ $? -eq 2 ] && grep -q "^$d/m/a/launch.sh:1:12: error: .*syntax error.*\[SL0001\]$" "$d/out" &&
	[ "$(grep -c "^$d/m/b/launch.sh:" "$d/out")" -eq 6 ] && ok || { ko "unreadable entry and the others"; cat "$d/out"; }
"$bin" check -f sarif -o "$d/m.sarif" -f gcc -o "$d/m.gcc" "$d/m" > /dev/null 2> "$d/err"
[ $? -eq 2 ] && grep -q '^servelint check: 1 entry could not be read (SL0001 in the reports)$' "$d/err" && jq -e '[.runs[0].results[].ruleId] | index("SL0001") != null and length == 7' "$d/m.sarif" > /dev/null &&
	cmp -s "$d/m.gcc" "$d/out" && ok || ko "--output written past an unreadable entry"
# a helper script found beside the entries, in which nothing starts a
# service, is no entry (searching a folder); named on the command line, it is
# said to have no service
mkdir -p "$d/h"
cp "$t" "$d/h/serve.sh"
printf '#!/bin/sh\nset -e\ngit pull\n' > "$d/h/update.sh"
"$bin" check -f gcc "$d/h" > "$d/out" 2>&1
[ $? -eq 1 ] && ! grep -q SL0001 "$d/out" && [ "$(grep -c "^$d/h/serve.sh:" "$d/out")" -eq 6 ] && ok || { ko "helper script in a folder"; cat "$d/out"; }
"$bin" audit "$d/h" > "$d/out" 2>&1
[ $? -eq 1 ] && ! grep -q SL0001 "$d/out" && ok || { ko "audit: helper script in a folder"; cat "$d/out"; }
"$bin" check -f gcc "$d/h/update.sh" > "$d/out" 2>&1
[ $? -eq 2 ] && grep -q "^$d/h/update.sh:3:1: error: .*no service.*\[SL0001\]$" "$d/out" && ok || { ko "helper script named"; cat "$d/out"; }
# show leaves the helper out as check does (it showed nothing, exit 2)
"$bin" show --color never "$d/h" > "$d/out" 2> "$d/err"
[ $? -eq 0 ] && [ ! -s "$d/err" ] && grep -q "^$d/h/serve.sh: " "$d/out" && ! grep -q update.sh "$d/out" && ok ||
	{ ko "show: helper script in a folder"; cat "$d/out" "$d/err"; }
# a folder whose scripts are all helpers holds no entry: said, exit 2,
# never a clean run of nothing (check exited 0 with no output, as audit
# said "no entries found")
mkdir -p "$d/only"
cp "$d/h/update.sh" "$d/only/update.sh" && cp "$d/h/update.sh" "$d/only/sync.sh"
for c in check show audit; do
	"$bin" $c --format json "$d/only" > "$d/out" 2> "$d/err"
	[ $? -eq 2 ] && [ ! -s "$d/out" ] && grep -q "no entries found under $d/only" "$d/err" &&
		{ [ $c = audit ] || grep -q "^$d/only/[a-z]*.sh:3:1: .*no service: " "$d/err"; } && ok ||
		{ ko "$c: a folder of helpers only"; cat "$d/out" "$d/err"; }
done
# no service: a text file, a YAML file that no entry names and whose
# engine its keys do not tell, a path that is not there: located SL0001
# findings, exit 2, never clean
printf 'hello world\n' > "$d/junk.txt"
printf 'foo: 1\ntensor_parallel_size: 4\n' > "$d/alone.yaml"
"$bin" check -f gcc "$d/junk.txt" "$d/alone.yaml" > "$d/out"
[ $? -eq 2 ] && grep -q "^$d/junk.txt:1:1: error: .*no service.*\[SL0001\]$" "$d/out" &&
	grep -q "^$d/alone.yaml:1:1: error: .*not an engine config file servelint can tell the engine of: its 2 top-level keys: 1 TensorRT-LLM LlmArgs key, 1 vLLM flag, 1 SGLang flag" "$d/out" &&
	ok || { ko "no service"; cat "$d/out"; }
# an engine config YAML alone (no script names it) is read as its engine's
# config file, the engine told by its keys, and its keys checked
mkdir "$d/cfg"
printf 'backend: pytorch\ntensor_parallel_size: 4\nmax_batch_sizes: 64\nkv_cache_config:\n  free_gpu_memory_fraction: 0.8\n' > "$d/cfg/extra_engine_args_gen.yaml"
"$bin" check -f gcc "$d/cfg/extra_engine_args_gen.yaml" > "$d/out"
[ $? -eq 1 ] && [ "$(wc -l < "$d/out")" -eq 1 ] &&
	grep -q "^$d/cfg/extra_engine_args_gen.yaml:3:1: warning: .*\`max_batch_sizes\` is not a key trtllm reads.*\[SL1001\]$" "$d/out" &&
	ok || { ko "TensorRT-LLM config alone"; cat "$d/out"; }
"$bin" show "$d/cfg/extra_engine_args_gen.yaml" > "$d/out"
grep -q '^service aggregated  trtllm (trtllm-serve)  (extra_engine_args_gen.yaml alone, read as trtllm.s config file).sh:1:1$' "$d/out" &&
	grep -q '^    parallel.tensor  *4  *extra_engine_args_gen.yaml:2:1 ' "$d/out" && ok || { ko "show a config alone"; cat "$d/out"; }
printf 'model: org/m\ntensor-parallel-size: 4\nmax-num-seqs: 64\ngpu-memory-utilization: 1.5\n' > "$d/cfg/vllm.yaml"
"$bin" check -f gcc "$d/cfg/vllm.yaml" > "$d/out"
[ $? -eq 1 ] && grep -q "^$d/cfg/vllm.yaml:4:1: error: .*\[SL4001\]$" "$d/out" && ok || { ko "vLLM --config alone"; cat "$d/out"; }
printf 'model-path: org/m\nmem-fraction-static: 0.8\nport: 30000\n' > "$d/cfg/sglang.yaml"
"$bin" show "$d/cfg/sglang.yaml" | grep -q '^service aggregated  sglang ' && ok || ko "SGLang --config alone"
# SGLang's --config file is read as its flags (ConfigArgumentMerger): a
# misspelt key is told at its line, the model the file gives is the model
# (no placeholder for a file that starts with model-path:), and a launch
# script's --config reads the same (it was "not read yet", checked clean)
printf 'model-path: org/m\nmem-fraction-static: 0.8\npage-sise: 16\ntp: 2\n' > "$d/cfg/sglang2.yaml"
"$bin" check -f gcc "$d/cfg/sglang2.yaml" > "$d/out"
[ $? -eq 1 ] && grep -q "^$d/cfg/sglang2.yaml:3:1: warning: .*\`--page-sise\` is not a key sglang reads \[SL1001\]$" "$d/out" &&
	ok || { ko "SGLang config: a misspelt key"; cat "$d/out"; }
"$bin" show --color never "$d/cfg/sglang2.yaml" > "$d/out"
grep -q '^    model  *org/m  *sglang2.yaml:1:1  model-path: org/m$' "$d/out" && grep -q '^    parallel.tensor  *2 ' "$d/out" &&
	! grep -q 'MODEL' "$d/out" && ok || { ko "SGLang config: its model and tp"; cat "$d/out"; }
mkdir "$d/sgl"
printf 'mem-fraction-static: 0.85\nchunked-prefill-size: 8192\n' > "$d/sgl/server.yaml"
printf 'python3 -m sglang.launch_server --model-path org/m --config server.yaml --port 30000\n' > "$d/sgl/launch.sh"
"$bin" show --color never "$d/sgl" | grep -q '^    memory.static_fraction  *0.85  *server.yaml:1:1 ' && ok || ko "SGLang --config of a script"
"$bin" show "$d/junk.txt" > "$d/out" 2> "$d/err"
[ $? -eq 2 ] && [ ! -s "$d/out" ] && grep -q "^$d/junk.txt:1:1: no service" "$d/err" && ok || ko "show junk.txt"
# a file inside an entry is checked as its entry: the YAML of the corpus's
# SL4002 warning, and the launch.sh beside it
e5=corpus/deepseek-v4-pro/gb300-nvl72/dynamo-trtllm-disagg-5p-dep4-1d-dep16-mtp3
"$bin" check -f gcc "$e5/gen_config.yaml" > "$d/out"
[ $? -eq 1 ] && grep -q "^$e5/gen_config.yaml:13:3: warning: .*\[SL4002\]$" "$d/out" && ok || { ko "check gen_config.yaml"; cat "$d/out"; }
"$bin" check -f gcc "$e5/launch.sh" > "$d/out2"
[ $? -eq 1 ] && cmp -s "$d/out" "$d/out2" && ok || ko "check launch.sh reads its YAML"
(cd "$e5" && "$bin" check -f gcc gen_config.yaml) | grep -q '^gen_config.yaml:13:3: warning: .*\[SL4002\]$' && ok ||
	ko "check gen_config.yaml from its folder: places as given"
# SARIF: distinct results, distinct fingerprints (two SL4002 on lines of one
# text in a page); every rule has a helpUri to its file
p2=corpus/pages/002_527771f1a7637570.txt
"$bin" check -f sarif "$p2" > "$d/p2.sarif"
jq -e '[.runs[0].results[].partialFingerprints.primaryLocationLineHash] | length == (unique | length)' "$d/p2.sarif" > /dev/null &&
	jq -e '[.runs[0].results[] | select(.ruleId == "SL4002")] | length == 2' "$d/p2.sarif" > /dev/null && ok || ko "SARIF fingerprints"
# helpUri: BASE/rules/FILE, the build's SERVELINT_DOCS_URL (ctest gives it
# to this test), FILE a rule's file of the tree; with no BASE, that file in
# the source tree (this folder) as a file:// URI, and no informationUri
base=${SERVELINT_DOCS_URL-unset}
if [ "$base" = unset ]; then
	ko "SERVELINT_DOCS_URL not given to the test (run it through ctest)"
elif [ -n "$base" ]; then
	n=$(jq -r '.runs[0].tool.driver.rules[] | .helpUri' "$d/p2.sarif" | while read -r u; do
		f=${u#"$base/rules/"}; [ "$u" != "$f" ] && [ -f "rules/$f" ] && echo ok; done | wc -l)
	[ "$n" -eq "$(ls rules/SL*.yaml | wc -l)" ] && ok || ko "helpUri: $n rules name their file under $base"
	jq -e --arg b "$base" '.runs[0].tool.driver.informationUri == $b' "$d/p2.sarif" > /dev/null && ok || ko "informationUri"
else
	n=$(jq -r '.runs[0].tool.driver.rules[] | .helpUri' "$d/p2.sarif" | while read -r u; do
		f=${u#"file://$(pwd)/rules/"}; [ "$u" != "$f" ] && [ -f "rules/$f" ] && echo ok; done | wc -l)
	[ "$n" -eq "$(ls rules/SL*.yaml | wc -l)" ] && ok || ko "no SERVELINT_DOCS_URL: $n rules name their file in the source tree"
	jq -e '[.. | objects | select(has("informationUri"))] | length == 0' "$d/p2.sarif" > /dev/null &&
		ok || ko "no SERVELINT_DOCS_URL: an informationUri all the same"
fi
grep -q 'github.com/servelint/servelint' "$d/p2.sarif" && ko "the placeholder address" || ok
# an invalid JSON flag value is one finding; the entry's others stand (defect 7)
printf '%s\n' "vllm serve org/m --max-num-sqs 64 --speculative-config '{\"method\":\"mtp\",\"num_speculative_tokens\":3,}' --gpu-memory-utilization 1.5" > "$d/j.sh"
"$bin" check -f gcc "$d/j.sh" > "$d/out"
[ $? -eq 1 ] && [ "$(grep -c "^$d/j.sh:1:100: error: invalid JSON in a JSON-valued flag: invalid JSON: .*\[SL1004\]$" "$d/out")" -eq 1 ] &&
	grep -q '\[SL1001\]$' "$d/out" && grep -q '\[SL4001\]$' "$d/out" && [ "$(wc -l < "$d/out")" -eq 3 ] && ok ||
	{ ko "invalid JSON and the other findings"; cat "$d/out"; }
rm -rf "$d"
# SL6007: SGLang runs MTP as EAGLE (or NEXTN), so a header saying MTP
# agrees; the same header with STANDALONE configured does not
d=$(mktemp -d)
printf '# DeepSeek R1, MTP speculative decoding\npython3 -m sglang.launch_server --model-path org/m --speculative-algorithm EAGLE --speculative-num-steps 3\n' > "$d/mtp.sh"
"$bin" check --no-config --format gcc "$d/mtp.sh" > "$d/out"
! grep -q SL6007 "$d/out" && ok || { ko "SGLang MTP as EAGLE is not SL6007"; cat "$d/out"; }
printf '# DeepSeek R1, MTP speculative decoding\npython3 -m sglang.launch_server --model-path org/m --speculative-algorithm STANDALONE --speculative-num-steps 3\n' > "$d/mtp2.sh"
"$bin" check --no-config --format gcc "$d/mtp2.sh" > "$d/out"
grep -q "^$d/mtp2.sh:1:16: warning: .*\[SL6007\]$" "$d/out" && ok || { ko "SGLang STANDALONE under an MTP header is SL6007"; cat "$d/out"; }
rm -rf "$d"
# SL2007 is not compared between Dynamo workers (a Dynamo prefill worker
# takes token IDs only); the same modes on two vllm serve behind a proxy are
d=$(mktemp -d)
printf 'python3 -m dynamo.vllm --model org/m --disaggregation-mode prefill --tokenizer-mode slow &\npython3 -m dynamo.vllm --model org/m --disaggregation-mode decode --tokenizer-mode auto &\npython3 -m dynamo.frontend --http-port 8000\n' > "$d/dyn.sh"
"$bin" check --no-config --format gcc "$d/dyn.sh" > "$d/out"
! grep -q SL2007 "$d/out" && ok || { ko "SL2007 between Dynamo workers"; cat "$d/out"; }
cat > "$d/vllm.sh" <<'EOF'
vllm serve org/m --port 8100 --tokenizer-mode slow --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_producer"}' &
vllm serve org/m --port 8200 --tokenizer-mode auto --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_consumer"}' &
EOF
"$bin" check --no-config --format gcc "$d/vllm.sh" > "$d/out"
grep -q "^$d/vllm.sh:2:30: warning: .*tokenizer_mode = auto, prefill has slow \[SL2007\]$" "$d/out" && ok ||
	{ ko "SL2007 between two vllm serve"; cat "$d/vllm.sh" "$d/out"; }
rm -rf "$d"
# SL2014 likewise: Dynamo's frontend tokenizes with the tokenizer decode
# registers and a prefill worker takes token IDs (its --tokenizer reads no
# request); the rule's bad example holds two vllm serve behind a proxy
d=$(mktemp -d)
printf 'python3 -m dynamo.vllm --model org/m --tokenizer org/a --disaggregation-mode prefill &\npython3 -m dynamo.vllm --model org/m --tokenizer org/b --disaggregation-mode decode &\npython3 -m dynamo.frontend --http-port 8000\n' > "$d/dyn.sh"
"$bin" check --no-config --format gcc "$d/dyn.sh" > "$d/out"
! grep -q SL2014 "$d/out" && ok || { ko "SL2014 between Dynamo workers"; cat "$d/out"; }
rm -rf "$d"
# SL2006 has a direction: a prefill capped below decode (it computes the
# prompt and one token) is not a finding, decode below prefill is
d=$(mktemp -d)
# the workers' unified entry points (python -m dynamo.vllm.unified_main,
# as Dynamo's vllm/launch/agg.sh picks with USE_UNIFIED) are the same
# engines: their flags are checked (a worker was read as no engine)
printf 'python -m dynamo.frontend --http-port 8000 &\npython -m dynamo.vllm.unified_main --model org/m --max-num-seqz 4 &\npython -m dynamo.sglang.unified_main --model-path org/m --mem-fraction-statik 0.8 &\npython -m dynamo.trtllm.unified_main --model org/m --max-batch-sise 8\n' > "$d/unified.sh"
"$bin" check -f gcc "$d/unified.sh" > "$d/out"
[ "$(grep -c '\[SL1001\]$' "$d/out")" -eq 3 ] && grep -q ':2:.*--max-num-seqz.* of dynamo-vllm' "$d/out" &&
	grep -q ':3:.*--mem-fraction-statik.* of dynamo-sglang' "$d/out" && grep -q ':4:.*--max-batch-sise.* of dynamo-trtllm' "$d/out" &&
	ok || { ko "unified_main workers"; cat "$d/out"; }
printf 'python3 -m dynamo.vllm --model org/m --disaggregation-mode prefill --max-model-len 8200 &\npython3 -m dynamo.vllm --model org/m --disaggregation-mode decode --max-model-len 9216 &\npython3 -m dynamo.frontend --http-port 8000\n' > "$d/up.sh"
"$bin" check --no-config --format gcc "$d/up.sh" > "$d/out"
! grep -q SL2006 "$d/out" && ok || { ko "SL2006 with prefill below decode"; cat "$d/out"; }
sed 's/8200/9217/' "$d/up.sh" > "$d/down.sh"
"$bin" check --no-config --format gcc "$d/down.sh" > "$d/out"
grep -q "^$d/down.sh:2:.*limits.max_model_len = 9216, prefill has 9217 \[SL2006\]$" "$d/out" && ok ||
	{ ko "SL2006 with decode below prefill"; cat "$d/out"; }
rm -rf "$d"
# SL3001 with a data-parallel size the script does not know: the ranks are
# not known (not 1 x tensor); bound by --set they are held
d=$(mktemp -d)
printf 'CUDA_VISIBLE_DEVICES=0,1,2,3 vllm serve org/m --port 8000 --tensor-parallel-size 1 --data-parallel-size "$DP" --enable-expert-parallel &\n' > "$d/dp.sh"
! "$bin" check --no-config --format gcc "$d/dp.sh" | grep -q SL3001 && ok || ko "SL3001 with an unknown DP"
! "$bin" check --no-config --format gcc --set DP=4 "$d/dp.sh" | grep -q SL3001 && ok || ko "SL3001 with DP=4 on 4 GPUs"
"$bin" check --no-config --format gcc --set DP=2 "$d/dp.sh" | grep -q "^$d/dp.sh:1:1: error: .*needs 2 GPUs .* given 4 .*\[SL3001\]$" && ok ||
	{ ko "SL3001 with DP=2 on 4 GPUs"; "$bin" check --no-config --format gcc --set DP=2 "$d/dp.sh"; }
rm -rf "$d"
# a direction the vocabulary does not have is refused where it is written
d=$(mktemp -d)
sed 's/direction: decode_below/direction: down/' rules/SL2006-max-model-len-differs.yaml > "$d/SL2006-max-model-len-differs.yaml"
SERVELINT_RULES=$d "$bin" rules > /dev/null 2> "$d/err"
[ $? -ne 0 ] && grep -q "SL2006-max-model-len-differs.yaml:[0-9]*:16: rule: direction (equal_across_roles only) is decode_below or prefill_below" "$d/err" && ok ||
	{ ko "an unknown direction refused"; cat "$d/err"; }
rm -rf "$d"
# a TensorRT-LLM config key's default holds a side that leaves it out
# (tests/rules_corpus.tsv: SL2004), but not under a section whose absence
# turns its feature off: a context config without speculative_config
# drafts nothing, not the default count (no SL2002)
d=$(mktemp -d)
cp corpus/deepseek-v4-pro/b300-x8/trtllm-disagg-1p-dep4-1d-dep4-mtp3/* "$d"/
awk '/^speculative_config:/ { skip = 1; next } skip && /^  / { next } { skip = 0; print }' \
	corpus/deepseek-v4-pro/b300-x8/trtllm-disagg-1p-dep4-1d-dep4-mtp3/ctx_config.yaml > "$d/ctx_config.yaml"
grep -q speculative_config "$d/ctx_config.yaml" && ko "speculative_config not removed"
"$bin" check --no-config --format gcc "$d" > "$d/out"
! grep -q SL2002 "$d/out" && ok || { ko "SL2002 against a side without speculative_config"; cat "$d/out"; }
rm -rf "$d"
# rules: listed and explained
"$bin" rules | grep -q '^SL2002 ' && "$bin" rules SL2002 | grep -q '^Bad:' && pass=$((pass + 1)) ||
	{ echo "FAIL rules"; fails=$((fails + 1)); }
# a member of --attention-config that newer vLLM has (use_fp4_indexer_cache) is known
"$bin" check --no-config --format gcc tests/data/check/attention-config-fp4-indexer.sh | grep -q 'SL1001' &&
	{ echo "FAIL use_fp4_indexer_cache read as unknown"; fails=$((fails + 1)); } || pass=$((pass + 1))
# a harness script whose values come from the environment: never a silent
# clean, one advisory finding for the service (SL0004) naming its settings
# not checked and where their values come from, the count at the end of the
# tty report, and exit 0 (CI passes) unless a --failure-threshold is given
h=tests/data/check/harness.sh
d=$(mktemp -d)
"$bin" check --no-config --color never "$h" > "$d/out"
rc=$?
[ $rc -eq 0 ] && [ "$(grep -c '\[SL0004\]$' "$d/out")" -eq 1 ] &&
	grep -q "^$h:11:1: info: settings not checked, their values unknown: 4 of aggregated: model (\`\$MODEL\`), parallel.tensor (\`\$TP\`), limits.max_model_len (\`\$((ISL + OSL + 256))\`), limits.max_seqs (\`\$CONC\`); \`\$MODEL\`, \`\$TP\`, \`\$ISL\`, \`\$OSL\`, \`\$CONC\` have no value in the script (no line sets them and no default is given: the caller's environment gives them) (bind with --set NAME=VALUE) \[SL0004\]$" "$d/out" &&
	grep -q "^  $h:12:5: note: parallel.tensor is \`\$TP\`, not known$" "$d/out" &&
	[ "$(tail -1 "$d/out")" = "4 settings were not checked, their values unknown to the script (SL0004; bind with --set NAME=VALUE)." ] &&
	ok || { ko "harness: SL0004, exit $rc"; cat "$d/out"; }
"$bin" check --no-config --color never --failure-threshold info "$h" > /dev/null
[ $? -eq 1 ] && ok || ko "harness: --failure-threshold info fails on SL0004"
"$bin" check --no-config --color never --failure-threshold warning "$h" > /dev/null
[ $? -eq 0 ] && ok || ko "harness: --failure-threshold warning passes SL0004"
# below --severity, the findings go and the count stays
"$bin" check --no-config --color never --severity warning "$h" > "$d/out"
[ $? -eq 0 ] && [ "$(cat "$d/out")" = "4 settings were not checked, their values unknown to the script (SL0004, below --severity)." ] &&
	ok || { ko "harness: --severity warning"; cat "$d/out"; }
# bound with --set, they are checked: nothing is left unknown
"$bin" check --no-config --color never --set MODEL=org/m --set TP=4 --set ISL=1024 --set OSL=1024 --set CONC=64 "$h" > "$d/out"
[ $? -eq 0 ] && [ ! -s "$d/out" ] && ok || { ko "harness: --set binds every value"; cat "$d/out"; }
"$bin" check --no-config --format json "$h" | jq -e '[.findings[] | select(.rule == "SL0004")] | length == 1' > /dev/null &&
	ok || ko "harness: SL0004 in json"
"$bin" check --no-config --format sarif "$h" | jq -e '.runs[0].results | map(select(.ruleId == "SL0004")) | length == 1 and .[0].level == "note"' > /dev/null &&
	ok || ko "harness: SL0004 in sarif, a note"
# a value the script sets where the reader cannot tell it (an argument it
# parses) is said so, never "no line sets it"
printf '#!/bin/bash\nMODEL=org/default\nwhile [ $# -gt 0 ]; do\n  case "$1" in\n    --model) MODEL="$2"; shift 2 ;;\n    *) shift ;;\n  esac\ndone\nvllm serve "$MODEL" --port 8000\n' > "$d/args.sh"
"$bin" check --no-config --color never -f gcc "$d/args.sh" > "$d/out"
[ $? -eq 0 ] && grep -q "^$d/args.sh:9:1: note: settings not checked, their values unknown: 1 of aggregated: model (\`\$MODEL\`); \`\$MODEL\` is set by the script where its value cannot be told (the arguments it parses, a branch, a loop) (bind with --set NAME=VALUE) \[SL0004\]$" "$d/out" &&
	ok || { ko "SL0004: a value set from the arguments"; cat "$d/out"; }
# a sourced file that is not read: a warning at the source line (exit 1),
# each kind of file not read; with a reason, it is suppressed
printf '#!/bin/bash\nsource /opt/env/setup.sh\n. "$LIB_DIR/lib.sh"\nsource ./missing.sh\nvllm serve org/m --tensor-parallel-size 4 --port 8000\n' > "$d/s.sh"
"$bin" check --no-config --color never -f gcc "$d/s.sh" > "$d/out"
rc=$?
[ $rc -eq 1 ] && [ "$(grep -c '\[SL0003\]$' "$d/out")" -eq 3 ] &&
	grep -q "^$d/s.sh:2:1: warning: the entry is read only in part: \`source /opt/env/setup.sh\`: the file is not read (an absolute path, outside the entry) \[SL0003\]$" "$d/out" &&
	grep -q "^$d/s.sh:3:1: warning: .*its path depends on what the script cannot know" "$d/out" &&
	grep -q "^$d/s.sh:4:1: warning: .*(not found) \[SL0003\]$" "$d/out" &&
	! grep -q SL0004 "$d/out" && ok || { ko "source not read: exit $rc"; cat "$d/out"; }
printf '#!/bin/bash\n# servelint disable=SL0003 -- the image holds it, it sets nothing served\nsource /opt/env/setup.sh\nvllm serve org/m --tensor-parallel-size 4 --port 8000\n' > "$d/s2.sh"
"$bin" check --no-config --color never "$d/s2.sh" > "$d/out"
[ $? -eq 0 ] && [ ! -s "$d/out" ] && ok || { ko "source not read, suppressed"; cat "$d/out"; }
# conditionals that multiply past the 64 variants: seven switches (128
# combinations) are read in a covering set (every combination of any three
# of them), no finding; the notes of show say how they were chosen
{ printf '#!/bin/bash\n# a sweep of seven switches\n'
  for v in A:--max-num-seqs B:--max-model-len C:--block-size D:--seed E:--max-num-batched-tokens F:--swap-space G:--port; do
	printf 'if [ "$%s" = 1 ]; then %s_V=16; else %s_V=32; fi\n' "${v%%:*}" "${v%%:*}" "${v%%:*}"
  done
  printf 'vllm serve org/m'
  for v in A:--max-num-seqs B:--max-model-len C:--block-size D:--seed E:--max-num-batched-tokens F:--swap-space G:--port; do
	printf ' %s "$%s_V"' "${v#*:}" "${v%%:*}"
  done
  printf '\n'; } > "$d/sweep.sh"
"$bin" check --no-config --color never -f gcc "$d/sweep.sh" > "$d/out"
rc=$?
# ... and said by check, advisory (SL0006; the exit status is SL4005's, a
# pair of the switches giving 16 batched tokens for 32 sequences)
! grep -q SL0005 "$d/out" && [ $rc -eq 1 ] && grep -q 'SL4005\]$' "$d/out" && [ "$(grep -c '^.*sweep.sh:3:1: note: the script is read in a covering set of its variants: the script.s 7 undecided conditionals .*\[SL0006\]$' "$d/out")" -eq 1 ] &&
	ok || { ko "seven switches: a covering set, SL0006 and no SL0005: exit $rc"; cat "$d/out"; }
"$bin" show --color never "$d/sweep.sh" > "$d/out"
grep -q "^  sweep.sh:3:1: the script's 7 undecided conditionals make more variants than the limit of 64: read are [0-9]*, which hold every combination of alternatives of any three of them, not of every four or more ([a-z0-9 ]*):" "$d/out" &&
	[ "$(grep -c '^variant [0-9]* of [0-9]*: ' "$d/out")" -lt 64 ] && ok || { ko "seven switches: the covering note"; head -5 "$d/out"; }
# three tests of five values each: 125 combinations of three, past the
# limit even in a covering set: a warning at the first, naming each; one
# bound with --set, the script is read whole
{ printf '#!/bin/bash\n# a sweep of three five-way settings\n'
  for v in A:--max-num-seqs B:--max-model-len C:--block-size; do
	n=${v%%:*}
	printf 'case "$%s" in 1) %s_V=1 ;; 2) %s_V=2 ;; 3) %s_V=4 ;; 4) %s_V=8 ;; *) %s_V=16 ;; esac\n' $n $n $n $n $n $n
  done
  printf 'vllm serve org/m --max-num-seqs "$A_V" --max-model-len "$B_V" --block-size "$C_V"\n'; } > "$d/sweep5.sh"
"$bin" check --no-config --color never -f gcc "$d/sweep5.sh" > "$d/out"
rc=$?
[ $rc -eq 1 ] && [ "$(grep -c '\[SL0005\]$' "$d/out")" -eq 1 ] &&
	grep -q "^$d/sweep5.sh:3:1: warning: the script is checked in part: the script has more variants than the limit of 64, and so has a set of them that covers every combination of any three of its conditionals: .*case \"\$A\" (line 3) x5, .*case \"\$C\" (line 5) x5 (bind their variables" "$d/out" &&
	ok || { ko "variants beyond the limit: exit $rc"; cat "$d/out"; }
"$bin" check --no-config --color never -f gcc --set A=1 "$d/sweep5.sh" > "$d/out"
! grep -q SL0005 "$d/out" && ok || { ko "variants beyond the limit, one bound: still SL0005"; cat "$d/out"; }
# findings merged across variants are in order (file, line, column, rule)
# in every format: the second variant's finding (line 7) before the one of
# both (line 9), as -j gives them too (tests/jobs.sh)
vo=tests/data/check/variant-order.sh
for f in gcc:'^[^ ]*variant-order.sh:\([0-9]*\):[0-9]*: ' tty:'^[^ ]*variant-order.sh:\([0-9]*\):[0-9]*: ' \
	github:'^::warning file=[^,]*,line=\([0-9]*\),.*' checkstyle:'^ *<error line="\([0-9]*\)".*'; do
	lines=$("$bin" check --no-config --color never -f "${f%%:*}" "$vo" | sed -n "s/${f#*:}.*/\1/p" | tr '\n' ' ')
	[ "$lines" = "7 9 " ] && ok || ko "findings of variants in line order, ${f%%:*}: $lines"
done
lines=$("$bin" check --no-config -f json "$vo" | python3 -c 'import json,sys
print(" ".join(str(f["location"]["line"]) for f in json.load(sys.stdin)["findings"]))')
[ "$lines" = "7 9" ] && ok || ko "findings of variants in line order, json: $lines"
lines=$("$bin" check --no-config -f sarif "$vo" | python3 -c 'import json,sys
print(" ".join(str(r["locations"][0]["physicalLocation"]["region"]["startLine"]) for r in json.load(sys.stdin)["runs"][0]["results"]))')
[ "$lines" = "7 9" ] && ok || ko "findings of variants in line order, sarif: $lines"
rm -rf "$d"
# a version between two records (vLLM 0.18.0: 0.11.0 and 0.27.0 are
# recorded): a value 0.11.0 refuses and 0.27.0 takes is not judged (a vLLM
# recipe's min_vllm_version gave such versions); at 0.11.0 itself it is
d=$(mktemp -d)
printf '# vLLM 0.18.0\nvllm serve m --tokenizer-mode deepseek_v32 --max-model-len auto\n' > "$d/between.sh"
printf '# vLLM 0.11.0\nvllm serve m --tokenizer-mode deepseek_v32 --max-model-len auto\n' > "$d/exact.sh"
out=$("$bin" check --format gcc "$d/between.sh" 2>&1); rc=$?
[ $rc -eq 0 ] && [ -z "$out" ] && ok || ko "values between two records: $rc $out"
out=$("$bin" check --format gcc "$d/exact.sh" 2>&1)
[ "$(echo "$out" | grep -c 'SL1007\]')" -eq 1 ] && [ "$(echo "$out" | grep -c 'SL1008\]')" -eq 1 ] && ok ||
	ko "values at the recorded release: $out"
rm -rf "$d"
echo "$pass passed, $fails failed"
[ $fails -eq 0 ]
