#!/usr/bin/env bash
# bench/log_history.sh [COMMITS] [RUNS]: `servelint log PATH` over a
# generated history of COMMITS commits (default 1000) on a catalogue of the
# 35 corpus entries, side by side in one run with `git log --follow
# --oneline -- PATH` (git's own walk of the same path, without semantics).
# Every second commit touches the followed entry: alternately a real change
# (--max-num-seqs takes a value never used before) and a reformat (a blank
# line at the end comes and goes); the others change another entry. Then
# `servelint log --stats` counts entry lookups, distinct git objects and
# parses, which shows each object parsed once. The floor (issue 18's: log
# within 1.5x of it): `servelint show` of each distinct version of the
# entry once, in one process (folders of the entry's files with each
# version's launch.sh). Best wall time of RUNS (default 3). Needs a release
# build in ./build (scripts/setup) and git.
set -euo pipefail
cd "$(dirname "$0")/.."
commits=${1:-1000}
runs=${2:-3}
bin=${SERVELINT:-$(pwd)/build/servelint}
[ -x "$bin" ] || { echo "build first: scripts/setup" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
target=deepseek-v4.1-flash/b200-sxm-x8/vllm-tp2-dspark5
other=deepseek-v4.1-flash/b300-x8/vllm-tp2-dspark5
mkdir -p "$work/r"
cp -r corpus/. "$work/r/"
g() { git -C "$work/r" -c user.name=bench -c user.email=bench@example.com "$@"; }
g init -q -b main
g add -A
g commit -qm base
# The commits, written as one git fast-import stream (a thousand `git
# commit`s would take longer than what is measured).
base_t=$(sed 's/--max-num-seqs [0-9]*/--max-num-seqs @N@/' "$work/r/$target/launch.sh")
base_o=$(sed 's/--max-num-seqs [0-9]*/--max-num-seqs @N@/' "$work/r/$other/launch.sh")
blank=0
{
	for i in $(seq 1 "$commits"); do
		case $((i % 4)) in
		1) path=$target text=${base_t//@N@/$((1000 + i))} ;;
		3) path=$target blank=$((1 - blank)) ;;
		*) path=$other text=${base_o//@N@/$((1000 + i))} ;;
		esac
		[ "$path" = "$target" ] && [ $((i % 4)) -eq 1 ] && last_t=$text
		if [ "$path" = "$target" ]; then
			body=${last_t:-${base_t//@N@/256}}
			[ "$blank" -eq 1 ] && body="$body"$'\n'
		else
			body=$text
		fi
		body="$body"$'\n'
		msg="commit $i"
		printf 'commit refs/heads/main\ncommitter bench <bench@example.com> %d +0000\n' $((1700000000 + i * 60))
		printf 'data %d\n%s\n' "${#msg}" "$msg"
		[ "$i" -eq 1 ] && printf 'from refs/heads/main^0\n'
		printf 'M 100644 inline %s/launch.sh\ndata %d\n%s\n' "$path" "$(LC_ALL=C; echo ${#body})" "$body"
	done
} > "$work/stream"
g fast-import --quiet < "$work/stream"
g reset -q --hard main
touching=$(g log --oneline -- "$target" | wc -l)

# wall TIME of CMD in the repository, best of $runs
wall() {
	local best="" t
	for _ in $(seq 1 "$runs"); do
		t=$( { TIMEFORMAT='%3R'; time (cd "$work/r" && "$@" > /dev/null 2>&1); } 2>&1 )
		if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$t; fi
	done
	echo "$best"
}
# the floor's folders: the entry's files as at HEAD, each distinct launch.sh
mkdir -p "$work/v"
g log --format=%H -- "$target" | while read -r c; do g rev-parse "$c:$target/launch.sh"; done | sort -u > "$work/blobs"
while read -r b; do
	mkdir -p "$work/v/$b"
	cp -r "$work/r/$target/." "$work/v/$b/"
	g cat-file blob "$b" > "$work/v/$b/launch.sh"
done < "$work/blobs"
versions=$(wc -l < "$work/blobs")
t_git=$(wall git log --follow --oneline -- "$target")
t_sl=$(wall "$bin" log --color never "$target")
t_floor=$(wall "$bin" show --color never "$work"/v/*)
stats=$(cd "$work/r" && "$bin" log --stats --color never "$target" 2>&1 > "$work/out")
shown=$(grep -c '^commit ' "$work/out")
reformat=$(grep -c '^  reformatted only' "$work/out" || true)
awk -v n="$commits" -v k="$touching" -v tg="$t_git" -v ts="$t_sl" -v r="$runs" -v s="$stats" \
    -v sh="$shown" -v rf="$reformat" -v tf="$t_floor" -v nv="$versions" 'BEGIN {
	printf "history: %d commits after the base, %d touch the entry; best wall time of %d runs\n", n, k, r
	printf "  git log --follow --oneline -- PATH   %7.3f s\n", tg
	printf "  servelint log PATH                   %7.3f s   %.2fx git\n", ts, ts / tg
	printf "  floor: show of its %d versions once  %7.3f s   log %.2fx the floor (target 1.5x: %s)\n", nv, tf,
		ts / tf, ts / tf <= 1.5 ? "met" : "NOT met"
	printf "  servelint log: %d commits told, %d of them reformatted only\n", sh, rf
	printf "  %s\n", s
}'
