/*
 * shell.c: the parts of the shell reader not yet split into src/parse/shell/
 * (see shell/internal.h).
 */
#include "shell/internal.h"

#include <fnmatch.h>

void sh_walk_children(walker *w, TSNode node)
{
	uint32_t n;
	size_t kb = sh_kids(w, node, 0, &n);
	for (uint32_t i = 0; i < n && !w->failed; i++) {
		TSNode c = KID(i);
		if (!ts_node_is_named(c))
			continue;
		int bg = 0;
		if (i + 1 < n) {
			TSNode nx = KID(i + 1);
			bg = !ts_node_is_named(nx) && !strcmp(ts_node_type(nx), "&");
		}
		sh_walk_statement(w, c, bg);
	}
	w->pool_n = kb;
}

void sh_walk_comment(walker *w, TSNode node)
{
	size_t a = ts_node_start_byte(node), b = ts_node_end_byte(node);
	sl_comment c;
	c.start = sh_src_off(&w->v, a);
	c.end = sh_src_off(&w->v, b);
	unsigned col;
	sl_source_pos(w->v.src, c.start, &c.line, &col);
	c.text = sl_strndup(w->v.text + a + 1, b - a - 1);
	c.own_line = 1;
	for (size_t i = a; i > 0 && w->v.text[i - 1] != '\n'; i--)
		if (w->v.text[i - 1] != ' ' && w->v.text[i - 1] != '\t')
			c.own_line = 0;
	SL_PUSH(w->s->comments, w->s->ncomments, w->com_cap, c);
}

void sh_walk_for(walker *w, TSNode node)
{
	TSNode var = {0}, body = {0};
	int have_var = 0, have_body = 0;
	sl_word *vals = NULL;
	size_t nvals = 0, vcap = 0;
	uint32_t nc;
	size_t kb = sh_kids(w, node, 1, &nc);
	for (uint32_t i = 0; i < nc && !w->failed; i++) {
		TSNode c = KID(i);
		const char *t = ts_node_type(c);
	TSSymbol t_sym = ts_node_symbol(c);
	(void)t;
		if ((t_sym == sh_sym.variable_name) && !have_var) {
			var = c;
			have_var = 1;
		} else if ((t_sym == sh_sym.do_group) || (t_sym == sh_sym.compound_statement)) {
			body = c;
			have_body = 1;
		} else if ((t_sym == sh_sym.comment)) {
			sh_walk_comment(w, c);
		} else {
			/* `for g in $GPUS`: an unquoted expansion splits into words */
			sh_eval_fields(w, c, &vals, &nvals, &vcap);
		}
	}
	if (!have_var || !have_body || w->failed) {
		if (!w->failed)
			sh_note(w, node, "for loop of a form not analysed (C-style or without a list)");
		goto out;
	}
	if (nvals > SL_MAX_LOOP_ITERATIONS) {
		sh_fail_at(w, ts_node_start_byte(node), "for loop over more than %s values", "1024");
		goto out;
	}
	size_t na = ts_node_start_byte(var), nb = ts_node_end_byte(var);
	char *name = sl_strndup(w->v.text + na, nb - na);
	const char *save_var = w->loop_var;
	const sl_word *save_val = w->loop_value;
	unsigned save_it = w->iteration, save_its = w->iterations;
	int save_in = w->in_head;
	uint32_t save_head = w->head;
	if (!w->in_head) {
		w->in_head = 1;
		w->head = sh_src_off(&w->v, ts_node_start_byte(node));
	}
	for (size_t k = 0; k < nvals && !w->failed; k++) {
		sh_var_set(w, name, &vals[k], vals[k].start, 0);
		w->loop_var = name;
		w->loop_value = &vals[k];
		w->iteration = (unsigned)k;
		w->iterations = (unsigned)nvals;
		/* comments inside the body are collected once */
		size_t ncom = w->s->ncomments;
		sh_walk_children(w, body);
		if (k > 0) {
			for (size_t i = ncom; i < w->s->ncomments; i++)
				free(w->s->comments[i].text);
			w->s->ncomments = ncom;
		}
	}
	w->loop_var = save_var;
	w->loop_value = save_val;
	w->iteration = save_it;
	w->iterations = save_its;
	w->in_head = save_in;
	w->head = save_head;
	free(name);
out:
	w->pool_n = kb;
	for (size_t i = 0; i < nvals; i++)
		sl_word_free(&vals[i]);
	free(vals);
}

/* `a && b || c` nests to the left; walk it with a stack, not recursion. */
static void walk_list(walker *w, TSNode node, int background)
{
	TSNode *items = NULL;
	size_t n = 0, cap = 0;
	TSNode cur = node;
	while ((ts_node_symbol(cur) == sh_sym.list) && ts_node_named_child_count(cur) >= 1) {
		uint32_t k = ts_node_named_child_count(cur);
		for (uint32_t i = k; i-- > 1;)
			SL_PUSH(items, n, cap, ts_node_named_child(cur, i));
		cur = ts_node_named_child(cur, 0);
	}
	SL_PUSH(items, n, cap, cur);
	w->in_list++;
	for (size_t i = n; i-- > 0 && !w->failed;)
		if (strcmp(ts_node_type(items[i]), "comment"))
			sh_walk_statement(w, items[i], background);
		else
			sh_walk_comment(w, items[i]);
	w->in_list--;
	free(items);
}

/* The statements of [from, to) of node's children (a branch body). */
static void walk_range(walker *w, TSNode node, uint32_t from, uint32_t to)
{
	for (uint32_t i = from; i < to && !w->failed && !w->s->exited; i++) {
		TSNode c = ts_node_child(node, i);
		if (!ts_node_is_named(c))
			continue;
		int bg = i + 1 < to && !ts_node_is_named(ts_node_child(node, i + 1)) &&
			 !strcmp(ts_node_type(ts_node_child(node, i + 1)), "&");
		sh_walk_statement(w, c, bg);
	}
}

typedef struct {
	TSNode holder;           /* the node whose children hold the branch */
	uint32_t cond_from, cond_to, body_from, body_to;
	int has_cond;
} if_branch;

/* The children of an if (or elif) between its keyword and `then` are the
 * condition; after it, up to the next elif/else/fi, the body. */
static void split_branch(TSNode node, if_branch *b)
{
	uint32_t k = ts_node_child_count(node);
	b->holder = node;
	b->cond_from = 1;
	b->cond_to = 1;
	b->body_from = k;
	b->body_to = k;
	b->has_cond = 1;
	for (uint32_t i = 0; i < k; i++) {
		TSNode c = ts_node_child(node, i);
		const char *t = ts_node_type(c);
		if (!strcmp(t, "then")) {
			b->cond_to = i;
			b->body_from = i + 1;
		} else if (b->body_from <= i && (!strcmp(t, "elif_clause") || !strcmp(t, "else_clause") ||
						 !strcmp(t, "fi"))) {
			b->body_to = i;
			break;
		}
	}
}

/* The last statement of a condition decides it. */
static int branch_cond(walker *w, const if_branch *b, size_t *a, size_t *e)
{
	TSNode last = {0};
	int have = 0;
	*a = *e = 0;
	for (uint32_t i = b->cond_from; i < b->cond_to; i++) {
		TSNode c = ts_node_child(b->holder, i);
		if (!ts_node_is_named(c) || ts_node_symbol(c) == sh_sym.comment)
			continue;
		if (!have)
			*a = ts_node_start_byte(c);
		*e = ts_node_end_byte(c);
		last = c;
		have = 1;
	}
	return have ? sh_cond_value(w, last, 0) : -1;
}

void sh_walk_if(walker *w, TSNode node)
{
	if_branch br[64];
	unsigned nb = 0;
	split_branch(node, &br[nb++]);
	int has_else = 0;
	uint32_t k = ts_node_child_count(node);
	for (uint32_t i = 0; i < k && nb < 64; i++) {
		TSNode c = ts_node_child(node, i);
		if (ts_node_symbol(c) == sh_sym.elif_clause) {
			split_branch(c, &br[nb++]);
		} else if (ts_node_symbol(c) == sh_sym.else_clause) {
			if_branch e = {c, 0, 0, 1, ts_node_child_count(c), 0};
			br[nb++] = e;
			has_else = 1;
		}
	}
	/* the alternatives still possible, in order; -1: no branch runs */
	int alt[65];
	char **labels = sl_calloc(65, sizeof *labels);
	unsigned na = 0;
	int decided = 0;
	for (unsigned i = 0; i < nb && !decided && !w->failed; i++) {
		if (!br[i].has_cond) {
			alt[na] = (int)i;
			/* `else` of a plain if: the negation of its condition */
			size_t ca, ce;
			if (nb == 2 && (branch_cond(w, &br[0], &ca, &ce), ce > ca))
				labels[na++] = sh_label_text(w, ca, ce, "not ");
			else
				labels[na++] = sh_label_text(w, ts_node_start_byte(br[i].holder),
							  ts_node_start_byte(br[i].holder) + 4, "");
			decided = 1;
			break;
		}
		size_t ca, ce;
		int v = branch_cond(w, &br[i], &ca, &ce);
		if (v == 0)
			continue;
		alt[na] = (int)i;
		labels[na++] = sh_label_text(w, ca, ce, i ? "elif " : "if ");
		if (v == 1)
			decided = 1;
	}
	if (!decided && !has_else && !w->failed) {
		alt[na] = -1;
		labels[na++] = sh_label_text(w, ts_node_start_byte(node), ts_node_start_byte(node) + 2,
					  "no branch of the ");
	}
	int pick = sh_pick_alternative(w, node, labels, na);
	if (pick < 0)
		return;
	if (alt[pick] >= 0) {
		const if_branch *b = &br[alt[pick]];
		walk_range(w, b->holder, b->body_from, b->body_to);
	}
}

void sh_walk_case(walker *w, TSNode node)
{
	TSNode val = ts_node_child_by_field_name(node, "value", 5);
	if (ts_node_is_null(val))
		return;
	sl_word v;
	int known = sh_cond_word(w, val, &v) == 0;
	TSNode items[64];
	unsigned ni = 0;
	uint32_t k = ts_node_child_count(node);
	for (uint32_t i = 0; i < k && ni < 64; i++)
		if (ts_node_symbol(ts_node_child(node, i)) == sh_sym.case_item)
			items[ni++] = ts_node_child(node, i);
	int alt[65];
	char **labels = sl_calloc(65, sizeof *labels);
	unsigned na = 0;
	int catch_all = 0;
	size_t vla = ts_node_start_byte(val), vle = ts_node_end_byte(val);
	for (unsigned i = 0; i < ni && !w->failed; i++) {
		/* the patterns: the item's children before `)` */
		uint32_t c = ts_node_child_count(items[i]);
		int match = 0, all = 0;
		size_t pe = ts_node_start_byte(items[i]);
		for (uint32_t q = 0; q < c; q++) {
			TSNode p = ts_node_child(items[i], q);
			if (!strcmp(ts_node_type(p), ")")) {
				pe = ts_node_start_byte(p);
				break;
			}
			if (!ts_node_is_named(p))
				continue;
			size_t pa = ts_node_start_byte(p), pb = ts_node_end_byte(p);
			if (pb - pa == 1 && w->v.text[pa] == '*')
				all = 1;
			if (known) {
				sl_word pw;
				if (sh_cond_word(w, p, &pw) == 0) {
					match |= !fnmatch(pw.text, v.text, 0);
					sl_word_free(&pw);
				}
			}
		}
		if (known && !match)
			continue;
		alt[na] = (int)i;
		sl_buf pre = {0};
		sl_buf_puts(&pre, "case ");
		sl_buf_add(&pre, w->v.text + vla, vle - vla);
		sl_buf_puts(&pre, " in ");
		labels[na++] = sh_label_text(w, ts_node_start_byte(items[i]), pe, pre.data);
		sl_buf_free(&pre);
		if (known || all) {
			catch_all = 1;
			break;
		}
	}
	if (known)
		sl_word_free(&v);
	if (!catch_all && !w->failed) {
		alt[na] = -1;
		labels[na++] = sh_label_text(w, ts_node_start_byte(node), ts_node_start_byte(node) + 4,
					  "no pattern of the ");
	}
	int pick = sh_pick_alternative(w, node, labels, na);
	if (pick < 0)
		return;
	if (alt[pick] >= 0) {
		/* the item's statements: after `)`, up to `;;` */
		TSNode it = items[alt[pick]];
		uint32_t c = ts_node_child_count(it), from = c;
		for (uint32_t q = 0; q < c; q++)
			if (!strcmp(ts_node_type(ts_node_child(it, q)), ")")) {
				from = q + 1;
				break;
			}
		walk_range(w, it, from, c);
	}
}

void sh_walk_statement(walker *w, TSNode node, int background)
{
	if (w->failed || w->s->exited)
		return;
	if (++w->depth > SL_MAX_NESTING) {
		sh_fail_at(w, ts_node_start_byte(node), "nesting deeper than the limit of %s levels", "64");
		w->depth--;
		return;
	}
	const char *t = ts_node_type(node);
	TSSymbol t_sym = ts_node_symbol(node);
	(void)t;
	if ((t_sym == sh_sym.command)) {
		sh_walk_command(w, node, background);
	} else if ((t_sym == sh_sym.comment)) {
		sh_walk_comment(w, node);
	} else if ((t_sym == sh_sym.variable_assignment)) {
		sh_do_assign(w, node, 0);
	} else if ((t_sym == sh_sym.declaration_command)) {
		sh_walk_declaration(w, node);
	} else if ((t_sym == sh_sym.for_statement)) {
		sh_walk_for(w, node);
	} else if ((t_sym == sh_sym.redirected_statement)) {
		sh_capture_heredocs(w, node);
		uint32_t nc;
		size_t kb = sh_kids(w, node, 1, &nc);
		for (uint32_t i = 0; i < nc; i++) {
			TSNode c = KID(i);
			const char *ct = ts_node_type(c);
	TSSymbol ct_sym = ts_node_symbol(c);
	(void)ct;
			if ((ct_sym != sh_sym.file_redirect) && (ct_sym != sh_sym.heredoc_redirect) &&
			    (ct_sym != sh_sym.herestring_redirect))
				sh_walk_statement(w, c, background);
		}
		w->pool_n = kb;
	} else if ((t_sym == sh_sym.list)) {
		walk_list(w, node, background);
	} else if (t_sym == sh_sym.subshell) {
		w->subshell++;
		sh_walk_children(w, node);
		w->subshell--;
	} else if ((t_sym == sh_sym.pipeline) || (t_sym == sh_sym.program) ||
		   (t_sym == sh_sym.do_group) || (t_sym == sh_sym.compound_statement)) {
		sh_walk_children(w, node);
	} else if ((t_sym == sh_sym.function_definition)) {
		sh_define_function(w, node);
	} else if (t_sym == sh_sym.if_statement) {
		sh_walk_if(w, node);
	} else if (t_sym == sh_sym.case_statement) {
		sh_walk_case(w, node);
	} else if ((t_sym == sh_sym.while_statement) || (t_sym == sh_sym.c_style_for_statement)) {
		sh_walk_unread_loop(w, node);
	} else {
		/* negated_command, test_command, unset_command, ...: no service */
	}
	w->depth--;
}

/* while/until loops and C-style for loops are not read yet: said in a note. */
void sh_walk_unread_loop(walker *w, TSNode node)
{
	TSSymbol t_sym = ts_node_symbol(node);
	sl_buf b = {0};
	sl_buf_printf(&b, "%s not analysed yet; commands inside it are not in the model",
		      t_sym == sh_sym.while_statement ? "while/until loop" : "C-style for loop");
	sh_note(w, node, b.data);
	sl_buf_free(&b);
}

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
	/* Iterative descent: trees of hostile input can be very deep. */
	TSNode n = root, bad = root, parent = root;
	for (;;) {
		if (ts_node_is_missing(n) || !strcmp(ts_node_type(n), "ERROR")) {
			bad = n;
			break;
		}
		uint32_t k = ts_node_child_count(n);
		int moved = 0;
		for (uint32_t i = 0; i < k; i++) {
			TSNode c = ts_node_child(n, i);
			if (ts_node_has_error(c) || ts_node_is_missing(c)) {
				parent = n;
				n = c;
				moved = 1;
				break;
			}
		}
		if (!moved) {
			bad = n;
			break;
		}
	}
	(void)first_error;
	size_t a = ts_node_start_byte(bad);
	const char *t = w->v.text;
	/* Name what was left open: a here-document, an array. */
	TSNode up = parent;  /* ts_node_parent is unreliable for zero-width nodes */
	if (ts_node_is_missing(bad) && !strcmp(ts_node_type(bad), "heredoc_end")) {
		TSNode st = {0};
		int have = 0;
		uint32_t k = ts_node_child_count(up);
		for (uint32_t i = 0; i < k && !have; i++)
			if (!strcmp(ts_node_type(ts_node_child(up, i)), "heredoc_start")) {
				st = ts_node_child(up, i);
				have = 1;
			}
		if (have) {
			unsigned l, c;
			sl_source_pos(w->v.src, sh_src_off(&w->v, ts_node_start_byte(up)), &l, &c);
			sl_buf m = {0};
			size_t sa = ts_node_start_byte(st), sb = ts_node_end_byte(st);
			sl_buf_printf(&m, "unterminated here-document: `<<%.*s` at line %u, column %u has no closing line",
				      (int)(sb - sa), t + sa, l, c);
			sh_fail_at(w, a, "%s", m.data);
			sl_buf_free(&m);
			return;
		}
	}
	for (TSNode p = ts_node_is_missing(bad) ? parent : bad; !ts_node_is_null(p); p = ts_node_parent(p)) {
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
		return;
	}
	if (ts_node_is_missing(bad)) {
		sh_fail_at(w, a, "syntax error: missing `%s`", ts_node_type(bad));
		return;
	}
	/* Name the likely cause: an opening quote without its closing one. */
	for (size_t i = a; i < ts_node_end_byte(bad); i++) {
		if (t[i] == '"' || t[i] == '\'') {
			sh_fail_at(w, i, "syntax error: unterminated %s quote",
				t[i] == '"' ? "double" : "single");
			return;
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

int sh_check_nesting(walker *w, TSNode root)
{
	TSTreeCursor cur = ts_tree_cursor_new(root);
	unsigned char *stack = NULL;
	size_t depth = 0, cap = 0, level = 0;
	int bad = 0;
	for (;;) {
		TSNode n = ts_tree_cursor_current_node(&cur);
		unsigned char here = (unsigned char)nests(ts_node_symbol(n));
		sl_grow((void **)&stack, &cap, depth + 1, 1);
		stack[depth] = here;
		level += here;
		if (level > SL_MAX_NESTING) {
			sh_fail_at(w, ts_node_start_byte(n), "nesting deeper than the limit of %s levels", "64");
			bad = 1;
			break;
		}
		if (ts_tree_cursor_goto_first_child(&cur)) {
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
				return 0;
			}
			depth--;
		}
	}
	ts_tree_cursor_delete(&cur);
	free(stack);
	return bad;
}

void sh_build_blocks(sl_script *s)
{
	size_t cap = 0;
	for (size_t i = 0; i < s->ncomments; i++) {
		sl_comment *c = &s->comments[i];
		if (!c->own_line)
			continue;
		sl_comment_block *last = s->nblocks ? &s->blocks[s->nblocks - 1] : NULL;
		if (last && last->first + last->count == i && last->last_line + 1 == c->line) {
			last->count++;
			last->last_line = c->line;
			continue;
		}
		sl_comment_block b = {i, 1, c->line, c->line, 0};
		SL_PUSH(s->blocks, s->nblocks, cap, b);
	}
	/* blocks are in line order: a binary search finds the one ending on
	 * the line above each command */
	for (size_t k = 0; k < s->ncmds; k++) {
		sl_command *c = &s->cmds[k];
		unsigned line, col;
		sl_source_pos(s->src, c->head, &line, &col);
		size_t lo = 0, hi = s->nblocks;
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;
			if (s->blocks[mid].last_line + 1 < line)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < s->nblocks && s->blocks[lo].last_line + 1 == line) {
			c->block = (int)lo;
			s->blocks[lo].attached = 1;
		}
	}
}

int sh_compare_comments(const void *a, const void *b)
{
	const sl_comment *x = a, *y = b;
	return x->start < y->start ? -1 : x->start > y->start;
}

static int parse_view(const view *v, const sl_shell_opts *opts, sl_script **out, sl_error *err)
{
	*out = NULL;
	/* Protect placeholders from being read as redirections (see top). */
	sh_symbols_init();
	char *masked = sl_strndup(v->text, v->len);
	for (size_t i = 0; i < v->len;) {
		size_t at, n = sl_find_placeholder(masked + i, v->len - i, &at);
		if (!n)
			break;
		/* only unspaced placeholders matter outside quotes; inside quotes
		 * bash reads < and > literally anyway, so masking is harmless */
		masked[i + at] = '_';
		masked[i + at + n - 1] = '_';
		for (size_t k = i + at; k < i + at + n; k++)
			if (masked[k] == ' ')
				masked[k] = '_';
		i += at + n;
	}
	/* A backslash-newline just before the end of the text continues onto
	 * nothing: bash ends the command there, tree-sitter-bash calls it an
	 * error. Read it as a blank (same length, so offsets agree). */
	{
		size_t e = v->len;
		while (e > 0 && (masked[e - 1] == '\n' || masked[e - 1] == '\r' || masked[e - 1] == ' ' ||
				 masked[e - 1] == '\t'))
			e--;
		if (e > 0 && masked[e - 1] == '\\' && (e < 2 || masked[e - 2] != '\\'))
			masked[e - 1] = ' ';
	}
	/* One parser per thread, reused: creating one per script costs more
	 * than parsing a typical launch script. */
	static _Thread_local TSParser *p;
	if (!p) {
		p = ts_parser_new();
		ts_parser_set_language(p, tree_sitter_bash());
	}
	ts_parser_reset(p);
	TSTree *tree = ts_parser_parse_string(p, NULL, masked, (uint32_t)v->len);
	TSNode root = ts_tree_root_node(tree);

	sl_script *s = sl_calloc(1, sizeof *s);
	s->src = v->src;
	walker w;
	memset(&w, 0, sizeof w);
	w.v = *v;
	w.s = s;
	w.err = err;
	if (opts) {
		w.binds = opts->binds;
		w.choice = opts->choice;
		w.nchoice = opts->nchoice;
	}
	if (ts_node_has_error(root))
		sh_report_syntax_error(&w, root);
	else if (!sh_check_nesting(&w, root))
		sh_walk_statement(&w, root, 0);
	for (size_t i = 0; i < w.vars.n; i++) {
		free(w.vars.items[i].name);
		sl_word_free(&w.vars.items[i].value);
		for (size_t k = 0; k < w.vars.arr[i].n; k++)
			sl_word_free(&w.vars.arr[i].elems[k]);
		free(w.vars.arr[i].elems);
	}
	free(w.vars.items);
	free(w.vars.arr);
	for (size_t i = 0; i < w.nfns; i++)
		free(w.fns[i].name);
	free(w.fns);
	free(w.pool);
	if (w.have_cur)
		ts_tree_cursor_delete(&w.cur);
	ts_tree_delete(tree);
	free(masked);
	if (w.failed) {
		sl_script_free(s);
		return SL_ERR_INPUT;
	}
	if (s->ncomments)
		qsort(s->comments, s->ncomments, sizeof *s->comments, sh_compare_comments);
	sh_build_blocks(s);
	*out = s;
	return SL_OK;
}

int sl_shell_parse(const sl_source *src, sl_script **out, sl_error *err)
{
	return sl_shell_parse_with(src, NULL, out, err);
}

int sl_shell_parse_with(const sl_source *src, const sl_shell_opts *opts, sl_script **out,
			sl_error *err)
{
	view v = {src, src->text, src->len, NULL};
	return parse_view(&v, opts, out, err);
}

int sl_shell_parse_word(const sl_source *src, const sl_word *w, sl_script **out,
			sl_error *err)
{
	view v = {src, w->text, w->len, w->offs};
	return parse_view(&v, NULL, out, err);
}

static void free_assign(sl_assign *a)
{
	free(a->name);
	sl_word_free(&a->value);
}

void sl_script_free(sl_script *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->ncmds; i++) {
		sl_command *c = &s->cmds[i];
		for (size_t k = 0; k < c->argc; k++)
			sl_word_free(&c->argv[k]);
		free(c->argv);
		for (size_t k = 0; k < c->nprefix; k++)
			free_assign(&c->prefix[k]);
		free(c->prefix);
		for (size_t k = 0; k < c->nexported; k++)
			free_assign(&c->exported[k]);
		free(c->exported);
		free(c->loop_var);
		sl_word_free(&c->loop_value);
	}
	free(s->cmds);
	for (size_t i = 0; i < s->ncomments; i++)
		free(s->comments[i].text);
	free(s->comments);
	free(s->blocks);
	for (size_t i = 0; i < s->nassigns; i++)
		free_assign(&s->assigns[i]);
	free(s->assigns);
	for (size_t i = 0; i < s->nnotes; i++)
		free(s->notes[i]);
	for (size_t i = 0; i < s->ninputs; i++) {
		free(s->inputs[i].name);
		free(s->inputs[i].value);
	}
	free(s->inputs);
	for (size_t i = 0; i < s->nheredocs; i++) {
		free(s->heredocs[i].target);
		sl_word_free(&s->heredocs[i].body);
	}
	free(s->heredocs);
	for (size_t i = 0; i < s->npoints; i++) {
		for (unsigned k = 0; k < s->points[i].n; k++)
			free(s->points[i].labels[k]);
		free(s->points[i].labels);
	}
	free(s->points);
	for (size_t i = 0; i < s->nfunctions; i++)
		free(s->functions[i]);
	free(s->functions);
	free(s->notes);
	free(s->note_offs);
	free(s);
}

int sl_json_parse_word(const sl_source *src, const sl_word *w, json_t **out, sl_error *err)
{
	json_error_t je;
	*out = json_loadb(w->text, w->len, JSON_DECODE_ANY | JSON_ALLOW_NUL, &je);
	if (*out)
		return SL_OK;
	size_t pos = je.position > 0 ? (size_t)je.position : 0;
	/* jansson reports the position after the offending token; its message
	 * names the token ("invalid token near 'mtp'"), so point at its start */
	if (pos > 0 && pos <= w->len)
		pos--;
	const char *near = strstr(je.text, "near '");
	if (near) {
		near += 6;
		const char *q = strrchr(near, '\'');
		size_t tl = q ? (size_t)(q - near) : 0;
		if (tl > 0 && tl <= pos + 1) {
			for (size_t k = pos + 1 - tl + 1; k-- > 0;)
				if (!memcmp(w->text + k, near, tl)) {
					pos = k;
					break;
				}
		}
	}
	unsigned l, c;
	sl_source_pos(src, pos <= w->len ? w->offs[pos] : w->start, &l, &c);
	sl_error_set(err, src->path, l, c, "invalid JSON: %s", je.text);
	return SL_ERR_INPUT;
}
