#!/bin/sh
# pages.sh SERVELINT: the corpus is the two published pages, split: every
# launch.sh is, line for line, the page text at the line its metadata.txt
# names, and corpus/pages/ holds the pages exactly as published. Then every
# entry normalizes.
set -u
bin=$1
fails=0
n=0
for p in corpus/pages/*.txt; do
	cmp -s "$p" "../shared/catalogue/$(basename "$p")" 2>/dev/null ||
		[ ! -d ../shared/catalogue ] || { echo "FAIL $p differs from the published page"; fails=$((fails + 1)); }
done
for m in $(find corpus -name metadata.txt | sort); do
	d=$(dirname "$m")
	page=$(sed -n 's/^Page: \([^ ]*\) line \([0-9]*\)$/\1/p' "$m")
	line=$(sed -n 's/^Page: \([^ ]*\) line \([0-9]*\)$/\2/p' "$m")
	len=$(wc -l < "$d/launch.sh")
	if ! sed -n "${line},$((line + len - 1))p" "corpus/pages/$page" | cmp -s - "$d/launch.sh"; then
		echo "FAIL $d/launch.sh is not page $page from line $line"; fails=$((fails + 1))
	fi
	"$bin" show "$d" > /dev/null || { echo "FAIL show $d"; fails=$((fails + 1)); }
	n=$((n + 1))
done
[ "$n" -eq 35 ] || { echo "FAIL expected 35 entries, found $n"; fails=$((fails + 1)); }
# the pages themselves, shown whole: every entry parses and normalizes
pe=$("$bin" show --format json corpus/pages/*.txt | grep -c '^      "entry": ')
[ "$pe" -eq 35 ] || { echo "FAIL show of the pages gave $pe entries, want 35"; fails=$((fails + 1)); }
# check reads the pages too, at the pages' own lines: the corpus's findings
# (where a config file the entry names was looked for aside: the page's
# sections, the entry folder's files)
c=$("$bin" check --format gcc corpus/pages/*.txt | sed 's/^[^:]*:[0-9]*:[0-9]*: //; s/(no section `\([^`]*\)` on its page,/(no \1,/' | sort)
g=$(sed 's/^[^:]*:[0-9]*:[0-9]*: //; s/(no file `\([^`]*\)` beside launch.sh,/(no \1,/' tests/golden/check/corpus.gcc | sort)
[ "$c" = "$g" ] || { echo "FAIL check of the pages differs from the corpus findings"; fails=$((fails + 1)); }
echo "$((n - fails)) passed, $fails failed"
[ $fails -eq 0 ]
