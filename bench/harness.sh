#!/usr/bin/env bash
# bench/harness.sh [SCRIPTS] [RUNS]: `servelint check` of scripts in the
# shape public benchmark harnesses have (a launch script per model and GPU
# that sources one shared library of shell functions, tests its inputs in a
# few conditionals, and starts `vllm serve`), against a bare
# tree-sitter-bash parse of what it reads: each script and, once per
# script, the library it sources. The corpus's entries are one script each;
# a harness's are read once per variant (here 16: four conditionals), each
# reading walking the library's functions again, which is where such
# scripts spent 300x the parse (issue 18's closing notes). Since
# 2026-12-06 the entries of one run share the library's tree
# (parse/shell/shared.c): servelint parses it once, the bare parse still
# once per script, as each script alone needs it. The inputs are
# generated here, in that shape, from no one's text (HARNESS_KEEP=DIR keeps
# them in DIR). SCRIPTS scripts
# (default 40) are checked with -j 1, RUNS times (default 3), in turn with
# the parse; the best CPU time (user + sys) of each and their ratio. Needs
# a release build in ./build (scripts/setup).
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-40}
runs=${2:-3}
bin=${SERVELINT:-build/servelint}
base=${SERVELINT_BASELINE:-build/ts-parse-baseline}
[ -x "$bin" ] && [ -x "$base" ] || { echo "build first: scripts/setup" >&2; exit 2; }
bin=$(realpath "$bin")
# HARNESS_KEEP=DIR: the inputs are written in DIR and kept (to profile them)
if [ -n "${HARNESS_KEEP:-}" ]; then
	work=$HARNESS_KEEP
	mkdir -p "$work"
else
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work/benchmarks/single_node"
lib=$work/benchmarks/bench_lib.sh

# the library: helpers of the kinds harnesses share (input checks, a model
# table as a case, a branch per precision, a readiness poll, a client run)
{
	echo '#!/usr/bin/env bash'
	echo 'export PORT=${PORT:-8888}'
	echo 'require_inputs() {'
	echo '    for name in "$@"; do'
	echo '        if [[ -z "${!name:-}" ]]; then echo "missing $name" >&2; exit 1; fi'
	echo '    done'
	echo '}'
	for f in $(seq 1 24); do
		echo "tune_$f() {"
		echo '    local model="$1"'
		echo '    case "$model" in'
		for m in $(seq 1 30); do
			echo "        org/model-$m-*) export TUNE_${f}_BLOCK=$((m * 16)) ;;"
		done
		echo "        *) export TUNE_${f}_BLOCK=16 ;;"
		echo '    esac'
		echo '    if [[ "$PRECISION" == "fp4" ]]; then'
		echo "        TUNE_${f}_KV=fp8"
		echo '    elif [[ "$PRECISION" == "fp8" ]]; then'
		echo "        TUNE_${f}_KV=auto"
		echo '    else'
		echo "        TUNE_${f}_KV=bf16"
		echo '    fi'
		echo "    echo \"tune $f: \$TUNE_${f}_BLOCK \$TUNE_${f}_KV\""
		echo '}'
	done
	echo 'wait_ready() {'
	echo '    local tries=0'
	echo '    until curl -sf "http://localhost:$PORT/health" > /dev/null; do'
	echo '        tries=$((tries + 1))'
	echo '        if [ "$tries" -gt 600 ]; then echo "server did not start" >&2; exit 1; fi'
	echo '        sleep 1'
	echo '    done'
	echo '}'
	echo 'run_client() {'
	echo '    python3 -m bench_client --port "$PORT" --model "$MODEL" --concurrency "$CONC" \'
	echo '        --input-len "$ISL" --output-len "$OSL" --result "$RESULT_FILE"'
	echo '}'
} > "$lib"

for i in $(seq 1 "$n"); do
	{
		echo '#!/usr/bin/env bash'
		echo 'source "$(dirname "$0")/../bench_lib.sh"'
		echo 'require_inputs MODEL TP CONC ISL OSL RESULT_FILE PRECISION'
		echo 'SPEC_ARGS=()'
		echo 'if [[ "${SPEC:-none}" == "mtp" ]]; then'
		echo "    SPEC_ARGS=(--speculative-config '{\"method\": \"mtp\", \"num_speculative_tokens\": $((i % 4 + 1))}')"
		echo 'fi'
		echo 'if [ "$CONC" -ge 64 ]; then'
		echo '    MAX_SEQS=$((CONC * 2))'
		echo 'else'
		echo '    MAX_SEQS=128'
		echo 'fi'
		echo 'if [[ "${EP:-false}" == "true" ]]; then'
		echo '    EP_ARGS="--enable-expert-parallel"'
		echo 'else'
		echo '    EP_ARGS=""'
		echo 'fi'
		echo 'if [ -n "${MODEL_PATH:-}" ]; then'
		echo '    SERVE_MODEL="$MODEL_PATH"'
		echo 'else'
		echo '    SERVE_MODEL="$MODEL"'
		echo 'fi'
		for f in $(seq 1 24); do
			[ $(((f + i) % 3)) -eq 0 ] && echo "tune_$f \"\$MODEL\""
		done
		echo 'vllm serve "$SERVE_MODEL" --port "$PORT" \'
		echo '    --tensor-parallel-size "$TP" --max-num-seqs "$MAX_SEQS" \'
		echo "    --gpu-memory-utilization 0.9$((i % 5)) --kv-cache-dtype \"\$TUNE_1_KV\" \\"
		echo '    --block-size "$TUNE_1_BLOCK" $EP_ARGS "${SPEC_ARGS[@]}" &'
		echo 'wait_ready'
		echo 'run_client'
	} > "$work/benchmarks/single_node/model${i}_b200.sh"
done

scripts=$(cd "$work" && ls benchmarks/single_node/*.sh)
# what the bare parse reads: each script and the library it sources
floor=()
for s in $scripts; do floor+=("$work/$s" "$lib"); done
bytes=$(cat "${floor[@]}" | wc -c)

cpu_time() {
	local best="" t
	for _ in $(seq 1 "$runs"); do
		t=$( { TIMEFORMAT='%3U %3S'; time "$@" > /dev/null 2>&1; } 2>&1 | awk '{ print $1 + $2 }')
		if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$t; fi
	done
	echo "$best"
}
t_base=$(cpu_time "$base" "${floor[@]}")
t_check=$(cd "$work" && cpu_time "$bin" check --format gcc -j 1 $scripts)
variants=$(cd "$work" && "$bin" show "benchmarks/single_node/model1_b200.sh" 2>/dev/null |
	sed -n 's/^variant 1 of \([0-9]*\).*/\1/p')
awk -v n="$n" -v b="$bytes" -v tb="$t_base" -v tc="$t_check" -v r="$runs" -v v="${variants:-1}" 'BEGIN {
	printf "input: %d harness scripts sourcing one library, %.2f MB read; %s variants each; best CPU time of %d runs\n",
		n, b / 1048576, v, r
	printf "  tree-sitter-bash parse only         %7.3f s\n", tb
	printf "  servelint check --format gcc -j 1   %7.3f s   %.1fx the bare parse\n", tc, tc / tb
}'
