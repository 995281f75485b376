#!/usr/bin/env bash
# bench/shellcheck.sh [COPIES] [RUNS]: servelint against ShellCheck on the
# same launch scripts. COPIES copies of the corpus (default 10: 350
# scripts, 0.5 MB); `servelint check --format gcc` and `shellcheck -f gcc`
# of the very same list, and the bare tree-sitter-bash parse of it
# (build/ts-parse-baseline, the ceiling of anything that parses with it),
# run in turn (servelint, shellcheck, parse, servelint, ...) RUNS times
# (default 5) after one warm-up. Prints each one's median wall and CPU time
# and the median of the per-run ratios ShellCheck / servelint, that is how
# many times servelint's throughput is ShellCheck's (issue 18: >= 40x; the
# bare parse is the ceiling, about 50x). `bench/shellcheck.sh 1 1` is the
# quick mode the tests run; without shellcheck it says so and exits 0.
# Needs a release build in ./build (scripts/setup); SERVELINT,
# SERVELINT_BASELINE and SHELLCHECK name other binaries.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
copies=${1:-10}
runs=${2:-5}
bin=${SERVELINT:-$(pwd)/build/servelint}
base=${SERVELINT_BASELINE:-$(pwd)/build/ts-parse-baseline}
sc=${SHELLCHECK:-$(command -v shellcheck || true)}
[ -x "$bin" ] && [ -x "$base" ] || { echo "build first: scripts/setup" >&2; exit 2; }
if [ -z "$sc" ] || [ ! -x "$sc" ]; then
	echo "shellcheck: not installed (apt-get install shellcheck): no ratio"
	exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
corpus_copies "$work" "$copies"
(cd "$work" && find . -name launch.sh | sed 's|^\./||' | sort) > "$work/list"
cd "$work"
# each process run directly (no shell between), timed with wait4's rusage
python3 - "$runs" "$bin" "$sc" "$base" <<'PY'
import os, subprocess, sys, time, statistics
runs = int(sys.argv[1])
bin_, sc, base = sys.argv[2:5]
files = open("list").read().split()
size = sum(os.path.getsize(f) for f in files)
cmds = {"servelint check": [bin_, "check", "--format", "gcc"] + files,
        "shellcheck": [sc, "-f", "gcc"] + files,
        "bare parse": [base] + files}
def one(cmd):
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, _, ru = os.wait4(p.pid, 0)
    return time.perf_counter() - t0, ru.ru_utime + ru.ru_stime
for c in cmds.values():
    one(c)
t = {n: [] for n in cmds}
for _ in range(runs):
    for n, c in cmds.items():
        t[n].append(one(c))
print(f"{len(files)} launch scripts, {size / 1e6:.2f} MB; median of {runs} runs, in turn")
for n in cmds:
    w = statistics.median(x[0] for x in t[n])
    u = statistics.median(x[1] for x in t[n])
    print(f"  {n:16} wall {w:8.3f} s   cpu {u:8.3f} s   {size / 1e6 / max(w, 1e-9):7.2f} MB/s")
for n in ("servelint check", "bare parse"):
    rw = statistics.median(s[0] / a[0] for s, a in zip(t["shellcheck"], t[n]))
    rc = statistics.median(s[1] / max(a[1], 1e-9) for s, a in zip(t["shellcheck"], t[n]))
    goal = "   (target >= 40x: " + ("met" if rw >= 40 else "NOT met") + ")" if n == "servelint check" else ""
    print(f"  ShellCheck / {n:15} wall {rw:6.1f}x   cpu {rc:6.1f}x{goal}")
PY
