#!/bin/sh
# log.sh SERVELINT [--update]: `servelint log` over the history that
# tests/data/mkrepo.sh builds (fixed names and dates: the same commit ids
# every run), against outputs read and judged (tests/golden/log/); renames
# followed, reformat-only commits shown or hidden, the bad inputs.
set -u
. "$(dirname "$0")/lib.sh"
gold=log
mkhist
lg() { (cd "$hist" && "$bin" log "$@"); }
golden trt-renamed.tty lg --color never cat/trt-renamed
golden vllm.tty lg --color never cat/vllm
golden vllm.md lg --format markdown cat/vllm
n=$(lg --color never --no-reformat cat/vllm | grep -c 'reformatted only')
[ "$n" -eq 0 ] && ok || ko "--no-reformat left $n"
n=$(lg --color never cat/vllm | grep -c '^commit ')
[ "$n" -eq 4 ] && ok || ko "cat/vllm: $n commits, not 4 (creation, reformat, alias swap, flag change)"
lg --rev HEAD~4 --color never cat/trt | grep -q 'YAML change' && ko "--rev HEAD~4 sees a later commit" || ok
# parse once per object id: on a clone with a revert, cat/vllm's five
# commits ask for 8 sides; the revert brings back the alias swap's object,
# so 4 distinct objects and 4 parses (8 without the cache)
repo=$(mktemp -d)
git clone -q "$hist" "$repo/c" && (cd "$repo/c" && git -c user.name=T -c user.email=t@e revert --no-edit HEAD~4 > /dev/null 2>&1 &&
	git -c user.name=T -c user.email=t@e commit -q --allow-empty -m "empty commit")
s=$(cd "$repo/c" && "$bin" log --stats cat/vllm 2>&1 > /dev/null)
[ "$s" = "servelint log: 8 entry lookups, 4 distinct objects, 4 parsed" ] && ok || ko "log --stats: $s"
n=$(cd "$repo/c" && "$bin" log --color never cat/vllm | grep -c '^commit ')
[ "$n" -eq 5 ] && ok || ko "cat/vllm after the revert: $n commits, not 5"
# a file inside an entry follows that entry's history (defect 2)
for f in cat/vllm/launch.sh cat/trt-renamed/gen_config.yaml; do
	lg --color never "$f" > "$hist.f"
	lg --color never "${f%/*}" > "$hist.e"
	cmp -s "$hist.f" "$hist.e" && [ "$(grep -c '^commit ' "$hist.f")" -ge 3 ] && ok || ko "log $f: not its entry's history"
done
rm -f "$hist.f" "$hist.e"
# a folder of entries, the top too: every entry's history under it, each
# commit with what it did to each entry (never "path not found")
golden top.tty lg --color never .
(cd "$hist/cat" && "$bin" log --oneline --no-reformat .) > "$hist.f" 2>&1
lg --oneline --no-reformat cat > "$hist.e"
[ "$(sed -n 1p "$hist.f")" = "6cb53877fc99 new entry (added: cat/new)" ] && [ "$(wc -l < "$hist.f")" -eq 6 ] &&
	cmp -s "$hist.f" "$hist.e" && ok || { ko "log of a folder of entries"; cat "$hist.f"; }
lg --format json -n 1 . | jq -e '.commits | length == 1 and .[0].entries[0].status == "added" and .[0].entries[0].path == "cat/new"' > /dev/null &&
	ok || ko "log --format json of a folder"
rm -f "$hist.f" "$hist.e"
# PATH is from the current folder, as git takes it (defect 11)
(cd "$hist/cat" && "$bin" log --color never vllm) > "$hist.f" 2>&1
lg --color never cat/vllm > "$hist.e"
cmp -s "$hist.f" "$hist.e" && ok || { ko "log from a subfolder"; cat "$hist.f"; }
rm -f "$hist.f" "$hist.e"
# a comment-only commit is labelled apart from a change of what runs; -n,
# --oneline (defect 26)
(cd "$repo/c" && sed -i '3s/--max-num-seqs [0-9]*/--max-num-seqs 96/' cat/vllm/launch.sh &&
	git -c user.name=T -c user.email=t@e commit -qam "comment only") || ko "comment-only setup"
(cd "$repo/c" && "$bin" log --color never -n 1 cat/vllm) > "$hist.f"
[ "$(grep -c '^commit ' "$hist.f")" -eq 1 ] && grep -q '^  claims changed (the command is the same)$' "$hist.f" &&
	grep -q 'claim limits.max_seqs (comment): 256 -> 96' "$hist.f" && ok || { ko "comment-only commit"; cat "$hist.f"; }
(cd "$repo/c" && "$bin" log --oneline cat/vllm) > "$hist.f"
[ "$(wc -l < "$hist.f")" -eq 6 ] && head -1 "$hist.f" | grep -q '^[0-9a-f]\{12\} comment only (claims changed (the command is the same))$' &&
	grep -q '^[0-9a-f]\{12\} real flag change (changed)$' "$hist.f" && ok || { ko "--oneline"; cat "$hist.f"; }
# diff and review label it as log does (task: claims changed beyond log)
(cd "$repo/c" && "$bin" diff --color never HEAD~1 HEAD) > "$hist.f"
grep -q '^claims changed (the command is the same): cat/vllm$' "$hist.f" && ok || { ko "diff REV REV: claims changed"; cat "$hist.f"; }
(cd "$repo/c" && "$bin" review --color never HEAD~1 HEAD) > "$hist.f"
grep -q '^claims changed (the command is the same): cat/vllm$' "$hist.f" && ok || { ko "review: claims changed"; cat "$hist.f"; }
(cd "$repo/c" && "$bin" review --format markdown HEAD~1 HEAD) > "$hist.f"
grep -q '^- \*\*claims changed (the command is the same)\*\* `cat/vllm`$' "$hist.f" && ok || ko "review markdown: claims changed"
(cd "$repo/c" && "$bin" diff --color never HEAD~1:cat/vllm HEAD:cat/vllm) > "$hist.f"
[ "$(sed -n 3p "$hist.f")" = "claims changed (the command is the same)" ] && ok || { ko "diff A B: claims changed"; cat "$hist.f"; }
(cd "$repo/c" && "$bin" diff --format json HEAD~1 HEAD) | jq -e '.entries[0] | .claims_only and .diff.claims_only' > /dev/null &&
	ok || ko "diff json: claims_only"
(cd "$repo/c" && "$bin" diff --format json HEAD~2 HEAD~1) | jq -e '.entries[0] | (.claims_only | not) and (.diff.claims_only | not)' > /dev/null &&
	ok || ko "diff json: claims_only false on a change of what runs"
(cd "$repo/c" && "$bin" log --color never -n 1 cat/vllm) | grep -c 'claims changed' | grep -qx 1 && ok || ko "log: claims changed said twice"
lg --color never -n 2 cat/vllm > "$hist.f"
[ "$(grep -c '^commit ' "$hist.f")" -eq 2 ] && [ "$(grep -c '^$' "$hist.f")" -eq 1 ] && ok || ko "-n 2 and a blank line between commits"
# a key glob of `diff REV REV` that matches nothing is told, and an entry
# whose change the filter hides is never "reformatted only"
(cd "$hist" && "$bin" diff --color never --only 'zzz*' HEAD~5 HEAD~4) > "$hist.f" 2> "$hist.e"
grep -q "^servelint diff: warning: --only 'zzz\*' matched no key$" "$hist.e" && ok || { ko "diff REV REV: an unmatched --only"; cat "$hist.e"; }
grep -q '^no change in the keys shown: cat/vllm$' "$hist.f" && ! grep -q '^reformatted only' "$hist.f" && ok ||
	{ ko "diff REV REV --only: a hidden change called reformatted only"; cat "$hist.f"; }
(cd "$hist" && "$bin" diff --color never --only 'limits.*' HEAD~5 HEAD~4) 2> "$hist.e" > /dev/null
[ ! -s "$hist.e" ] && ok || { ko "diff REV REV: a matching --only warned"; cat "$hist.e"; }
rm -f "$hist.e"
# machine formats never glue the revision to the path: every "file", "a"
# and "b" of log's JSON is a repository path, the commit beside it
lg --format json cat/vllm > "$hist.f"
jq -e '[.. | objects | (.file?, .a?, .b?) | strings | select(test("^[0-9a-f]{7,40}:"))] | length == 0' "$hist.f" > /dev/null &&
	jq -e '[.. | objects | select(has("file") and has("revision"))] | length > 0' "$hist.f" > /dev/null &&
	ok || { ko "log json: a revision glued to a path"; grep -m3 '"[0-9a-f]*:' "$hist.f"; }
rm -f "$hist.f"
# a library one folder up, sourced by a script of a folder of many and by
# the only script of its folder (not named launch.sh): a commit that
# changes only the library is in both histories, and a reading kept from
# a later commit (the unrelated C) names the library at its own commit in
# JSON, not the later one's (log json named lib.sh "<C's id>:lib.sh")
lr=$(mktemp -d)
mkdir -p "$lr/m" "$lr/one"
printf 'start() {\n  vllm serve org/m1 --port 8000 "$@"\n}\n' > "$lr/lib.sh"
printf '#!/bin/bash\nsource "$(dirname "$0")/../lib.sh"\nstart --max-num-seqs 8\n' > "$lr/m/q1.sh"
printf '#!/bin/bash\nvllm serve org/m2 --max-num-seqs 8\n' > "$lr/m/q2.sh"
cp "$lr/m/q1.sh" "$lr/one/serve.sh"
lc() { git -C "$lr" -c user.name=t -c user.email=t@t "$@"; }
git -C "$lr" init -q && git -C "$lr" add -A && lc commit -qm A
sed -i 's/8000/8001/' "$lr/lib.sh" && lc commit -qam B
echo x > "$lr/README" && git -C "$lr" add README && lc commit -qm C
sed -i 's/seqs 8/seqs 16/' "$lr/m/q1.sh" "$lr/one/serve.sh" && lc commit -qam D
for p in m/q1.sh one/serve.sh; do
	(cd "$lr" && "$bin" log --oneline "$p") > "$lr.out"
	[ "$(cut -d' ' -f2- "$lr.out" | tr '\n' ' ')" = "D (changed) B (changed) A (added) " ] && ok ||
		{ ko "log $p: a commit of its library alone"; cat "$lr.out"; }
done
(cd "$lr" && "$bin" log --oneline m/q2.sh) | grep -c . | grep -qx 1 && ok || ko "log m/q2.sh: a sibling's commits"
b=$(git -C "$lr" rev-parse HEAD~2)
(cd "$lr" && "$bin" log --format json m/q1.sh) | jq -e --arg b "$b" '[.. | objects | select(.file? == "lib.sh")] |
	length == 2 and any(.revision == $b)' > /dev/null && ok || ko "log json: a library read at a later commit"
rm -rf "$lr" "$lr.out"
lg cat/nosuch > /dev/null 2>&1
[ $? -eq 2 ] && ok || ko "path missing at HEAD"
lg --rev nosuchrev cat/vllm > /dev/null 2>&1
[ $? -eq 2 ] && ok || ko "unknown revision"
(cd /tmp && "$bin" log cat/vllm > /dev/null 2>&1)
[ $? -eq 2 ] && ok || ko "not a repository"
lg > /dev/null 2>&1
[ $? -eq 3 ] && ok || ko "no PATH"
finish
