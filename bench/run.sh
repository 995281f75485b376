#!/usr/bin/env bash
# bench/run.sh [MB] [RUNS]: `servelint show` over the corpus launch scripts,
# copied until the input reaches MB megabytes (default 10), side by side in
# one run with a bare tree-sitter-bash parse of the very same files
# (build/ts-parse-baseline); then `show`, `check --format gcc` and `check
# --format sarif` given the entry folders (the scripts and the engine YAML
# beside them are read), against the same parse. Each is run RUNS times
# (default 5); the best CPU time (user + sys) of each is reported, and its
# ratio to the parse against issue 18's targets (show and check 1.5x,
# show --format json 2x, check --format sarif as check).
# Needs a release build in ./build (scripts/setup).
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
mb=${1:-10}
runs=${2:-5}
bin=${SERVELINT:-build/servelint}
base=${SERVELINT_BASELINE:-build/ts-parse-baseline}
[ -x "$bin" ] && [ -x "$base" ] || { echo "build first: scripts/setup" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

copies=$(copies_for_mb "$mb")
corpus_copies "$work" "$copies"
find "$work" -name launch.sh | sort > "$work/scripts"
sed 's|/launch\.sh$||' "$work/scripts" > "$work/dirs"
n=$(wc -l < "$work/scripts")
bytes=$(xargs -a "$work/scripts" cat | wc -c)

# cpu_time CMD...: user+sys seconds of CMD (output discarded), best of $runs
cpu_time() {
	local best="" t
	for _ in $(seq 1 "$runs"); do
		t=$( { TIMEFORMAT='%3U %3S'; time "$@" > /dev/null; } 2>&1 | awk '{ print $1 + $2 }')
		if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$t; fi
	done
	echo "$best"
}

t_base=$(cpu_time xargs -a "$work/scripts" "$base")
t_tty=$(cpu_time xargs -a "$work/scripts" "$bin" show)
t_json=$(cpu_time xargs -a "$work/scripts" "$bin" show --format json)
t_dshow=$(cpu_time xargs -a "$work/dirs" "$bin" show)
t_dcheck=$(cpu_time xargs -a "$work/dirs" "$bin" check --format gcc)
t_dsarif=$(cpu_time xargs -a "$work/dirs" "$bin" check --format sarif)
awk -v n="$n" -v b="$bytes" -v tb="$t_base" -v tt="$t_tty" -v tj="$t_json" -v r="$runs" \
	-v ds="$t_dshow" -v dc="$t_dcheck" -v dz="$t_dsarif" 'BEGIN {
	printf "input: %d launch scripts, %.1f MB (corpus x %d); best CPU time of %d runs\n", n, b / 1048576, n / 35, r
	printf "  tree-sitter-bash parse only    %7.3f s\n", tb
	printf "  servelint show                 %7.3f s   %.2fx the bare parse\n", tt, tt / tb
	printf "  servelint show --format json   %7.3f s   %.2fx the bare parse   (target 2x: %s)\n", tj, tj / tb,
		tj / tb <= 2 ? "met" : "NOT met"
	printf "the same given as %d entry folders (their YAML read too):\n", n
	printf "  servelint show                 %7.3f s   %.2fx the bare parse   (target 1.5x: %s)\n", ds, ds / tb,
		ds / tb <= 1.5 ? "met" : "NOT met"
	printf "  servelint check --format gcc   %7.3f s   %.2fx the bare parse   (target 1.5x: %s)\n", dc, dc / tb,
		dc / tb <= 1.5 ? "met" : "NOT met"
	printf "  servelint check --format sarif %7.3f s   %.2fx the bare parse   (target 1.5x: %s)\n", dz, dz / tb,
		dz / tb <= 1.5 ? "met" : "NOT met"
}'
