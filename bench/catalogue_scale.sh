#!/usr/bin/env bash
# bench/catalogue_scale.sh [SMALL] [LARGE] [RUNS]: whether `servelint audit`
# and `servelint matrix` are linear in entries. A catalogue of SMALL copies
# of the corpus (default 10: 350 entries) against one of LARGE copies
# (default 100: 3,500), in one run, interleaved (small, large, small,
# large ...), RUNS times each (default 5) after one warm-up; the median CPU
# time (user + sys) of each, and the ratio large / small against the
# issue's bound: 12x for 10x the entries (LARGE / SMALL * 1.2 in general).
# The copies are duplicates of each other (SL7006 finds LARGE - 1 per
# corpus entry). Needs a release build in ./build (scripts/setup).
# `bench/catalogue_scale.sh 1 3 1` is the quick mode the tests run.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
small=${1:-10}
large=${2:-100}
runs=${3:-5}
bin=${SERVELINT:-$(pwd)/build/servelint}
[ -x "$bin" ] || { echo "build first: scripts/setup" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
corpus_copies "$work" "$large"
cd "$work"
copies() { for i in $(seq 1 "$1"); do echo "c$i"; done; }
folders() { for i in $(seq 1 "$1"); do find "c$i" -name launch.sh -printf '%h\n'; done | sort; }
mapfile -t cs < <(copies "$small")
mapfile -t cl < <(copies "$large")
mapfile -t fs < <(folders "$small")
mapfile -t fl < <(folders "$large")

# cpu CMD...: user+sys seconds of CMD (its output and exit status discarded)
cpu() {
	{ TIMEFORMAT='%3U %3S'; time "$@" > /dev/null 2>&1 || true; } 2>&1 | awk '{ print $1 + $2 }'
}
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# pair NAME SMALL-CMD... -- LARGE-CMD...: the medians and the ratio
pair() {
	local name=$1 a=() b=() ta=() tb=()
	shift
	while [ "$1" != -- ]; do a+=("$1"); shift; done
	shift
	b=("$@")
	cpu "${a[@]}" > /dev/null
	cpu "${b[@]}" > /dev/null
	for _ in $(seq 1 "$runs"); do
		ta+=("$(cpu "${a[@]}")")
		tb+=("$(cpu "${b[@]}")")
	done
	local ma mb
	ma=$(printf '%s\n' "${ta[@]}" | median)
	mb=$(printf '%s\n' "${tb[@]}" | median)
	awk -v n="$name" -v a="$ma" -v b="$mb" -v s="${#fs[@]}" -v l="${#fl[@]}" 'BEGIN {
		bound = l / s * 1.2
		r = a > 0 ? b / a : 0
		printf "  %-8s %5d entries %7.3f s   %5d entries %7.3f s   %6.2fx (bound %.1fx: %s)\n",
			n, s, a, l, b, r, bound, r <= bound ? "met" : "NOT met"
	}'
}

echo "catalogue of corpus copies: ${#fs[@]} against ${#fl[@]} entries; median CPU time of $runs, interleaved"
pair audit "$bin" audit --color never "${cs[@]}" -- "$bin" audit --color never "${cl[@]}"
pair matrix "$bin" matrix --color never -f csv "${fs[@]}" -- "$bin" matrix --color never -f csv "${fl[@]}"
