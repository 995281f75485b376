#!/bin/sh
# init.sh SERVELINT: `servelint init` writes a starter .servelint.yaml that
# changes nothing as written and is valid once each example is uncommented,
# and never overwrites a file (a file, a dangling link, one named by -o).
set -u
. "$(dirname "$0")/lib.sh"
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
mkdir "$d/e" "$d/w"
printf 'vllm serve org/m --max-num-seqs 8 --max-num-seqs 8\n' > "$d/e/launch.sh"
(cd "$d/w" && "$bin" init) > "$d/out" 2> "$d/err"
[ $? -eq 0 ] && [ ! -s "$d/out" ] && grep -q '^servelint init: wrote ./.servelint.yaml' "$d/err" && ok || ko "init"
cfg=$d/w/.servelint.yaml
[ -f "$cfg" ] && [ -z "$(grep -v '^#' "$cfg" | grep -v '^$')" ] && ok || ko "not all commented out"
for k in disable severity exclude entries; do grep -q "^# $k: " "$cfg" || grep -q "^# $k:$" "$cfg" && ok || ko "no $k example"; done
# as written it changes nothing: the repeated flag (SL1003, style) is reported
"$bin" check --config "$cfg" -f gcc "$d/e" | grep -q '\[SL1003\]$' && ok || ko "the starter changes what check reports"
# uncommented, every example is valid: SL1003 then disabled, exit 0
sed -e 's/^# \(disable\|severity\|exclude\|entries\):/\1:/' -e 's/^#\(   - name\|     files\)/\1/' "$cfg" > "$d/u.yaml"
[ "$(grep -c '^[a-z]' "$d/u.yaml")" -eq 4 ] && ok || ko "uncommenting: $(grep -c '^[a-z]' "$d/u.yaml") keys"
"$bin" check --config "$d/u.yaml" -f gcc "$d/e" > "$d/out" 2>&1
[ $? -eq 0 ] && [ ! -s "$d/out" ] && ok || { ko "the uncommented starter"; cat "$d/out"; }
# never overwrites
printf 'disable: [SL4002]\n' > "$cfg"
(cd "$d/w" && "$bin" init) 2> "$d/err"
[ $? -eq 2 ] && [ "$(cat "$cfg")" = "disable: [SL4002]" ] && grep -q 'exists: left as it is' "$d/err" && ok || ko "overwrote"
ln -s "$d/nowhere" "$d/e/.servelint.yaml"
"$bin" init "$d/e" 2> /dev/null
[ $? -eq 2 ] && [ ! -e "$d/nowhere" ] && ok || ko "wrote through a dangling link"
rm "$d/e/.servelint.yaml"
"$bin" init -o "$d/u.yaml" 2> /dev/null
[ $? -eq 2 ] && grep -q '^disable: \[SL1003\]$' "$d/u.yaml" && ok || ko "-o over a file"
[ -z "$(ls -A "$d/w" | grep -v '^.servelint.yaml$')" ] && ok || ko "left a temporary file"
# DIR, -o FILE, -o -
"$bin" init "$d/e" 2> /dev/null && [ -f "$d/e/.servelint.yaml" ] && ok || ko "init DIR"
"$bin" init -o - > "$d/out" && cmp -s "$d/out" "$d/e/.servelint.yaml" && ok || ko "-o - is not the file"
"$bin" init -o "$d/x.yaml" 2> /dev/null && cmp -s "$d/x.yaml" "$d/e/.servelint.yaml" && ok || ko "-o FILE"
"$bin" init "$d/nosuch" 2> "$d/err"
[ $? -eq 2 ] && grep -q "nosuch/.servelint.yaml: No such file" "$d/err" && ok || ko "a missing DIR"
"$bin" init a b 2> /dev/null
[ $? -eq 3 ] && ok || ko "two DIRs: usage"
"$bin" init --bogus 2> /dev/null
[ $? -eq 3 ] && ok || ko "unknown option: usage"
"$bin" help init | grep -q 'starter' && ok || ko "help init"
finish
