#!/bin/sh
# cli.sh SERVELINT: the command-line contract, the same in every command
# (docs/servelint.md, THE COMMAND LINE): exit codes 0/1/2/3, help CMD,
# --version, --color values, NO_COLOR and TERM, `-` for standard input,
# `-o -` for standard output, --quiet, globs that match nothing.
set -u
. "$(dirname "$0")/lib.sh"
t=tests/data/check/planted.sh
e=corpus/deepseek-v4.1-flash/b300-x8/vllm-tp2-dspark5
e2=corpus/deepseek-v4.1-flash/h200-sxm-x8/vllm-tp4-nospec
w=$(mktemp -d)
trap 'rm -rf "$w" ${hist:-}' EXIT
# rc WANT NAME COMMAND...: the exit status of COMMAND (output dropped)
rc() {
	want=$1 name=$2
	shift 2
	"$@" > /dev/null 2>&1 < /dev/null
	got=$?
	[ $got -eq "$want" ] && ok || ko "$name: exit $got, want $want"
}

# ---- exit 3 for every usage error --------------------------------------
rc 3 "no command" "$bin"
rc 3 "unknown command" "$bin" bogus
rc 3 "unknown option" "$bin" --bogus
for cmd in show check rules diff matrix log review audit import run init; do
	rc 3 "$cmd --bogus" "$bin" $cmd --bogus
	rc 0 "$cmd --help" "$bin" $cmd --help
	v=$("$bin" $cmd --version)
	[ "$v" = "$("$bin" --version)" ] && ok || ko "$cmd --version: $v"
	"$bin" $cmd --help | grep -q -- '--version' && ok || ko "$cmd --help does not tell --version"
done
for cmd in show check import audit matrix log run; do
	rc 3 "$cmd without its arguments" "$bin" $cmd
done
rc 3 "show --variant x" "$bin" show --variant x "$e"
rc 3 "show --set bogus" "$bin" show --set bogus "$e"
rc 3 "diff --set bogus" "$bin" diff --set bogus "$e" "$e2"
rc 3 "check --set bogus" "$bin" check --set bogus "$e"
rc 3 "rules A B, B unknown" "$bin" rules SL2002 nosuchrule
rc 3 "help of an unknown command" "$bin" help bogus
for cmd in "show $e" "check $e" "diff $e $e2" "matrix $e $e2" "audit $e" "log $e" "review HEAD"; do
	rc 3 "${cmd%% *} --color sometimes" "$bin" $cmd --color sometimes
done

# ---- --version, -V, help CMD --------------------------------------------
v=$("$bin" --version)
case $v in "servelint "[0-9]*.[0-9]*.[0-9]*) ok ;; *) ko "--version: $v" ;; esac
[ "$("$bin" -V)" = "$v" ] && ok || ko "-V"
[ "$("$bin" version)" = "$v" ] && ok || ko "version"
grep -q "\"version\": \"${v#servelint }\"" tests/golden/check/planted.sarif && ok || ko "SARIF's version is not --version's"
# help CMD: the command's help when its man page is not installed...
h=$(MANPATH=$w/none "$bin" help check)
[ "$h" = "$("$bin" check --help)" ] && ok || ko "help check is not check --help"
[ "$(MANPATH=$w/none "$bin" help)" = "$("$bin" --help)" ] && ok || ko "help alone"
# ...and the man page when it is
if command -v man > /dev/null 2>&1 && man -w man > /dev/null 2>&1; then
	mkdir -p "$w/man/man1"
	cp docs/servelint-diff.1 "$w/man/man1/"
	MANPATH=$w/man MANPAGER=cat PAGER=cat "$bin" help diff 2> /dev/null | grep -q 'servelint-diff - ' &&
		ok || ko "help diff: not the man page"
fi

# ---- colour: --color, NO_COLOR only when not empty, TERM=dumb ------------
esc=$(printf '\033')
tty_esc() { # tty_esc ENV...: escapes in check's output on a terminal
	script -qec "env $* TERM=\${TERM:-xterm} $bin check --color auto $t" /dev/null | grep -c "$esc"
}
if command -v script > /dev/null 2>&1; then
	[ "$(TERM=xterm tty_esc)" -gt 0 ] && ok || ko "no colour on a terminal"
	[ "$(TERM=xterm tty_esc NO_COLOR=)" -gt 0 ] && ok || ko "NO_COLOR= (empty) took the colour"
	[ "$(TERM=xterm tty_esc NO_COLOR=1)" -eq 0 ] && ok || ko "NO_COLOR=1 left colour"
	[ "$(TERM=dumb tty_esc)" -eq 0 ] && ok || ko "TERM=dumb got colour"
fi
n=$(NO_COLOR=1 "$bin" check --color always "$t" | grep -c "$esc")
[ "$n" -gt 0 ] && ok || ko "--color always does not beat NO_COLOR"
n=$("$bin" diff --color always "$e" "$e2" | grep -c "^$esc\[3[123]m  [-+~]")
[ "$n" -gt 0 ] && ok || ko "diff body lines are not coloured"

# ---- - is standard input, -o - standard output ---------------------------
[ "$("$bin" check -f gcc - < "$t" | sed 's/^-:/X:/')" = "$("$bin" check -f gcc "$t" | sed "s|^$t:|X:|")" ] &&
	ok || ko "check -"
"$bin" show - < "$e/launch.sh" | grep -q '^-: 1 service' && ok || ko "show -"
"$bin" matrix - "$e2/launch.sh" < "$e/launch.sh" | grep -q 'parallel.tensor' && ok || ko "matrix -"
"$bin" audit - < "$t" | grep -q 'SL1001' && ok || ko "audit -"
rc 3 "check - -" "$bin" check - -
(cd "$w" && "$bin" check -f gcc -o - "$root/$t" > out)
[ -e "$w/-" ] && ko "-o - wrote a file named -" || ok
[ "$(wc -l < "$w/out")" -eq "$(grep -c . tests/golden/check/planted.gcc)" ] && ok || ko "-o - is not standard output"
n=$("$bin" check -f gcc -f gcc "$t" | wc -l)
[ "$n" -eq "$(wc -l < tests/golden/check/planted.gcc)" ] && ok || ko "--format gcc twice: $n lines"
# an output that cannot be written: nothing printed at all
out=$("$bin" audit --html "$w/no-such-dir/r.html" "$e" 2> /dev/null)
[ $? -eq 2 ] && [ -z "$out" ] && ok || ko "audit --html no-such-dir: printed or exit 0"
out=$("$bin" check -f sarif -o "$w/no-such-dir/r.sarif" -f gcc "$t" 2> /dev/null)
[ $? -eq 2 ] && [ -z "$out" ] && ok || ko "check -o no-such-dir: printed or exit 0"
"$bin" audit --html - "$e" | grep -q '^<!DOCTYPE html>' && ok || ko "audit --html -"

# ---- --quiet: the exit status only ----------------------------------------
out=$("$bin" check -q "$t"); s=$?
[ $s -eq 1 ] && [ -z "$out" ] && ok || ko "check -q: exit $s, output '$out'"
out=$("$bin" check --quiet -f sarif -o "$w/q.sarif" "$t"); s=$?
[ $s -eq 1 ] && [ -z "$out" ] && [ -s "$w/q.sarif" ] && ok || ko "check --quiet -o FILE"
out=$("$bin" diff -q "$e" "$e2"); s=$?
[ $s -eq 1 ] && [ -z "$out" ] && ok || ko "diff -q: exit $s"
out=$("$bin" diff -q "$e" "$e"); s=$?
[ $s -eq 0 ] && [ -z "$out" ] && ok || ko "diff -q of the same: exit $s"
out=$("$bin" audit -q "$t"); s=$?
[ $s -eq 1 ] && [ -z "$out" ] && ok || ko "audit -q: exit $s"
mkhist
out=$(cd "$hist" && "$bin" review -q HEAD~7 HEAD); s=$?
[ $s -eq 1 ] && [ -z "$out" ] && ok || ko "review -q: exit $s"

# ---- JSON: every document carries its format version; facts are members --
jv() { # jv NAME COMMAND...: the document's first member is servelint_json: 1
	name=$1
	shift
	"$@" > "$w/doc.json" 2> /dev/null
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); k=list(d)[0]; sys.exit(not (k=="servelint_json" and d[k]==1))' \
		"$w/doc.json" && ok || ko "$name: no servelint_json version first"
}
jv show "$bin" show -f json "$e"
jv check "$bin" check -f json "$t"
jv diff "$bin" diff -f json "$e" "$e2"
jv matrix "$bin" matrix -f json "$e" "$e2"
jv audit "$bin" audit -f json "$e" "$e2"
jv run "$bin" run --dry-run -f json "$e"
(cd "$hist" && jv "diff REV REV" "$bin" diff -f json HEAD~7 HEAD)
(cd "$hist" && jv log "$bin" log -f json cat/vllm)
(cd "$hist" && jv review "$bin" review -f json HEAD~7 HEAD)
(cd "$hist" && "$bin" log -f json cat/vllm) | grep -q '"status": "changed"' && ok || ko "log --format json: no commits"
"$bin" check -f json "$t" | grep -q "\"entry\": \"$t\"" && ok || ko "check json: findings carry no entry"
"$bin" diff -f json corpus/deepseek-v4.1-flash/h200-sxm-x8/vllm-tp4-dspark5 "$e" | grep -q '"env": {' && ok || ko "diff json: env is not a member"
"$bin" diff -f json "$e" "$e2" | grep -q '"source": "metadata"' && ok || ko "diff json: a claim is not a member"
"$bin" audit -f json "$e" | grep -q '"method": "dspark"' && ok || ko "audit json: spec is a string"

# ---- globs that match nothing warn; globs are relative to the PATH ------
n=$("$bin" check -f gcc --include 'deepseek-v4-pro/*' corpus 2>&1 | grep -c 'SL4002')
[ "$n" -gt 0 ] && ok || ko "--include relative to the search root"
n=$(cd corpus && "$bin" check -f gcc --include 'deepseek-v4-pro/*' . 2>&1 | grep -c 'SL4002')
[ "$n" -gt 0 ] && ok || ko "--include relative to ."
"$bin" check --include 'nothing/*' corpus 2>&1 > /dev/null | grep -q "warning: --include 'nothing/\*' matched no entry" &&
	ok || ko "--include matching nothing: no warning"
"$bin" check --exclude 'nothing/*' "$t" 2>&1 > /dev/null | grep -q "matched no entry" && ok || ko "--exclude: no warning"
"$bin" diff --only 'no.such.*' "$e" "$e2" 2>&1 > /dev/null | grep -q "warning: --only 'no.such.\*' matched no key" &&
	ok || ko "diff --only matching nothing: no warning"
"$bin" matrix --ignore 'zzz' "$e" "$e2" 2>&1 > /dev/null | grep -q "matched no key" && ok || ko "matrix --ignore: no warning"
"$bin" diff --only 'parallel.*' "$e" "$e2" 2>&1 > /dev/null | grep -q warning && ko "diff --only parallel.* warned" || ok

# ---- .servelint.yaml validated: located errors, exit 2 -------------------
cfg() { # cfg NAME TEXT WHERE: check and audit with --config of TEXT fail at WHERE
	printf '%s\n' "$2" > "$w/$1.yaml"
	for cmd in check audit; do
		msg=$("$bin" $cmd --config "$w/$1.yaml" "$t" 2>&1 > /dev/null); s=$?
		[ $s -eq 2 ] && case $msg in *"$w/$1.yaml:$3: "*) true ;; *) false ;; esac && ok ||
			ko "$cmd config $1: exit $s, '$msg'"
	done
}
cfg scalar 'disable: SL4002' 1:10
cfg unknown-key 'bogus: 1' 1:1
cfg unknown-id 'disable: [SL9999]' 1:11
cfg bad-level 'severity: {SL1001: fatal}' 1:20
cfg unknown-sev-id "disable: [SL4002]
severity: {SL0000: error}" 2:12
cfg not-a-map '- SL4002' 1:1
printf 'disable: [SL1001]\nexclude: ["x/*"]\nseverity: {SL3001: warning}\n' > "$w/ok.yaml"
n=$("$bin" check -f gcc --config "$w/ok.yaml" "$t" | grep -c 'SL1001')
[ "$n" -eq 0 ] && ok || ko "a valid config: SL1001 not disabled"
# libgit2 and libcurl are loaded by the commands that use them
# (src/source/git/git_lazy.c, src/exec/curl_lazy.c), never linked: a process
# that reads no repository and speaks no HTTP does not pay for their loading
if command -v readelf > /dev/null; then
	needed=$(readelf -d "$bin" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
	case $needed in *libgit2* | *libcurl*) ko "linked at start: $(echo $needed)" ;; *) ok ;; esac
	# ... and the list was read at all: the C library is always in it
	# (jansson, the witness before, is now linked from its static archive)
	echo "$needed" | grep -q '^libc\.so' && ok || ko "readelf lists no NEEDED libraries: '$needed'"
fi
finish
