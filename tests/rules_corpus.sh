#!/bin/sh
# rules_corpus.sh SERVELINT: for every row of tests/rules_corpus.tsv, the
# corpus entry changed by one token fires the rule at the expected place,
# and the unchanged entry does not fire it. Every rule file has a row, or is
# listed in NO_ROW with why.
set -u
bin=$1
# rules no corpus entry can show with a one-token change
# SL2011, SL2012, SL2015, SL3009: tests/rules_corpus.tsv says why, in
# place of their rows;
# SL2007: the disaggregated corpus entries with a tokenizer mode run Dynamo,
# whose prefill takes token IDs (not compared; tests/check.sh holds both
# forms);
# SL7xxx hold entries against each other: tests/audit.sh plants each in a
# catalogue of corpus copies
# SL0001 is an entry that cannot be read (tests/check.sh and the rule's examples);
# SL0002 reads servelint's own disable comments, which no corpus entry has
# (tests/check.sh)
# SL1014: no corpus entry runs a known release that deprecates a flag it
# could be given (the SGLang entries name no version or a dev build, and
# vLLM 0.27.0 deprecates none of its recorded spellings); tests/fix.sh
# and the rule's examples show it
# SL4012: no corpus entry states the concurrency or the per-rank batch it is
# tuned at (tests/derived.sh holds it on our own headers in the real forms)
# SL0005, SL0006: a corpus entry has at most a few undecided conditionals,
# and one token cannot add the 64 variants they need (their examples and
# tests/check.sh)
# SL5005: no corpus entry serves a model whose facts give its MTP modules
# (DeepSeek-V3/R1); tests/plan.sh holds it with a config of our own
NO_ROW="SL0001 SL0002 SL0005 SL0006 SL1014 SL2007 SL2011 SL2012 SL2015 SL3009 SL4012 SL5005 SL7001 SL7002 SL7003 SL7004 SL7005 SL7006 SL7007 SL7008"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tab=$(printf '\t')
pass=0
fails=0
while IFS="$tab" read -r rule entry file line from to want; do
	case "$rule" in ''|'#'*) continue ;; esac
	orig=corpus/$entry
	if "$bin" check --no-config --format gcc "$orig" | grep -q "\[$rule\]"; then
		echo "FAIL $rule fires on $entry as published"; fails=$((fails + 1)); continue
	fi
	d=$work/$rule-$line
	mkdir -p "$d"
	cp "$orig"/* "$d"/
	# replace on that line only (no regex: the text is matched as is)
	awk -v n="$line" -v a="$from" -v b="$to" 'NR == n { i = index($0, a); if (i) $0 = substr($0, 1, i - 1) b substr($0, i + length(a)) } { print }' \
		"$orig/$file" > "$d/$file"
	cmp -s "$orig/$file" "$d/$file" && { echo "FAIL $rule: '$from' not on line $line of $entry/$file"; fails=$((fails + 1)); continue; }
	if "$bin" check --no-config --format gcc "$d" | grep -q "^$d/$want: .*\[$rule\]"; then
		pass=$((pass + 1))
	else
		echo "FAIL $rule: not at $want:"; "$bin" check --no-config --format gcc "$d" | grep "\[$rule\]"
		fails=$((fails + 1))
	fi
done < tests/rules_corpus.tsv
for f in rules/SL*.yaml; do
	id=$(basename "$f" | cut -d- -f1)
	grep -q "^$id$tab" tests/rules_corpus.tsv || echo " $NO_ROW " | grep -q " $id " ||
		{ echo "FAIL $id has no corpus row"; fails=$((fails + 1)); }
done
echo "$pass passed, $fails failed"
[ $fails -eq 0 ]
