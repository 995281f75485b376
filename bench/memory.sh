#!/usr/bin/env bash
# bench/memory.sh [COPIES...]: whether peak memory is flat in the input's
# size. For each number of corpus copies (default 1 10 100: 35 to 3,500
# entries, 0.05 to 5.3 MB of launch scripts, a range of 100x), the peak RSS
# (/usr/bin/time's maxrss) of `check --format gcc` and `audit` over the
# copies' entry folders and of `show --format json` and `show` over their
# launch scripts, one run each, and per command the ratio of the largest
# peak to the smallest against the issue's bound (2x). Needs a release
# build in ./build (scripts/setup) and GNU time; SERVELINT names another binary.
# SERVELINT_BASE names a binary to compare with (an older build): each of
# its runs beside the same run of SERVELINT, its rows marked "base", and the
# peak of SERVELINT's over the base's at the largest size.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
[ $# -gt 0 ] && sizes=("$@") || sizes=(1 10 100)
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
for k in "${sizes[@]}"; do [ "$k" -gt "$max" ] && max=$k; done
corpus_copies "$work" "$max"
cd "$work"
# peak CMD...: maxrss in KB (output and exit status aside)
peak() { /usr/bin/time -f '%M' -o "$work/rss" "$@" > /dev/null 2>&1 || true; cat "$work/rss" | tail -1; }
declare -A rss
for k in "${sizes[@]}"; do
	mapfile -t cs < <(for i in $(seq 1 "$k"); do echo "c$i"; done)
	mapfile -t ss < <(for i in $(seq 1 "$k"); do find "c$i" -name launch.sh; done | sort)
	bytes=$(cat "${ss[@]}" | wc -c)
	for t in "${tags[@]}"; do
		b=$bin
		[ "$t" = new ] || b=$base
		rss[check,$t,$k]=$(peak "$b" check --format gcc "${cs[@]}")
		rss[audit,$t,$k]=$(peak "$b" audit --color never "${cs[@]}")
		rss[json,$t,$k]=$(peak "$b" show --format json "${ss[@]}")
		rss[show,$t,$k]=$(peak "$b" show --color never "${ss[@]}")
	done
	printf '%d copies: %d entries, %.2f MB of launch scripts\n' "$k" "${#ss[@]}" \
		"$(awk -v b="$bytes" 'BEGIN { print b / 1048576 }')"
done
echo "peak RSS (MB) per command over ${sizes[*]} copies; bound: largest <= 2x smallest"
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
		[ "$t" = new ] || line+="   new / base at $max copies: $(awk -v a="${rss[$c,new,$max]}" \
			-v b="${rss[$c,base,$max]}" 'BEGIN { printf "%.2fx", a / b }')"
		echo "$line"
	done
done
