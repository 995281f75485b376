/*
 * errors.c: input refused before the walk. Syntax errors are reported at the
 * first ERROR or MISSING node, named by their likely cause (an unclosed
 * quote, array or here-document) since tree-sitter's own recovery point is
 * often far from it; nesting is checked iteratively, so that no input can
 * exhaust the stack of the recursive walk that follows.
 */
#include "internal.h"

static int first_error(TSNode node, TSNode *out, unsigned depth)
{
	if (depth > 100000)
		return 0;
	if (ts_node_is_missing(node) || !strcmp(ts_node_type(node), "ERROR")) {
		*out = node;
		return 1;
	}
	if (!ts_node_has_error(node))
		return 0;
	uint32_t n = ts_node_child_count(node);
	for (uint32_t i = 0; i < n; i++)
		if (first_error(ts_node_child(node, i), out, depth + 1))
			return 1;
	return 0;
}

void sh_report_syntax_error(walker *w, TSNode root)
{
	/* Iterative descent with a cursor (trees of hostile input can be very
	 * deep, and very wide: ts_node_child(n, i) walks from the first child),
	 * keeping the path: climbing back with ts_node_parent, which walks down
	 * from the root each time, would be O(depth^2). */
	TSNode *path = NULL;
	size_t np = 0, pcap = 0;
	TSTreeCursor cur = ts_tree_cursor_new(root);
	TSNode n = root;
	for (;;) {
		SL_PUSH(path, np, pcap, n);
		if (ts_node_is_missing(n) || !strcmp(ts_node_type(n), "ERROR"))
			break;
		int moved = 0;
		if (ts_tree_cursor_goto_first_child(&cur)) {
			do {
				TSNode c = ts_tree_cursor_current_node(&cur);
				if (ts_node_has_error(c) || ts_node_is_missing(c)) {
					n = c;
					moved = 1;
					break;
				}
			} while (ts_tree_cursor_goto_next_sibling(&cur));
		}
		if (!moved)
			break;
	}
	ts_tree_cursor_delete(&cur);
	TSNode bad = path[np - 1], parent = np > 1 ? path[np - 2] : root;
	(void)first_error;
	size_t a = ts_node_start_byte(bad);
	const char *t = w->v.text;
	/* Name what was left open: a here-document, an array. */
	TSNode up = parent;  /* ts_node_parent is unreliable for zero-width nodes */
	if (ts_node_is_missing(bad) && !strcmp(ts_node_type(bad), "heredoc_end")) {
		TSNode st = {0};
		int have = 0;
		uint32_t k;
		size_t kb = sh_kids(w, up, 0, &k);
		for (uint32_t i = 0; i < k && !have; i++)
			if (!strcmp(ts_node_type(KID(i)), "heredoc_start")) {
				st = KID(i);
				have = 1;
			}
		w->pool_n = kb;
		if (have) {
			unsigned l, c;
			sl_source_pos(w->v.src, sh_src_off(&w->v, ts_node_start_byte(up)), &l, &c);
			sl_buf m = {0};
			size_t sa = ts_node_start_byte(st), sb = ts_node_end_byte(st);
			sl_buf_printf(&m, "unterminated here-document: `<<%.*s` at line %u, column %u has no closing line",
				      (int)(sb - sa), t + sa, l, c);
			sh_fail_at(w, a, "%s", m.data);
			sl_buf_free(&m);
			goto done;
		}
	}
	for (size_t i = ts_node_is_missing(bad) ? np - 1 : np; i-- > 0;) {
		TSNode p = path[i];
		if (ts_node_symbol(p) != sh_sym.array)
			continue;
		unsigned l, c;
		sl_source_pos(w->v.src, sh_src_off(&w->v, ts_node_start_byte(p)), &l, &c);
		sl_buf m = {0};
		if (ts_node_is_missing(bad))
			sl_buf_printf(&m, "unterminated array: the `(` at line %u, column %u is never closed", l, c);
		else
			sl_buf_printf(&m, "syntax error in the array opened at line %u, column %u (an unclosed `(`?)", l, c);
		sh_fail_at(w, a, "%s", m.data);
		sl_buf_free(&m);
		goto done;
	}
	if (ts_node_is_missing(bad)) {
		sh_fail_at(w, a, "syntax error: missing `%s`", ts_node_type(bad));
		goto done;
	}
	/* Name the likely cause: an opening quote without its closing one. */
	for (size_t i = a; i < ts_node_end_byte(bad); i++) {
		if (t[i] == '"' || t[i] == '\'') {
			sh_fail_at(w, i, "syntax error: unterminated %s quote",
				t[i] == '"' ? "double" : "single");
			goto done;
		}
		if (t[i] != ' ' && t[i] != '\t' && t[i] != '\n')
			break;
	}
	size_t e = a;
	while (e < w->v.len && e - a < 20 && t[e] != '\n')
		e++;
	char *near = sl_strndup(t + a, e - a);
	sh_fail_at(w, a, "syntax error near `%s`", near);
	free(near);
done:
	free(path);
}

/*
 * Substitutions, expansions, strings and subshells nested in one another
 * beyond SL_MAX_NESTING are refused before any recursive walk starts. The
 * check itself is iterative (a tree cursor), so no input can exhaust the
 * stack here; long `a && b && ...` chains are deep trees but not nesting.
 */
static int nests(TSSymbol t_sym)
{
	return (t_sym == sh_sym.command_substitution) || (t_sym == sh_sym.expansion) ||
	       (t_sym == sh_sym.string) || (t_sym == sh_sym.subshell) || (t_sym == sh_sym.arithmetic_expansion) ||
	       (t_sym == sh_sym.process_substitution) || (t_sym == sh_sym.compound_statement) ||
	       (t_sym == sh_sym.do_group);
}

/* Where a nesting node can start: each of those types opens with `$`, a
 * backquote, `"`, `(`, `{`, `<`, `>` or `do` (tree-sitter-bash's grammar.js:
 * `$(`, `` ` ``, `${`, `"`, `(`, `$((`/`((`/`$[`, `<(`/`>(`, `{`, `do`), and
 * nested ones start at distinct bytes. The masked text the parser read
 * differs only by blanks and underscores, which open nothing. */
static int opens(const char *t, size_t i, size_t len)
{
	switch (t[i]) {
	case '$': case '`': case '"': case '(': case '{': case '<': case '>':
		return 1;
	case 'd':
		return i + 1 < len && t[i + 1] == 'o';
	default:
		return 0;
	}
}

#define OPEN_BLOCK 16

/* How many bytes of [0, x) can open a nesting node: counts per block of
 * OPEN_BLOCK bytes, the rest of the last block counted. */
static size_t opens_before(const char *t, size_t len, const uint32_t *blocks, size_t x)
{
	size_t b = x / OPEN_BLOCK, n = blocks[b];
	for (size_t i = b * OPEN_BLOCK; i < x; i++)
		n += (size_t)opens(t, i, len);
	return n;
}

int sh_check_nesting(walker *w, TSNode root)
{
	/* A node with no more bytes that can open a nesting node than the
	 * levels left cannot go past the limit however it nests: its subtree
	 * is not walked (most of a script's statements; walking every node with
	 * the cursor cost a third of the shell reader's walk). */
	const char *t = w->v.text;
	size_t len = w->v.len;
	uint32_t *blocks = sl_malloc((len / OPEN_BLOCK + 1) * sizeof *blocks);
	blocks[0] = 0;
	for (size_t b = 1, n = 0; b <= len / OPEN_BLOCK; b++) {
		for (size_t i = (b - 1) * OPEN_BLOCK; i < b * OPEN_BLOCK; i++)
			n += (size_t)opens(t, i, len);
		blocks[b] = (uint32_t)n;
	}
	TSTreeCursor cur = ts_tree_cursor_new(root);
	unsigned char *stack = NULL;
	size_t depth = 0, cap = 0, level = 0;
	int bad = 0;
	for (;;) {
		TSNode n = ts_tree_cursor_current_node(&cur);
		size_t a = ts_node_start_byte(n), e = ts_node_end_byte(n);
		if (e > len)
			e = len;
		int inside = a < e && level + opens_before(t, len, blocks, e) - opens_before(t, len, blocks, a) > SL_MAX_NESTING;
		unsigned char here = inside ? (unsigned char)nests(ts_node_symbol(n)) : 0;
		sl_grow((void **)&stack, &cap, depth + 1, 1);
		stack[depth] = here;
		level += here;
		if (level > SL_MAX_NESTING) {
			sh_fail_at(w, ts_node_start_byte(n), "nesting deeper than the limit of %s levels", "64");
			bad = 1;
			break;
		}
		if (inside && ts_tree_cursor_goto_first_child(&cur)) {
			depth++;
			continue;
		}
		for (;;) {
			level -= stack[depth];
			if (ts_tree_cursor_goto_next_sibling(&cur))
				break;
			if (!ts_tree_cursor_goto_parent(&cur)) {
				ts_tree_cursor_delete(&cur);
				free(stack);
				free(blocks);
				return 0;
			}
			depth--;
		}
	}
	ts_tree_cursor_delete(&cur);
	free(stack);
	free(blocks);
	return bad;
}
