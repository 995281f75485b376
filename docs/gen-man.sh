#!/bin/sh
# docs/gen-man.sh [OUTDIR]: the man pages servelint(1) and servelint-CMD(1)
# from docs/servelint.md and docs/servelint-*.md, with go-md2man (Debian's
# go-md2man package). The pages are committed (`man ./docs/servelint.1` works
# in a fresh clone); after editing a page's .md, run this and commit both.
# The docs test (tests/docs.sh) fails when a committed .1 differs from what
# this writes, so never edit the .1 files by hand.
#
# Each page's first line is `# NAME(SECTION)`; it becomes the man page's
# title. Relative links ([docs/json.md](json.md)) keep only their text.
# Exit 77 when go-md2man is missing.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here}
if ! command -v go-md2man >/dev/null 2>&1; then
	echo "gen-man.sh: go-md2man is missing (apt-get install go-md2man)" >&2
	exit 77
fi
version=$(sed -n 's/^project(servelint VERSION \([0-9.]*\).*/\1/p' "$here/../CMakeLists.txt")
mkdir -p "$out"
for md in "$here"/servelint.md "$here"/servelint-*.md; do
	[ -e "$md" ] || continue
	head=$(sed -n '1p' "$md")
	name=$(printf '%s\n' "$head" | sed -n 's/^# \([a-z][a-z-]*\)(\([1-9]\))$/\1/p')
	sect=$(printf '%s\n' "$head" | sed -n 's/^# \([a-z][a-z-]*\)(\([1-9]\))$/\2/p')
	if [ -z "$name" ]; then
		echo "gen-man.sh: $md: the first line must be \`# NAME(SECTION)\`" >&2
		exit 1
	fi
	sed -e "1s/.*/# $name $sect \"\" \"servelint $version\" \"servelint manual\"/" \
	    -e 's/\[\([^]]*\)\](\([^):]*\))/\1/g' "$md" |
		go-md2man |
		# a line that starts with . or ' is a request to troff: in a code
		# block (.nf ... .fi) every such line is text; elsewhere, any that is
		# not one of the requests go-md2man writes. After the title: no
		# hyphenation, ragged right (as git's pages), so that an option or a
		# path is never split.
		awk '
		/^\.TH / { print; print ".nh"; print ".ad l"; next }
		/^\.nf$/ { print; nf = 1; next }
		/^\.fi$/ { print; nf = 0; next }
		/^[.'"'"']/ {
			if (nf || $0 !~ /^\.(nh|TH|SH|SS|PP|TP|RS|RE|IP|TS|TE|br|sp|EX|EE|ad)( |$)/) {
				print "\\&" $0; next
			}
		}
		{ print }' |
		# in text, - is \- (an ASCII hyphen-minus that is never a place to
		# break a line: --dry-run, trtllm-serve and paths stay whole)
		sed -e '/^\./!s/-/\\-/g' >"$out/$name.$sect.tmp"
	mv "$out/$name.$sect.tmp" "$out/$name.$sect"
done
