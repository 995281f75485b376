#!/usr/bin/env bash
# bench/diff_revs.sh [ENTRIES] [RUNS]: `servelint diff REV1 REV2` over a
# generated repository of ENTRIES entries (default 10000; bench/lib.sh's
# revs_repo: the corpus entries copied under numbered folders) where the
# second commit changes 1% of them (--max-num-seqs, or the YAML's
# max_batch_size), side by side in one run with `git diff --stat REV1 REV2`
# on the same repository. Twice: the copies sharing the corpus's blobs, and
# every blob distinct (each file of a copy names it), where nothing read
# for one entry serves another. Best wall time of RUNS (default 5) each,
# and the ratio (issue 18's target: 2x). SERVELINT_BASE names a binary to
# compare with (an older build), timed in the same run. Needs a release
# build in ./build (scripts/setup) and git.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
want=${1:-10000}
runs=${2:-5}
bin=${SERVELINT:-$(pwd)/build/servelint}
[ -x "$bin" ] || { echo "build first: scripts/setup" >&2; exit 2; }
base=${SERVELINT_BASE:-}
[ -z "$base" ] || [ -x "$base" ] || { echo "SERVELINT_BASE: $base is no program" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# wall TIME of CMD in repository $repo, best of $runs
wall() {
	local best="" t
	for _ in $(seq 1 "$runs"); do
		t=$( { TIMEFORMAT='%3R'; time (cd "$repo" && "$@" > /dev/null); } 2>&1 )
		if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$t; fi
	done
	echo "$best"
}
for mode in shared distinct; do
	repo=$work/$mode
	revs_repo "$repo" "$want" "$mode"
	changed=$(git -C "$repo" diff --name-only HEAD~1 HEAD | xargs -n1 dirname | sort -u | wc -l)
	t_git=$(wall git diff --stat HEAD~1 HEAD)
	t_sl=$(wall "$bin" diff HEAD~1 HEAD)
	t_base=$([ -z "$base" ] || wall "$base" diff HEAD~1 HEAD)
	summary=$(cd "$repo" && "$bin" diff HEAD~1 HEAD | tail -1)
	awk -v n="$want" -v c="$changed" -v tg="$t_git" -v ts="$t_sl" -v tb="$t_base" -v r="$runs" -v s="$summary" \
	    -v m="$mode" 'BEGIN {
		printf "repository: %d entries (blobs %s), second commit touches %d; best wall time of %d runs\n", n, m, c, r
		printf "  git diff --stat HEAD~1 HEAD    %7.3f s\n", tg
		printf "  servelint diff HEAD~1 HEAD     %7.3f s   %.2fx git (target 2x: %s)\n", ts, ts / tg,
			ts / tg <= 2 ? "met" : "NOT met"
		if (tb != "")
			printf "  base: servelint diff           %7.3f s   %.2fx git\n", tb, tb / tg
		printf "  servelint: %s\n", s
	}'
done
