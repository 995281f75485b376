#!/bin/sh
# bench.sh SERVELINT BASELINE: the benches of bench/ in their quick mode
# (tiny sizes, one run each): they still run to the end and print their
# figures. What they measure is not judged here (the shared machine's load
# makes timings noise at these sizes); README's development section gives
# the figures of full runs.
set -u
. "$(dirname "$0")/lib.sh"
export SERVELINT="$bin" SERVELINT_BASELINE="$2"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# quick NAME PATTERN CMD...: CMD exits 0 and prints a line matching PATTERN
quick() {
	name=$1 pat=$2
	shift 2
	if "$@" > "$work/out" 2> "$work/err" && grep -q "$pat" "$work/out"; then ok; else
		ko "$name: $(tail -3 "$work/err") $(tail -3 "$work/out")"
	fi
}
quick catalogue_scale 'matrix .*x (bound' bench/catalogue_scale.sh 1 2 1
quick startup 'check SMALL .*wall' bench/startup.sh 2 quick
quick memory 'json .*x (' bench/memory.sh 1 2
# side by side with a base binary (here the same one: peaks vary by a few %)
quick memory-base 'audit  base .* new / base at 2 copies: [0-9.]*x' env SERVELINT_BASE="$bin" bench/memory.sh 1 2
quick catalogue_scale-base 'matrix base .*x (bound' env SERVELINT_BASE="$bin" bench/catalogue_scale.sh 1 2 1
quick run 'show --format json .*x the bare parse' bench/run.sh 0 1
quick diff_revs 'blobs distinct' bench/diff_revs.sh 200 1  # the fewest entries where the second commit changes one (n100)
quick diff_revs-warm 'diff   HEAD~1 HEAD, warm .*x git' bench/diff_revs.sh 200 1
quick review_revs 'blobs distinct' bench/review_revs.sh 200 1
quick review_revs-base 'base: servelint review, cold / warm .*x git' env SERVELINT_BASE="$bin" bench/review_revs.sh 200 1
quick log_history 'x' bench/log_history.sh 20 1
quick jobs 'check -j 2: .*x the bare parse' bench/jobs.sh 0 1
quick harness 'check --format gcc -j 1 .*x the bare parse' bench/harness.sh 2 1
quick shellcheck 'ShellCheck / servelint\|not installed' bench/shellcheck.sh 1 1  # told and exit 0 without shellcheck
finish
