# bench/lib.sh: the data sets the benches share, sourced by them (run from
# the repository's top). Each copy of corpus/ is a folder c1..cN of WORK,
# so that N copies are N times the same entries under other names.

# corpus_copies WORK N: N copies of corpus/ (its pages too) in WORK/c1..cN
corpus_copies() {
	for i in $(seq 1 "$2"); do
		mkdir -p "$1/c$i"
		cp -r corpus/. "$1/c$i/"
	done
}

# copies_for_mb MB: how many copies hold MB megabytes of launch scripts
# (at least one: MB 0 is the quick mode of tests/bench.sh)
copies_for_mb() {
	per_copy=$(find corpus -name launch.sh -exec cat {} + | wc -c)
	n=$(( ($1 * 1024 * 1024 + per_copy - 1) / per_copy ))
	[ "$n" -ge 1 ] || n=1
	echo "$n"
}
