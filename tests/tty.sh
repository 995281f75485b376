#!/bin/sh
# tty.sh SERVELINT: the terminal text: long source lines cut around the
# finding (as gcc and rustc), carets as long as the token, columns as wide
# as their content (show, rules), plurals, the topology told once.
set -u
. "$(dirname "$0")/lib.sh"
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
# a 900-column line with a finding in its middle
python3 -c "print('vllm serve org/m ' + '--max-model-len 4096 ' * 20 + '--max-num-sqes 64 ' + '--block-size 16 ' * 30)" > "$w/long.sh"
out=$("$bin" check --color never "$w/long.sh" | grep -A2 'SL1001')
wide=$(printf '%s\n' "$out" | awk '{ if (length($0) > m) m = length($0) } END { print m }')
[ "$wide" -le 200 ] && ok || ko "a long line shown $wide columns wide"
printf '%s\n' "$out" | grep -q '^    1 | \.\.\..*--max-num-sqes 64.*\.\.\.$' && ok || ko "no ellipsis around the cut line: $out"
# the caret stands under the flag
line=$(printf '%s\n' "$out" | sed -n 2p)
caret=$(printf '%s\n' "$out" | sed -n 3p)
col=$(printf '%s\n' "$line" | awk '{ print index($0, "--max-num-sqes") }')
[ "$(printf '%s\n' "$caret" | awk '{ print index($0, "^") }')" -eq "$col" ] && ok || ko "the caret is not under the flag"
# SL7006 underlines `vllm` of `--entrypoint vllm \`, SL7008 the whole version
sh tests/data/mkaudit.sh "$w/c" > /dev/null 2>&1
out=$("$bin" audit --color never "$w/c")
printf '%s\n' "$out" | grep -A2 'SL7006\]' | grep -q '^      |                ^~~~$' && ok || ko "SL7006 underline"
printf '%s\n' "$out" | grep -A2 'SL7008\]' | tail -1 | grep -q '[^~]^~~~~~$' && ok || ko "SL7008 underline"
# plurals
printf '%s\n' "$out" | grep -q '(1 error, 6 warnings,' && ok || ko "audit: 1 errors"
printf '%s\n' "$out" | grep -Eq '(^|[^0-9])1 (models|systems|entries)' && ko "audit: a plural of one" || ok
"$bin" audit --html "$w/r.html" "$w/c" > /dev/null
grep -q '<span>1 errors\|<span>models</span>' "$w/r.html" && ko "html: a plural of one" || ok
e1=corpus/deepseek-v4.1-flash/h200-sxm-x8/vllm-tp4-dspark5 e2=corpus/deepseek-v4.1-flash/h200-sxm-x8/vllm-tp4-nospec
"$bin" matrix "$e1" "$e2" | grep -q '^same in both entries' && ok || ko "matrix: same in all 2 entries"
"$bin" matrix "$e1" "$e2" | grep -q 'x1 (4 GPUs); 4 GPUs' && ko "topology repeats itself" || ok
# progress of one entry: "1 of 1 entry compared"
if command -v script > /dev/null 2>&1; then
	script -qec "$bin audit --color never $e1" /dev/null | tr '\r' '\n' > "$w/progress"
	grep -q '^audit: 1 of 1 entry compared' "$w/progress" && ok || { ko "audit progress of one entry"; cat "$w/progress"; }
fi
"$bin" audit --html "$w/one.html" "$e1" > /dev/null
grep -q '1 settings<\|>1 findings suppressed' "$w/one.html" && ko "html: 1 settings, 1 findings" || ok
# columns: show's key never runs into its value; rules' name into its summary
"$bin" show corpus/deepseek-v4-pro/gb300-nvl72/dynamo-trtllm-disagg-5p-dep4-1d-dep16-mtp3 > "$w/show"
n=$(grep -c '^    [a-z][a-z0-9_.]*[a-z0-9_] [^ ]' "$w/show")
[ "$n" -eq 0 ] && ok || ko "show: $n keys run into their value"
grep -q 'trtllm.moe_config.use_low_precision_moe_combine  *true' "$w/show" && ok || ko "show: a long key"
"$bin" rules | grep -q 'connector-and-kv-transfer-config  ' && ok || ko "rules: a long name runs into its summary"
# an empty value shows as ""
printf 'FOO= vllm serve org/m\n' > "$w/a.sh"
printf 'FOO=1 vllm serve org/m\n' > "$w/b.sh"
"$bin" diff "$w/a.sh" "$w/b.sh" | grep -q 'env FOO: "" -> 1' && ok || ko "diff: an empty value"
finish
