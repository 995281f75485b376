#!/bin/sh
# gen.sh: the engine-facts generator (grammars/gen/facts.py). Its extract
# stage on our own excerpts of each engine's declaration style
# (tests/data/gen/, against expected/), its derive stage on their raw facts,
# and that the committed per-surface facts (grammars/facts/*.json) are what
# derive makes of the committed raw facts, byte for byte.
# Takes SERVELINT (unused) like the other shell tests.
# Regenerate the expected outputs with: tests/gen.sh SERVELINT --update
set -u
upd=${2:-}
py=${PYTHON:-python3}
gen=grammars/gen/facts.py
d=tests/data/gen
pass=0
fails=0
grep -v '^#' $d/cases.txt | {
	while read -r tree surface; do
		out=$(mktemp)
		"$py" $gen extract --surface "$surface" --tree "$d/$tree" --version 1.0 --repo "example/$tree" \
			--commit 0000000 > "$out"
		if [ "$upd" = --update ]; then cp "$out" "$d/expected/$tree-$surface.json"; fi
		if diff -u "$d/expected/$tree-$surface.json" "$out"; then pass=$((pass + 1)); else
			echo "FAIL extract $tree $surface"; fails=$((fails + 1)); fi
		rm -f "$out"
	done
	echo "$pass $fails" > "${TMPDIR:-/tmp}/gen.$$"
}
read -r pass fails < "${TMPDIR:-/tmp}/gen.$$"
rm -f "${TMPDIR:-/tmp}/gen.$$"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$py" $gen derive --raw $d/raw --out "$tmp"
if [ "$upd" = --update ]; then cp "$tmp"/*.json "$tmp"/*.tsv $d/expected/derived/; fi
if diff -ru $d/expected/derived "$tmp"; then pass=$((pass + 1)); else echo "FAIL derive"; fails=$((fails + 1)); fi
if "$py" $gen derive --check; then pass=$((pass + 1)); else
	echo "FAIL grammars/facts/*.json differ from what derive makes of grammars/facts/raw/"; fails=$((fails + 1)); fi
# releases are ordered as PEP 440 orders versions: 1.3 (1.3.0) after its release candidates
if "$py" -c 'import sys; sys.path.insert(0, "grammars/gen"); from facts import vkey
vs = ["0.4.6", "0.4.6.post1", "0.4.10", "1.0.0rc6", "1.0.0", "1.3.0rc3", "1.3.0rc24", "1.3", "1.3.1"]
sys.exit(0 if sorted(reversed(vs), key=vkey) == vs else 1)'; then pass=$((pass + 1)); else
	echo "FAIL version order (facts.py vkey)"; fails=$((fails + 1)); fi
# every raw facts file is a release recorded in releases.json, with its commit
if "$py" - <<'PY'; then pass=$((pass + 1)); else echo "FAIL raw facts vs releases.json"; fails=$((fails + 1)); fi
import json, os, sys
recs = {(r["surface"], r["version"]): r for r in json.load(open("grammars/gen/releases.json"))}
bad = 0
for fn in sorted(os.listdir("grammars/facts/raw")):
    raw = json.load(open(os.path.join("grammars/facts/raw", fn)))
    r = recs.get((raw["surface"], raw["version"]))
    if not r or r["commit"] != raw.get("commit") or r["repo"] != raw.get("repo"):
        print(f"{fn}: not the release recorded in grammars/gen/releases.json", file=sys.stderr)
        bad += 1
sys.exit(1 if bad else 0)
PY
# every action class a recorded release's flags use is one the generator
# read (argparse's own, or defined in the files read): an action not read
# is taken as taking one value, the mistake that typed SGLang 0.5.13's
# switch --stream-output (DeprecatedStoreTrueAction) as valued
if "$py" - <<'PY'; then pass=$((pass + 1)); else echo "FAIL raw facts with unread actions"; fails=$((fails + 1)); fi
import json, os, sys
bad = 0
for fn in sorted(os.listdir("grammars/facts/raw")):
    raw = json.load(open(os.path.join("grammars/facts/raw", fn)))
    if raw.get("unread_actions"):
        print(f"{fn}: action classes not read: {', '.join(raw['unread_actions'])}", file=sys.stderr)
        bad += 1
sys.exit(1 if bad else 0)
PY
echo "$pass passed, $fails failed"
[ $fails -eq 0 ]
