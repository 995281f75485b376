#!/bin/sh
# file_cycles.sh [--stages "S1 S2..."] OBJECT...: the file-level call graph of
# each stage (src/<stage>/), from the object files of servelint_core, and a
# failure when the files of one stage call each other in a circle.
#
# A file calls another when one of its undefined symbols (nm) is a global
# the other defines. Calls between stages are not looked at (the headers'
# order is tests/include_order.sh's). Each stage's files are meant to stand
# in layers, each using only those below it: a circle means two files that
# cannot be read, changed or tested one without the other.
#
# One exception, by the shell's own grammar: an interpreter recurses. An
# arithmetic expansion holds parameter expansions and a parameter expansion
# (${X:-$((N+1))}) holds arithmetic; a compound statement (if, for, case, a
# function's body) holds statements, a command that names a function
# runs its body, and `source FILE` runs the statements of the file. Each such recursion is one unit below, read as one node:
# the units and every other file must still stand in layers.
units="expansion=src/parse/shell/arith.c,src/parse/shell/expand.c
statements=src/parse/shell/statement.c,src/parse/shell/control.c,src/parse/shell/functions.c,src/parse/shell/command.c,src/parse/shell/source.c"
#
# Prints, per stage, each file (or unit) and those of its stage it calls; exits 1
# when a stage listed in --stages (default: every stage) has a circle, and
# names the files in or between the circles.
set -u
stages=
if [ "${1:-}" = --stages ]; then
	stages=$2
	shift 2
fi
command -v nm > /dev/null 2>&1 || { echo "file_cycles: nm not found"; exit 1; }
# CMake may pass $<TARGET_OBJECTS:...> as one ;-separated argument; the
# objects of src/<stage>/ only (not src/main.c, not generated sources)
list=$(mktemp)
syms=$(mktemp)
trap 'rm -f "$list" "$syms"' EXIT
printf '%s\n' "$@" | tr ';' '\n' | grep '\.dir/src/[^/]*/.*\.o$' > "$list"
[ -s "$list" ] || { echo "usage: file_cycles.sh [--stages LIST] OBJECT..."; exit 2; }
while IFS= read -r o; do
	[ -f "$o" ] || { echo "file_cycles: object file missing: $o"; exit 1; }
done < "$list"
# one nm for every object (an nm per object is most of the time on a
# loaded machine): "OBJECT: SYMBOL TYPE [VALUE SIZE]"
tr '\n' '\0' < "$list" | xargs -0 nm -A -P > "$syms" || { echo "file_cycles: nm failed"; exit 1; }
awk -v only="$stages" -v units="$units" '
function stage(p,   a) { split(p, a, "/"); return a[2] }
BEGIN {
	nu_ = split(units, ul, "\n")
	for (i = 1; i <= nu_; i++) {
		split(ul[i], kv, "=")
		m_ = split(kv[2], fl, ",")
		# the unit is named after its stage folder, so stage() still works
		for (j = 1; j <= m_; j++) unit[fl[j]] = substr(fl[1], 1, match(fl[1], /[^\/]*$/) - 1) "{" kv[1] "}"
	}
}
function node(f) { return (f in unit) ? unit[f] : f }
{
	# OBJECT is .../servelint_core.dir/src/check/rules.c.o: src/check/rules.c
	k = index($0, ".o: ")
	if (!k) next
	f = substr($0, 1, k - 1)
	sub(/.*\.dir\//, "", f)
	f = node(f)
	split(substr($0, k + 4), w, " ")
	files[f] = 1
	if (w[2] == "U") { nu++; ufile[nu] = f; usym[nu] = w[1] }
	else if (w[2] ~ /^[A-TV-Z]$/) def[w[1]] = f   # a global it defines
}
END {
	for (i = 1; i <= nu; i++) {
		d = def[usym[i]]
		if (d == "" || d == ufile[i] || stage(d) != stage(ufile[i]))
			continue
		if (!((ufile[i], d) in edge)) {
			edge[ufile[i], d] = 1
			out[ufile[i]]++
			callees[ufile[i]] = callees[ufile[i]] " " d
		}
	}
	# Kahn: take away, again and again, the files that call no file left;
	# what cannot be taken away is in a circle or calls into one
	for (f in files) left[f] = out[f] + 0
	do {
		changed = 0
		for (f in files)
			if (!(f in gone) && left[f] == 0) {
				gone[f] = 1
				changed = 1
				for (g in files)
					if ((g, f) in edge)
						left[g]--
			}
	} while (changed)
	n = 0
	for (f in files) names[++n] = f
	# sort the names (insertion sort: a few dozen files)
	for (i = 2; i <= n; i++) {
		v = names[i]
		for (j = i - 1; j > 0 && names[j] > v; j--) names[j + 1] = names[j]
		names[j + 1] = v
	}
	if (only != "") {
		k = split(only, sl, " ")
		for (i = 1; i <= k; i++) wanted[sl[i]] = 1
	}
	for (i = 1; i <= n; i++) {
		f = names[i]
		m = split(callees[f], cs, " ")
		for (a = 2; a <= m; a++) {
			v = cs[a]
			for (b = a - 1; b > 0 && cs[b] > v; b--) cs[b + 1] = cs[b]
			cs[b + 1] = v
		}
		line = ""
		for (a = 1; a <= m; a++) { sub(/^src\/[^\/]*\//, "", cs[a]); line = line " " cs[a] }
		circ = (f in gone) ? "" : "  CIRCLE"
		print f ":" line circ
		if (!(f in gone) && (only == "" || stage(f) in wanted)) {
			bad = 1
			failed[stage(f)] = failed[stage(f)] " " f
		}
	}
	for (s in failed) print "file_cycles: files of " s "/ that call each other in a circle:" failed[s]
	exit bad
}' "$syms"
