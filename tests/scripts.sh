#!/bin/sh
# scripts.sh SERVELINT [--update]: launch scripts in the forms people keep in
# git (tests/data/scripts/): variables, defaults, arithmetic, arrays, flag
# strings spliced unquoted, --set. `show` against outputs read and judged
# (tests/golden/scripts/), `diff` between variants, `check` without false
# findings, and bad input in these forms refused with file:line:col.
set -u
. "$(dirname "$0")/lib.sh"
gold=scripts
d=tests/data/scripts
tmp0=$(mktemp -d)

for f in $d/*.sh; do
	n=$(basename "$f" .sh)
	golden "$n.tty" "$bin" show --color never "$f"
	# every script is clean under check (no false findings), but the one
	# planted with a finding in one variant, the two planted with a
	# backslash that does not continue its line (SL9001, golden below) and
	# the two that source a library that is not there (SL0003, below), the
	# one planted with a member vLLM does not accept beside JSON members the
	# script does not know (golden below), and the sweep with its two GPU
	# counts (SL3001, below)
	case "$n" in cond-gpus|json|json-holes|continuation|sourced|unread|sweep8) continue ;; esac
	"$bin" check --color never "$f" > /dev/null 2>&1
	rc=$?
	[ $rc -eq 0 ] && ok || ko "check $n: exit $rc"
done

# a library sourced and not read: the entry is read only in part, a
# warning at the `source` (never a silent clean), and the settings left
# unknown an advisory note (SL0004) that does not change the exit status
for n in sourced:8 unread:8; do
	"$bin" check --color never --format gcc "$d/${n%:*}.sh" > "$tmp0/out"
	rc=$?
	[ $rc -eq 1 ] && [ "$(grep -c '\[SL0003\]$' "$tmp0/out")" -eq 1 ] &&
		grep -q "^$d/${n%:*}.sh:${n#*:}:1: warning: the entry is read only in part: .*is not read (not found)" "$tmp0/out" &&
		ok || { ko "check ${n%:*}: exit $rc, SL0003 at line ${n#*:}"; cat "$tmp0/out"; }
done
"$bin" check --color never --format gcc "$d/sourced.sh" | grep -q '^tests/data/scripts/sourced.sh:11:1: note: settings not checked, their values unknown: 3 of aggregated: model (`$MODEL`), server.port (`$PORT`), parallel.tensor (`$TP`); `$MODEL`, `$TP` have no value in the script (the caller.s environment, or the file sourced at line 8 that is not read, gives them); `$PORT` is set by the script where its value cannot be told (the arguments it parses, a branch, a loop, or the file sourced at line 8 that is not read) (bind with --set NAME=VALUE) \[SL0004\]$' &&
	ok || ko "sourced: SL0004 names the settings and the file not read"
# a long harness whose every step has undecided conditionals (the shape of
# in-container patch scripts of benchmark suites): the readings that probe
# them follow each alternative once and parse each text once, so 60 steps
# (2,045 lines) take 0.4 s of CPU, where they took 6.3 s (every combination
# up to 256 readings, each parsing the script anew); bounded at 4 s, which
# the ASan build meets too
sh $d/harness-steps.gen 60 > "$tmp0/steps.sh"
out=$( (ulimit -t 4; "$bin" show --color never "$tmp0/steps.sh") 2>&1); rc=$?
[ $rc -eq 0 ] && echo "$out" | grep -q '^    parallel.tensor  *8 ' && ok || ko "a harness of 60 steps in 4 s of CPU: rc $rc"

# JSON: where each value is written (value_origin), symbolic flags, inputs
golden vars.json "$bin" show --format json $d/vars.sh

# here-documents: files of the entry (script#file), positions in the script
golden heredoc-trt.json "$bin" show --format json $d/heredoc-trt.sh
# a value from a here-document follows --set like any other
"$bin" show --format json --set MTP_LAYERS=3 $d/heredoc-trt.sh | grep -q '"raw": "num_nextn_predict_layers: ${MTP_LAYERS}"' &&
	ok || ko "heredoc value raw as written"
"$bin" show --set MTP_LAYERS=3 $d/heredoc-trt.sh | grep -q '^    spec.num_tokens  *3 ' && ok || ko "heredoc --set MTP_LAYERS=3"

# --set binds what the script leaves unknown: arithmetic over it is computed
golden vars-set.tty "$bin" show --color never --set CONC=64 $d/vars.sh
"$bin" show --format json --set CONC=64 $d/vars.sh | grep -q '"value": 96,' && ok || ko "--set CONC=64 gives 96"
# a variable set before `source FILE` is unknown after it (the file may set
# it), so --set binds it there
"$bin" show --set PORT=8000 $d/sourced.sh | grep -q '^    server.port  *8000 .*(--set)$' && ok || ko "--set PORT after source"
# `source FILE` of a file of the folder is read in place (nested, a cycle
# refused, one outside the folder not read): its values and the finding in
# its function point into it, and its fix is a patch of it
golden sourced-dir.tty "$bin" show --color never $d/sourced-dir
golden sourced-dir.check "$bin" check --color never --format gcc $d/sourced-dir
golden sourced-dir.diff "$bin" check --color never --format diff $d/sourced-dir
"$bin" show --format json $d/sourced-dir | python3 -c 'import json, sys
s = json.load(sys.stdin)["entries"][0]["services"][0]
o = [x["value_origin"] for x in s["settings"] if x["key"] == "parallel.tensor"][0]
sys.exit(o != {"file": "tests/data/scripts/sourced-dir/env.sh", "line": 3, "col": 4})' && ok || ko "sourced-dir: TP placed in env.sh"
# at a revision the scripts beside it are read as on disk: the same entry
# gives no difference, and a change of env.sh alone is a difference of it
g="$tmp0/repo"
mkdir -p "$g" && cp -r $d/sourced-dir "$g/e"
(cd "$g" && git init -q && git add -A && git -c user.name=t -c user.email=t@t commit -qm one &&
	sed -i 's/^TP=4/TP=8/' e/env.sh && git -c user.name=t -c user.email=t@t commit -qam two) || ko "git setup"
(cd "$g" && "$bin" diff --exit-code HEAD~1:e/launch.sh HEAD~1:e > /dev/null 2>&1) && ok || ko "sourced-dir: revision = itself"
(cd "$g" && "$bin" diff --color never HEAD~1:e HEAD:e) | grep -q '~ parallel.tensor: 4 -> 8  \[launch.sh:12:36 -> launch.sh:12:36\]' &&
	ok || ko "sourced-dir: env.sh change is a difference"
# a suite's scripts source its library one folder up (and the library a
# file of a folder beside it, from its own folder): read, listed in show,
# every value placed in the file that sets it, named from the script's
# folder; a path above the repository's top and a missing one are not read
for n in qwen3_fp8_h100_vllm qwen3_bf16_h100_vllm outside_h100_vllm dotted_h100_vllm; do
	golden "suite-$n.tty" "$bin" show --color never $d/suite/single/$n.sh
done
"$bin" show --format json $d/suite/single/qwen3_fp8_h100_vllm.sh | python3 -c 'import json, sys
e = json.load(sys.stdin)["entries"][0]
env = {x["name"]: x for x in e["services"][0]["env"]}
sys.exit(e.get("sourced") != ["tests/data/scripts/suite/lib.sh", "tests/data/scripts/suite/common/env.sh"] or
	 env["VLLM_USE_DEEP_GEMM"]["origin"]["file"] != "tests/data/scripts/suite/common/env.sh")' &&
	ok || ko "suite: sourced files listed, env placed in common/env.sh"
# the entries of one run share the tree of a library they all source
# (parse/shell/shared.c, by its text): read together, each entry is what
# it is alone, the same text at two paths is placed in each one's own
# file, the variables set before sourcing differ per script, and a
# library with a syntax error stays unread in each
t2=$(mktemp -d)
mkdir -p "$t2/a" "$t2/b/sub" "$t2/c"
cp $d/suite/lib.sh "$t2/a/lib.sh"
cp $d/suite/lib.sh "$t2/b/sub/lib.sh"
cp -r $d/suite/common "$t2/a/" && cp -r $d/suite/common "$t2/b/sub/"
printf 'MODEL=org/a\nPORT=7001\nsource ./lib.sh\nvllm serve "$MODEL" --port "$PORT" -tp 2\n' > "$t2/a/launch.sh"
printf 'MODEL=org/b\nsource ./sub/lib.sh\nstart_server_default\n' > "$t2/b/launch.sh"
printf 'f() {\n  if then\n}\n' > "$t2/c/lib.sh"
printf 'source ./lib.sh\nvllm serve org/c --port 7003\n' > "$t2/c/launch.sh"
for e in a b c a b c; do "$bin" show --format json "$t2/$e"; done > "$t2/each"
"$bin" show --format json "$t2/a" "$t2/b" "$t2/c" "$t2/a" "$t2/b" "$t2/c" | python3 -c 'import json, sys
all = json.load(sys.stdin)["entries"]
dec = json.JSONDecoder()
text, each, i = open(sys.argv[1]).read(), [], 0
while i < len(text):
	o, i = dec.raw_decode(text, i)
	each += o["entries"]
	while i < len(text) and text[i].isspace():
		i += 1
sys.exit(all != each or len(all) != 6)' "$t2/each" && ok || ko "shared library: entries read together differ from each alone"
"$bin" show --color never "$t2/a" "$t2/b" | grep -q 'server.port  *8888  *sub/lib.sh:26:25' && ok || ko "shared library: placed in its own path"
"$bin" check --format gcc "$t2/a" "$t2/b" "$t2/c" "$t2/c" > "$t2/chk" 2>&1
[ "$(grep -c 'syntax error' "$t2/chk")" -ge 2 ] && ok || ko "shared library: a syntax error in each entry that sources it"
rm -rf "$t2"
# at a revision the same files are read (from the tree, by the same
# paths): the working tree is no different, and a change of the library
# alone is a difference of the script
g="$tmp0/suite-repo"
mkdir -p "$g" && cp -r $d/suite "$g/s"
(cd "$g" && git init -q && git add -A && git -c user.name=t -c user.email=t@t commit -qm one &&
	sed -i 's/PORT:-8888/PORT:-9999/' s/lib.sh && git -c user.name=t -c user.email=t@t commit -qam two) || ko "suite git setup"
(cd "$g" && "$bin" diff --exit-code HEAD:s/single/qwen3_fp8_h100_vllm.sh s/single/qwen3_fp8_h100_vllm.sh > /dev/null 2>&1) &&
	ok || ko "suite: revision = working tree"
(cd "$g" && "$bin" diff --color never HEAD~1:s/single/qwen3_fp8_h100_vllm.sh HEAD:s/single/qwen3_fp8_h100_vllm.sh) |
	grep -q '~ server.port: 8888 -> 9999' && ok || ko "suite: a change of lib.sh is a difference"
# paths through `.` and `..` name the files they reach, at a revision too
(cd "$g" && "$bin" diff --color never HEAD~1:s/single/dotted_h100_vllm.sh HEAD:s/single/dotted_h100_vllm.sh) |
	grep -q '~ server.port: 8888 -> 9999' && ok || ko "suite: dotted paths at a revision"
"$bin" show --format json $d/suite/single/dotted_h100_vllm.sh | python3 -c 'import json, sys
e = json.load(sys.stdin)["entries"][0]
sys.exit(e.get("sourced") != ["tests/data/scripts/suite/lib.sh", "tests/data/scripts/suite/common/env.sh"])' &&
	ok || ko "suite: dotted paths reduced in json"
# a sourced file that cannot be read: a note at the source command saying
# why (a loop of symbolic links, a folder, too large, unreadable), never a
# failure of the entry
u="$tmp0/unread"
mkdir -p "$u/d.sh" && ln -s a.sh "$u/b.sh" && ln -s b.sh "$u/a.sh" && head -c 4200000 /dev/zero | tr '\0' '#' > "$u/big.sh"
printf 'TP=2\nsource a.sh\n. ./d.sh\nsource "$(dirname "$0")/big.sh"\nvllm serve m --tensor-parallel-size $TP\n' > "$u/run.sh"
out=$("$bin" show --color never "$u/run.sh" 2>&1)
echo "$out" | grep -q '^  run.sh:2:1: `source a.sh`: the file is not read (a loop of symbolic links (ELOOP));' && ok || ko "ELOOP note: $out"
echo "$out" | grep -q '^  run.sh:3:1: `. ./d.sh`: d.sh is not read (a folder, not a file);' && ok || ko "folder note"
echo "$out" | grep -q '^  run.sh:4:1: `source $(dirname "$0")/big.sh`: big.sh is not read (file is larger than the limit of 4194304 bytes);' &&
	ok || ko "too large note"
if [ "$(id -u)" != 0 ]; then  # root reads a file of mode 000
	printf 'X=1\n' > "$u/secret.sh" && chmod 000 "$u/secret.sh"
	printf 'source secret.sh\nvllm serve m\n' > "$u/run2.sh"
	"$bin" show --color never "$u/run2.sh" | grep -q 'the file is not read (cannot be read: permission denied)' && ok || ko "unreadable note"
fi

# past 64 variants a covering set is read, and the note says so and which
# conditionals multiplied (7 tests of unknown inputs, each changing a flag:
# 128 served configurations)
{
	for i in 1 2 3 4 5 6 7; do printf 'if [ "$F%s" = on ]; then A%s=--enable-prefix-caching; else A%s=; fi\n' $i $i $i; done
	printf 'vllm serve m --max-num-seqs 1 $A1 --max-num-seqs 2 $A2 --max-num-seqs 3 $A3 --max-num-seqs 4 $A4 $A5 $A6 $A7\n'
} > "$tmp0/many.sh"
"$bin" show "$tmp0/many.sh" | grep -q "the script's 7 undecided conditionals make more variants than the limit of 64: read are [0-9]*, which hold every combination of alternatives of any three of them, not of every four or more ([a-z0-9 ]*): if \[ \"\$F1\" = on \] (line 1) x2, if \[ \"\$F2\" = on \] (line 2) x2, .*if \[ \"\$F7\" = on \] (line 7) x2 (bind their variables" &&
	ok || ko "the covering note names the conditionals"
# eight independent two-way settings of a sweep (256 combinations), read in
# a covering set: the two GPU counts that disagree with the 8 devices, each
# shown by one combination of two of them (TP 8 with DP 2: 16; TP 4 with
# DP 1: 4), are both found; the first 64 of every combination (an odometer
# that never varied the first settings) found only the first
out=$("$bin" check --no-config --color never -f gcc $d/sweep8.sh 2>&1)
echo "$out" | grep -q "^$d/sweep8.sh:45:1: error: .*aggregated needs 16 GPUs .* but is given 8 (CUDA_VISIBLE_DEVICES) \[variants .* of [0-9]*\] \[SL3001\]$" &&
	echo "$out" | grep -q "^$d/sweep8.sh:45:1: error: .*aggregated needs 4 GPUs .* but is given 8 (CUDA_VISIBLE_DEVICES) \[variants .* of [0-9]*\] \[SL3001\]$" &&
	! echo "$out" | grep -q SL0005 && ok || ko "sweep8.sh: both SL3001 found, read whole: $out"
golden sweep8.gcc "$bin" check --no-config --color never -f gcc $d/sweep8.sh
# a value the script knows is never replaced by --set
"$bin" show --format json --set TP=2 $d/vars.sh | grep -q '"value": 8,' && ok || ko "--set does not override TP=8"
printf 'vllm serve $1 --max-num-seqs ${2:-64}\n' > "$tmp0/pos.sh"
"$bin" show --set 1=org/m "$tmp0/pos.sh" | grep -q '^    model  *org/m .* (--set)$' && ok || ko "--set 1=VALUE binds \$1"
"$bin" show --set 1X=2 $d/vars.sh > /dev/null 2>&1
[ $? -eq 3 ] && ok || ko "--set with a bad name is a usage error"

# symbolic comparison: $TP vs 8 differs, $CONC vs ${CONC} and $((ISL + OSL)) are equal
golden sym.diff "$bin" diff --color never $d/sym-a.sh $d/sym-b.sh
"$bin" diff --exit-code --set TP=8 $d/sym-a.sh $d/sym-b.sh > /dev/null
[ $? -eq 0 ] && ok || ko "diff --set TP=8: equal"
"$bin" diff --exit-code $d/sym-a.sh $d/sym-b.sh > /dev/null
[ $? -eq 1 ] && ok || ko "diff: \$TP vs 8 differs"

# conditionals: each alternative of an undecided if/case is a variant
golden cond.json "$bin" show --format json --variant 5 $d/cond.sh
golden cond-set.tty "$bin" show --color never --set CC=10.0 --set GPU=h100 $d/cond.sh
[ "$("$bin" show $d/cond.sh | grep -c '^variant [1-6] of 6: ')" -eq 6 ] && ok || ko "cond.sh: 6 variants"
golden cond-1-5.diff "$bin" diff --color never --variant 1 --variant 5 $d/cond.sh $d/cond.sh
"$bin" diff $d/cond.sh $d/cond.sh > /dev/null 2> "$tmp0/err"
[ $? -eq 2 ] && grep -q 'the script has 6 variants; pick one with --variant N' "$tmp0/err" && ok ||
	ko "diff of a script with variants needs --variant"
# a variant per YAML file the condition picks (an entry folder)
golden cond-yaml.tty "$bin" show --color never $d/cond-yaml
golden cond-yaml.diff "$bin" diff --color never --variant 1 --variant 2 $d/cond-yaml $d/cond-yaml
"$bin" check $d/cond-yaml > /dev/null
[ $? -eq 0 ] && ok || ko "check cond-yaml"
# a finding in one variant names it; --set picks the other, which is clean
golden cond-gpus.check "$bin" check --color never $d/cond-gpus.sh
golden json.check "$bin" check --color never $d/json.sh
# JSON values the script knows in part: the unknown members named (SL0004),
# the member vLLM does not accept still found (SL1001), exit 1
golden json-holes.check "$bin" check --color never $d/json-holes.sh
golden continuation.check "$bin" check --color never $d/continuation.sh
"$bin" check --set MODE=small $d/cond-gpus.sh > /dev/null
[ $? -eq 0 ] && ok || ko "check --set MODE=small is clean"
"$bin" show --variant 3 $d/cond-gpus.sh > /dev/null 2> "$tmp0/err"
[ $? -eq 2 ] && grep -q 'there is no variant 3: the script has 2' "$tmp0/err" && ok || ko "--variant past the last"

# variants a user counts: conditionals that only run harness commands are
# no decision, variants serving the same are one, DP_ATTENTION tested twice
# is one decision, ${EP_SIZE:-1} in a condition is an input: 2 x 2
[ "$("$bin" show $d/harness.sh | grep -c '^variant [1-4] of 4: ')" -eq 4 ] && ok || ko "harness.sh: 4 variants"
# the same condition tested again follows the earlier decision condition by
# condition (an if/elif/else, then if/else and a nested if of its elif): 3
# variants, none giving TensorRT-LLM the mocker's arguments (the base had 7
# and SL1001 on two impossible ones); with its variable assigned in between
# it is a decision of its own: 2 x 2
[ "$("$bin" show $d/twice.sh | grep -c '^variant [1-3] of 3: ')" -eq 3 ] && ok || ko "twice.sh: 3 variants"
"$bin" show $d/twice.sh | grep -q '^service aggregated  dynamo-mocker (python3 -m dynamo.mocker)' && ok || ko "twice.sh: the mocker is a worker"
[ "$("$bin" show $d/stale-cond.sh | grep -c '^variant [1-4] of 4: ')" -eq 4 ] && ok || ko "stale-cond.sh: 4 variants"
[ "$("$bin" show --set EP_SIZE=4 $d/harness.sh | grep -c '^variant [1-2] of 2: ')" -eq 2 ] && ok ||
	ko "harness.sh --set EP_SIZE=4: 2 variants"
"$bin" show --variant 5 $d/harness.sh > /dev/null 2> "$tmp0/err"
[ $? -eq 2 ] && grep -q 'there is no variant 5: the script has 4' "$tmp0/err" && ok || ko "harness.sh --variant 5"
"$bin" show --variant 1 $d/harness.sh | grep -q '^    parallel.data  *\$TP ' && ok || ko "harness.sh --variant 1 is DP"
"$bin" show --variant 4 $d/harness.sh | grep -q '^    parallel.tensor  *\$TP ' && ok || ko "harness.sh --variant 4 is TP"
# conditionals that assign only what no server reads (result dirs, job tags,
# client arguments, log names) are no decision either: 2 variants (DP
# attention) where 192 readings would have met the cap of 64
[ "$("$bin" show $d/unread.sh | grep -c '^variant [12] of 2: ')" -eq 2 ] && ok || ko "unread.sh: 2 variants"
"$bin" show $d/unread.sh | grep -q 'more variants than the limit' && ko "unread.sh: meets the cap" || ok
# ... but one whose variable reaches a server is: through another variable,
# an export, a here-document the server reads, a command whose name is
# computed, a later condition (control), or a function of the script
u() { printf '%s\n' "$@" > "$tmp0/u.sh"; "$bin" show "$tmp0/u.sh" | grep -c '^variant [12] of 2: '; }
[ "$(u 'if [ "$X" = 1 ]; then A=8; fi' 'B=$A' 'vllm serve m --max-num-seqs $B')" -eq 2 ] && ok || ko "unread: through a variable"
[ "$(u 'if [ "$X" = 1 ]; then NCCL_DEBUG=INFO; fi' 'export NCCL_DEBUG' 'vllm serve m')" -eq 2 ] && ok || ko "unread: through an export"
[ "$(u 'if [ "$X" = 1 ]; then BS=8; fi' 'cat > cfg.yaml <<EOF' 'max_num_seqs: $BS' 'EOF' 'vllm serve m --config cfg.yaml')" -eq 2 ] &&
	ok || ko "unread: through a here-document"
[ "$(u 'if [ "$X" = 1 ]; then E=--enforce-eager; fi' 'CMD="vllm serve m $E"' '$CMD')" -eq 2 ] && ok || ko "unread: a computed command"
[ "$(u 'if [ "$X" = 1 ]; then F=1; fi' 'if [ "$F" = 1 ]; then A=(--enforce-eager); fi' 'vllm serve m "${A[@]}"')" -eq 2 ] &&
	ok || ko "unread: through a condition"
[ "$(u 'if [ "$X" = 1 ]; then E=--enforce-eager; fi' 'go() { vllm serve m $E; }' 'go')" -eq 2 ] && ok || ko "unread: a function"
[ "$(u 'if [ "$X" = 1 ]; then E=--enforce-eager; fi' 'for ((i = 0; i < 2; i++)); do E2=$E; done' 'vllm serve m $E2')" -eq 2 ] &&
	ok || ko "unread: through a loop"
# a variable named as the environment's (inherited, so exported) is read:
# forked, then merged as serving the same, never fixed unread
printf '%s\n' 'if [ "$X" = 1 ]; then CUDA_VISIBLE_DEVICES=0,1; fi' 'vllm serve m' > "$tmp0/u.sh"
"$bin" show "$tmp0/u.sh" | grep -q 'instead serves the same' && ok || ko "unread: CUDA_VISIBLE_DEVICES is read"
# a here-document appended to a config (`cat << EOF >> $CFG`, its redirection
# inside the here-document's node) is read: forked, then merged
printf '%s\n' 'if [ "$X" = 1 ]; then T+=(8); fi' 'L=$(printf "%s, " "${T[@]}")' 'cat << EOF >> $CFG' 'x: [${L%, }]' 'EOF' \
	'trtllm-serve m --extra_llm_api_options $CFG' > "$tmp0/u.sh"
"$bin" show "$tmp0/u.sh" | grep -q 'instead serves the same' && ok || ko "unread: cat << EOF >> \$CFG is read"
# a variable that decides whether the script goes on to its server is read
[ "$(u 'if [ "$X" = 1 ]; then DONE=1; fi' '[ -n "$DONE" ] && exit 0' 'vllm serve m')" -eq 0 ] &&
	"$bin" show "$tmp0/u.sh" | grep -q 'instead serves the same\|^variant' && ok || ko "unread: an exit decides"
# a condition that is an input with a default (${EP:-1}) stays undecided
[ "$(u 'if [ "${EP:-1}" -gt 1 ]; then A=(--enable-expert-parallel); fi' 'LOG=/tmp/x.log' 'vllm serve m "${A[@]}"')" -eq 2 ] &&
	ok || ko "unread: \${EP:-1} is an input"
# what the walk cannot follow (eval) leaves every conditional a decision
{
	for i in 1 2 3 4 5 6 7; do printf 'if [ "$F%s" = on ]; then T%s=x; fi\n' $i $i; done
	printf 'eval "$EXTRA"\nvllm serve m\n'
} > "$tmp0/ev.sh"
"$bin" show "$tmp0/ev.sh" | grep -q 'more variants than the limit' && ok || ko "unread: eval decides nothing"
sed -i 's/^eval.*$/echo "$T1 $T2"/' "$tmp0/ev.sh"
[ "$("$bin" show "$tmp0/ev.sh" | grep -c '^variant ')" -eq 0 ] && ok || ko "unread: 7 unread conditionals, one reading"
# a conditional that only runs commands is a decision when they serve differently
printf 'if [ "$SPEC" = mtp ]; then\n  vllm serve m --speculative-config "{\\"method\\": \\"mtp\\"}"\nelse\n  vllm serve m\nfi\n' > "$tmp0/spec.sh"
[ "$("$bin" show "$tmp0/spec.sh" | grep -c '^variant [12] of 2: ')" -eq 2 ] && ok || ko "spec.sh: 2 variants"

# a guard that fails is a note, not a variant; `|| exit 1` does not end the script
[ "$("$bin" show --set HF_TOKEN=x $d/guard.sh | grep -c '^variant ')" -eq 0 ] && ok || ko "guard: --set decides -z"
"$bin" show $d/guard.sh | grep -q '^  guard.sh:5:1: when if \[ -z "\$HF_TOKEN" \], the script fails (exits non-zero)' && ok ||
	ko "guard: the failure is a note"

# a value read from its own old value is reassignment, not recursion:
# A=$B; B=$A leaves B what it was (unknown), and --set binds it
printf 'A=$B\nB=$A\nvllm serve m --max-num-seqs $B\n' > "$tmp0/swap.sh"
"$bin" show "$tmp0/swap.sh" | grep -q '^    limits.max_seqs  *\$B .*(symbolic)$' && ok || ko "A=\$B; B=\$A: B stays \$B"
"$bin" show --set B=64 "$tmp0/swap.sh" | grep -q '^    limits.max_seqs  *64 ' && ok || ko "A=\$B; B=\$A --set B=64"
"$bin" show --set TOTAL_DRAM_GB=1024 --set POOL_OVERRIDE_GB=256 $d/reassign.sh | grep -q '^    sglang.hicache_size  *16 ' &&
	ok || ko "reassign.sh: the override replaces the total"

# an argument loop over the script's own (unknown) arguments leaves what it
# sets unknown, never the default before it; --set binds it
"$bin" show --set DP_SIZE=8 $d/args.sh | grep -q '^    parallel.data  *8 .*(--set)$' && ok || ko "args.sh --set DP_SIZE=8"
"$bin" show $d/args.sh | grep -q '^    server.port  *\$PORT ' && ok || ko "args.sh: PORT unknown after the loop"

# bad input: a clear error, exit 2, nothing on stdout, no hang
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$tmp0"' EXIT
bad() { # NAME REGEX (the script is $tmp/NAME.sh)
	timeout 20 "$bin" show "$tmp/$1.sh" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	if [ $rc -ne 2 ] || [ -s "$tmp/out" ] || ! grep -Eq "^$tmp/$1.sh:$2" "$tmp/err"; then
		ko "bad input $1: exit $rc, stderr: $(cat "$tmp/err")"
	else
		ok
	fi
}
printf 'A=B\nB=A\nvllm serve m --max-num-seqs $((A + 1))\n' > "$tmp/recursive-arith.sh"
bad recursive-arith '3:[0-9]+: arithmetic: variable `[AB]` refers to itself'
printf 'CMD=( vllm serve m\n  --tp 8\n"${CMD[@]}"\n' > "$tmp/array.sh"
bad array '3:12: unterminated array: the `\(` at line 1, column 5 is never closed'
printf 'CMD=( vllm serve m\n  --tp 8\nCMD+=(x)\n' > "$tmp/array2.sh"
bad array2 '3:6: syntax error in the array opened at line 1, column 5'
printf 'cat > c.yaml <<EOF\ntensor_parallel_size: 8\ntrtllm-serve m --config c.yaml\n' > "$tmp/heredoc.sh"
bad heredoc '4:1: unterminated here-document: `<<EOF` at line 1, column 14 has no closing line'
printf 'vllm serve m --max-num-seqs $((8 / (4 - 4)))\n' > "$tmp/div.sh"
bad div '1:34: arithmetic: division by zero'
# values that double at each assignment stop at the explicit limits
{ printf 'A=x\n'; i=0; while [ $i -lt 40 ]; do printf 'A="$A$A"\n'; i=$((i + 1)); done; printf 'vllm serve $A\n'; } > "$tmp/double.sh"
bad double '22:3: a word longer than the limit of 1048576 bytes after expansion'
{ printf 'A=(x)\n'; i=0; while [ $i -lt 40 ]; do printf 'A+=( "${A[@]}" )\n'; i=$((i + 1)); done; } > "$tmp/double2.sh"
bad double2 '18:4: an array of more than the limit of 100000 elements'
# brace expansion in a loop's list: counting down, zero-padded, plain text
# around it; text it cannot know around it is unknown (never the braces);
# past the loop limit, refused with its place
printf 'for p in {03..01}; do\n  vllm serve org/m --port 90$p &\ndone\n' > "$tmp0/brace1.sh"
"$bin" show --color never "$tmp0/brace1.sh" | grep -q '^    server.port  *\[9003,9002,9001\]  ' && ok || ko "brace: {03..01}"
printf 'for t in gpu{0..1}x; do\n  vllm serve org/m --served-model-name $t &\ndone\n' > "$tmp0/brace2.sh"
"$bin" show --color never "$tmp0/brace2.sh" | grep -q 'served_name  *\[\["gpu0x"\],\["gpu1x"\]\]' && ok || ko "brace: gpu{0..1}x"
printf 'for t in "$X"{0..1}; do\n  vllm serve org/m --served-model-name $t &\ndone\n' > "$tmp0/brace3.sh"
"$bin" show --color never "$tmp0/brace3.sh" | grep -q 'served_name .*(symbolic)$' && ok || ko "brace: unknown around it"
printf 'for t in {1..5000}; do\n  vllm serve org/m &\ndone\n' > "$tmp0/brace4.sh"
"$bin" show "$tmp0/brace4.sh" > /dev/null 2> "$tmp0/err"
[ $? -eq 2 ] && grep -q 'brace4.sh:1:10: a brace expansion of more than 1024 values' "$tmp0/err" && ok || ko "brace: past the limit"
printf 'for t in {0..99999999999999999999}; do\n  vllm serve org/m &\ndone\n' > "$tmp0/brace5.sh"
"$bin" show "$tmp0/brace5.sh" > /dev/null 2> "$tmp0/err"
[ $? -eq 2 ] && grep -q 'brace5.sh:1:10: a brace expansion of numbers longer than 18 digits' "$tmp0/err" && ok || ko "brace: a number too long"
# words handed to commands in all are bounded (a 52 KB script of one
# 10,000-element array written 300 times was 3 million words, 805 MB)
{ printf 'A=('; i=0; while [ $i -lt 10000 ]; do printf ' %d' $i; i=$((i + 1)); done
  printf ')\nvllm serve org/m --x'; i=0; while [ $i -lt 300 ]; do printf ' "${A[@]}"'; i=$((i + 1)); done; printf '\n'; } > "$tmp0/words.sh"
"$bin" check -f gcc "$tmp0/words.sh" > "$tmp0/out"
[ $? -eq 2 ] && grep -q 'words.sh:2:[0-9]*: error: .*more words after expansion than the limit of 1000000 in all' "$tmp0/out" && ok || ko "words in all"
finish
