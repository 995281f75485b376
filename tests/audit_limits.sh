#!/bin/sh
# audit_limits.sh SERVELINT: audit's limits (issue 18). Its temporary file
# (the entries' summaries and the spooled findings) is made in $TMPDIR:
# on a file system too small for it (a 64 KB tmpfs, mounted in a mount
# namespace of its own: unshare -m, as root) audit exits 2 with a message
# and prints no report. Skipped (77), saying why, where no tmpfs can be
# mounted (not root, no unshare, a container that forbids mounts).
set -u
. "$(dirname "$0")/lib.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# $TMPDIR honoured: a folder that is not there is a clear error, exit 2
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
	finish || exit 1
	exit 77
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
