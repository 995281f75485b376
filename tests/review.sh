#!/bin/sh
# review.sh SERVELINT [--update]: `servelint review` over the history of
# tests/data/mkrepo.sh, whose YAML change brings a new SL4002 (decode's
# memory fraction no longer prefill's): reported by the reviews that span
# that commit, and not repeated by those that start after it (the rename).
set -u
. "$(dirname "$0")/lib.sh"
gold=review
mkhist
rv() { (cd "$hist" && "$bin" review "$@"); }
golden all.tty rv --color never HEAD~7 HEAD
golden yaml.md rv --format markdown HEAD~5 HEAD~3
golden after.tty rv --color never HEAD~3
rv HEAD~7 HEAD > /dev/null
[ $? -eq 1 ] && ok || ko "exit 1 on a new warning"
rv --failure-threshold error HEAD~7 HEAD > /dev/null
[ $? -eq 0 ] && ok || ko "--failure-threshold error"
rv HEAD~3 > /dev/null
[ $? -eq 0 ] && ok || ko "exit 0 when the finding is old"
n=$(rv --format sarif HEAD~4 HEAD~3 | grep -c '"ruleId": "SL4002"')
[ "$n" -eq 1 ] && ok || ko "sarif: $n SL4002 results"
# the pull-request path: machine formats carry repository paths, the
# revision in its own field (defect 4). Uploading-shaped: every SARIF uri
# (results, related places, fixes) names a file of the checkout; the
# provenance names HEAD's commit
head=$(git -C "$hist" rev-parse HEAD)
rv --format sarif HEAD~7 > "$hist.sarif"
n=0; bad=0
for u in $(jq -r '.. | objects | select(has("artifactLocation")) | .artifactLocation.uri' "$hist.sarif"); do
	n=$((n + 1)); [ -f "$hist/$u" ] || { bad=$((bad + 1)); echo "  no such file: $u"; }
done
[ $n -gt 0 ] && [ $bad -eq 0 ] && ok || ko "sarif uris: $bad of $n not in the checkout"
[ "$(jq -r '.runs[0].versionControlProvenance[0].revisionId' "$hist.sarif")" = "$head" ] && ok || ko "sarif versionControlProvenance"
for f in gcc github checkstyle json; do
	rv --format $f "$(git -C "$hist" rev-parse HEAD~7)" "$head" > "$hist.out"
	grep -q "HEAD:\|$head:" "$hist.out" && ko "$f: a revision in a path" || ok
	grep -q 'cat/trt-renamed/gen_config.yaml' "$hist.out" && ok || ko "$f: no repository path"
done
rv --format json HEAD~7 | jq -e --arg h "$head" '.revision == $h and (.findings[0].location.file | startswith("cat/"))' > /dev/null &&
	ok || ko "json: revision member"
# diff REV REV --format json: the revision beside each path, not in it
(cd "$hist" && "$bin" diff --format json HEAD~4 HEAD~3) | jq -e '.entries[0].diff | .a == "cat/trt" and .a_revision == "HEAD~4" and
	(.changes[0].new_origin | .file == "cat/trt/gen_config.yaml" and .revision == "HEAD~3")' > /dev/null && ok || ko "diff json: revision member"
rm -f "$hist.sarif" "$hist.out"
# uncommitted work against a revision, as git diff REV: `diff HEAD` and
# `review HEAD` read the working tree (defect: worktree diff)
sed -i 's/--max-num-seqs 128/--max-num-sqes 128/' "$hist/cat/vllm/launch.sh"
(cd "$hist" && "$bin" diff --color never HEAD) > "$hist.out"
grep -q '^changed: cat/vllm$' "$hist.out" && grep -q '^+++ cat/vllm$' "$hist.out" &&
	grep -q '^1 entry touched: 1 changed' "$hist.out" && ok || { ko "diff HEAD (working tree)"; cat "$hist.out"; }
rv --format gcc HEAD > "$hist.out"
[ $? -eq 1 ] && [ "$(wc -l < "$hist.out")" -eq 1 ] && grep -q '^cat/vllm/launch.sh:29:3: warning: .*--max-num-sqes.*\[SL1001\]$' "$hist.out" &&
	ok || { ko "review HEAD (working tree)"; cat "$hist.out"; }
(cd "$hist/cat" && "$bin" diff --exit-code HEAD -- vllm > /dev/null)
[ $? -eq 1 ] && ok || ko "diff HEAD -- PATHSPEC --exit-code"
# BASE against the working tree is `git diff BASE`: staged work counts as
# unstaged does; an untracked entry does not, until `git add -N` (as git)
git -C "$hist" add cat/vllm/launch.sh
rv --format gcc HEAD | grep -q '^cat/vllm/launch.sh:29:3: .*--max-num-sqes' && ok || ko "review HEAD: staged work"
git -C "$hist" reset -q
mkdir "$hist/cat/untracked" && printf 'vllm serve org/m --max-num-sqes 4\n' > "$hist/cat/untracked/launch.sh"
n=$(rv --format gcc HEAD | grep -c '^cat/untracked/')
[ "$n" -eq 0 ] && [ "$(git -C "$hist" diff HEAD --name-only | grep -c untracked)" -eq 0 ] && ok || ko "review HEAD: an untracked entry ($n)"
git -C "$hist" add -N cat/untracked/launch.sh
rv --format gcc HEAD | grep -q '^cat/untracked/launch.sh:1:18: .*--max-num-sqes' &&
	[ "$(git -C "$hist" diff HEAD --name-only | grep -c untracked)" -eq 1 ] && ok || ko "review HEAD: git add -N"
git -C "$hist" rm -q --cached cat/untracked/launch.sh && rm -rf "$hist/cat/untracked"
git -C "$hist" checkout -q -- cat
(cd "$hist" && "$bin" diff --exit-code HEAD) > "$hist.out"
[ $? -eq 0 ] && grep -q '^0 entries touched' "$hist.out" && ok || ko "diff HEAD, a clean working tree"
rm -f "$hist.out"
# two scripts of one blob in a folder of many, each its own entry, read
# through a library both source that changes: the library's SL9004 names
# the script whose command read the variable, so a reading kept for one
# cannot stand for the other (37ea899: the cache lent q_a.sh's reading to
# q_b.sh, and review told q_b.sh's finding as new, exit 1)
repo=$(mktemp -d)
mkdir -p "$repo/b/s/d"
printf 'wait_ready() {\n  export PORT=8000\n  sleep 1\n}\n' > "$repo/b/lib.sh"
for s in q_a q_b; do
	printf '#!/bin/bash\nsource "$(dirname "$0")/../../lib.sh"\nvllm serve org/model --port $PORT &\nwait_ready\n' > "$repo/b/s/d/$s.sh"
done
gc() { git -C "$repo" -c user.name=t -c user.email=t@t "$@"; }
git -C "$repo" init -q && git -C "$repo" add -A && gc commit -qm one
sed -i 's/sleep 1/sleep 2/' "$repo/b/lib.sh" && gc commit -qam two
(cd "$repo" && "$bin" check --format gcc b/s/d) | grep -c 'SL9004' | grep -qx 2 && ok || ko "one blob: an SL9004 for each script"
(cd "$repo" && "$bin" review --format gcc HEAD~1 HEAD) > "$repo.out"
[ $? -eq 0 ] && [ ! -s "$repo.out" ] && ok || { ko "one blob, two scripts: nothing new"; cat "$repo.out"; }
rm -f "$repo.out"
rv nosuchrev > /dev/null 2>&1
[ $? -eq 2 ] && ok || ko "unknown revision"
rv > /dev/null 2>&1
[ $? -eq 3 ] && ok || ko "no BASE"
rv --format xml HEAD~1 > /dev/null 2>&1
[ $? -eq 3 ] && ok || ko "unknown format"
finish
