#!/bin/sh
# matrix.sh SERVELINT [--update]: `servelint matrix` against outputs read
# and judged (tests/golden/matrix/): every DeepSeek V4.1 Flash variant of
# the corpus as markdown, one system's variants for a terminal, CSV and
# JSON; the exit statuses and the bad inputs.
set -u
. "$(dirname "$0")/lib.sh"
gold=matrix
f=corpus/deepseek-v4.1-flash
golden flash-all.md "$bin" matrix --format markdown $f/*/*/
golden h200.tty "$bin" matrix --color never $f/h200-sxm-x8/*/
golden mi355x.csv "$bin" matrix --format csv $f/mi355x-x8/*/
golden vera-rubin-spec.json "$bin" matrix --format json --only 'spec.*' --only 'parallel.*' $f/vera-rubin-nvl72/*/
# --all puts the same keys in the table: more rows, no summary
a=$("$bin" matrix --all --color never $f/h200-sxm-x8/*/ | wc -l)
s=$("$bin" matrix --color never $f/h200-sxm-x8/*/ | grep -c '^  ')
d=$("$bin" matrix --color never $f/h200-sxm-x8/*/ | grep -vc '^  \|^same in all')
[ "$a" -eq $((s + d)) ] && ok || ko "--all rows ($a vs $s + $d)"
"$bin" matrix --all --color never $f/h200-sxm-x8/*/ | grep -q '^same in all' && ko "--all summary" || ok
# exit statuses: 1 on a difference with --exit-code, 0 when the same
"$bin" matrix --exit-code $f/h200-sxm-x8/*/ > /dev/null
[ $? -eq 1 ] && ok || ko "--exit-code on differences"
"$bin" matrix --exit-code --only 'model.*' $f/h200-sxm-x8/*/ > /dev/null
[ $? -eq 0 ] && ok || ko "--exit-code when the same"
"$bin" matrix --only 'model.*' --color never $f/h200-sxm-x8/*/ | grep -q '^no difference between the 3 entries' && ok || ko "same message"
# a whole published page: one column per entry, named page:LINE
p=../shared/catalogue/000_a3b24a2c279fc8de.txt
[ -f "$p" ] || p=corpus/pages/000_a3b24a2c279fc8de.txt
n=$("$bin" matrix --format csv "$p" | head -1 | tr -d '\r' | tr ',' '\n' | grep -c '^000_a3b24a2c279fc8de.txt:[0-9]*$')
[ "$n" -eq 20 ] && ok || ko "page columns: $n, not 20"
# bad input: a missing entry (2), one entry only, an unknown format (3)
"$bin" matrix $f/h200-sxm-x8/vllm-tp4-dspark5 $f/nosuch > /dev/null 2>&1
[ $? -eq 2 ] && ok || ko "missing entry"
"$bin" matrix $f/h200-sxm-x8/vllm-tp4-dspark5 > /dev/null 2>&1
[ $? -eq 3 ] && ok || ko "one entry"
"$bin" matrix --format xml $f/h200-sxm-x8/*/ > /dev/null 2>&1
[ $? -eq 3 ] && ok || ko "unknown format"
# a script with undecided conditionals: a column per variant (ENTRY#K),
# and one script alone is enough when it has several
T=$(mktemp)
trap 'rm -f "$T" "$T.csv"' EXIT
"$bin" matrix --format csv tests/data/scripts/cond.sh 2>&1 | tr -d '\r' > "$T.csv"
[ $? -eq 0 ] && head -1 "$T.csv" | grep -q 'cond.sh#1,cond.sh#2,cond.sh#3,cond.sh#4,cond.sh#5,cond.sh#6$' &&
	grep -q '^aggregated,limits.max_seqs,yes,512,128,256,512,128,256$' "$T.csv" && ok || ko "variants as columns: $(head -3 "$T.csv")"
finish
