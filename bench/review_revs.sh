#!/usr/bin/env bash
# bench/review_revs.sh [ENTRIES] [RUNS]: `servelint review REV1 REV2` (a
# pull request's semantic diffs and new findings) over the repositories of
# bench/diff_revs.sh (bench/lib.sh's revs_repo: ENTRIES entries, default
# 10000, the second commit changing 1% of them; the copies sharing the
# corpus's blobs, then every blob distinct), side by side in one run with
# `git diff --stat REV1 REV2` on the same repository. Best wall time of
# RUNS (default 5) each, and the ratio (issue 18's target: 2x).
# SERVELINT_BASE names a binary to compare with (an older build), timed in
# the same run. Needs a release build in ./build (scripts/setup) and git.
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

# wall TIME of CMD in repository $repo, best of $runs (review exits 1 on
# new findings: any exit is timed)
wall() {
	local best="" t
	for _ in $(seq 1 "$runs"); do
		t=$( { TIMEFORMAT='%3R'; time (cd "$repo" && "$@" > /dev/null || true); } 2>&1 )
		if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$t; fi
	done
	echo "$best"
}
for mode in shared distinct; do
	repo=$work/$mode
	revs_repo "$repo" "$want" "$mode"
	changed=$(git -C "$repo" diff --name-only HEAD~1 HEAD | xargs -n1 dirname | sort -u | wc -l)
	t_git=$(wall git diff --stat HEAD~1 HEAD)
	t_sl=$(wall "$bin" review HEAD~1 HEAD)
	t_base=$([ -z "$base" ] || wall "$base" review HEAD~1 HEAD)
	summary=$(cd "$repo" && { "$bin" review --color never HEAD~1 HEAD || true; } | tail -1)
	awk -v n="$want" -v c="$changed" -v tg="$t_git" -v ts="$t_sl" -v tb="$t_base" -v r="$runs" -v s="$summary" \
	    -v m="$mode" 'BEGIN {
		printf "repository: %d entries (blobs %s), second commit touches %d; best wall time of %d runs\n", n, m, c, r
		printf "  git diff --stat HEAD~1 HEAD    %7.3f s\n", tg
		printf "  servelint review HEAD~1 HEAD   %7.3f s   %.2fx git (target 2x: %s)\n", ts, ts / tg,
			ts / tg <= 2 ? "met" : "NOT met"
		if (tb != "")
			printf "  base: servelint review         %7.3f s   %.2fx git\n", tb, tb / tg
		printf "  servelint: %s\n", s
	}'
done
