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
	unsigned line, col;
	sl_source_pos(w->v.src, sh_src_off(&w->v, a), &line, &col);
	sl_buf_printf(&l, " (line %u)", line);
	return sl_buf_detach(&l);
}

/* Two labels say the same but for their " (line N)": the same test. A
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
	const char *pa = strstr(a, " (line "), *pb = strstr(b, " (line ");
	size_t la = pa ? (size_t)(pa - a) : strlen(a), lb = pb ? (size_t)(pb - b) : strlen(b);
	return la == lb && !memcmp(a, b, la);
}

/* Which of n alternatives to follow at an undecided conditional; records
 * the point (once per conditional: a loop meets it again). The same
 * condition tested again (`if [ "$DP_ATTENTION" = true ]` at two places,
 * its variables still unknown) is the same decision: it follows the
 * earlier one and is no new point. Takes labels. */
static unsigned choose(walker *w, TSNode node, char **labels, unsigned n, int stateless)
{
	uint32_t off = sh_src_off(&w->v, ts_node_start_byte(node));
	for (size_t i = 0; i < w->nfixed; i++)
		if (w->fixed[i] == off) {
			for (unsigned k = 0; k < n; k++)
				free(labels[k]);
			free(labels);
			return 0;
		}
	for (size_t i = 0; i < w->s->npoints; i++) {
		const sl_branch_point *p = &w->s->points[i];
		int same = p->off == off;
		for (unsigned k = 0; !same && p->n == n && k < n; k++) {
			if (!same_label(p->labels[k], labels[k], k + 1 == n))
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
	size_t k = w->s->npoints;
	unsigned c = k < w->nchoice ? w->choice[k] : 0;
	if (c >= n)
		c = n - 1;
	sl_branch_point p = {off, n, labels, c, stateless};
	SL_PUSH(w->s->points, w->s->npoints, w->pt_cap, p);
	return c;
}

/* The alternative to read among na labelled ones (labels are taken: freed
 * here or by choose), or -1 when the reading failed or there is none. */
int sh_pick_alternative(walker *w, TSNode node, char **labels, unsigned na, int stateless)
{
	if (w->failed || na == 0) {
		for (unsigned i = 0; i < na; i++)
			free(labels[i]);
		free(labels);
		return -1;
	}
	if (na > 1)
		return (int)choose(w, node, labels, na, stateless);
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

/*
 * Whether the statements [from, to) of holder's children change nothing a
 * later statement sees: no assignment or declaration, no here-document, no
 * loop (it sets its variable), no arithmetic or ${X:=d} (they may assign),
 * no command that changes the shell (exit, export, source, cd, ...), none
 * whose name is computed, and no call of a function the script defines.
 * Such an alternative differs from another only in the commands it runs.
 */
int sh_stateless(walker *w, TSNode holder, uint32_t from, uint32_t to)
{
	for (uint32_t i = from; i < to; i++) {
		TSNode top = ts_node_child(holder, i);
		if (!ts_node_is_named(top))
			continue;
		TSTreeCursor c = ts_tree_cursor_new(top);
		int ok = 1;
		for (;;) {
			TSNode x = ts_tree_cursor_current_node(&c);
			TSSymbol k = ts_node_symbol(x);
			if (k == sh_sym.variable_assignment || k == sh_sym.declaration_command ||
			    k == sh_sym.function_definition || k == sh_sym.heredoc_redirect ||
			    k == sh_sym.for_statement || k == sh_sym.c_style_for_statement ||
			    k == sh_sym.while_statement || k == sh_sym.arithmetic_expansion ||
			    !strcmp(ts_node_type(x), "unset_command") ||
			    !strcmp(ts_node_type(x), "compound_statement")) {
				ok = 0;
			} else if (k == sh_sym.expansion) {
				size_t a = ts_node_start_byte(x), b = ts_node_end_byte(x);
				ok = !memchr(w->v.text + a, '=', b - a);
			} else if (k == sh_sym.command) {
				TSNode nm = ts_node_child_by_field_name(x, "name", 4);
				if (ts_node_is_null(nm) || ts_node_named_child_count(nm) != 1 ||
				    strcmp(ts_node_type(ts_node_named_child(nm, 0)), "word")) {
					ok = 0;
				} else {
					size_t a = ts_node_start_byte(nm), b = ts_node_end_byte(nm);
					ok = !changes_state(w->v.text + a, b - a);
					for (size_t f = 0; f < w->nfns && ok; f++)
						ok = !(strlen(w->fns[f].name) == b - a &&
						       !memcmp(w->fns[f].name, w->v.text + a, b - a));
				}
			}
			if (!ok)
				break;
			if (ts_tree_cursor_goto_first_child(&c))
				continue;
			int more = 0;
			while (!(more = ts_tree_cursor_goto_next_sibling(&c)))
				if (!ts_tree_cursor_goto_parent(&c))
					break;
			if (!more)
				break;
		}
		ts_tree_cursor_delete(&c);
		if (!ok)
			return 0;
	}
	return 1;
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
		unsigned line, col;
		sl_source_pos(s->src, s->exit_off, &line, &col);
		sl_buf_printf(&b, ", then exit (line %u)", line);
	}
	return sl_buf_detach(&b);
}
