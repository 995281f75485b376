#!/bin/sh
# golden.sh SERVELINT ENTRY          compare `show --format json ENTRY` with tests/golden/ENTRY.json
# golden.sh SERVELINT --update ENTRY...  rewrite golden files (then read every diff before committing)
set -u
bin=$1
shift
if [ "$1" = "--update" ]; then
	shift
	for e in "$@"; do
		mkdir -p "tests/golden/$(dirname "$e")"
		"$bin" show --format json "$e" > "tests/golden/$e.json" || exit 1
	done
	exit 0
fi
entry=$1
golden="tests/golden/$entry.json"
[ -f "$golden" ] || { echo "no golden file $golden"; exit 1; }
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$bin" show --format json "$entry" > "$out" || { echo "show failed on $entry"; exit 1; }
diff -u "$golden" "$out"
