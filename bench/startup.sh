#!/usr/bin/env bash
# bench/startup.sh [RUNS] [quick]: what a process costs before and after its
# input. `servelint check --format gcc` of one small corpus script (477
# bytes), `servelint --help`, and a bare tree-sitter-bash parse of the same
# script (build/ts-parse-baseline), each against `true`, interleaved, RUNS
# times (default 51) after one warm-up: the median wall and CPU time of
# each. Then, unless `quick` or without valgrind, the instructions of each
# process (callgrind, whole process). The issue's targets: check <= 3 ms
# wall and <= 10 M instructions. Needs a release build in ./build
# (scripts/setup); SERVELINT and SERVELINT_BASELINE name other binaries.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-51}
quick=${2:-}
bin=${SERVELINT:-$(pwd)/build/servelint}
base=${SERVELINT_BASELINE:-$(pwd)/build/ts-parse-baseline}
[ -x "$bin" ] && [ -x "$base" ] || { echo "build first: scripts/setup" >&2; exit 2; }
small=corpus/kimi-k3/b300-x8/sglang-tp8-nospec/launch.sh

names=("check SMALL" "--help" "bare parse SMALL" "true")
cmds=("$bin check --format gcc $small" "$bin --help" "$base $small" "true")
# each command run directly (no shell between), timed with wait4's rusage
python3 - "$runs" "${names[@]}" -- "${cmds[@]}" <<'PY'
import os, subprocess, sys, time, statistics
runs = int(sys.argv[1])
sep = sys.argv.index("--")
names, cmds = sys.argv[2:sep], [c.split() for c in sys.argv[sep + 1:]]
def one(cmd):
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, _, ru = os.wait4(p.pid, 0)
    return (time.perf_counter() - t0) * 1e3, (ru.ru_utime + ru.ru_stime) * 1e3
for c in cmds:
    one(c)
wall = [[] for _ in cmds]
cpu = [[] for _ in cmds]
for _ in range(runs):
    for i, c in enumerate(cmds):
        w, u = one(c)
        wall[i].append(w)
        cpu[i].append(u)
print(f"start-up: median of {runs} runs, interleaved (ms, fork and exec included)")
for i, n in enumerate(names):
    w = statistics.median(wall[i])
    extra = f"   (target 3 ms: {'met' if w <= 3 else 'not met'})" if i == 0 else ""
    print(f"  {n:18} wall {w:7.3f}   cpu {statistics.median(cpu[i]):7.3f}{extra}")
PY
if [ "$quick" != quick ] && command -v valgrind > /dev/null; then
	echo "instructions (callgrind, whole process):"
	for i in 0 1 2 3; do
		ir=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null ${cmds[$i]} 2>&1 >/dev/null |
			sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
		printf '  %-18s %8.2f M%s\n' "${names[$i]}" "$(awk -v n="$ir" 'BEGIN { print n / 1e6 }')" \
			"$( [ "$i" = 0 ] && awk -v n="$ir" 'BEGIN { print (n <= 10e6 ? "   (target 10 M: met)" : "   (target 10 M: not met)") }')"
	done
fi
