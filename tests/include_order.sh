#!/bin/sh
# tests/include_order.sh [SRC]: DESIGN.md's rule, kept true in code: "a
# stage includes only the headers of stages before it". Every `#include
# "..."` under src/ is resolved (beside the file, else from src/) and each
# file mapped to its stage, the first folder under src/ (src/main.c is
# `main`). A file may include its own stage's headers and the public
# header S/S.h of an earlier stage S, never a later stage's, a sibling's
# (stages joined by | below), another stage's internal.h or other private
# header. Includes between the files of one stage must not go round in a
# circle. Each violation is printed as FILE:LINE: why; exit 1 if any.
#
# The stage order, earliest first, as the code has it: DESIGN.md writes
# normalize before model, but normalize.h builds on model.h and model.h
# needs only source.h; exec is DESIGN's `run`.
order="util source parse model normalize plan entry check|diff|exec report cmd main"

set -eu
cd "$(dirname "$0")/.."
src=${1:-src}

find "$src" -name '*.[ch]' | LC_ALL=C sort | while read -r f; do
	grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" |
		sed "s|^\([0-9]*\):[^\"]*\"\([^\"]*\)\".*|$f \1 \2|" || true
done | awk -v src="$src" -v order="$order" '
function norm(p,   n, a, i, k, out, st) {
	n = split(p, a, "/"); k = 0
	for (i = 1; i <= n; i++)
		if (a[i] == "..") k--
		else if (a[i] != "." && a[i] != "") st[++k] = a[i]
	out = (substr(p, 1, 1) == "/" ? "/" : "") st[1]
	for (i = 2; i <= k; i++) out = out "/" st[i]
	return out
}
function exists(p,   line, r) {
	r = (getline line < p) >= 0
	close(p)
	return r
}
function stage(p,   rest) {
	rest = substr(p, length(src) + 2)
	return index(rest, "/") ? substr(rest, 1, index(rest, "/") - 1) : "main"
}
BEGIN {
	src = norm(src)
	n = split(order, stages, " ")
	for (i = 1; i <= n; i++) {
		m = split(stages[i], g, "|")
		for (j = 1; j <= m; j++) rank[g[j]] = i
	}
	bad = 0
}
{
	file = norm($1); line = $2; inc = $3
	dir = file; sub(/\/[^\/]*$/, "", dir)
	if (exists(dir "/" inc)) target = norm(dir "/" inc)
	else if (exists(src "/" inc)) target = norm(src "/" inc)
	else next   # a system or generated header
	s = stage(file); t = stage(target)
	where = file ":" line ": "
	if (!(s in rank)) { print where "stage `" s "` is not in the order of tests/include_order.sh"; bad = 1; next }
	if (!(t in rank)) { print where "stage `" t "` is not in the order of tests/include_order.sh"; bad = 1; next }
	if (s == t) {
		from[file] = from[file] " " target
		at[file, target] = line
		next
	}
	if (rank[t] > rank[s])
		print where "the " s " stage includes " target " of the later " t " stage"
	else if (rank[t] == rank[s])
		print where "the " s " stage includes " target " of its sibling " t " stage"
	else if (target != src "/" t "/" t ".h")
		print where "the " s " stage includes " target ", not the " t " stage public header " t ".h"
	else
		next
	bad = 1
}
# a circle inside a stage: a file reached again while it is being visited
function visit(f,   k, n, a, w) {
	color[f] = 1
	n = split(from[f], a, " ")
	for (k = 1; k <= n; k++) {
		w = a[k]
		if (color[w] == 1) {
			print f ":" at[f, w] ": includes " w ", which leads back to it: a circle of includes"
			bad = 1
		} else if (!color[w])
			visit(w)
	}
	color[f] = 2
}
END {
	for (f in from)
		if (!color[f]) visit(f)
	exit bad
}'
