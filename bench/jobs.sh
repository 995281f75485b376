#!/usr/bin/env bash
# bench/jobs.sh [MB] [RUNS] [JOBS]: `check -j` against the single-threaded
# bare parse (issue 18: on 2 cores, `check -j 2` within 0.9x the bare
# parse's wall time). The corpus is copied until its launch scripts reach MB
# megabytes (default 10); `servelint check --format gcc` reads the copies'
# entry folders (scripts and the YAML they name, found by searching the
# copies) with -j 1 and -j JOBS (default 2), and build/ts-parse-baseline
# parses the very same launch scripts on one thread. (`audit -j` reads
# entries the same way; its comparisons run on one thread after.) The
# commands run in turn, RUNS times (default 5); the median wall time (and
# CPU time, user + sys) of each is reported, and its ratio to the bare
# parse's. The outputs of -j 1 and -j JOBS are compared byte for byte
# first. Needs a release build in ./build (scripts/setup).
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
mb=${1:-10}
runs=${2:-5}
jobs=${3:-2}
bin=${SERVELINT:-$(pwd)/build/servelint}
base=${SERVELINT_BASELINE:-$(pwd)/build/ts-parse-baseline}
[ -x "$bin" ] && [ -x "$base" ] || { echo "build first: scripts/setup" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

copies=$(copies_for_mb "$mb")
corpus_copies "$work" "$copies"
# the same entries again, as pages: not the scripts the parse reads
rm -rf "$work"/c*/pages
cd "$work"
find . -name launch.sh | sort > scripts
n=$(wc -l < scripts)
bytes=$(xargs -a scripts cat | wc -c)
mapfile -t dirs < <(for i in $(seq 1 "$copies"); do echo "c$i"; done)

# one NAME CMD...: appends CMD's wall and CPU seconds to times.NAME (its
# exit status aside: check exits 1 on findings)
one() {
	local name=$1 t
	shift
	t=$( { TIMEFORMAT='%3R %3U %3S'; time { "$@" > /dev/null 2>&1 || true; }; } 2>&1 | awk '{ print $1, $2 + $3 }')
	echo "$t" >> "times.$name"
}
"$bin" check -j 1 --format gcc "${dirs[@]}" > out.1 2>&1 || true
"$bin" check -j "$jobs" --format gcc "${dirs[@]}" > out.j 2>&1 || true
cmp -s out.1 out.j || { echo "check -j $jobs printed other than -j 1" >&2; exit 1; }
for _ in $(seq 1 "$runs"); do
	one parse xargs -s 1000000 -a scripts "$base"
	one check1 "$bin" check -j 1 --format gcc "${dirs[@]}"
	one checkj "$bin" check -j "$jobs" --format gcc "${dirs[@]}"
done
# med NAME COLUMN: the median of a column of times.NAME
med() { sort -g -k"$2" "times.$1" | awk -v c="$2" '{ v[NR] = $c } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
pw=$(med parse 1)
printf 'input: %d entries, %.1f MB of launch scripts (corpus x %d), %d cores available; median of %d runs in turn\n' \
	"$n" "$(awk -v b="$bytes" 'BEGIN { print b / 1048576 }')" "$copies" "$(nproc)" "$runs"
printf '  %-34s %8s %8s   %s\n' "" "wall s" "CPU s" "wall / the bare parse's wall"
row() { # LABEL NAME
	local w c
	w=$(med "$2" 1)
	c=$(med "$2" 2)
	printf '  %-34s %8.3f %8.3f   %.2fx\n' "$1" "$w" "$c" "$(awk -v a="$w" -v b="$pw" 'BEGIN { print a / b }')"
}
row "tree-sitter-bash parse only" parse
row "servelint check -j 1" check1
row "servelint check -j $jobs" checkj
w1=$(med check1 1)
wj=$(med checkj 1)
awk -v a="$wj" -v b="$pw" -v s="$(awk -v x="$w1" -v y="$wj" 'BEGIN { print x / y }')" -v j="$jobs" 'BEGIN {
	printf "check -j %d: %.2fx the bare parse (issue 18: <= 0.9x, %s), %.2fx faster than -j 1\n", j, a / b,
		a / b <= 0.9 ? "met" : "NOT met", s
}'
