# lib.sh: sourced by the shell tests after `set -u`; $1 is SERVELINT, $2
# may be --update. Gives bin, upd, root, the counts with ok/ko/finish,
# golden, and mkhist. A test sets gold= (its folder under tests/golden/).
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
upd=${2:-}
root=$(pwd)
pass=0
fails=0
ok() { pass=$((pass + 1)); }
ko() { echo "FAIL $1"; fails=$((fails + 1)); }
# golden NAME COMMAND...: runs COMMAND in this shell (not in a pipeline's
# subshell, where the counts would be lost), compares its output with
# tests/golden/$gold/NAME (--update writes it first)
golden() {
	name=$1
	shift
	out=$(mktemp)
	"$@" > "$out"
	if [ "$upd" = --update ]; then cp "$out" "$root/tests/golden/$gold/$name"; fi
	if diff -u "$root/tests/golden/$gold/$name" "$out"; then ok; else ko "$name"; fi
	rm -f "$out"
}
# mkhist: $hist, a repository with the history of tests/data/mkrepo.sh
# (removed on exit along with $repo, when a test makes one)
mkhist() {
	hist=$(mktemp -d)
	trap 'rm -rf "$hist" ${repo:-}' EXIT
	sh "$root/tests/data/mkrepo.sh" "$hist" > /dev/null 2>&1 || { echo "FAIL history setup"; exit 1; }
}
finish() {
	echo "$pass passed, $fails failed"
	[ $fails -eq 0 ]
}
