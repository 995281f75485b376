#!/bin/sh
# forms.sh SERVELINT [--update]: launch forms real harnesses use
# (tests/data/forms/, our own inputs in the style of public benchmark
# suites): here-documents written in steps and holding text the script
# cannot know, claims in header comments and prose, engines beyond the
# four, images whose entrypoint is the engine, harness shell. `show` and
# `check` against outputs read and judged (tests/golden/forms/).
set -u
. "$(dirname "$0")/lib.sh"
gold=forms
d=tests/data/forms

for f in $d/*.sh; do
	n=$(basename "$f" .sh)
	golden "$n.tty" "$bin" show --color never "$f"
	golden "$n.check" "$bin" check --color never --format gcc "$f"
done

# a claim is held to a value only when it is known: --set binds it
golden claims-symbolic-set.check "$bin" check --color never --format gcc --set TP=4 --set DRAFT=3 $d/claims-symbolic.sh

# a C-style loop over a bound --set gives is unrolled
golden cfor-replicas-set.tty "$bin" show --color never --set UNKNOWN_COUNT=2 $d/cfor-replicas.sh

finish
