#!/bin/sh
# check.sh SERVELINT: `servelint check` formats against outputs read and
# judged (tests/golden/check/), exit statuses, and a clean corpus.
# Regenerate with: tests/check.sh SERVELINT --update
set -u
bin=$1
upd=${2:-}
fails=0
pass=0
t=tests/data/check/planted.sh
for fmt in gcc json tty sarif github checkstyle; do
	out=$(mktemp)
	"$bin" check --format "$fmt" --color never "$t" > "$out"
	rc=$?
	if [ "$upd" = --update ]; then cp "$out" "tests/golden/check/planted.$fmt"; fi
	if [ $rc -ne 1 ]; then echo "FAIL $fmt: exit $rc, want 1"; fails=$((fails + 1));
	elif ! diff -u "tests/golden/check/planted.$fmt" "$out"; then echo "FAIL $fmt output"; fails=$((fails + 1));
	else pass=$((pass + 1)); fi
	rm -f "$out"
done
# every format on a corpus entry with findings
e=corpus/deepseek-v4-pro/gb300-nvl72/dynamo-trtllm-disagg-6p-dep4-1d-dep8-mtp3
for fmt in gcc json tty sarif github checkstyle; do
	out=$(mktemp)
	"$bin" check --format "$fmt" --color never "$e" > "$out"
	if [ "$upd" = --update ]; then cp "$out" "tests/golden/check/corpus-6p.$fmt"; fi
	diff -u "tests/golden/check/corpus-6p.$fmt" "$out" > /dev/null && pass=$((pass + 1)) ||
		{ echo "FAIL corpus $fmt"; fails=$((fails + 1)); }
	rm -f "$out"
done
# several reports in one run, each to its file
d=$(mktemp -d)
"$bin" check --format sarif --output "$d/r.sarif" --format gcc --output "$d/r.gcc" "$t" > "$d/stdout"
if [ $? -eq 1 ] && [ ! -s "$d/stdout" ] && cmp -s "$d/r.gcc" tests/golden/check/planted.gcc &&
   cmp -s "$d/r.sarif" tests/golden/check/planted.sarif; then pass=$((pass + 1)); else
	echo "FAIL --output pairs"; fails=$((fails + 1)); fi
rm -rf "$d"
# thresholds: only errors shown; warnings do not fail with --failure-threshold error
n=$("$bin" check --format gcc --severity error "$t" | wc -l)
[ "$n" -eq 3 ] && pass=$((pass + 1)) || { echo "FAIL --severity error gave $n lines"; fails=$((fails + 1)); }
"$bin" check --format gcc --severity warning --failure-threshold error tests/data/check/planted.sh > /dev/null
[ $? -eq 1 ] && pass=$((pass + 1)) || { echo "FAIL failure threshold"; fails=$((fails + 1)); }
# the corpus: exactly the findings README lists (warnings, each true)
out=$(mktemp)
"$bin" check --format gcc corpus > "$out"
rc=$?
if [ "$upd" = --update ]; then cp "$out" tests/golden/check/corpus.gcc; fi
if [ $rc -eq 1 ] && diff -u tests/golden/check/corpus.gcc "$out" && ! grep -q ': error:' "$out"; then
	pass=$((pass + 1)); else echo "FAIL corpus findings"; fails=$((fails + 1)); fi
rm -f "$out"
# suppression: a comment above a command (kept in SARIF with its reason),
# the nearest .servelint.yaml (disable, exclude), --no-config
sup=tests/data/check/suppress
out=$("$bin" check --format gcc --no-config "$sup/sub/x.sh")
[ "$(printf '%s\n' "$out" | grep -c SL4001)" -eq 1 ] && ! printf '%s' "$out" | grep -q SL5001 &&
	pass=$((pass + 1)) || { echo "FAIL disable comment: $out"; fails=$((fails + 1)); }
"$bin" check --format sarif --no-config "$sup/sub/x.sh" | grep -q '"justification": "percent on purpose in this test"' &&
	pass=$((pass + 1)) || { echo "FAIL SARIF suppressions"; fails=$((fails + 1)); }
out=$("$bin" check --format gcc "$sup")
[ $? -eq 0 ] && [ -z "$out" ] && pass=$((pass + 1)) || { echo "FAIL .servelint.yaml: $out"; fails=$((fails + 1)); }
n=$("$bin" check --format gcc --no-config "$sup" | grep -c SL4001)
[ "$n" -eq 2 ] && pass=$((pass + 1)) || { echo "FAIL folder search gave $n"; fails=$((fails + 1)); }
# usage 3, unreadable input 2
"$bin" check --format xml "$t" > /dev/null 2>&1
[ $? -eq 3 ] && pass=$((pass + 1)) || { echo "FAIL usage exit"; fails=$((fails + 1)); }
"$bin" check /nonexistent/entry > /dev/null 2>&1
[ $? -eq 2 ] && pass=$((pass + 1)) || { echo "FAIL input error exit"; fails=$((fails + 1)); }
# rules: listed and explained
"$bin" rules | grep -q '^SL2002 ' && "$bin" rules SL2002 | grep -q '^Bad:' && pass=$((pass + 1)) ||
	{ echo "FAIL rules"; fails=$((fails + 1)); }
echo "$pass passed, $fails failed"
[ $fails -eq 0 ]
