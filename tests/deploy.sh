#!/bin/sh
# deploy.sh SERVELINT [--update]: the rules that hold a deployment's services
# against each other (prefill against decode, an unset side through its
# engine's default, SL2001-SL2015; ports and GPUs of one host, SL3008-SL3010; the frontend
# against its workers, SL8001-SL8003) on scripts written in the forms of
# Dynamo's example launchers, SGLang PD and docker runs
# (tests/data/deploy/*.sh, each saying in its header what it holds). Each
# script's findings of those rules are compared with
# tests/golden/deploy/NAME.gcc, read and judged when written; a script
# that must stay clean (one host not proven, memory split on purpose,
# approximate routing) has an empty golden file.
set -u
. "$(dirname "$0")/lib.sh"
gold=deploy
for f in tests/data/deploy/*.sh; do
	n=$(basename "$f" .sh)
	golden "$n.gcc" sh -c '"$1" check --no-config --format gcc "$2" | grep -E "\[SL(20[0-9][0-9]|300[89]|3010|80[0-9][0-9])\]" || true' _ "$bin" "$f"
done
finish
