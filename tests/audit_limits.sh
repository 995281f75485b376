#!/bin/sh
# audit_limits.sh SERVELINT: audit's limits (issue 18).
# Memory: the peak RSS (GNU time's maxrss) that each entry adds, audit -j 1
# of 100 corpus copies (symbolic links to corpus/: 3,500 entries) against
# 2, stays under MEM_PER_ENTRY bytes: main's of 2026-12-06 added 2,300,
# 1,730 once the findings were spooled and what only the catalogue rules
# read freed before the report (1,790 to 2,010 in single runs after the
# day's merge, hence the least of three), 1,690 on the morning of
# session 11, about 600 once each entry's catalogue summary was put in
# the store and the entry let go but for a 56-byte item (what is left at
# 3,500 entries is mostly steps: the spool's first sorted run, tables
# that double; at 69,440 entries an entry adds under 100 bytes). The
# bound, 800, leaves room for a peak's 10% from run to run; a regrowth of
# what each entry keeps (its summary held again: 630 bytes, its findings,
# its entry) fails it.
# Full disk: the temporary file (the entries' summaries and the spooled
# findings) is made in $TMPDIR: on a file system too small for it (a 64
# KB tmpfs, mounted in a mount namespace of its own: unshare -m, as root)
# audit exits 2 with a message and prints no report.
# Each part says SKIP and why where it cannot run (no GNU time, a
# sanitizer's build; not root, no unshare, mounts forbidden); the test is
# skipped (77) when neither could.
set -u
. "$(dirname "$0")/lib.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
MEM_PER_ENTRY=800
skipped=0

# ---- memory per entry
why=
if [ ! -x /usr/bin/time ] || ! /usr/bin/time -f %M true > /dev/null 2>&1; then
	why="GNU time (/usr/bin/time) is not installed"
elif nm "$bin" 2> /dev/null | grep -q "__[at]san_init\|__ubsan_handle" || ldd "$bin" 2> /dev/null | grep -q "lib[at]san\|libubsan"; then
	why="a sanitizer's build: its memory is the sanitizer's"
fi
if [ -n "$why" ]; then
	echo "SKIP memory per entry: $why"
	skipped=$((skipped + 1))
else
	mkdir -p "$work/links"
	for i in $(seq 1 100); do ln -s "$root/corpus" "$work/links/c$i"; done
	per=$(find corpus -name launch.sh | wc -l)
	# the least of three runs: one run's peak varies by 10% (6.0 to 6.6 MB
	# at 2 copies), which made a single pair read 1,790 to 2,010 bytes
	peak() { # the maxrss (KB) of audit -j 1 of copies 1..N, least of three
		least=
		for _ in 1 2 3; do
			(cd "$work/links" && /usr/bin/time -f %M -o "$work/rss" "$bin" audit -j 1 --color never \
				$(seq -f c%g 1 "$1") > /dev/null 2>&1)
			m=$(tail -1 "$work/rss")
			[ -z "$least" ] || [ "$m" -lt "$least" ] && least=$m
		done
		echo "$least"
	}
	small=$(peak 2)
	large=$(peak 100)
	grow=$(( (large - small) * 1024 / (98 * per) ))
	echo "audit's peak RSS: 2 copies $small KB, 100 copies $large KB: $grow bytes an entry (bound $MEM_PER_ENTRY)"
	[ "$grow" -le "$MEM_PER_ENTRY" ] && ok || ko "audit's memory per entry: $grow bytes, more than $MEM_PER_ENTRY"
fi

# ---- a full disk
# ---- $TMPDIR honoured: a folder that is not there is a clear error, exit 2
TMPDIR=$work/none "$bin" audit --color never corpus > "$work/out" 2> "$work/err"
rc=$?
[ $rc -eq 2 ] && [ ! -s "$work/out" ] && grep -q "^servelint audit: cannot make a temporary file: " "$work/err" && ok ||
	ko "TMPDIR missing: exit $rc, $(head -c 300 "$work/err")"
# a catalogue big enough to fill 64 KB: ten corpus copies (350 entries)
for i in 1 2 3 4 5 6 7 8 9 10; do
	mkdir -p "$work/cat/c$i"
	cp -r corpus/. "$work/cat/c$i/"
done
mkdir -p "$work/tiny"
why=
if [ "$(id -u)" != 0 ]; then
	why="not root: no tmpfs can be mounted"
elif ! command -v unshare > /dev/null 2>&1; then
	why="unshare not found"
elif ! unshare -m sh -c "mount -t tmpfs -o size=64k tmpfs '$work/tiny'" 2> /dev/null; then
	why="mount -t tmpfs is not permitted here"
fi
if [ -n "$why" ]; then
	echo "SKIP full disk: $why"
	skipped=$((skipped + 1))
	finish || exit 1
	[ "$skipped" -lt 2 ] || exit 77
	exit 0
fi
for fmt in tty json; do
	unshare -m sh -c "mount -t tmpfs -o size=64k tmpfs '$work/tiny' &&
		TMPDIR='$work/tiny' '$bin' audit --format $fmt --color never '$work/cat' > '$work/out' 2> '$work/err'; echo \$? > '$work/rc'"
	rc=$(cat "$work/rc")
	[ "$rc" -eq 2 ] && [ ! -s "$work/out" ] &&
		grep -q "^servelint audit: cannot write a temporary file: No space left on device$" "$work/err" && ok ||
		ko "full disk ($fmt): exit $rc, $(wc -c < "$work/out") bytes out, $(head -c 300 "$work/err")"
done
finish
