#!/bin/sh
# docs.sh SERVELINT links|man: the documentation's tests, run from the
# source root.
#   links: every relative link in README.md and docs/*.md names a file that
#          exists; every command has its page docs/servelint-CMD.md, which
#          names every long option of the command's getopt table; docs/rules.md
#          lists every rule; README.md stays a front page (under 10 KB).
#   man:   docs/gen-man, run into a temporary folder, writes exactly the
#          committed docs/*.1 (so nobody edits them by hand), and each page
#          renders with groff without a warning. Skips (exit 77) when
#          go-md2man or groff is missing, but fails then under CI=true.
set -u
bin=$1
mode=${2:-links}
pass=0
fails=0
ok() { pass=$((pass + 1)); }
ko() { echo "FAIL $1"; fails=$((fails + 1)); }
finish() {
	echo "$pass passed, $fails failed"
	[ $fails -eq 0 ]
}

if [ "$mode" = links ]; then
	for md in README.md docs/*.md; do
		dir=$(dirname "$md")
		# [text](target): the targets that are not URLs or anchors
		for t in $(grep -o '](\([^)]*\))' "$md" | sed 's/^](\(.*\))$/\1/'); do
			case $t in
			http://* | https://* | mailto:* | '#'*) continue ;;
			esac
			if [ -e "$dir/${t%%#*}" ]; then ok; else ko "$md: link to $t: no such file"; fi
		done
	done
	# every command of `servelint --help` has its page, with every option
	for cmd in $("$bin" --help | sed -n '/^commands:/,/^$/s/^  \([a-z][a-z]*\) .*/\1/p'); do
		page=docs/servelint-$cmd.md
		if [ -f "$page" ]; then ok; else ko "$cmd: no page $page"; continue; fi
		grep -q "servelint-$cmd(1)" docs/servelint.md && ok || ko "$cmd: not in docs/servelint.md"
		src=src/cmd/$cmd.c
		[ -f "$src" ] || continue
		for opt in $(grep -o '{"[a-z][a-z-]*", *\(no\|required\|optional\)_argument' "$src" |
			     sed 's/^{"\([a-z-]*\)".*/\1/'); do
			if grep -q -- "\*\*--$opt\*\*" "$page"; then ok; else ko "$page: --$opt is not documented"; fi
		done
	done
	for f in rules/SL*.yaml; do
		id=$(sed -n 's/^id: *\(SL[0-9]*\).*/\1/p' "$f")
		if grep -q "| $id |" docs/rules.md; then ok; else ko "docs/rules.md does not list $id"; fi
	done
	size=$(wc -c < README.md)
	if [ "$size" -lt 10240 ]; then ok; else ko "README.md is $size bytes: move reference text into docs/"; fi
	finish
	exit
fi

# man
for tool in go-md2man groff; do
	if ! command -v $tool >/dev/null 2>&1; then
		if [ "${CI:-}" = true ]; then
			echo "FAIL $tool is not installed (scripts/setup installs it)"
			exit 1
		fi
		echo "SKIP $tool is not installed (scripts/setup installs it)"
		exit 77
	fi
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if sh docs/gen-man "$work"; then ok; else ko "docs/gen-man failed"; fi
(cd docs && ls *.1) > "$work/committed.list"
(cd "$work" && ls *.1) > "$work/generated.list"
if diff -u "$work/committed.list" "$work/generated.list"; then ok; else
	ko "the committed docs/*.1 are not the pages docs/gen-man writes"
fi
for page in $(cat "$work/generated.list"); do
	if diff -u "docs/$page" "$work/$page"; then ok; else
		ko "docs/$page differs from what docs/gen-man writes: run docs/gen-man and commit it"
	fi
	LC_ALL=C.UTF-8 groff -man -Tutf8 -P-cbou -ww "docs/$page" > "$work/out" 2> "$work/warn"
	if [ -s "$work/warn" ]; then
		ko "docs/$page renders with warnings:"
		cat "$work/warn"
	else
		ok
	fi
	name=${page%.1}
	if grep -q "^NAME" "$work/out" && grep -q "$name" "$work/out"; then ok; else ko "docs/$page: no NAME section"; fi
done
finish
