#!/bin/sh
# bench/run.sh [MB]: `servelint show` over the corpus scripts copied until the
# input reaches MB megabytes (default 10), side by side in one run with a
# bare tree-sitter-bash parse of the same files (ts-parse-baseline). Prints
# both times (best of 3) and the ratio. Needs a build in ./build.
set -eu
cd "$(dirname "$0")/.."
mb=${1:-10}
bin=build/servelint
base=build/ts-parse-baseline
[ -x "$bin" ] && [ -x "$base" ] || { echo "build first: scripts/setup"; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Entries are copied whole (script and sidecars) so show reads real folders.
target=$((mb * 1024 * 1024))
total=0
i=0
while [ "$total" -lt "$target" ]; do
	for s in $(find corpus -name launch.sh | sort); do
		d="$work/e$i/$(dirname "$s")"
		mkdir -p "$d"
		cp "$(dirname "$s")"/* "$d"/
		total=$((total + $(wc -c < "$s")))
	done
	i=$((i + 1))
done
find "$work" -name launch.sh | sort > "$work/scripts"
find "$work" -name launch.sh -exec dirname {} \; | sort > "$work/entries"
n=$(wc -l < "$work/entries")

best() { # best-of-3 wall time in seconds of "$@" (output discarded)
	b=""
	for _ in 1 2 3; do
		t0=$(date +%s.%N)
		"$@" > /dev/null
		t1=$(date +%s.%N)
		t=$(echo "$t1 - $t0" | bc)
		if [ -z "$b" ] || [ "$(echo "$t < $b" | bc)" -eq 1 ]; then b=$t; fi
	done
	echo "$b"
}
t_base=$(best xargs -a "$work/scripts" "$base")
t_show=$(best xargs -a "$work/entries" "$bin" show)
t_json=$(best xargs -a "$work/entries" "$bin" show --format json)
printf 'input: %d entries, %.1f MB of launch scripts\n' "$n" "$(echo "$total / 1048576" | bc -l)"
printf 'tree-sitter-bash parse only   %8.3f s\n' "$t_base"
printf 'servelint show (tty)          %8.3f s   ratio %.2fx\n' "$t_show" "$(echo "$t_show / $t_base" | bc -l)"
printf 'servelint show --format json  %8.3f s   ratio %.2fx\n' "$t_json" "$(echo "$t_json / $t_base" | bc -l)"
