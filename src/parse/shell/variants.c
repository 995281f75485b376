/*
 * variants.c: the alternatives of one reading. A reading records the
 * undecided conditionals it meets and follows the alternative its choice
 * vector names; labels say in words what each alternative assumes, for the
 * reports. Every combination is read by readings.c, above the driver.
 */
#include "internal.h"


/* The source text of [a, b), blanks collapsed, at most 80 bytes. */
char *sh_label_text(walker *w, size_t a, size_t b, const char *prefix)
{
	sl_buf l = {0};
	sl_buf_puts(&l, prefix);
	int blank = 0;
	for (size_t i = a; i < b && l.len < 80 + strlen(prefix); i++) {
		char ch = w->v.text[i];
		if (ch == '\\' && i + 1 < b && w->v.text[i + 1] == '\n') {
			i++;
			blank = 1;
			continue;
		}
		if (ch == ' ' || ch == '\t' || ch == '\n') {
			blank = 1;
			continue;
		}
		if (blank && l.len > strlen(prefix))
			sl_buf_putc(&l, ' ');
		blank = 0;
		sl_buf_putc(&l, ch);
	}
	if (l.len >= 80 + strlen(prefix))
		sl_buf_puts(&l, "...");
	/* the place: "line N" in the script, "FILE:N" in a file it sources */
	sl_buf_puts(&l, " (");
	sl_source_place(&l, w->v.src, sh_src_off(&w->v, a), 0, 0);
	sl_buf_putc(&l, ')');
	return sl_buf_detach(&l);
}

/* Two labels say the same but for their place (" (line N)"): the same test. A
 * last alternative that is the fallback ("not ...", "no branch of the if")
 * matches any other fallback. */
static int same_label(const char *a, const char *b, int last)
{
	if (last) {
		int fa = !strncmp(a, "not ", 4) || !strncmp(a, "no ", 3);
		int fb = !strncmp(b, "not ", 4) || !strncmp(b, "no ", 3);
		if (fa && fb)
			return 1;
	}
	const char *pa = sl_label_place(a), *pb = sl_label_place(b);
	size_t la = pa ? (size_t)(pa - a) : strlen(a), lb = pb ? (size_t)(pb - b) : strlen(b);
	return la == lb && !memcmp(a, b, la);
}

/* Which of n alternatives to follow at an undecided conditional; records
 * the point (once per conditional: a loop meets it again). The same
 * condition tested again (`if [ "$DP_ATTENTION" = true ]` at two places,
 * its variables not assigned in between) is the same decision: it follows
 * the earlier one and is no new point. That holds condition by condition:
 * `if [ "$M" = true ]; then ..; else ..; fi` after `if [ "$M" = true ];
 * elif [ "$T" = true ]; else` takes its else when the earlier chain took
 * its elif or else, and an `if [ "$T" = true ]` inside that else takes
 * the branch the elif's choice says. A conditional fixed (sl_shell_opts)
 * follows an earlier decision too, else its first alternative. Takes
 * labels. */
#define NOT_READ 0xffffffffu  /* choose: no alternative is read */

static unsigned choose(walker *w, TSNode node, char **labels, unsigned n, int stateless)
{
	uint32_t off = sh_src_off(&w->v, ts_node_start_byte(node));
	for (size_t i = 0; i < w->s->npoints; i++) {
		const sl_branch_point *p = &w->s->points[i];
		int same = p->off == off;
		for (unsigned k = 0; !same && p->n == n && k < n; k++) {
			if (!same_label(p->labels[k], labels[k], k + 1 == n) || sh_stale(w, i, labels[k]))
				break;
			same = k + 1 == n;
		}
		if (same) {
			for (unsigned k = 0; k < n; k++)
				free(labels[k]);
			free(labels);
			return p->taken;
		}
	}
	/* each condition in turn, as far as earlier decisions tell; those
	 * known not to run before the first not known (k0) are no
	 * alternatives of the point */
	unsigned k0 = 0;
	for (unsigned k = 0; k < n; k++) {
		int v = sh_implied(w, labels, n, k);
		if (v == 0)
			continue;
		if (v == 1) {
			for (unsigned q = 0; q < n; q++)
				free(labels[q]);
			free(labels);
			return k;
		}
		k0 = k;
		break;
	}
	/* fixed, and not told by an earlier decision: its first alternative */
	for (size_t i = 0; i < w->nfixed; i++)
		if (w->fixed[i] == off) {
			for (unsigned k = 0; k < n; k++)
				free(labels[k]);
			free(labels);
			return k0;
		}
	if (!stateless && sh_src_off(&w->v, ts_node_start_byte(node)) > w->v.src->len) {
		/* a sourced file's own decision that changes state (a library's
		 * checks of the harness's state, its monitors and evals): not a
		 * variant of the script, whose undecided conditionals would
		 * multiply past the limit; the caller makes what it assigns
		 * unknown */
		for (unsigned q = 0; q < n; q++)
			free(labels[q]);
		free(labels);
		return NOT_READ;
	}
	if (k0) {
		for (unsigned q = 0; q < k0; q++)
			free(labels[q]);
		memmove(labels, labels + k0, (n - k0) * sizeof *labels);
		n -= k0;
	}
	size_t k = w->s->npoints;
	unsigned c = k < w->nchoice ? w->choice[k] : 0;
	for (size_t i = 0; i < w->nat; i++)
		if (w->at[i].off == off) {
			c = w->at[i].alt;
			break;
		}
	if (c >= n)
		c = n - 1;
	sl_branch_point p = {off, n, labels, c, stateless};
	SL_PUSH(w->s->points, w->s->npoints, w->pt_cap, p);
	sl_grow((void **)&w->pt_vars, &w->pt_vars_cap, w->s->npoints, sizeof *w->pt_vars);
	w->pt_vars[w->s->npoints - 1] = w->vars.n;
	return k0 + c;
}

/* The alternative to read among na labelled ones (labels are taken: freed
 * here or by choose), or -1 when the reading failed or there is none, or
 * -2 when none is read: an undecided conditional of a sourced file that
 * changes state (the caller forgets what its alternatives assign). */
int sh_pick_alternative(walker *w, TSNode node, char **labels, unsigned na, int stateless)
{
	if (w->failed || na == 0) {
		for (unsigned i = 0; i < na; i++)
			free(labels[i]);
		free(labels);
		return -1;
	}
	if (na > 1) {
		unsigned c = choose(w, node, labels, na, stateless);
		return c == NOT_READ ? -2 : (int)c;
	}
	free(labels[0]);
	free(labels);
	return 0;
}

/* Commands that change what later statements see, though written as
 * commands. */
static int changes_state(const char *s, size_t n)
{
	static const char *const names[] = {
		"exit", "return", "source", ".", "eval", "cd", "pushd", "popd", "shift", "export",
		"set", "unset", "break", "continue", "declare", "typeset", "local", "readonly", "exec",
		"read", "mapfile", "readarray", "getopts", "let", "alias", "trap", "shopt",
	};
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (strlen(names[i]) == n && !memcmp(names[i], s, n))
			return 1;
	return 0;
}

/* Whether an assignment node writes only a variable no command that may
 * serve reads (relevant.c), or is the env of its command alone (a prefix). */
static int unread_assignment(walker *w, TSNode a, int prefix)
{
	if (prefix)
		return 1;
	TSNode lhs = ts_node_named_child(a, 0);
	if (!ts_node_is_null(lhs) && ts_node_symbol(lhs) == sh_sym.subscript)
		lhs = ts_node_child_by_field_id(lhs, sh_sym.f.name);
	if (ts_node_is_null(lhs) || ts_node_symbol(lhs) != sh_sym.variable_name)
		return 0;
	size_t a0 = ts_node_start_byte(lhs), b0 = ts_node_end_byte(lhs);
	return !sh_relevant(sh_relevance(w), w->v.text + a0, b0 - a0);
}

/* Whether a declaration is `export` of names no command that may serve
 * reads (relevant.c: an export after the last server starts reaches none):
 * its assignments are checked as the walk meets them. */
static int unread_export(walker *w, TSNode d)
{
	uint32_t n = ts_node_child_count(d);
	if (!n)
		return 0;
	TSNode kw = sh_child(w, d, 0);
	size_t a = ts_node_start_byte(kw), b = ts_node_end_byte(kw);
	if (b - a != 6 || memcmp(w->v.text + a, "export", 6))
		return 0;
	for (uint32_t i = 1; i < n; i++) {
		TSNode c = sh_child(w, d, i);
		if (!ts_node_is_named(c))
			continue;
		size_t ca = ts_node_start_byte(c), cb = ts_node_end_byte(c);
		if (ts_node_symbol(c) == sh_sym.variable_name) {
			if (sh_relevant(sh_relevance(w), w->v.text + ca, cb - ca))
				return 0;
		} else if (ts_node_symbol(c) != sh_sym.variable_assignment) {
			return 0;  /* export -f, -n, a computed name */
		}
	}
	return 1;
}

/*
 * Whether the statements [from, to) of holder's children change nothing a
 * later statement sees: no assignment or declaration, no here-document, no
 * loop (it sets its variable), no arithmetic or ${X:=d} that may assign, no
 * printf -v, no command that changes the shell (exit, export, source, cd,
 * ...), none whose name is computed, and no call of a function the script
 * defines. Such an alternative differs from another only in the commands it
 * runs. With unread, plain assignments (and exports) are let through where
 * they write only variables that no command that may serve reads, directly
 * or through others (relevant.c): later statements see other values, but
 * no engine reads them. That holds only of the script's own text (a view of a
 * sourced file or of a `bash -c` string is not what relevant.c walked).
 */
static int quiet(walker *w, TSNode holder, uint32_t from, uint32_t to, int unread)
{
	if (unread && (w->v.map || ts_node_is_null(w->root)))
		unread = 0;
	for (uint32_t i = from; i < to; i++) {
		TSNode top = sh_child(w, holder, i);
		if (!ts_node_is_named(top))
			continue;
		TSTreeCursor c = ts_tree_cursor_new(top);
		int ok = 1;
		size_t pre_from = 0, pre_to = 0;  /* the prefix of the last command met */
		for (;;) {
			TSNode x = ts_tree_cursor_current_node(&c);
			TSSymbol k = ts_node_symbol(x);
			size_t xa = ts_node_start_byte(x), xb = ts_node_end_byte(x);
			if (k == sh_sym.variable_assignment) {
				ok = unread && unread_assignment(w, x, xa >= pre_from && xb <= pre_to);
			} else if (k == sh_sym.arithmetic_expansion ||
				   (k == sh_sym.test_command && xb - xa > 2 && !memcmp(w->v.text + xa, "((", 2))) {
				/* $((X = 1)), (( i++ )) assign */
				ok = !sh_arith_writes(w->v.text + xa, xb - xa) &&
				     (unread || k == sh_sym.test_command);
			} else if (k == sh_sym.declaration_command && unread) {
				ok = unread_export(w, x);
			} else if (k == sh_sym.declaration_command || k == sh_sym.function_definition ||
				   k == sh_sym.heredoc_redirect || k == sh_sym.for_statement ||
				   k == sh_sym.c_style_for_statement || k == sh_sym.while_statement ||
				   k == sh_sym.unset_command || !strcmp(ts_node_type(x), "compound_statement")) {
				ok = 0;
			} else if (k == sh_sym.expansion) {
				size_t a = ts_node_start_byte(x), b = ts_node_end_byte(x);
				ok = !memchr(w->v.text + a, '=', b - a);
			} else if (k == sh_sym.command) {
				TSNode nm = ts_node_child_by_field_id(x, sh_sym.f.name);
				pre_from = xa;
				pre_to = ts_node_is_null(nm) ? xa : ts_node_start_byte(nm);
				if (ts_node_is_null(nm) || ts_node_named_child_count(nm) != 1 ||
				    strcmp(ts_node_type(ts_node_named_child(nm, 0)), "word")) {
					ok = 0;
				} else {
					size_t a = ts_node_start_byte(nm), b = ts_node_end_byte(nm);
					ok = !changes_state(w->v.text + a, b - a);
					if (ok && b - a == 6 && !memcmp(w->v.text + a, "printf", 6))
						for (uint32_t q = 0; q < ts_node_named_child_count(x) && ok; q++) {
							TSNode g = ts_node_named_child(x, q);
							size_t ga = ts_node_start_byte(g), gb = ts_node_end_byte(g);
							ok = !(gb - ga == 2 && !memcmp(w->v.text + ga, "-v", 2));
						}
					for (size_t f = 0; f < w->nfns && ok; f++)
						ok = !(strlen(w->fns[f].name) == b - a &&
						       !memcmp(w->fns[f].name, w->v.text + a, b - a));
				}
			}
			if (!ok)
				break;
			if (!sh_cursor_next(&c))
				break;
		}
		ts_tree_cursor_delete(&c);
		if (!ok)
			return 0;
	}
	return 1;
}

int sh_stateless(walker *w, TSNode holder, uint32_t from, uint32_t to)
{
	return quiet(w, holder, from, to, 0);
}

int sh_unread_by_engines(walker *w, TSNode holder, uint32_t from, uint32_t to)
{
	return quiet(w, holder, from, to, 1);
}

char *sl_script_variant_label(const sl_script *s)
{
	if (!s->npoints)
		return NULL;
	sl_buf b = {0};
	for (size_t i = 0; i < s->npoints; i++) {
		if (i)
			sl_buf_puts(&b, ", ");
		sl_buf_puts(&b, s->points[i].labels[s->points[i].taken]);
	}
	if (s->exited) {
		sl_buf_puts(&b, ", then exit (");
		sl_source_place(&b, s->src, s->exit_off, 0, 0);
		sl_buf_putc(&b, ')');
	}
	return sl_buf_detach(&b);
}
