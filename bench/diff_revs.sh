#!/usr/bin/env bash
# bench/diff_revs.sh [ENTRIES] [RUNS]: `servelint diff REV1 REV2` over a
# generated repository of ENTRIES entries (default 10000; bench/lib.sh's
# revs_repo: the corpus entries copied under numbered folders) where the
# second commit changes 1% of them (--max-num-seqs, or the YAML's
# max_batch_size), side by side in one run with `git diff --stat REV1 REV2`
# on the same repository. Twice: the copies sharing the corpus's blobs, and
# every blob distinct (each file of a copy names it), where nothing read
# for one entry serves another. Best wall time of RUNS (default 5) each,
# and the ratio (issue 18's target: 2x), servelint cold (its index of what
# each script sources removed before each run: a fresh clone's first run)
# and warm (the index the previous run wrote). SERVELINT_BASE names a
# binary to compare with (an older build), timed in the same run. Needs a
# release build in ./build (scripts/setup) and git.
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

revs_bench diff
