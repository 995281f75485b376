#!/bin/sh
# security.sh SERVELINT: hostile input the way the robustness review
# (2026-12-01) fed it: names with `..` and slashes from page text, shell
# metacharacters in --set values, symlinks, FIFOs and devices where a report
# or an input goes, control characters in the input. Each check failed
# before its fix (docs/security.md).
set -u
. "$(dirname "$0")/lib.sh"
T=$(mktemp -d)
trap 'chmod -R u+w "$T" 2>/dev/null; rm -rf "$T"' EXIT
# no file anywhere under $1 but those under $2
only_under() { [ -z "$(find "$1" \( -type f -o -type l \) ! -path "$2/*" ! -path "$2")" ]; }

# ---- import: names from page text ------------------------------------------------
page() { # page FILE MODEL-HEADING SYSTEM [SECTION-HEADER]
	{
		printf 'Catalogue\n\n%s \342\200\224 1 configurations\n\nB200 x8\n' "$2"
		if [ -n "${4:-}" ]; then
			printf 'trtllm-serve serve org/m --extra_llm_api_options c.yaml\n\n%s\nk: 1\n\n' "$4"
		else
			printf 'vllm serve org/m -tp 8\n\n'
		fi
		printf 'System%sEnginevLLM 0.11.0\nSubmitted by x\n' "$3"
	} > "$1"
}
mkdir -p "$T/i/a/b/out" "$T/p"
page "$T/p/sec.txt" "Test Model" "B200 x8" '# ---------------- ../../../../pwned.yaml ----------------'
out=$("$bin" import --out "$T/i/a/b/out" "$T/p/sec.txt" 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q "sec.txt:8:20: the section file name \`../../../../pwned.yaml\` holds a slash" &&
	only_under "$T/i" "$T/i/a/b/out" && [ -z "$(ls -A "$T/i/a/b/out")" ] && ok || ko "import: section ../ name: $rc $out"
page "$T/p/model.txt" ".." "B200 x8"
out=$("$bin" import --out "$T/i/a/b/out" "$T/p/model.txt" 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q 'model.txt:3:1: the model heading `..` gives the folder name `..`' &&
	[ -z "$(ls -A "$T/i/a/b/out")" ] && only_under "$T/i" "$T/i/a/b/out" && ok || ko "import: model ..: $rc $out"
page "$T/p/system.txt" "Test Model" ".."
out=$("$bin" import --out "$T/i/a/b/out" "$T/p/system.txt" 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q 'system.txt:8:7: the system `..` gives the folder name `..`' &&
	[ -z "$(ls -A "$T/i/a/b/out")" ] && only_under "$T/i" "$T/i/a/b/out" && ok || ko "import: system ..: $rc $out"
page "$T/p/hidden.txt" "Test Model" "B200 x8" '# ---------------- .bashrc.yaml ----------------'
out=$("$bin" import --out "$T/i/a/b/out" "$T/p/hidden.txt" 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q 'hidden.txt:8:20: the section file name `.bashrc.yaml` starts with a dot' &&
	ok || ko "import: hidden section name: $rc $out"
page "$T/p/meta.txt" "Test Model" "B200 x8" '# ---------------- metadata.yaml ----------------'
out=$("$bin" import --out "$T/i/a/b/out" "$T/p/meta.txt" 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q 'meta.txt:8:20: the section file name `metadata.yaml` is the name of a file import writes' &&
	ok || ko "import: section metadata.yaml: $rc $out"
# the 1-byte read before the slug of a method without letters (crashes/page-1)
printf 'Catalogue\n\nTest Model \342\200\224 1 configurations\n\nB200 x8\nvllm serve org/m --speculative-config '"'"'{"method": "-", "num_speculative_tokens": 3}'"'"'\n\nSystemB200 x8EnginevLLM 0.11.0\nSubmitted by fuzz\n' > "$T/p/dash.txt"
out=$("$bin" import --dry-run "$T/p/dash.txt" 2>&1); rc=$?
[ $rc -eq 0 ] && echo "$out" | grep -q '^test-model/b200-x8/vllm-tp1-spec3	' && ok || ko "import: method -: $rc $out"
# all or nothing: the second model's folder is blocked by a file; the first
# entry must not stay, and no temporary folder either
two() {
	printf 'Catalogue\n\nTest Model \342\200\224 1 configurations\n\nB200 x8\nvllm serve org/m -tp 8\n\nSystemB200 x8EnginevLLM 0.11.0\nSubmitted by x\n\nZeta Model \342\200\224 1 configurations\n\nvllm serve org/m -tp 4\n\nSystemB200 x8EnginevLLM 0.11.0\nSubmitted by x\n' > "$1"
}
two "$T/p/two.txt"
mkdir "$T/i/half" && : > "$T/i/half/zeta-model"
out=$("$bin" import --out "$T/i/half" "$T/p/two.txt" 2>&1); rc=$?
[ $rc -eq 2 ] && [ "$(ls -A "$T/i/half")" = zeta-model ] && ok || ko "import: partial write: $rc $out $(ls -A "$T/i/half")"
# a fresh --out whose write fails: no --out, no temporary folder beside it
mkdir "$T/i/ro" && chmod a-w "$T/i/ro"
if [ "$(id -u)" -ne 0 ]; then
	"$bin" import --out "$T/i/ro/new" "$T/p/two.txt" > /dev/null 2>&1; rc=$?
	[ $rc -eq 2 ] && [ -z "$(ls -A "$T/i/ro")" ] && ok || ko "import: unwritable parent: $rc"
fi
chmod u+w "$T/i/ro"
# into an existing --out: merged, and nothing temporary left
mkdir "$T/i/merge" && : > "$T/i/merge/keep"
"$bin" import --out "$T/i/merge" "$T/p/two.txt" 2>&1 && [ -f "$T/i/merge/test-model/b200-x8/vllm-tp8-nospec/launch.sh" ] &&
	[ -f "$T/i/merge/zeta-model/b200-x8/vllm-tp4-nospec/metadata.yaml" ] &&
	[ "$(ls -A "$T/i/merge" | tr '\n' ' ')" = "keep test-model zeta-model " ] && ok || ko "import: into an existing folder: $(ls -A "$T/i/merge")"
# a symlink inside --out is not followed
mkdir "$T/i/link" "$T/i/elsewhere" && ln -s "$T/i/elsewhere" "$T/i/link/zeta-model"
out=$("$bin" import --out "$T/i/link" "$T/p/two.txt" 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q 'symbolic link' && [ -z "$(ls -A "$T/i/elsewhere")" ] &&
	[ "$(ls -A "$T/i/link")" = zeta-model ] && ok || ko "import: symlink in --out: $rc $out"

# ---- run: --set values and the environment never become shell code --------------
mkdir -p "$T/r/bin" "$T/r/e"
printf '#!/bin/sh\necho standin "$@"\nexit 3\n' > "$T/r/bin/vllm"; chmod +x "$T/r/bin/vllm"
printf 'bash -c "vllm serve $MODEL --port 8000"\n' > "$T/r/e/launch.sh"
out=$(PATH=$T/r/bin:$PATH "$bin" run --logs "$T/r/logs" --grace 1 --timeout 20 --set "MODEL=/m; touch $T/r/pwned #" "$T/r/e" 2>&1); rc=$?
[ $rc -eq 2 ] && [ ! -e "$T/r/pwned" ] && [ ! -e "$T/r/logs" ] &&
	echo "$out" | grep -q "e/launch.sh:1:1: aggregated argv\[2\]: the value of MODEL (--set) lands in a shell string" && ok || ko "run: --set into bash -c: $rc $out"
out=$("$bin" run -n --set 'MODEL=$(id)' "$T/r/e" 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q 'the value of MODEL (--set) lands in a shell string' && ok || ko "run -n: \$(id) into bash -c: $rc $out"
# a plain value still goes in, and the plan shows the string that runs
out=$("$bin" run -n --set MODEL=/models/qwen-1.5 "$T/r/e" 2>&1); rc=$?
[ $rc -eq 0 ] && echo "$out" | grep -q "argv   bash -c 'vllm serve /models/qwen-1.5 --port 8000'" && ok || ko "run -n: a plain value: $rc $out"
# from the environment: bash expands it as a word (the stand-in sees its words), never runs it
out=$(env MODEL="/m; touch $T/r/pwned2 #" PATH=$T/r/bin:$PATH "$bin" run --logs "$T/r/logs" --grace 1 --timeout 20 "$T/r/e" 2>&1); rc=$?
[ $rc -eq 1 ] && [ ! -e "$T/r/pwned2" ] && grep -q "^standin serve /m; touch $T/r/pwned2 # --port 8000" "$T/r/logs/aggregated.log" &&
	ok || ko "run: environment into bash -c: $rc $out $(cat "$T/r/logs/aggregated.log" 2>/dev/null)"
out=$(env MODEL='/m; x' "$bin" run -n "$T/r/e" 2>&1); rc=$?
[ $rc -eq 0 ] && echo "$out" | grep -q 'note: aggregated argv\[2\]: the shell reads \$MODEL from servelint.s environment when it runs (MODEL=/m; x)' &&
	ok || ko "run -n: the environment in the plan: $rc $out"

# ---- reports: --output, --html and --export-json never clobber ------------------
mkdir "$T/o"
printf 'vllm serve m --tensor-paralel-size 4\n' > "$T/o/in.sh"
printf 'precious\n' > "$T/o/victim.txt"; ln -s victim.txt "$T/o/r.json.tmp"
"$bin" check --format json --output "$T/o/r.json" "$T/o/in.sh"; rc=$?
[ $rc -eq 1 ] && [ "$(cat "$T/o/victim.txt")" = precious ] && [ -f "$T/o/r.json" ] && [ ! -L "$T/o/r.json" ] &&
	grep -q '"rule"' "$T/o/r.json" && ok || ko "check --output: a FILE.tmp symlink was followed ($rc)"
[ -z "$(ls -A "$T/o" | grep -v -x -e in.sh -e victim.txt -e r.json.tmp -e r.json)" ] && ok || ko "check --output: temporary files left: $(ls -A "$T/o")"
ln -s /dev/stdout "$T/o/so"
out=$("$bin" check --format json --output "$T/o/so" "$T/o/in.sh"); rc=$?
[ $rc -eq 1 ] && [ -L "$T/o/so" ] && echo "$out" | grep -q '"rule"' && ok || ko "check --output: a symlink to /dev/stdout was replaced ($rc)"
mkfifo "$T/o/pipe"
cat "$T/o/pipe" > "$T/o/from-pipe" &
reader=$!
# cat opens the FIFO only once it is scheduled: until then servelint's open
# for writing finds no reader (ENXIO, exit 2, the case below); try again, bounded
n=0
while :; do
	"$bin" check --format json --output "$T/o/pipe" "$T/o/in.sh" 2> "$T/o/pipe-err"; rc=$?
	[ $rc -eq 2 ] && grep -q 'No such device or address' "$T/o/pipe-err" && [ $n -lt 100 ] || break
	sleep 0.1; n=$((n + 1))
done
# a servelint that replaced the FIFO leaves the reader waiting: bounded
n=0
while kill -0 $reader 2>/dev/null && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
kill $reader 2>/dev/null
wait $reader
[ $rc -eq 1 ] && [ -p "$T/o/pipe" ] && grep -q '"rule"' "$T/o/from-pipe" && ok || ko "check --output: a FIFO was replaced ($rc)"
# a FIFO that nobody reads: an error at once, never a wait
out=$(timeout 20 "$bin" check --format json --output "$T/o/pipe" "$T/o/in.sh" 2>&1); rc=$?
[ $rc -eq 2 ] && [ -p "$T/o/pipe" ] && echo "$out" | grep -q "pipe: No such device or address" && ok || ko "check --output: a FIFO with no reader: $rc $out"
# a link to a regular file: the file is replaced, the link stays
printf 'old\n' > "$T/o/real.json"; chmod 640 "$T/o/real.json"; ln -s real.json "$T/o/link.json"
"$bin" check --format json --output "$T/o/link.json" "$T/o/in.sh"; rc=$?
[ $rc -eq 1 ] && [ -L "$T/o/link.json" ] && grep -q '"rule"' "$T/o/real.json" &&
	[ "$(stat -c %a "$T/o/real.json")" = 640 ] && ok || ko "check --output: a link to a file ($rc)"
# a device (made here, never the machine's own): written, not replaced, and
# the write error seen
if [ "$(id -u)" -eq 0 ] && mknod "$T/o/full" c 1 7 2>/dev/null; then
	"$bin" check --format json --output "$T/o/full" "$T/o/in.sh" 2> /dev/null; rc=$?
	[ $rc -eq 2 ] && [ -c "$T/o/full" ] && ok || ko "check --output: a device: exit $rc, $(ls -l "$T/o/full")"
	"$bin" audit --html "$T/o/full" corpus/kimi-k3 > /dev/null 2>&1; rc=$?
	[ $rc -eq 2 ] && [ -c "$T/o/full" ] && ok || ko "audit --html: a device: exit $rc, $(ls -l "$T/o/full")"
fi
ln -s victim.txt "$T/o/a.html.tmp"
"$bin" audit --html "$T/o/a.html" corpus/kimi-k3 > /dev/null; rc=$?
[ $rc -eq 0 ] && [ "$(cat "$T/o/victim.txt")" = precious ] && grep -q '<html' "$T/o/a.html" && ok || ko "audit --html: a FILE.tmp symlink ($rc)"
ln -s /dev/stdout "$T/o/ao"
out=$("$bin" audit --html "$T/o/ao" corpus/kimi-k3); rc=$?
[ $rc -eq 0 ] && [ -L "$T/o/ao" ] && echo "$out" | grep -q '<html' && ok || ko "audit --html: a symlink to /dev/stdout ($rc)"

# ---- control characters of the input never reach the output raw -----------------
mkdir "$T/c"
printf 'vllm serve m --tensor-paralel-size\033[2J\033]0;PWNED\007 4\n' > "$T/c/esc.sh"
printf 'vllm serve m --tensor-paralel-size\001\002\033 4\n' > "$T/c/c0.sh"
raw() { LC_ALL=C grep -q "$(printf '[\001-\010\013-\037\177]')" "$1"; }
for fmt in gcc tty; do
	"$bin" check --format $fmt --color never "$T/c/esc.sh" > "$T/c/out.$fmt"
	! raw "$T/c/out.$fmt" && grep -q 'tensor-paralel-size\\x1b\[2J\\x1b\]0' "$T/c/out.$fmt" && ok || ko "check --format $fmt: a terminal escape reached the output"
	"$bin" check --format $fmt --output "$T/c/file.$fmt" "$T/c/esc.sh"
	! raw "$T/c/file.$fmt" && ok || ko "check --format $fmt --output: a terminal escape reached the file"
done
"$bin" check --color always "$T/c/esc.sh" > "$T/c/color"
grep -q "$(printf '\033')\[33mwarning:" "$T/c/color" && ! grep -q "$(printf '\033')\[2J" "$T/c/color" && ok || ko "check --color always: colours lost or the input's escape passed"
"$bin" show "$T/c/esc.sh" > "$T/c/show"
! raw "$T/c/show" && ok || ko "show: a terminal escape reached the output"
"$bin" diff "$T/c/esc.sh" "$T/c/c0.sh" > "$T/c/diff"
! raw "$T/c/diff" && ok || ko "diff: a control character reached the output"
"$bin" check --format checkstyle "$T/c/c0.sh" > "$T/c/cs.xml"
python3 -c "import sys, xml.dom.minidom as m; d = m.parse(sys.argv[1]); e = d.getElementsByTagName('error')[0]; assert '\\\\x01\\\\x02\\\\x1b' in e.getAttribute('message'), e.getAttribute('message')" "$T/c/cs.xml" &&
	ok || ko "checkstyle: C0 characters made the XML ill-formed: $(cat "$T/c/cs.xml")"

# ---- a FIFO where a file is read: an error at once, never a wait ---------------
mkdir -p "$T/f/e" "$T/f/y"
mkfifo "$T/f/e/launch.sh"
out=$(timeout 20 "$bin" show "$T/f/e" 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q "e/launch.sh: is a FIFO; servelint reads only regular files" && ok || ko "show: launch.sh a FIFO: $rc $out"
printf 'vllm serve m --config c.yaml\n' > "$T/f/y/launch.sh"; mkfifo "$T/f/y/c.yaml"
for cmd in show check; do
	out=$(timeout 20 "$bin" $cmd "$T/f/y" 2>&1); rc=$?
	[ $rc -eq 2 ] && echo "$out" | grep -q "y/c.yaml.*is a FIFO" && ok || ko "$cmd: an engine YAML a FIFO: $rc $out"
done
out=$(timeout 20 "$bin" import --dry-run "$T/f/e/launch.sh" 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q "is a FIFO" && ok || ko "import: a page a FIFO: $rc $out"

# ---- git: a HEAD naming a missing commit (no leak in libgit2's error path:
# the ASan build's leak check exits 1), and outside a repository ----------------
mkdir -p "$T/g/e"
printf 'vllm serve m --max-num-seqs 128\n' > "$T/g/e/launch.sh"
( cd "$T/g" && git init -q . && git config user.email t@t && git config user.name t && git add -A && git commit -qm one &&
	echo 0000000000000000000000000000000000000001 > ".git/refs/heads/$(git symbolic-ref --short HEAD)" )
out=$(cd "$T/g" && "$bin" log e 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q '^HEAD: unknown revision: the reference names an object that does not exist' && ok || ko "log: HEAD names a missing commit: $rc $out"
out=$(cd "$T/g" && "$bin" diff HEAD~1:e e 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q 'unknown revision' && ok || ko "diff: HEAD~1 of a missing commit: $rc $out"
mkdir "$T/nogit"
out=$(cd "$T/nogit" && GIT_CEILING_DIRECTORIES=$T "$bin" log e 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q 'not in a git repository' && ! echo "$out" | grep -q 'not been initialized' &&
	ok || ko "log outside a repository: $rc $out"

# ---- the review's Low list ----------------------------------------------------
# usage errors exit 3 in every command and the dispatcher
"$bin" > /dev/null 2>&1; [ $? -eq 3 ] && ok || ko "no command: not 3"
"$bin" frobnicate > /dev/null 2>&1; [ $? -eq 3 ] && ok || ko "unknown command: not 3"
"$bin" show --format xml corpus/kimi-k3 > /dev/null 2>&1; [ $? -eq 3 ] && ok || ko "show --format xml: not 3"
"$bin" import > /dev/null 2>&1; [ $? -eq 3 ] && ok || ko "import without a page: not 3"
"$bin" import --bogus x > /dev/null 2>&1; [ $? -eq 3 ] && ok || ko "import --bogus: not 3"
# the 17th --format is refused as what it is
set --; for k in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17; do set -- "$@" --format gcc; done
out=$("$bin" check "$@" "$T/o/in.sh" 2>&1); rc=$?
[ $rc -eq 3 ] && echo "$out" | grep -q 'at most 16 --format' && ok || ko "17 --format: $rc $out"
# the git external diff driver: a file git hands over that is not there is an error
printf 'vllm serve m\n' > "$T/g/b.sh"
out=$("$bin" diff e/launch.sh "$T/g/nosuch" 0000000 100644 "$T/g/b.sh" 0000000 100644 2>&1 >"$T/g/drv"); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q "cannot read $T/g/nosuch: No such file" && [ ! -s "$T/g/drv" ] && ok || ko "diff driver, a missing file: $rc $out $(cat "$T/g/drv")"
# an unquoted $MODEL splits a --set value: the plan says so
printf 'vllm serve $MODEL --port 8000\n' > "$T/r/split.sh"
out=$("$bin" run -n --set 'MODEL=a b' "$T/r/split.sh" 2>&1); rc=$?
[ $rc -eq 0 ] && echo "$out" | grep -q 'note: aggregated argv\[2..3\]: the value of MODEL (--set) is split at its blanks into 2 elements' && ok || ko "run -n: a split value: $rc $out"

# ---- Kubernetes replicas: a count, never a copy per replica ----------------------
mkdir "$T/k"
deploy() { printf 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: x}\nspec:\n  replicas: %s\n  template:\n    spec:\n      containers:\n        - name: c0\n          image: vllm/vllm-openai:v0.11.0\n          command: [vllm, serve, m, --port, "8000"]\n' "$1" > "$T/k/$2.yaml"; }
deploy 1000000000 big
# (ulimit: a copy per replica would need gigabytes; not under ASan, whose
# shadow memory needs more address space than that)
vlimit=1000000
grep -q __asan_init "$bin" 2>/dev/null && vlimit=unlimited
out=$( (ulimit -v $vlimit 2>/dev/null; timeout 20 "$bin" show "$T/k/big.yaml") 2>&1); rc=$?
[ $rc -eq 0 ] && echo "$out" | grep -q 'replicas  1000000000 (replicas, big.yaml:5:13)' && ok || ko "show: replicas 1e9: $rc $(echo "$out" | tail -2)"
out=$( (ulimit -v $vlimit 2>/dev/null; timeout 20 "$bin" check --format gcc "$T/k/big.yaml") 2>&1); rc=$?
[ $rc -le 1 ] && ok || ko "check: replicas 1e9: $rc $(echo "$out" | tail -2)"
out=$( (ulimit -v $vlimit 2>/dev/null; timeout 20 "$bin" run -n "$T/k/big.yaml") 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q 'big.yaml:5:13: aggregated: 1000000000 replicas; run starts every process on this host, at most 256' && ok || ko "run -n: replicas 1e9: $rc $out"
out=$( (ulimit -v $vlimit 2>/dev/null; timeout 20 "$bin" run -n --service 'aggregated#7' "$T/k/big.yaml") 2>&1); rc=$?
[ $rc -eq 0 ] && echo "$out" | grep -q '^1. aggregated#7 ' && ok || ko "run -n --service aggregated#7 of 1e9: $rc $out"
for v in -3 99999999999999999999 3000000000; do
	deploy "$v" bad
	out=$("$bin" show "$T/k/bad.yaml" 2>&1); rc=$?
	[ $rc -eq 2 ] && echo "$out" | grep -q "bad.yaml:5:13: replicas: \`$v\` is out of range" && ok || ko "replicas $v: $rc $out"
done
deploy two bad
out=$("$bin" show "$T/k/bad.yaml" 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q 'bad.yaml:5:13: replicas: `two` is not a count' && ok || ko "replicas two: $rc $out"
# a loop of engine commands without GPU devices (the ASan build's leak check
# saw the fresh array of every iteration leak: crashes/check-1)
printf 'for i in 1 2 3; do\n  vllm serve m --port 900$i &\ndone\n' > "$T/k/loop.sh"
"$bin" show "$T/k/loop.sh" > /dev/null && "$bin" check "$T/k/loop.sh" > /dev/null; rc=$?
[ $rc -le 1 ] && ok || ko "a loop without GPU devices: exit $rc"

# $((1%0)) is a division by zero too (the grammar reads the 1 as a name)
printf 'vllm serve m --max-num-seqs $((1%%0))\n' > "$T/k/mod.sh"
out=$("$bin" show "$T/k/mod.sh" 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q 'mod.sh:1:33: arithmetic: division by zero' && ok || ko "\$((1%0)): $rc $out"
printf 'vllm serve m --max-num-seqs $((7%%3))\n' > "$T/k/mod3.sh"
"$bin" show --format json "$T/k/mod3.sh" | grep -q '"value": 1,' && ok || ko "\$((7%3)) is not 1"
# CRLF: read as LF, and a note says bash would not
printf 'vllm serve m \\\r\n  --port 8000\r\n' > "$T/k/crlf.sh"
out=$("$bin" show "$T/k/crlf.sh" 2>&1); rc=$?
[ $rc -eq 0 ] && echo "$out" | grep -q 'crlf.sh:1:15: the script has DOS line ends (CR LF)' && ok || ko "CRLF: $rc $out"

# ---- one line of 20,000 repeated flags: linear, in CPU time ---------------------
# A finding's column counted from its line's start at each of the sort's
# comparisons, a related place's and the SARIF line hash's, and each hash
# held against every earlier one made this quadratic: 24 s of CPU for gcc
# and json, minutes for SARIF, where it now takes under 1 s. A CPU-time
# limit (ulimit -t), not a wall-clock one, so that the machine's load does
# not decide; 10 s leaves room for the sanitizers.
mkdir "$T/q"
awk 'BEGIN { printf "vllm serve m"; for (i = 1; i <= 20000; i++) printf " --max-num-seqs %d", i; print "" }' > "$T/q/rep.sh"
for fmt in gcc json sarif; do
	n=$( (ulimit -t 10; "$bin" check --format $fmt "$T/q/rep.sh") 2>/dev/null | grep -c 'SL1002'); rc=$?
	[ "$n" -ge 19999 ] && ok || ko "check --format $fmt of 20,000 repeated flags: $n findings (rc $rc)"
done
for fmt in tty json; do
	n=$( (ulimit -t 10; "$bin" show --format $fmt "$T/q/rep.sh") 2>/dev/null | wc -c)
	[ "$n" -gt 1000 ] && ok || ko "show --format $fmt of 20,000 repeated flags: $n bytes"
done

# ---- catalogue discovery: each real folder once; a dangling *.sh is told --------
mkdir -p "$T/d/cat/e"
printf 'vllm serve m --port 8000\n' > "$T/d/cat/e/launch.sh"
ln -s . "$T/d/cat/l1"; ln -s . "$T/d/cat/l2"; ln -s . "$T/d/cat/l3"; ln -s .. "$T/d/cat/e/up"
out=$(timeout 30 "$bin" check --format gcc "$T/d/cat" 2>&1); rc=$?
[ $rc -le 1 ] && [ "$(echo "$out" | grep -c 'launch.sh:')" -le 1 ] && ok || ko "check: symlink loops: $rc $(echo "$out" | head -3)"
out=$(timeout 30 "$bin" audit "$T/d/cat" 2>&1); rc=$?
[ $rc -le 1 ] && ok || ko "audit: symlink loops: $rc $(echo "$out" | head -3)"
ln -s nosuch.sh "$T/d/cat/gone.sh"
out=$(timeout 30 "$bin" check --format gcc "$T/d/cat" 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q 'gone.sh.*cannot open: No such file or directory' && ok || ko "check: a dangling *.sh: $rc $out"
# diff of a revision that is not there
out=$("$bin" diff v9.9.9-nosuch HEAD 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q 'v9.9.9-nosuch: no such file, and not a revision git knows here' && ok || ko "diff v9.9: $rc $out"

finish
