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

# a tensor-parallel claim under data-parallel attention: the GPUs, TP x DP
# (TP=4 with DP attention: 1 x 4, no finding), held to the command where
# both are known (TP=2: 1 x 2 with DP attention, 2 without, both wrong);
# unbound, the data-parallel size is not known and the claim is not held
golden claims-dp-attention-tp4.check "$bin" check --color never --format gcc --set TP=4 --set DP_ATTENTION=true $d/claims-dp-attention.sh
golden claims-dp-attention-tp2.check "$bin" check --color never --format gcc --set TP=2 $d/claims-dp-attention.sh
golden claims-dp-attention-tp2-dp.check "$bin" check --color never --format gcc --set TP=2 --set DP_ATTENTION=true $d/claims-dp-attention.sh
# ... with no fix: under DP attention the text's TP may be the GPUs (2), not 1
golden claims-dp-attention-tp2-dp-nofix.tty "$bin" check --color never --set TP=2 --set DP_ATTENTION=true $d/claims-dp-attention.sh

# a C-style loop over a bound --set gives is unrolled
golden cfor-replicas-set.tty "$bin" show --color never --set UNKNOWN_COUNT=2 $d/cfor-replicas.sh

finish
