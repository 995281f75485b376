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
# SERVELINT_BASE names a binary to compare with (an older build): its
# pairs run in the same loop, interleaved with SERVELINT's, marked "base".
# `bench/catalogue_scale.sh 1 3 1` is the quick mode the tests run.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
small=${1:-10}
large=${2:-100}
runs=${3:-5}
bin=${SERVELINT:-$(pwd)/build/servelint}
[ -x "$bin" ] || { echo "build first: scripts/setup" >&2; exit 2; }
base=${SERVELINT_BASE:-}
[ -z "$base" ] || [ -x "$base" ] || { echo "SERVELINT_BASE: $base is no program" >&2; exit 2; }
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

# pair NAME SMALL-ARGS... -- LARGE-ARGS...: the medians and the ratio of
# SERVELINT (and of SERVELINT_BASE, its runs interleaved) given each
pair() {
	local name=$1 a=() b=() ta=() tb=() xa=() xb=()
	shift
	while [ "$1" != -- ]; do a+=("$1"); shift; done
	shift
	b=("$@")
	cpu "$bin" "${a[@]}" > /dev/null
	cpu "$bin" "${b[@]}" > /dev/null
	for _ in $(seq 1 "$runs"); do
		ta+=("$(cpu "$bin" "${a[@]}")")
		tb+=("$(cpu "$bin" "${b[@]}")")
		if [ -n "$base" ]; then
			xa+=("$(cpu "$base" "${a[@]}")")
			xb+=("$(cpu "$base" "${b[@]}")")
		fi
	done
	line "$name" "${ta[@]}" -- "${tb[@]}"
	[ -z "$base" ] || line "$name base" "${xa[@]}" -- "${xb[@]}"
}

# line NAME SMALL-TIMES... -- LARGE-TIMES...
line() {
	local name=$1 a=() b=()
	shift
	while [ "$1" != -- ]; do a+=("$1"); shift; done
	shift
	b=("$@")
	local ma mb
	ma=$(printf '%s\n' "${a[@]}" | median)
	mb=$(printf '%s\n' "${b[@]}" | median)
	awk -v n="$name" -v a="$ma" -v b="$mb" -v s="${#fs[@]}" -v l="${#fl[@]}" 'BEGIN {
		bound = l / s * 1.2
		r = a > 0 ? b / a : 0
		printf "  %-11s %5d entries %7.3f s   %5d entries %7.3f s   %6.2fx (bound %.1fx: %s)\n",
			n, s, a, l, b, r, bound, r <= bound ? "met" : "NOT met"
	}'
}

echo "catalogue of corpus copies: ${#fs[@]} against ${#fl[@]} entries; median CPU time of $runs, interleaved"
pair audit audit --color never "${cs[@]}" -- audit --color never "${cl[@]}"
pair matrix matrix --color never -f csv "${fs[@]}" -- matrix --color never -f csv "${fl[@]}"
