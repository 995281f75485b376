#!/usr/bin/env bash
# bench/diff_revs.sh [ENTRIES] [RUNS]: `servelint diff REV1 REV2` over a
# generated repository of ENTRIES entries (default 10000: the corpus
# entries copied under numbered folders) where the second commit changes 1%
# of them (--max-num-seqs, or the YAML's max_batch_size), side by side in one
# run with `git diff --stat REV1 REV2` on the same repository. Best wall
# time of RUNS (default 5) each, and the ratio (the issue's target: 3x).
# Needs a release build in ./build (scripts/setup) and git.
set -euo pipefail
cd "$(dirname "$0")/.."
want=${1:-10000}
runs=${2:-5}
bin=${SERVELINT:-$(pwd)/build/servelint}
[ -x "$bin" ] || { echo "build first: scripts/setup" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mapfile -t entries < <(find corpus -name launch.sh -printf '%h\n' | sort)
i=0
while [ "$i" -lt "$want" ]; do
	for e in "${entries[@]}"; do
		[ "$i" -ge "$want" ] && break
		mkdir -p "$work/r/e$((i / 100))"
		cp -r "$e" "$work/r/e$((i / 100))/n$i"
		i=$((i + 1))
	done
done
g() { git -C "$work/r" -c user.name=bench -c user.email=bench@example.com "$@"; }
g init -q
g add -A
g commit -qm base
# 1% of the entries: every 100th
for d in $(find "$work/r" -mindepth 2 -maxdepth 2 -name 'n*00' | sort); do
	if grep -q -- '--max-num-seqs [0-9]' "$d/launch.sh"; then
		sed -i 's/--max-num-seqs \([0-9]*\)/--max-num-seqs 7\1/' "$d/launch.sh"
	elif ls "$d"/*.yaml > /dev/null 2>&1; then
		sed -i '0,/max_batch_size: \([0-9]*\)/s//max_batch_size: 7\1/' "$d"/*.yaml
	fi
	# a YAML without max_batch_size: at least a reformat
	printf '\n' >> "$d/launch.sh"
done
g commit -qam "change 1%"
changed=$(g diff --name-only HEAD~1 HEAD | xargs -n1 dirname | sort -u | wc -l)

# wall TIME of CMD in the repository, best of $runs
wall() {
	local best="" t
	for _ in $(seq 1 "$runs"); do
		t=$( { TIMEFORMAT='%3R'; time (cd "$work/r" && "$@" > /dev/null); } 2>&1 )
		if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$t; fi
	done
	echo "$best"
}
t_git=$(wall git diff --stat HEAD~1 HEAD)
t_sl=$(wall "$bin" diff HEAD~1 HEAD)
summary=$(cd "$work/r" && "$bin" diff HEAD~1 HEAD | tail -1)
awk -v n="$want" -v c="$changed" -v tg="$t_git" -v ts="$t_sl" -v r="$runs" -v s="$summary" 'BEGIN {
	printf "repository: %d entries, second commit touches %d; best wall time of %d runs\n", n, c, r
	printf "  git diff --stat HEAD~1 HEAD    %7.3f s\n", tg
	printf "  servelint diff HEAD~1 HEAD     %7.3f s   %.2fx git\n", ts, ts / tg
	printf "  servelint: %s\n", s
}'
