#!/bin/sh
# import.sh SERVELINT: importing both published pages reproduces the corpus
# exactly (every entry folder, byte for byte); a page that cannot be split is
# an error naming the line, and writes nothing.
set -u
bin=$1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fails=0
"$bin" import --out "$out/corpus" corpus/pages/*.txt || { echo "FAIL import exited $?"; exit 1; }
# the corpus is the import, plus the pages and the README
if ! diff -r -x pages -x README.md corpus "$out/corpus"; then
	echo "FAIL imported pages differ from corpus/"
	fails=$((fails + 1))
fi
n=$(find "$out/corpus" -name launch.sh | wc -l)
[ "$n" -eq 35 ] || { echo "FAIL $n entries, want 35"; fails=$((fails + 1)); }
# importing again over it: refused, nothing changed
"$bin" import --out "$out/corpus" corpus/pages/*.txt 2> "$out/err"
[ $? -eq 2 ] && grep -q "already exists" "$out/err" || { echo "FAIL re-import not refused"; fails=$((fails + 1)); }
# a page whose last entry never reaches its "Submitted by" line
head -n 200 corpus/pages/000_a3b24a2c279fc8de.txt > "$out/cut.txt"
"$bin" import --out "$out/cut" "$out/cut.txt" 2> "$out/err"
rc=$?
if [ $rc -ne 2 ] || ! grep -q "^$out/cut.txt:183:1: entry starting here has no .Submitted by. line" "$out/err" || [ -e "$out/cut" ]; then
	echo "FAIL truncated page: exit $rc, $(cat "$out/err")"; fails=$((fails + 1))
fi
echo "$((4 - fails)) passed, $fails failed"
[ $fails -eq 0 ]
