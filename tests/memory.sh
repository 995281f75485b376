#!/bin/sh
# memory.sh SERVELINT: peak memory stays flat in the number of entries
# (issue 18), for the commands that write as they go: `check` in the
# formats written a finding at a time (gcc, tty, json, sarif) and `show`
# (tty and json). Each runs over 1,200 and then 6,000 generated entries
# (one-line vllm scripts, 100 to a folder, with a misspelled flag: one
# finding each), and its peak RSS (GNU time's maxrss) may grow by at most
# 1.5 MB between them (320 bytes an entry). Before check wrote its
# findings as they came it grew by 12.6 MB from 1,500 to 12,000 such
# entries, json by 64 MB, SARIF by 98 MB; SARIF's occurrence table is what
# grows now (at most 32 bytes a finding). At 1,200 entries show's spool is
# at its most already (1 MiB of report in memory). Skipped (77) without GNU time, and under a
# sanitizer (its quarantine keeps what is freed).
set -u
. "$(dirname "$0")/lib.sh"
[ -x /usr/bin/time ] || { echo "GNU time (/usr/bin/time) not found: skipped"; exit 77; }
if grep -q __asan_init "$bin" 2>/dev/null; then echo "built with a sanitizer: skipped"; exit 77; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/g1"
i=1
while [ $i -le 100 ]; do
	printf '#!/bin/sh\nvllm serve org/m-%d --tensor-paralel-size 2 --max-model-len 4096 %s\n' $i \
		'--gpu-memory-utilization 0.9 --max-num-seqs 256 --port 8000 --enable-prefix-caching' > "$work/g1/e$i.sh"
	i=$((i + 1))
done
g=2
while [ $g -le 60 ]; do
	cp -r "$work/g1" "$work/g$g"
	g=$((g + 1))
done
cd "$work"
small=$(seq -f 'g%g' 1 12)
large=$(seq -f 'g%g' 1 60)
# peak ARGS...: the maxrss (KB) of servelint ARGS (its output aside)
peak() {
	/usr/bin/time -f '%M' -o "$work/rss" "$bin" "$@" > /dev/null 2>&1
	tail -1 "$work/rss"
}
for cmd in "check --format gcc" "check --format json" "check --format sarif" "show --format json" \
	"show --color never"; do
	# shellcheck disable=SC2086 # the words of cmd and the folders
	a=$(peak $cmd $small)
	# shellcheck disable=SC2086
	b=$(peak $cmd $large)
	case "$a$b" in *[!0-9]*|'') ko "$cmd: no figure ($a, $b)"; continue ;; esac
	echo "$cmd: $a KB over 1,200 entries, $b KB over 6,000"
	if [ $((b - a)) -le 1536 ]; then ok; else ko "$cmd grew by $((b - a)) KB"; fi
done
finish
