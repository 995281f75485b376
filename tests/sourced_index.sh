#!/bin/sh
# sourced_index.sh SERVELINT: the index of what each script blob sources,
# kept across runs in <common git dir>/servelint/sourced-index
# (src/source/git/sourced_index.c). Every run here is held to a run with
# SERVELINT_NO_INDEX=1 (no index read or written), output and exit status:
# a warm index, one truncated, damaged, of another format or version, a
# git folder where it cannot be written, a linked worktree and a bare
# repository; and the case where a stale index would be a silent wrong
# answer: scripts that start to source the library after the index was
# written (a changed blob, a new script in a folder the index knows quiet)
# are found when the library changes again.
set -u
. "$(dirname "$0")/lib.sh"
repo=$(mktemp -d)
trap 'rm -rf "$repo" "$repo.wt" "$repo.bare" "$repo.elsewhere" "$repo.out" "$repo.want" "$repo.good"' EXIT
idx=$repo/.git/servelint/sourced-index
gc() { git -c user.name=t -c user.email=t@t commit -qam "$1"; }
mkdir -p "$repo/benchmarks/single_node" "$repo/other" "$repo/quiet/a/b"
printf '#!/usr/bin/env bash\nGPU_MEM_UTIL=0.9\nPORT=8888\n' > "$repo/benchmarks/benchmark_lib.sh"
printf '#!/usr/bin/env bash\nsource "$(dirname "$0")/../benchmark_lib.sh"\nvllm serve org/llama --port "$PORT" --gpu-memory-utilization "$GPU_MEM_UTIL" &\n' \
	> "$repo/benchmarks/single_node/llama_fp8_h100_vllm.sh"
printf '#!/usr/bin/env bash\nvllm serve org/gemma --port 8000 &\n' > "$repo/benchmarks/single_node/gemma_bf16_h100_vllm.sh"
printf '#!/usr/bin/env bash\nvllm serve org/phi --port 8000 --gpu-memory-utilization 0.9 &\n' > "$repo/other/launch.sh"
printf '#!/usr/bin/env bash\nvllm serve org/qwen --port 8000 &\n' > "$repo/quiet/a/b/launch.sh"
(cd "$repo" && git init -q && git add -A && gc one && sed -i 's/0.9/0.85/' benchmarks/benchmark_lib.sh && gc "lib: memory") ||
	ko "repository setup"

# run DIR CMD...: the output and exit status of servelint CMD in DIR
run() { (cd "$1" && shift && "$bin" "$@" 2>&1; echo "exit $?"); }
# same NAME CMD...: CMD run as it comes and with no index give one answer
same() {
	name=$1
	shift
	run "$repo" "$@" > "$repo.out"
	SERVELINT_NO_INDEX=1 run "$repo" "$@" > "$repo.want"
	cmp -s "$repo.want" "$repo.out" && ok || { ko "$name: $*"; diff -u "$repo.want" "$repo.out"; }
}

SERVELINT_NO_INDEX=1 run "$repo" diff --color never HEAD~1 HEAD > "$repo.want"
[ ! -e "$repo/.git/servelint" ] && ok || ko "SERVELINT_NO_INDEX: an index written"
grep -q '^changed: benchmarks/single_node/llama_fp8_h100_vllm.sh$' "$repo.want" && ! grep -q 'other\|quiet' "$repo.want" &&
	ok || { ko "the library's change"; cat "$repo.want"; }
same "cold" diff --color never HEAD~1 HEAD
[ -s "$idx" ] && ok || ko "no index written"
cp "$idx" "$repo.good"
same "warm" diff --color never HEAD~1 HEAD
cmp -s "$idx" "$repo.good" && ok || ko "a run that learned nothing rewrote the index"
same "warm review" review --color never HEAD~1 HEAD
same "warm review, json" review --format json HEAD~1 HEAD
same "warm log" log --oneline --color never .
same "warm log of the script" log --color never benchmarks/single_node/llama_fp8_h100_vllm.sh
ls "$repo/.git/servelint" | grep -qv '^sourced-index$' && ko "a temporary file left" || ok

# an index that does not hold is ignored whole (the blobs read, as with
# none) and written anew
damaged() {
	what=$1
	same "index $what" diff --color never HEAD~1 HEAD
	cmp -s "$idx" "$repo.good" && ok || ko "index $what: not written anew"
}
head -c 100 "$repo.good" > "$idx"
damaged truncated
cp "$repo.good" "$idx" && printf '\377' | dd of="$idx" bs=1 seek=60 conv=notrunc 2> /dev/null
damaged "one byte changed"
head -c "$(wc -c < "$repo.good")" /dev/zero > "$idx"
damaged zeroed
: > "$idx"
damaged empty
cp "$repo/.git/index" "$idx"
damaged "of another format (git's index)"
cat "$repo.good" "$repo.good" > "$idx"
damaged "longer than it says"
# the checksum right but the version another (a servelint whose scanner
# finds other things): ignored for its version alone
if command -v python3 > /dev/null 2>&1; then
	# reheader GOOD OUT FIELD: GOOD with the header's byte FIELD changed
	# (none for -1) and the checksum written for it
	reheader() {
		python3 - "$@" << 'EOF'
import struct, sys
d = bytearray(open(sys.argv[1], "rb").read())
f = int(sys.argv[3])
if f >= 0:
    d[f] ^= 1
def checksum(p):
    m = (1 << 64) - 1
    h = (0x736c7372636964 ^ len(p)) & m
    i = 0
    while i + 8 <= len(p):
        h = ((h ^ struct.unpack_from("<Q", p, i)[0]) * 0x9e3779b97f4a7c15) & m
        h ^= h >> 31
        i += 8
    while i < len(p):
        h = ((h ^ p[i]) * 0x100000001b3) & m
        i += 1
    return h ^ (h >> 29)
struct.pack_into("<Q", d, len(d) - 8, checksum(bytes(d[:-8])))
open(sys.argv[2], "wb").write(d)
EOF
	}
	# the checksum computed here is the index's (else the fields below
	# would be refused for it, not for themselves)
	reheader "$repo.good" "$repo.out" -1
	cmp -s "$repo.good" "$repo.out" && ok || ko "the test's checksum is not the index's"
	# format, scanner and walk versions, object id size, libgit2's version, the size limit
	for field in 8 12 14 16 20 24; do
		reheader "$repo.good" "$idx" $field
		damaged "header byte $field changed, its checksum right"
	done
fi

# where it cannot be written: the command works, and answers the same
rm -rf "$repo/.git/servelint" && : > "$repo/.git/servelint"
same "the index's folder a file" diff --color never HEAD~1 HEAD
[ -f "$repo/.git/servelint" ] && [ ! -s "$repo/.git/servelint" ] && ok || ko "the file in the folder's place changed"
rm -f "$repo/.git/servelint"
mkdir "$repo.elsewhere" && ln -s "$repo.elsewhere" "$repo/.git/servelint"
same "the index's folder a symbolic link" diff --color never HEAD~1 HEAD
[ -z "$(ls "$repo.elsewhere")" ] && ok || ko "an index written through a symbolic link"
rm -f "$repo/.git/servelint"
if [ "$(id -u)" != 0 ]; then
	chmod a-w "$repo/.git"
	same "a read-only git folder" diff --color never HEAD~1 HEAD
	[ ! -e "$repo/.git/servelint" ] && ok || ko "read-only git folder: written"
	chmod u+w "$repo/.git"
fi

# a linked worktree and a bare repository keep it in the common git folder
SERVELINT_NO_INDEX=1 run "$repo" diff --color never HEAD~1 HEAD > "$repo.want"
run "$repo" diff --color never HEAD~1 HEAD > /dev/null
cp "$idx" "$repo.good"
git -C "$repo" worktree add -q "$repo.wt" HEAD 2> /dev/null
rm -f "$idx"
run "$repo.wt" diff --color never HEAD~1 HEAD > "$repo.out"
cmp -s "$repo.want" "$repo.out" && [ -s "$idx" ] && [ ! -e "$repo/.git/worktrees/$(basename "$repo.wt")/servelint" ] &&
	ok || ko "a linked worktree: the index in the common folder"
# (review: diff REV REV takes its arguments for paths where there is no
# working tree; stdout only: under LeakSanitizer, libgit2 1.5 leaks pcre2's
# match data in a bare repository, with or without the index, and the
# report names the process)
git clone -q --bare "$repo" "$repo.bare"
run_bare() { (cd "$repo.bare" && "$bin" "$@" 2> /dev/null; echo "exit $?"); }
SERVELINT_NO_INDEX=1 run_bare review --color never HEAD~1 HEAD > "$repo.want"
run_bare review --color never HEAD~1 HEAD > "$repo.out"
cmp -s "$repo.want" "$repo.out" && [ -s "$repo.bare/servelint/sourced-index" ] && grep -q '^changed: ' "$repo.out" &&
	ok || ko "a bare repository"
run_bare review --color never HEAD~1 HEAD > "$repo.out"
cmp -s "$repo.want" "$repo.out" && ok || ko "a bare repository, warm"

# scripts that start to source the library after the index was written,
# which knows their old blobs to name nothing and their folders quiet: a
# changed script (other/launch.sh) and a new one in a quiet folder
# (quiet/a/b/c/launch.sh); the library's next change touches them
run "$repo" log --oneline --color never . > /dev/null
cp "$idx" "$repo.good"
(cd "$repo" && printf '#!/usr/bin/env bash\nsource "$(dirname "$0")/../benchmarks/benchmark_lib.sh"\nvllm serve org/phi --port 8000 --gpu-memory-utilization "$GPU_MEM_UTIL" &\n' > other/launch.sh &&
	mkdir quiet/a/b/c && printf '#!/usr/bin/env bash\n. "$(dirname "$0")/../../../../benchmarks/benchmark_lib.sh"\nvllm serve org/mistral --gpu-memory-utilization "$GPU_MEM_UTIL" &\n' > quiet/a/b/c/launch.sh &&
	git add -A && gc "other and quiet source the library" && sed -i 's/0.85/0.8/' benchmarks/benchmark_lib.sh && gc "lib: memory again") ||
	ko "repository setup, second part"
run "$repo" diff --color never HEAD~1 HEAD > "$repo.out"
SERVELINT_NO_INDEX=1 run "$repo" diff --color never HEAD~1 HEAD > "$repo.want"
cmp -s "$repo.want" "$repo.out" && ok || { ko "a script that sources the library since the index"; diff -u "$repo.want" "$repo.out"; }
grep -q '^changed: other$' "$repo.out" && grep -q '^changed: quiet/a/b/c$' "$repo.out" &&
	grep -q '^changed: benchmarks/single_node/llama_fp8_h100_vllm.sh$' "$repo.out" &&
	ok || { ko "the library's change: the scripts that source it since the index"; cat "$repo.out"; }
! cmp -s "$idx" "$repo.good" && ok || ko "the new blobs and trees: the index not written anew"
same "warm, the second change" diff --color never HEAD~1 HEAD
same "warm review, the second change" review --color never HEAD~3 HEAD
same "warm log" log --color never other
finish
