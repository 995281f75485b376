#!/bin/sh
# derived.sh SERVELINT [--update]: the rules of limits one setting derives
# from others (SL4011, SL5004), of the load against the running requests
# (SL4012) and of the routing against what the text
# claims (SL6009), on scripts and entries written in the forms of real
# launchers (tests/data/derived/*, each saying in its header what it
# holds). Each one's whole `check` output is compared with
# tests/golden/derived/NAME.gcc, read and judged when written: what must
# fire, what must not, and no other finding.
set -u
. "$(dirname "$0")/lib.sh"
gold=derived
for f in tests/data/derived/*; do
	n=$(basename "$f" .sh)
	golden "$n.gcc" sh -c '"$1" check --no-config --format gcc "$2" || true' _ "$bin" "$f"
done
finish
