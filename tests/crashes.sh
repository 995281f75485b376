#!/bin/sh
# crashes.sh SERVELINT: the shell reader's reproducers of the robustness
# review (../shared/reviews/2026-12-01-robustness/crashes/, REVIEW defects 3
# and 6), rebuilt here byte for byte (and, where the review's folder is
# beside the checkout, checked against its files). Each is run through
# `show` and `check`: the expected exit status, a located message naming the
# limit, within a time bound (no hang), and no sanitizer report (ctest runs
# this in the ASan build too). The other reproducers of the review (import,
# run, --output, control characters, FIFOs, symlink loops, replicas, leaks)
# are tests/security.sh's.
set -u
bin=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
review=${SERVELINT_REVIEW_DIR:-../shared/reviews/2026-12-01-robustness}
pass=0 fails=0
# seconds a reproducer may take: generous for the sanitizer build on a
# loaded machine; the release build takes well under a second for each
limit=${CRASH_TIME_LIMIT:-120}

# the reproducers, as the review wrote them
awk 'BEGIN { for (i = 0; i < 65534; i++) print "#"; print "true" }' > "$dir/show-1"
awk 'BEGIN { printf "for v0 in"; for (i = 0; i < 200; i++) printf " %d", i
	printf "; do for v1 in"; for (i = 0; i < 200; i++) printf " %d", i
	print "; do vllm serve m --port $v1 & done; done; " }' > "$dir/show-hang-1"
awk 'BEGIN { print "f0() { vllm serve m & }"
	for (i = 1; i <= 14; i++) printf "f%d() { f%d; f%d; }\n", i, i - 1, i - 1; print "f14" }' > "$dir/show-hang-2"
awk 'BEGIN { for (i = 0; i < 20000; i++) printf "("; printf "vllm serve m"
	for (i = 0; i < 20000; i++) printf ")"; print "" }' > "$dir/show-hang-4"
awk 'BEGIN { for (i = 0; i < 2000; i++) printf "export V%d=%d\n", i, i
	for (i = 0; i < 2000; i++) printf "vllm serve m --port %d &\n", 10000 + i }' > "$dir/show-oom-1"
# and the limits' edges: the longest run of comment lines that is read, one
# past it (blank lines between comments do not end a run), 4 loops of 1,000
# values (10^12 iterations: the review's case), 2^39 calls, exports each
# followed by a command
awk 'BEGIN { for (i = 0; i < 65000; i++) print "# c"; print "vllm serve m" }' > "$dir/comments-65000"
awk 'BEGIN { for (i = 0; i < 65001; i++) print "# c\n"; print "vllm serve m" }' > "$dir/comments-65001"
awk 'BEGIN { for (k = 0; k < 4; k++) { printf "for v%d in", k; for (i = 0; i < 1000; i++) printf " %d", i; print "; do" }
	print "vllm serve m &"; for (k = 0; k < 4; k++) print "done" }' > "$dir/loops-4x1000"
awk 'BEGIN { print "f0() { vllm serve m & }"
	for (i = 1; i < 40; i++) printf "f%d() { f%d; f%d; }\n", i, i - 1, i - 1; print "f39" }' > "$dir/fanout-39"
awk 'BEGIN { for (i = 0; i < 4000; i++) printf "export V%d=%d\nvllm serve m --port %d &\n", i, i, 10000 + i }' > "$dir/exports-interleaved"
# 1,000 exports and 100 commands: 100,000 in all, the limit itself (read, and
# fast: the commands share one set)
awk 'BEGIN { for (i = 0; i < 1000; i++) printf "export V%d=%d\n", i, i
	for (i = 0; i < 100; i++) printf "vllm serve m --port %d &\n", 10000 + i }' > "$dir/exports-1000x100"
# 1,000 iterations (under the 10,000) of a body of 250 statements
awk 'BEGIN { printf "for i in"; for (i = 0; i < 1000; i++) printf " %d", i; print "; do"
	for (i = 0; i < 250; i++) printf "  A%d=$i\n", i; print "done"; print "vllm serve m" }' > "$dir/steps"
# found by the fuzz smoke runs of CI: a number after "1," (the tail of a
# "2,646,059" form) that ends a comment (claims.c read past the end of the
# text: heap-buffer-overflow), and commas that end a comment; and an engine config of 2,000 keys the engine
# does not know (each is compared with every key it does know, for SL1001's
# suggestion: a slow unit, 10 s in the fuzzing build, before the bounded
# distance of normalize/grammar.c)
printf '# served 1,23\nvllm serve m\n# 2,646,05' > "$dir/comment-number-end"
printf '# tokens 12,\nvllm serve m --max-num-seqs 8 # 3,\n' > "$dir/comment-comma-end"
# found measuring rules on real recipes: a flag whose recorded releases give
# it different types (dynamo's --active-decode-blocks-threshold: float, then
# string), its value checked with no version known (fact_checks.c compared
# the next release's type with NULL: a segmentation fault)
printf 'python3 -m dynamo.frontend --http-port 8000 --active-decode-blocks-threshold None\n' > "$dir/facts-types-differ"
mkdir -p "$dir/unknown-keys"
printf 'trtllm-serve /models/m --extra_llm_api_options cfg.yaml --tp_size 4\n' > "$dir/unknown-keys/launch.sh"
awk 'BEGIN { for (i = 0; i < 2000; i++) printf "commands_serve_option_%d:\n  type: int\n", i }' > "$dir/unknown-keys/cfg.yaml"
# found on a published srt-slurm recipe (InferenceX): a Dynamo frontend flag
# whose releases give it more than one type, with no release known for the
# entry: fact_checks.c compared the next release's type with NULL (SIGSEGV)
printf '#!/bin/bash\npython3 -m dynamo.frontend --http-port 8000 --active-decode-blocks-threshold None &\npython3 -m dynamo.sglang --model-path org/m --tp 1\n' > "$dir/types-across-releases"

if [ -d "$review/crashes" ]; then
	for f in show-1 show-hang-1 show-hang-2 show-hang-4 show-oom-1; do
		if ! cmp -s "$dir/$f" "$review/crashes/$f"; then
			echo "FAIL $f: not the review's crashes/$f"; fails=$((fails + 1))
		fi
	done
fi

# run NAME CMD WANT-EXIT STDERR-REGEX: CMD is show or check, on $dir/NAME
run() {
	name=$1 cmd=$2 want=$3 re=$4
	start=$(date +%s)
	if [ "$cmd" = check ]; then set -- check --no-config --format gcc; else set -- show --format json; fi
	timeout "$limit" "$bin" "$@" "$dir/$name" > "$dir/out" 2> "$dir/err"
	rc=$? took=$(($(date +%s) - start))
	why=""
	[ $rc -eq 124 ] && why="no exit within ${limit}s"
	[ -z "$why" ] && [ $rc -ne "$want" ] && why="exit $rc, want $want"
	[ -z "$why" ] && grep -Eq 'Sanitizer|runtime error' "$dir/err" && why="sanitizer report"
	if [ "$cmd" = check ] && [ "$want" -eq 2 ]; then
		# check reports an entry it cannot read as an SL0001 finding, at
		# the same place (docs/servelint-check.md)
		re2="${re%%: *}: error: .*${re#*: }"
		[ -z "$why" ] && [ -n "$re" ] && ! grep -Eq "$re2.*\[SL0001\]" "$dir/out" && why="no SL0001 matching /$re2/"
	else
		[ -z "$why" ] && [ -n "$re" ] && ! grep -Eq "$re" "$dir/err" && why="stderr does not match /$re/"
		[ -z "$why" ] && [ "$want" -eq 2 ] && [ -s "$dir/out" ] && why="wrote to stdout"
	fi
	if [ -n "$why" ]; then
		echo "FAIL $name ($cmd): $why"; head -c 600 "$dir/err"; fails=$((fails + 1))
	else
		echo "ok $name ($cmd, ${took}s)"; pass=$((pass + 1))
	fi
}

for cmd in show check; do
	run show-1 $cmd 2 "^$dir/show-1:65001:1: more than 65000 comment lines in a row"
	run comments-65000 $cmd 0 ''
	run comments-65001 $cmd 2 "^$dir/comments-65001:130001:1: more than 65000 comment lines in a row"
	run show-hang-1 $cmd 2 "^$dir/show-hang-1:1:[0-9]+: loops run more than the limit of 10000 iterations in all"
	run loops-4x1000 $cmd 2 "^$dir/loops-4x1000:[0-9]+:1: (loops run more than the limit of 10000 iterations in all|for loop over more than 1024 values)"
	run show-hang-2 $cmd 2 "^$dir/show-hang-2:[0-9]+:[0-9]+: more function calls than the limit of 10000 in all"
	run fanout-39 $cmd 2 "^$dir/fanout-39:[0-9]+:[0-9]+: more function calls than the limit of 10000 in all"
	run show-hang-4 $cmd 2 "^$dir/show-hang-4:1:[0-9]+: (syntax error|nesting deeper than the limit)"
	run show-oom-1 $cmd 2 "^$dir/show-oom-1:[0-9]+:1: more exported variables in commands than the limit of 100000 in all"
	run exports-interleaved $cmd 2 "^$dir/exports-interleaved:[0-9]+:1: more exported variables in commands than the limit of 100000 in all"
	run exports-1000x100 $cmd 0 ''
	run steps $cmd 2 "^$dir/steps:[0-9]+:3: more statements read than the limit of 200000 in all"
	run comment-number-end $cmd 0 ''
	run comment-comma-end $cmd 0 ''
	run facts-types-differ $cmd 0 ''
done
run types-across-releases show 0 ''
run types-across-releases check 0 ''
# the unknown keys are SL1001 findings: check exits 1
run unknown-keys show 0 ''
run unknown-keys check 1 ''
echo "crashes: $pass passed, $fails failed"
[ $fails -eq 0 ]
