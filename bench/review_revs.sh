#!/usr/bin/env bash
# bench/review_revs.sh [ENTRIES] [RUNS]: `servelint review REV1 REV2` (a
# pull request's semantic diffs and new findings) over the repositories of
# bench/diff_revs.sh (bench/lib.sh's revs_repo: ENTRIES entries, default
# 10000, the second commit changing 1% of them; the copies sharing the
# corpus's blobs, then every blob distinct), side by side in one run with
# `git diff --stat REV1 REV2` on the same repository. Best wall time of
# RUNS (default 5) each, and the ratio (issue 18's target: 2x), servelint
# cold (its index of what each script sources removed before each run: a
# fresh clone's first run) and warm (the index the previous run wrote).
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

revs_bench review
