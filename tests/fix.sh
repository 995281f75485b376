#!/bin/sh
# fix.sh SERVELINT: `check --format diff` and `check --fix`: golden diffs
# (read and judged) that `git apply --check` takes; --fix gives what the
# diff says, and again changes nothing; the fixed findings are gone and no
# other appears; every rule that declares a fix turns its bad example into
# its good one; one-token mutations of every corpus entry (a misspelled
# flag, a repeated flag, a misspelled engine-file key, a header claim, a
# page's script and YAML section) are fixed back to the entry byte for
# byte, or not touched; a tie between two spellings is never fixed; files
# that cannot be fixed are errors that write nothing.
# Regenerate the goldens with: tests/fix.sh SERVELINT --update
set -u
. "$(dirname "$0")/lib.sh"
gold=fix
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
data=tests/data/fix

# ---- golden diffs, applied by git apply and by --fix ----------------------
for n in repeats.sh repeats3.sh claims.sh continuation.sh renames.sh heredoc heredoc-tabs k8s moves.sh; do
	golden "$n.diff" "$bin" check -f diff "$data/$n"
	git apply --check "tests/golden/fix/$n.diff" && ok || ko "$n: git apply --check"
	# --fix on a copy gives what the diff gives
	rm -rf "$d/w" && mkdir -p "$d/w/$data" && cp -r "$data/$n" "$d/w/$data/"
	(cd "$d/w" && git init -q . && git apply "$root/tests/golden/fix/$n.diff") || ko "$n: git apply"
	mv "$d/w/$data/$n" "$d/applied" && cp -r "$data/$n" "$d/w/$data/"
	(cd "$d/w" && "$bin" check --fix -q "$data/$n" > /dev/null 2>&1)
	diff -r "$d/applied" "$d/w/$data/$n" > /dev/null && ok || ko "$n: --fix is not the diff"
	# idempotent: a second run has nothing to fix and changes nothing
	cp -r "$d/w/$data/$n" "$d/once"
	[ -z "$(cd "$d/w" && "$bin" check -f diff "$data/$n" 2>/dev/null)" ] && ok || ko "$n: a diff after --fix"
	(cd "$d/w" && "$bin" check --fix -q "$data/$n" > /dev/null 2>&1)
	diff -r "$d/once" "$d/w/$data/$n" > /dev/null && ok || ko "$n: a second --fix changed it"
	# the fixed findings are gone, and nothing else changed among them
	"$bin" check -f json "$data/$n" | jq -r '[.findings[] | select(.fix_description | not) | .rule + " " + .message] | sort | .[]' > "$d/want"
	(cd "$d/w" && "$bin" check -f json "$data/$n") | jq -r '[.findings[] | .rule + " " + .message] | sort | .[]' > "$d/got"
	diff "$d/want" "$d/got" && ok || ko "$n: findings after --fix"
	rm -rf "$d/applied" "$d/once"
done
# what is not fixed: a tie (--hort: --host or --port), and the key on the
# line an expansion wrote in a here-document
"$bin" check -f json "$data/repeats.sh" | jq -e '[.findings[] | select(.message | contains("--hort"))] | length == 1 and (.[0].did_you_mean != null) and (.[0].fix_description == null)' > /dev/null &&
	ok || ko "a tie is a hint, not a fix"
"$bin" check -f json "$data/heredoc" | jq -e '[.findings[] | select(.message | contains("max_batch_sizee"))] | length == 1 and (.[0].fix_description == null)' > /dev/null &&
	ok || ko "an expanded here-document line is not fixed"

# a deprecated switch pointing to a flag of another meaning, and a removed
# switch replaced by a flag with a value: named, never rewritten
"$bin" check -f json "$data/renames.sh" | jq -e '[.findings[] | select(.message | contains("--enable-piecewise-cuda-graph") or contains("--enable-flashmla"))] | length == 2 and all(.[]; .fix_description == null) and (map(.rule) | sort == ["SL1001", "SL1014"])' > /dev/null &&
	ok || ko "renames: a switch is not renamed"
# without the entry's release, no deprecation is said nor renamed
sed 's/SGLang 0\.5\.13/SGLang/' "$data/renames.sh" > "$d/norel.sh"
[ -z "$("$bin" check -f gcc "$d/norel.sh" | grep 'SL1014')" ] && [ -z "$("$bin" check -f diff "$d/norel.sh")" ] &&
	ok || ko "renames: no release, no SL1014"
# a removed flag whose replacement is a rename (SL1001): the recorded
# releases have none (every removed flag's replacement takes another kind
# of value), so a copy of the facts removes --nsa-decode-backend in 0.5.13
mkdir "$d/facts" && cp grammars/facts/*.tsv "$d/facts/" && cp -r grammars/hardware grammars/models "$d/facts/"
awk -F '\t' 'BEGIN {OFS = "\t"} $1 == "--nsa-decode-backend" {s = "0001"; while (length(s) < length($2)) s = s "0"; $2 = s} {print}' grammars/facts/sglang.tsv > "$d/facts/sglang.tsv"
SERVELINT_FACTS=$d/facts "$bin" check -f json "$data/renames.sh" | jq -e '[.findings[] | select(.message | contains("--nsa-decode-backend"))] | length == 1 and .[0].rule == "SL1001" and .[0].fix_description == "replace `--nsa-decode-backend` with `--dsa-decode-backend`"' > /dev/null &&
	ok || ko "SL1001: a removed flag renamed is fixed"

# hints further than a typo: real scripts' --grpc-port (sglang sidecar
# scripts of ai-dynamo/dynamo; a flag from SGLang 0.5.16 on, here under
# 0.5.13) and --disaggregation-mode encode (its multimodal examples) were 3
# and 2 edits from the hint, and no typos
"$bin" check -f json "$data/hints.sh" | jq -e '[.findings[] | select(.did_you_mean or (.message | contains("--grpc-port")))] | length == 2 and all(.[]; .fix_description == null)' > /dev/null &&
	ok || ko "a hint that is no typo is no fix"
[ -z "$("$bin" check -f diff "$data/hints.sh")" ] && ok || ko "hints.sh: a diff"

# the moves (SL1010, SL1011): what moved reaches the program that reads
# it (the engine's settings, mpirun's options), nothing else changes
cp "$data/moves.sh" "$d/moves.sh"
"$bin" check --fix -q "$d/moves.sh" > /dev/null 2>&1
sig() { "$bin" show -f json "$1" | jq -c '[.entries[0].services[] | [.name, ([.settings[] | .key + "=" + (.value | tostring)] | sort | join(" ")), ([.wrappers[] | select(.kind == "mpirun") | .detail.options // {} | keys[]] | join(" ")), ([.env[]? | select(.via == "mpirun") | .name] | join(" "))]]'; }
sig "$d/moves.sh" > "$d/sig"
printf '%s\n' '[["aggregated-1","limits.max_seqs=64 model=org/m1 parallel.tensor=8","",""],["aggregated-2","limits.max_model_len=8192 model=org/m2 server.port=8001 vllm.enable_prefix_caching=true","",""],["aggregated-3","model=org/m3 parallel.tensor=4 server.port=8002","--bind-to","NCCL_DEBUG"],["aggregated-4","model=org/m4 parallel.tensor=2 server.port=8003","--allow-run-as-root",""]]' > "$d/sig.want"
diff "$d/sig.want" "$d/sig" && ok || ko "moves: what the fixed script runs"
bash -n "$d/moves.sh" && ok || ko "moves: the fixed script is not shell"
# found, and not moved: the engine given the flag already, an unquoted
# value of unknown word count, an engine inside a bash -c string, a value
# on the next line, a second -n for mpirun, -x A given twice
"$bin" check -f json "$data/nomoves.sh" | jq -e '[.findings[] | select(.rule == "SL1010" or .rule == "SL1011")] | length == 7 and all(.[]; .fix_description == null)' > /dev/null &&
	ok || ko "nomoves: found, not fixed"
[ -z "$("$bin" check -f diff "$data/nomoves.sh")" ] && ok || ko "nomoves.sh: a diff"
# a move is one fix of two replacements, in JSON and SARIF alike
"$bin" check -f json "$data/moves.sh" | jq -e '[.findings[] | select(.rule == "SL1010")][0] | .fix_description == "move `--tensor-parallel-size \"$TP\"` after the engine'"'"'s arguments (line 12)" and (.replacements | length == 2) and .replacements[0].replacement == "" and .replacements[1].replacement == " \\\n    --tensor-parallel-size \"$TP\""' > /dev/null &&
	ok || ko "json: a move's two replacements"
"$bin" check -f sarif "$data/moves.sh" | jq -e '[.runs[0].results[] | select(.ruleId == "SL1011")] | length == 3 and all(.[]; .fixes[0].artifactChanges[0].replacements | length == 2)' > /dev/null &&
	ok || ko "sarif: a move's two replacements"

# the fix column of docs/rules.md is what each rule declares
for id in $("$bin" rules | awk '/^SL[0-9]/ {print $1}'); do
	want=$("$bin" rules "$id" | sed -n 's/^Fix (\([a-z_]*\)).*/\1/p')
	got=$(grep "^| $id |" docs/rules.md | awk -F '|' '{gsub(/ /, "", $5); print $5}')
	[ "$want" = "$got" ] || ko "docs/rules.md: $id's fix is '$got', the rule's '$want'"
done
ok

# ---- the formats: JSON replacements, SARIF fixes --------------------------
"$bin" check -f json "$data/repeats.sh" | jq -e '[.findings[] | select(.replacements)] | length == 5 and all(.[]; .replacements[0] | has("line") and has("col") and has("end_line") and has("end_col") and has("replacement"))' > /dev/null &&
	ok || ko "json replacements"
# a repeat alone on its line: from the blank before the previous line's
# backslash to the flag's end (the line's own ` \` takes that place)
"$bin" check -f json "$data/repeats.sh" | jq -e '[.findings[] | select(.rule == "SL1003")][0].replacements[0] == {"file": "tests/data/fix/repeats.sh", "line": 6, "col": 22, "end_line": 7, "end_col": 22, "replacement": ""}' > /dev/null &&
	ok || ko "json: a deleted line"
"$bin" check -f sarif "$data/heredoc" | jq -e '[.runs[0].results[] | select(.fixes)] | length == 2 and all(.[]; .fixes[0].artifactChanges[0].artifactLocation.uri == "tests/data/fix/heredoc/launch.sh" and (.fixes[0].artifactChanges[0].replacements[0].deletedRegion | has("startLine") and has("endColumn")))' > /dev/null &&
	ok || ko "sarif fixes"

# ---- --fix=RULES, --fix-rules, usage --------------------------------------
cp "$data/repeats.sh" "$d/r.sh"
"$bin" check --fix=SL1003 -q "$d/r.sh" > /dev/null 2>&1
[ "$(grep -c -- '--max-num-seqs 64' "$d/r.sh")" -eq 1 ] && grep -q 'fp9' "$d/r.sh" && grep -q 'utilisation' "$d/r.sh" &&
	ok || ko "--fix=SL1003 fixes only SL1003"
n=$("$bin" check -f diff --fix-rules SL1007,SL1001 "$data/repeats.sh" | grep -c '^+ ')
[ "$n" -eq 2 ] && ok || ko "--fix-rules SL1007,SL1001: $n lines"
"$bin" check --fix=SL9999 "$d/r.sh" > /dev/null 2>&1; [ $? -eq 3 ] && ok || ko "--fix=SL9999: exit 3"
"$bin" check --fix=SL2002 "$d/r.sh" > /dev/null 2>&1; [ $? -eq 3 ] && ok || ko "--fix of a rule with no fix: exit 3"
# after --fix, the reports tell what is left, and the exit is 0 when nothing is
printf 'vllm serve org/m --max-num-seqs 64 --max-num-seqs 64\n' > "$d/one.sh"
out=$("$bin" check --fix -f gcc "$d/one.sh" 2> "$d/err"); rc=$?
[ $rc -eq 0 ] && [ -z "$out" ] && grep -q '^servelint check: fixed 1 finding in 1 file$' "$d/err" &&
	[ "$(cat "$d/one.sh")" = 'vllm serve org/m --max-num-seqs 64' ] && ok || ko "--fix: exit $rc, $out"
# standard input has no file to fix: an error, located, exit 2
printf 'vllm serve org/m --max-num-seqs 64 --max-num-seqs 64\n' | "$bin" check --fix - > /dev/null 2> "$d/err"
[ $? -eq 2 ] && grep -q 'not a file on disk' "$d/err" && ok || ko "--fix on standard input"
# a file that cannot be replaced (its folder is not writable) is left whole
if [ "$(id -u)" -ne 0 ]; then
	mkdir "$d/ro" && cp "$d/r.sh" "$d/ro/launch.sh" && cp "$d/r.sh" "$d/before" && chmod a-w "$d/ro"
	"$bin" check --fix -q "$d/ro" > /dev/null 2> "$d/err"; rc=$?
	chmod u+w "$d/ro"
	[ $rc -eq 2 ] && cmp -s "$d/before" "$d/ro/launch.sh" && [ -z "$(ls -A "$d/ro" | grep -v '^launch.sh$')" ] &&
		ok || ko "an unwritable folder: exit $rc"
fi
# a symbolic link: the file it names is fixed, the link stays
printf 'vllm serve org/m --max-num-seqs 64 --max-num-seqs 64\n' > "$d/target.sh" && ln -s target.sh "$d/link.sh"
"$bin" check --fix -q "$d/link.sh" > /dev/null 2>&1
[ -L "$d/link.sh" ] && [ "$(cat "$d/target.sh")" = 'vllm serve org/m --max-num-seqs 64' ] && ok || ko "--fix through a link"

# SL1013: vLLM serves the positional model; the --model it ignores goes
# with its line, and only for vLLM (SGLang has no positional model to win)
printf '#!/bin/sh\nvllm serve org/m \\\n  --model org/other \\\n  --max-num-seqs 64\n' > "$d/twice.sh"
"$bin" check --fix -q "$d/twice.sh" > /dev/null 2>&1
[ "$(cat "$d/twice.sh")" = "$(printf '#!/bin/sh\nvllm serve org/m \\\n  --max-num-seqs 64')" ] && ok || ko "SL1013 fix: $(cat "$d/twice.sh")"
"$bin" check -q "$d/twice.sh" > /dev/null 2>&1 && ok || ko "SL1013 fixed: still a finding"

# ---- every rule with a fix: its bad example becomes its good one ---------
nrules=0
for id in $("$bin" rules | awk '$4 == "fix" {print $1}'); do
	nrules=$((nrules + 1))
	"$bin" rules "$id" | awk -v b="$d/bad.sh" -v g="$d/good.sh" '/^Bad:$/ {m = 1; next} /^Good:$/ {m = 2; next} m == 1 {print > b} m == 2 {print > g}'
	sed -i '$d' "$d/bad.sh"
	"$bin" rules "$id" | grep -q '^Fix (' || ko "$id: rules ID does not say it fixes"
	"$bin" check --fix -q "$d/bad.sh" > /dev/null 2>&1
	cmp -s "$d/bad.sh" "$d/good.sh" && ok || { ko "$id: the fixed bad example is not the good one"; diff "$d/bad.sh" "$d/good.sh"; }
done
[ $nrules -ge 7 ] && ok || ko "$nrules rules with a fix"
"$bin" rules SL2002 | grep -q '^Fix: none' && ok || ko "rules ID: no fix"

# ---- corpus mutations -----------------------------------------------------
# one token changed in a copy of each entry; a fix must give the entry
# back byte for byte (fixed), or leave it as mutated (not fixed)
tried=0 fixed=0 wrong=0
mutate() {  # mutate KIND ENTRY FILE SED: runs the mutation, --fix, compares
	kind=$1 entry=$2 file=$3
	rm -rf "$d/m" && mkdir -p "$d/m" && cp -r "$entry" "$d/m/e"
	sed -i "$4" "$d/m/e/$file"
	cmp -s "$entry/$file" "$d/m/e/$file" && return  # the pattern was not there
	tried=$((tried + 1))
	echo "$kind" >> "$d/kinds.tried"
	cp "$d/m/e/$file" "$d/mutated"
	(cd "$d/m" && "$bin" check -f diff e > "$d/m.diff" 2> /dev/null)
	(cd "$d/m" && "$bin" check --fix -q e > /dev/null 2>&1)
	if cmp -s "$entry/$file" "$d/m/e/$file"; then
		fixed=$((fixed + 1))
		echo "$kind" >> "$d/kinds.fixed"
		# the diff says the same as --fix did
		(cd "$d/m" && cp "$d/mutated" "e/$file" && git apply "$d/m.diff" 2> /dev/null) && cmp -s "$entry/$file" "$d/m/e/$file" ||
			{ wrong=$((wrong + 1)); echo "  $kind $entry/$file: the diff is not the fix"; }
	elif [ -n "${FIX_VERBOSE:-}" ] && cmp -s "$d/mutated" "$d/m/e/$file"; then
		echo "  $kind $entry/$file: not fixed"; diff "$entry/$file" "$d/mutated" | sed -n 2p
	elif ! cmp -s "$d/mutated" "$d/m/e/$file"; then
		wrong=$((wrong + 1))
		echo "  $kind $entry/$file: fixed into something else:"
		diff "$entry/$file" "$d/m/e/$file" | head -5
	fi
}
# a move (SL1010, SL1011) puts the argument where it belongs, not where
# it was: the mutation is fixed when the rule's findings are gone, every
# other finding is the entry's own (line numbers apart), and the entry
# runs what it did (`servelint diff` finds no difference); left as
# mutated, not fixed; anything else, wrong
mutate_move() {  # mutate_move KIND RULE ENTRY FILE SED
	kind=$1 rule=$2 entry=$3 file=$4
	rm -rf "$d/m" && mkdir -p "$d/m" && cp -r "$entry" "$d/m/e"
	sed -i "$5" "$d/m/e/$file"
	cmp -s "$entry/$file" "$d/m/e/$file" && return
	# the pattern was no misplaced argument (a docker option of its own)
	(cd "$d/m" && "$bin" check -f gcc e 2> /dev/null) | grep -q "\[$rule\]" || return
	tried=$((tried + 1))
	echo "$kind" >> "$d/kinds.tried"
	cp "$d/m/e/$file" "$d/mutated"
	(cd "$d/m" && "$bin" check -f diff e > "$d/m.diff" 2> /dev/null)
	(cd "$d/m" && "$bin" check --fix -q e > /dev/null 2>&1)
	if cmp -s "$d/mutated" "$d/m/e/$file"; then
		[ -n "${FIX_VERBOSE:-}" ] && echo "  $kind $entry/$file: not fixed"
		return
	fi
	norm() { "$bin" check -f json "$1" 2> /dev/null | jq -r '.findings[] | .rule + " " + .message' | sed 's/line [0-9]*/line N/g; s/[^ ]*launch.sh:[0-9:]*//g' | sort; }
	norm "$entry" > "$d/f.want"
	(cd "$d/m" && norm e) > "$d/f.got"
	if diff "$d/f.want" "$d/f.got" > /dev/null && "$bin" diff --exit-code "$entry" "$d/m/e" > /dev/null 2>&1; then
		fixed=$((fixed + 1))
		echo "$kind" >> "$d/kinds.fixed"
		cp "$d/m/e/$file" "$d/fixed"
		(cd "$d/m" && cp "$d/mutated" "e/$file" && git apply "$d/m.diff" 2> /dev/null) && cmp -s "$d/fixed" "$d/m/e/$file" ||
			{ wrong=$((wrong + 1)); echo "  $kind $entry/$file: the diff is not the fix"; }
	else
		wrong=$((wrong + 1))
		echo "  $kind $entry/$file: fixed into something else:"
		diff "$d/f.want" "$d/f.got" | head -5
		"$bin" diff "$entry" "$d/m/e" | head -5
	fi
}
for e in $(find corpus -name launch.sh | sort); do
	dir=${e%/launch.sh}
	# a long flag, one letter dropped (the fourth after --)
	for f in $(grep -o -- ' --[a-z][a-z-]\{11,\}' "$e" | sort -u | head -3); do
		mutate misspell "$dir" launch.sh "0,/ $f\\b/s// $(echo "$f" | sed 's/^\(--...\)./\1/')/"
	done
	# a flag and its value on a line of their own, given twice
	l=$(grep -n -- '^ *--[a-z-]* [0-9a-z.]* \\$' "$e" | head -1 | cut -d: -f1)
	[ -n "$l" ] && mutate repeat "$dir" launch.sh "${l}p"
	# an engine file's top-level key, one letter dropped
	for y in "$dir"/*.yaml; do
		[ -f "$y" ] || continue
		k=$(grep -o '^[a-z][a-z_]\{9,\}:' "$y" | head -1)
		[ -n "$k" ] && mutate yaml-key "$dir" "${y##*/}" "0,/^$k/s//$(echo "$k" | sed 's/^\(...\)./\1/')/"
	done
	# the same flag and value given three times, the last ending the
	# command or not: one run deletes both repeats
	l=$(grep -n -- '^ *--[a-z-]* [0-9a-z.]* \\$' "$e" | head -1 | cut -d: -f1)
	[ -n "$l" ] && mutate repeat3 "$dir" launch.sh "${l}p;${l}p"
	# a blank after the first backslash that ends a line
	l=$(grep -n -- ' \\$' "$e" | head -1 | cut -d: -f1)
	[ -n "$l" ] && mutate backslash "$dir" launch.sh "${l}s/\\\\\$/\\\\ /"
	# a switch given `true`
	l=$(grep -n -- '^ *--trust-remote-code \\$' "$e" | head -1 | cut -d: -f1)
	[ -n "$l" ] && mutate stray "$dir" launch.sh "${l}s/--trust-remote-code/--trust-remote-code true/"
	# a header claim of tensor parallelism one more than it says
	t=$(grep -o '^#.*\bTP[0-9]\+\b' "$e" | head -1 | grep -o 'TP[0-9]\+$')
	[ -n "$t" ] && mutate claim "$dir" launch.sh "0,/^\\(#.*\\)\\b$t\\b/s//\\1TP$((${t#TP} + 1))/"
	# a comment quoting --max-num-seqs N (SL6003) one more than it says
	q=$(grep -o '^#.*--max-num-seqs [0-9]\+' "$e" | head -1 | grep -o '[0-9]\+$')
	[ -n "$q" ] && mutate quoted "$dir" launch.sh "0,/^\\(#.*--max-num-seqs \\)$q\\b/s//\\1$((q + 1))/"
	# header claims of expert and data parallelism, and of draft tokens,
	# one more than they say (SL6005, SL6004, SL6002)
	t=$(grep -o '^#.*\bEP[0-9]\+\b' "$e" | head -1 | grep -o 'EP[0-9]\+$')
	[ -n "$t" ] && mutate claim-ep "$dir" launch.sh "0,/^\\(#.*\\)\\b$t\\b/s//\\1EP$((${t#EP} + 1))/"
	t=$(grep -o '^#.*\bDP[0-9]\+\b' "$e" | head -1 | grep -o 'DP[0-9]\+$')
	[ -n "$t" ] && mutate claim-dp "$dir" launch.sh "0,/^\\(#.*\\)\\b$t\\b/s//\\1DP$((${t#DP} + 1))/"
	q=$(grep -o '^#.*(\([0-9]\+\) draft tokens' "$e" | head -1 | grep -o '[0-9]\+ draft' | grep -o '[0-9]\+')
	[ -n "$q" ] && mutate claim-draft "$dir" launch.sh "0,/^\\(#.*(\\)$q draft tokens/s//\\1$((q + 1)) draft tokens/"
	# a choice misspelled (SL1007)
	mutate choice "$dir" launch.sh "0,/--kv-cache-dtype fp8\\b/s//--kv-cache-dtype fp88/"
	# vLLM's positional model, and an --model it ignores (SL1013)
	l=$(grep -n '^vllm serve [^ ]* \\$' "$e" | head -1 | cut -d: -f1)
	[ -n "$l" ] && mutate model-twice "$dir" launch.sh "${l}a\\    --model org/ignored \\\\"
	# an engine flag and its number moved before the image (SL1010)
	dl=$(grep -n 'docker run ' "$e" | head -1 | cut -d: -f1)
	if [ -n "$dl" ]; then
		m=$(tail -n +"$dl" "$e" | grep -n -o -- ' --[a-z][a-z-]* [0-9]\+\( \|$\)' | head -1)
		[ -n "$m" ] && l=$(( ${m%%:*} + dl - 1 )) && p=$(echo "${m#*:}" | sed 's/ $//') && mutate_move docker-move SL1010 "$dir" launch.sh "${l}s/$p\\( \\|\$\\)/\\1/;${dl}s/docker run /docker run$p /"
	fi
	# mpirun options moved after the program, to the command's end (SL1011)
	ml=$(grep -n '^[^#]*mpirun ' "$e" | head -1 | cut -d: -f1)
	if [ -n "$ml" ]; then
		el=$(tail -n +"$ml" "$e" | grep -n -v '\\$' | head -1 | cut -d: -f1)
		el=$((el + ml - 1))
		for o in '--allow-run-as-root' '-n [0-9]\+'; do
			w=$(sed -n "${ml}p" "$e" | grep -o -- " $o" | head -1)
			[ -n "$w" ] && mutate_move mpirun-move SL1011 "$dir" launch.sh "${ml}s/$w//;${el}s/\\( &\\)\\?\$/$w\\1/"
		done
	fi
done
echo "  corpus mutations: $tried tried, $fixed fixed back, $wrong wrong"
for k in misspell repeat repeat3 backslash stray yaml-key claim quoted claim-ep claim-dp claim-draft choice model-twice docker-move mpirun-move; do
	echo "    $k: $(grep -c "^$k\$" "$d/kinds.tried") tried, $(grep -c "^$k\$" "$d/kinds.fixed") fixed"
done
[ $wrong -eq 0 ] && ok || ko "$wrong corpus mutations fixed wrongly"
for k in quoted claim-ep claim-draft choice model-twice docker-move mpirun-move; do
	[ "$(grep -c "^$k\$" "$d/kinds.fixed")" -ge 1 ] && ok || ko "no $k mutation fixed"
done
[ $tried -ge 100 ] && [ $((fixed * 2)) -ge $tried ] && ok || ko "only $fixed of $tried corpus mutations fixed"

# ---- a published page: a script's flag and an embedded YAML section ------
page=corpus/pages/002_527771f1a7637570.txt
mkdir -p "$d/p" && cp "$page" "$d/p/page.txt"
sed -i '158s/^enable_lm_head_tp_in_adp:/enable_lm_head_tp_in_adpp:/; 0,/--router-mode kv/s//--routr-mode kv/' "$d/p/page.txt"
[ "$(cmp -l "$page" "$d/p/page.txt" | wc -l)" -gt 0 ] || ko "page mutation"
(cd "$d/p" && "$bin" check -f diff page.txt > page.diff 2> /dev/null)
[ "$(grep -c '^+[^+]' "$d/p/page.diff")" -eq 2 ] && grep -q '^+enable_lm_head_tp_in_adp: true$' "$d/p/page.diff" &&
	ok || { ko "page: the diff"; cat "$d/p/page.diff"; }
(cd "$d/p" && git init -q . && git apply page.diff) && cmp -s "$page" "$d/p/page.txt" && ok || ko "page: git apply gives the page back"

# ---- review: a suggestion for a fix on a line the change wrote ------------
r="$d/rv"
mkdir -p "$r/e" && printf '#!/bin/bash\nvllm serve org/model \\\n    --tensor-parallel-size 4 \\\n    --max-num-seqs 64\n' > "$r/e/launch.sh"
(cd "$r" && git init -q . && git add . && git -c user.name=t -c user.email=t@t commit -qm a &&
	sed -i 's/tensor-parallel-size/tensor-paralel-size/' e/launch.sh && git -c user.name=t -c user.email=t@t commit -qam b)
(cd "$r" && "$bin" review --format markdown HEAD~1 HEAD) > "$d/review.md"
grep -q '^  ```suggestion$' "$d/review.md" && grep -q '^      --tensor-parallel-size 4 \\$' "$d/review.md" && ok ||
	{ ko "review: a suggestion block"; cat "$d/review.md"; }
# a repeat alone on a line the change wrote: its deletion (the previous
# line's continuation and the flag) is the line's, an empty suggestion
r="$d/rv2"
mkdir -p "$r/e" && printf '#!/bin/bash\nvllm serve org/model \\\n    --max-num-seqs 64 \\\n    --port 8000\n' > "$r/e/launch.sh"
(cd "$r" && git init -q . && git add . && git -c user.name=t -c user.email=t@t commit -qm a &&
	sed -i '3a\    --max-num-seqs=64 \\' e/launch.sh && git -c user.name=t -c user.email=t@t commit -qam b)
(cd "$r" && "$bin" review --format markdown HEAD~1 HEAD) > "$d/review.md"
grep -A3 'delete the repeated `--max-num-seqs=64` (line 4):' "$d/review.md" | tr '\n' '|' | grep -q '|  ```suggestion|  ```|' && ok ||
	{ ko "review: a deleted line's suggestion"; cat "$d/review.md"; }
finish
