#!/bin/sh
# syscalls.sh SERVELINT: the system calls servelint makes per entry stay
# within issue 18's budget: counted by strace -c -f over 1 and then 3
# copies of the corpus (the difference, divided by the entries added, is
# what one entry costs, start-up aside), for `show` of launch scripts and
# of entry folders, `check --format gcc` and `audit` of the copies. Each
# call that touches files (openat, a stat of any kind, read, getdents64,
# close, fcntl) is counted, each kind against its own budget. The budgets
# are the counts measured when issue 18 was fixed (show of launch scripts:
# 8.6 stats, 4.7 opens, 2.3 reads, 2 getdents64 an entry), plus about 15%;
# the code before made 2 to 3 times as many (25 stats, 12.8 opens, 4.6
# fcntl). On 2026-12-06 the entry folder's own listing spared the plan
# a stat of it, an open of its models/ and a stat of its .git, and a
# folder given was stat'ed once, not twice: stats 8.6 to 6.8 an entry
# for launch scripts, 10.3 to 7.5 for catalogues; the budgets followed.
# Skipped (77) where strace is missing or cannot trace.
set -u
. "$(dirname "$0")/lib.sh"
command -v strace > /dev/null 2>&1 || { echo "strace not found: skipped"; exit 77; }
strace -f -c -o /dev/null true 2> /dev/null || { echo "strace cannot trace here: skipped"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for i in 1 2 3; do
	mkdir -p "$work/c$i"
	cp -r corpus/. "$work/c$i/"
	rm -rf "$work/c$i/pages"
done
per=$(find "$work/c1" -name launch.sh | wc -l)
cd "$work"

# counts OUT CMD...: the calls CMD makes, by kind, in OUT (kind count)
counts() {
	out=$1
	shift
	strace -f -c -o "$out.raw" "$@" > /dev/null 2>&1
	# strace -c: "% time seconds usecs/call calls [errors] syscall"
	awk '$NF ~ /^[a-z_0-9]+$/ && $4 ~ /^[0-9]+$/ {
		k = $NF
		if (k ~ /^(newfstatat|stat|lstat|fstat|statx|fstatat64)$/) k = "stat"
		else if (k ~ /^(open|openat)$/) k = "open"
		else if (k !~ /^(read|close|getdents64|fcntl)$/) next
		n[k] += $4
	} END { for (k in n) print k, n[k] }' "$out.raw" > "$out"
}

# budget LABEL KIND MAX ARGS...: (calls with c1 c2 c3) - (calls with c1),
# per entry added, is at most MAX for KIND
check_budget() {
	label=$1
	shift
	one=$(mktemp -p "$work")
	three=$(mktemp -p "$work")
	counts "$one" "$bin" "$@" $(eval echo "\$set1")
	counts "$three" "$bin" "$@" $(eval echo "\$set3")
	for kb in $budgets; do
		k=${kb%%=*}
		max=${kb#*=}
		got=$(awk -v k="$k" -v per="$per" 'FNR == NR { a[$1] = $2; next } { b[$1] = $2 }
			END { printf "%.2f", (b[k] - a[k]) / (2 * per) }' "$one" "$three")
		if awk -v g="$got" -v m="$max" 'BEGIN { exit !(g <= m) }'; then ok; else
			ko "$label: $got $k calls an entry, budget $max"
		fi
		echo "$label: $k $got an entry (budget $max)"
	done
}

set1=$(find c1 -name launch.sh | LC_ALL=C sort | tr '\n' ' ')
set3=$(find c1 c2 c3 -name launch.sh | LC_ALL=C sort | tr '\n' ' ')
budgets="stat=8 open=4.5 read=3 getdents64=2.5 close=4 fcntl=0.5"
check_budget "show of launch scripts" show
check_budget "check of launch scripts" check --format gcc
set1=$(find c1 -name launch.sh | LC_ALL=C sort | sed 's|/launch\.sh$||' | tr '\n' ' ')
set3=$(find c1 c2 c3 -name launch.sh | LC_ALL=C sort | sed 's|/launch\.sh$||' | tr '\n' ' ')
budgets="stat=10 open=5.5 read=3 getdents64=4.5 close=5 fcntl=0.5"
check_budget "show of entry folders" show
set1=c1
set3="c1 c2 c3"
budgets="stat=8.7 open=5 read=3 getdents64=3.5 close=4.5 fcntl=0.5"
check_budget "check of catalogues" check --format gcc
budgets="stat=13.3 open=6.2 read=4 getdents64=3.5 close=5.5 fcntl=0.5"
check_budget "audit of catalogues" audit
finish
