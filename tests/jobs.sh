#!/bin/sh
# jobs.sh SERVELINT: `check -j N` and `audit -j N` print byte for byte what
# -j 1 prints (standard output, standard error, the exit status, the files
# written) for N = 2, 3, 4 and 8 and without -j (the cores available), over
# the corpus, its pages, a catalogue of corpus copies with planted
# contradictions, every file and folder of tests/data (many of them no entry:
# SL0001 findings and messages on stderr, whose order is held too), and
# paths that are not there; `--fix` leaves the same files. -j takes 1 to 256.
# Run under ThreadSanitizer too (docs/development.md).
set -u
. "$(dirname "$0")/lib.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cat=$work/cat
sh tests/data/mkaudit.sh "$cat" > /dev/null || { echo "FAIL building the planted catalogue"; exit 1; }
for k in 1 2 3; do
	mkdir -p "$cat/copy$k"
	cp -r corpus/deepseek-v4.1-flash corpus/kimi-k3 corpus/gpt-oss-120b "$cat/copy$k/"
done
# every file and folder of tests/data, each a PATH (in name order)
find tests/data -mindepth 1 \( -name '*.sh' -o -name '*.yaml' -o -name '*.yml' -o -name '*.txt' -o -type d \) |
	LC_ALL=C sort > "$work/data"
n=0
# same NAME CMD...: CMD with -j 1, then with -j N for each N of $js (no -j:
# the cores available), gives the same stdout, stderr and exit status
js="2 4 default"
same() {
	name=$1
	shift
	"$@" -j 1 > "$work/o1" 2> "$work/e1"
	rc1=$?
	for j in $js; do
		if [ $j = default ]; then "$@" > "$work/oj" 2> "$work/ej"; else "$@" -j $j > "$work/oj" 2> "$work/ej"; fi
		rcj=$?
		if [ $rc1 -eq $rcj ] && cmp -s "$work/o1" "$work/oj" && cmp -s "$work/e1" "$work/ej"; then ok; else
			ko "$name: -j $j differs from -j 1 (exit $rc1, $rcj)"
			diff "$work/o1" "$work/oj" | head -10
			diff "$work/e1" "$work/ej" | head -10
		fi
	done
	n=$((n + 1))
}
for f in tty gcc json sarif github checkstyle diff; do
	same "check corpus $f" "$bin" check --color never --format $f corpus
done
for f in tty json sarif; do
	same "check catalogue $f" "$bin" check --color never --format $f "$cat"
	# shellcheck disable=SC2046
	same "check tests/data $f" "$bin" check --color never --format $f $(cat "$work/data") tests/data/nosuch
done
js="3 8"
# shellcheck disable=SC2046
same "check tests/data, 3 and 8 threads" "$bin" check --format gcc $(cat "$work/data") tests/data/nosuch "$cat"
js="2 4 default"
same "check pages" "$bin" check --color always corpus/pages/*.txt
same "check many formats" "$bin" check --format json --output "$work/c.json" --format sarif --output "$work/c.sarif" \
	--format gcc corpus "$cat"
for f in tty json markdown sarif; do
	same "audit catalogue $f" "$bin" audit --color never --format $f "$cat" corpus/pages/*.txt
done
same "audit corpus" "$bin" audit --color always corpus
# shellcheck disable=SC2046
same "audit tests/data" "$bin" audit --color never --format json $(cat "$work/data") tests/data/nosuch
# the files written: the page, and the reports of --output
SOURCE_DATE_EPOCH=0 "$bin" audit -j 1 --html "$work/1.html" "$cat" > /dev/null
SOURCE_DATE_EPOCH=0 "$bin" audit -j 4 --html "$work/4.html" "$cat" > /dev/null
if cmp -s "$work/1.html" "$work/4.html"; then ok; else ko "audit --html: -j 4 differs from -j 1"; fi
for j in 1 4; do
	"$bin" check -j $j --format sarif --output "$work/$j.sarif" --format json --output "$work/$j.json" "$cat" corpus
done
if cmp -s "$work/1.sarif" "$work/4.sarif" && cmp -s "$work/1.json" "$work/4.json"; then ok; else
	ko "check --output: -j 4 differs from -j 1"
fi
# --fix: the same files fixed, the same message
for j in 1 4; do
	mkdir "$work/fix$j"
	cp -r "$cat" corpus tests/data/fix tests/data/check "$work/fix$j/"
	(cd "$work/fix$j" && "$bin" check -j $j --fix --color never cat corpus fix check > out 2> err; echo $? > rc)
done
if diff -r "$work/fix1" "$work/fix4" > "$work/fixdiff"; then ok; else ko "check --fix: -j 4 differs"; head "$work/fixdiff"; fi
grep -q 'fixed [1-9]' "$work/fix1/err" && ok || ko "check --fix: nothing was fixed, the comparison holds nothing"

# -j takes a number of threads, 1 to 256
for bad in 0 257 x -1 ''; do
	"$bin" check -j "$bad" corpus > "$work/out" 2> "$work/err"
	[ $? -eq 3 ] && grep -q 'servelint check: -j takes a number of threads from 1 to 256' "$work/err" && ok ||
		ko "check -j '$bad': want exit 3 and the message"
done
"$bin" audit --jobs 0 corpus > /dev/null 2> "$work/err"
[ $? -eq 3 ] && grep -q 'servelint audit: -j takes' "$work/err" && ok || ko "audit --jobs 0"
"$bin" check --jobs 256 --format gcc tests/data/check/planted.sh > "$work/out"
[ $? -eq 1 ] && grep -q 'SL1001' "$work/out" && ok || ko "check --jobs 256 of one entry"
echo "$n commands compared"
finish
