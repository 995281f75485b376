#!/bin/sh
# audit_html.sh SERVELINT: `servelint audit --html` rendered in headless
# Chromium (Debian's chromium). The page's script runs without a console
# message (filters filled in, a diff shown), the DOM holds what the report
# must (summary, matrix, every planted finding with its marked excerpt and
# its rule's explanation), and text from the entries stays text. Skips
# (exit 77) when chromium is absent, but fails then under CI=true.
set -u
. "$(dirname "$0")/lib.sh"
chromium=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
if [ -z "$chromium" ]; then
	if [ "${CI:-}" = true ]; then
		echo "FAIL chromium is not installed (CI needs it: apt-get install chromium)"
		exit 1
	fi
	echo "SKIP chromium is not installed"
	exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# render FILE: the DOM after the scripts ran in $work/dom, Chromium's log
# (console messages included) in $work/log
render() {
	rm -rf "$work/profile"
	timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --no-first-run \
		--user-data-dir="$work/profile" --enable-logging=stderr --v=0 \
		--dump-dom "file://$1" > "$work/dom" 2> "$work/log"
}
# no console message of any level (the page's script logs nothing)
console_clean() {
	if grep -q ':CONSOLE' "$work/log"; then ko "$1: console messages:"; grep ':CONSOLE' "$work/log"; else ok; fi
}
has() {
	if grep -qF -- "$2" "$work/dom"; then ok; else ko "$1: the DOM has no $2"; fi
}

# the planted catalogue: every finding, excerpts, explanations, escaping
sh tests/data/mkaudit.sh "$work/audit" || { echo "FAIL building the planted catalogue"; exit 1; }
"$bin" audit --html "$work/planted.html" "$work/audit" > /dev/null
render "$work/planted.html"
[ -s "$work/dom" ] && ok || ko "planted: nothing rendered"
console_clean planted
has planted '<h1>Catalogue audit</h1>'
has planted 'id="f-count">11 of 11 entries shown'
for id in SL7001 SL7002 SL7003 SL7004 SL7005 SL7006 SL7007 SL7008; do has planted "<b>$id</b>"; done
has planted '<mark>--tokenizer-mode auto</mark>'
has planted '<span class="ln">25</span>'
has planted 'Why this matters'
has planted 'Checked by `servelint audit` across the catalogue.'
# the planted served name is text, never markup
has planted '&lt;b class=x&gt;flash&lt;/b&gt;'
grep -q '<b class="x">' "$work/dom" && ko "planted: entry text became markup" || ok
# the script filled the diff of the first entry with another of its model
grep -q '<div id="cmp-out">.*<table>' "$work/dom" && ok || ko "planted: no diff shown"
has planted '<th scope="row">DeepSeek V4.1 Flash</th>'
# the filters' state is in the URL fragment: a link reproduces the view
# (rule, findings level, search, model, system, engine), a value no filter
# has is ignored, and a change of a filter writes the fragment
view() { # FRAGMENT WANT-COUNT
	render "$work/planted.html#$1"
	console_clean "planted#$1"
	grep -q "id=\"f-count\">$2 of 11 entries shown" "$work/dom" && ok || ko "planted#$1: not $2 of 11 shown"
}
view 'rule=SL7006' 1
view 'q=MI355X' 2
view 'q=mi355x&rule=SL7006' 0
view 'sev=bogus&model=99&rule=SL0000' 11
view 'q=b300%20x8' 2
sed "s/^fromHash();filter();\$/&\$('f-rule').value='SL7003';\$('f-rule').dispatchEvent(new Event('change'));\$('f-q').value='b300 x8';\$('f-q').dispatchEvent(new Event('input'));document.title=location.hash;/" \
	"$work/planted.html" > "$work/typed.html"
render "$work/typed.html#sev=2"
grep -q '<title>#sev=2&amp;rule=SL7003&amp;q=b300%20x8</title>' "$work/dom" && ok || ko "a filter's change is not in the fragment"

# the corpus: the whole page renders, its script runs cleanly
"$bin" audit --html "$work/corpus.html" corpus > /dev/null
render "$work/corpus.html"
console_clean corpus
has corpus 'id="f-count">35 of 35 entries shown'
for m in 'DeepSeek V4 Pro (max)' 'DeepSeek V4.1 Flash' 'gpt-oss-120b (high)' 'Kimi K3 (max)'; do
	has corpus "<th scope=\"row\">$m</th>"
done
has corpus '<b>SL4002</b>'
# a page audit: every place names a real file (a page line, never a section
# as if it were a file), entries labelled as import names them, the header
# says what made the page, when, from what
"$bin" audit --html "$work/pages.html" corpus/pages/002_527771f1a7637570.txt > /dev/null
grep -q 'class="loc">gen_config.yaml' "$work/pages.html" && ko "pages: a section named as a file" || ok
grep -q 'class="loc">002_527771f1a7637570.txt:155:1 (gen_config.yaml)' "$work/pages.html" && ok || ko "pages: no page line for a section"
render "$work/pages.html"
console_clean pages
has pages '<span class="n">trtllm-disagg-1p-dep4-1d-dep4-mtp3</span>'
has pages '<h3>deepseek-v4-pro/gb300-nvl72/dynamo-trtllm-disagg-6p-dep4-1d-dep8-mtp3</h3><p class="loc">corpus/pages/002_527771f1a7637570.txt:119</p>'
has pages "servelint $("$bin" --version | cut -d' ' -f2) "
has pages '<code>corpus/pages/002_527771f1a7637570.txt</code>'
has pages '<span class="n">sglang-tp8-nospec-20260527</span>'
grep -q '>any<\|>any finding<' "$work/pages.html" && ko "pages: the findings filter offers any and any finding" || ok
# at phone width: the badge and the rule name never break
grep -q '\.badge{display:inline-block;white-space:nowrap' "$work/pages.html" && ok || ko "pages: a badge may break"
grep -q '\.rule{white-space:nowrap}' "$work/pages.html" && grep -q '<span class="rule">memory-fraction-differs</span>' "$work/pages.html" &&
	ok || ko "pages: a rule name may break at its hyphens"
# a console error is seen: the check can fail
sed 's/^fromHash();filter();$/fromHash();filter();no_such_function();/' "$work/corpus.html" > "$work/broken.html"
render "$work/broken.html"
grep -q ':CONSOLE.*no_such_function' "$work/log" && ok || ko "a script error is not seen in the log"
finish
