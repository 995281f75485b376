#!/usr/bin/env bash
# bench/memory.sh [--mb] [SIZE...]: whether peak memory is flat in the
# input's size. For each size, a number of corpus copies (default 1 10 100:
# 35 to 3,500 entries, 0.05 to 5.3 MB of launch scripts, a range of 100x),
# or with --mb megabytes of launch scripts (default 1 10 100, the issue's
# sizes: 20 to 1,984 copies, 700 to 69,440 entries; lib.sh's
# copies_for_mb; 0 is one copy, the quick mode), the peak RSS
# (/usr/bin/time's maxrss) of `check --format gcc`, `audit`, `show
# --format json` and `show` over the copies' folders (naming each launch
# script passed the system's limit on arguments at 100 MB, and the figure
# was the run before's), one run each, and per command the ratio of the largest
# peak to the smallest against the issue's bound (2x). Needs a release
# build in ./build (scripts/setup) and GNU time; SERVELINT names another binary.
# SERVELINT_BASE names a binary to compare with (an older build): each of
# its runs beside the same run of SERVELINT, its rows marked "base", and the
# peak of SERVELINT's over the base's at the largest size. The CPU time
# (user + system) of each run is printed too, the cost of what keeps memory
# flat being time.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
mb=0
[ "${1:-}" != --mb ] || { mb=1; shift; }
[ $# -gt 0 ] && sizes=("$@") || sizes=(1 10 100)
# each size's copies (a size in MB when --mb)
declare -A copies
for s in "${sizes[@]}"; do
	[ "$mb" = 0 ] && copies[$s]=$s || copies[$s]=$(copies_for_mb "$s")
done
# 69,440 launch scripts' names (100 MB) are more than the 2 MB of arguments
# a process gets under the usual 8 MB stack: the kernel gives a quarter of
# the stack's limit (at most 6 MB)
ulimit -s 65536 2>/dev/null || true
bin=${SERVELINT:-$(pwd)/build/servelint}
[ -x "$bin" ] || { echo "build first: scripts/setup" >&2; exit 2; }
base=${SERVELINT_BASE:-}
[ -z "$base" ] || [ -x "$base" ] || { echo "SERVELINT_BASE: $base is no program" >&2; exit 2; }
tags=(new)
[ -z "$base" ] || tags+=(base)
[ -x /usr/bin/time ] || { echo "needs GNU time (/usr/bin/time)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
max=0
for s in "${sizes[@]}"; do [ "${copies[$s]}" -gt "$max" ] && max=${copies[$s]}; done
corpus_copies "$work" "$max"
cd "$work"
# peak CMD...: maxrss in KB (output and exit status aside); its CPU time
# (seconds) in cpu[$key]
declare -A rss cpu
peak() {
	local key=$1
	shift
	rm -f "$work/rss"
	/usr/bin/time -f '%M %U %S' -o "$work/rss" "$@" > /dev/null 2>&1 || true
	# no figure when the command could not even start (an argument list
	# past the system's limit): never the previous run's
	read -r m u s < <(tail -1 "$work/rss" 2>/dev/null || echo "? ? ?")
	case "$m" in ''|*[!0-9]*) echo "memory: $key: the command did not run" >&2; exit 2 ;; esac
	rss[$key]=$m
	cpu[$key]=$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }')
}
for sz in "${sizes[@]}"; do
	k=${copies[$sz]}
	mapfile -t cs < <(for i in $(seq 1 "$k"); do echo "c$i"; done)
	mapfile -t ss < <(for i in $(seq 1 "$k"); do find "c$i" -name launch.sh; done | sort)
	bytes=$(printf '%s\0' "${ss[@]}" | xargs -0 cat | wc -c)
	for t in "${tags[@]}"; do
		b=$bin
		[ "$t" = new ] || b=$base
		peak "check,$t,$sz" "$b" check --format gcc "${cs[@]}"
		peak "audit,$t,$sz" "$b" audit --color never "${cs[@]}"
		peak "json,$t,$sz" "$b" show --format json "${cs[@]}"
		peak "show,$t,$sz" "$b" show --color never "${cs[@]}"
	done
	printf '%d copies: %d entries, %.2f MB of launch scripts\n' "$k" "${#ss[@]}" \
		"$(awk -v b="$bytes" 'BEGIN { print b / 1048576 }')"
done
unit=copies
[ "$mb" = 0 ] || unit="MB of launch scripts"
maxsz=${sizes[0]}
for s in "${sizes[@]}"; do [ "${copies[$s]}" = "$max" ] && maxsz=$s; done
echo "peak RSS (MB) per command over ${sizes[*]} $unit; bound: largest <= 2x smallest"
for c in check audit json show; do
	for t in "${tags[@]}"; do
		line="  $(printf '%-6s %-4s' "$c" "$([ "$t" = new ] || echo base)")"
		lo=0 hi=0
		for k in "${sizes[@]}"; do
			v=${rss[$c,$t,$k]}
			line+=$(printf ' %9.1f' "$(awk -v v="$v" 'BEGIN { print v / 1024 }')")
			[ "$lo" = 0 ] || [ "$v" -lt "$lo" ] && lo=$v
			[ "$v" -gt "$hi" ] && hi=$v
		done
		line+="   $(awk -v a="$hi" -v b="$lo" 'BEGIN { r = a / b; printf "%.2fx (%s)", r, r <= 2 ? "met" : "NOT met" }')"
		[ "$t" = new ] || line+="   new / base at $maxsz $unit: $(awk -v a="${rss[$c,new,$maxsz]}" \
			-v b="${rss[$c,base,$maxsz]}" 'BEGIN { printf "%.2fx", a / b }')"
		echo "$line"
	done
done
echo "CPU time (s, user + system) of the same runs"
for c in check audit json show; do
	for t in "${tags[@]}"; do
		line="  $(printf '%-6s %-4s' "$c" "$([ "$t" = new ] || echo base)")"
		for k in "${sizes[@]}"; do line+=$(printf ' %9s' "${cpu[$c,$t,$k]}"); done
		echo "$line"
	done
done
