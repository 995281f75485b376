/*
 * statement.c: the statement walk. It dispatches each kind of statement to
 * the file that reads it and walks the plain containers (programs, blocks,
 * pipelines, lists, subshells) itself; depth is bounded here because every
 * nesting of statements passes through it.
 */
#include "internal.h"

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

/* stmt: the redirected statement whose body node is, or NULL */
static void walk(walker *w, TSNode node, const TSNode *stmt, int background)
{
	if (w->failed || w->s->exited || w->broke)
		return;
	/* every bound above (loops, calls) multiplies with the body's size;
	 * comments are not counted (a loop collects its body's once) */
	if (ts_node_symbol(node) != sh_sym.comment && ++w->steps > SL_MAX_STEPS) {
		sh_fail_at(w, ts_node_start_byte(node),
			   "more statements read than the limit of %s in all (loops and function calls read their bodies again)",
			   "200000");
		return;
	}
	if (++w->depth > SL_MAX_NESTING) {
		sh_fail_at(w, ts_node_start_byte(node), "nesting deeper than the limit of %s levels", "64");
		w->depth--;
		return;
	}
	const char *t = ts_node_type(node);
	TSSymbol t_sym = ts_node_symbol(node);
	(void)t;
	/* `( a; b ) &`, `a | tee log &`, `for ...; done &`: every command
	 * inside runs in the background */
	int bg_block = background && t_sym != sh_sym.command;
	w->in_background += bg_block;
	if (t_sym == sh_sym.command) {
		sh_walk_command(w, node, stmt, background);
	} else if (t_sym == sh_sym.comment) {
		sh_walk_comment(w, node);
	} else if (t_sym == sh_sym.variable_assignment) {
		sh_do_assign(w, node, 0);
	} else if (t_sym == sh_sym.declaration_command) {
		sh_walk_declaration(w, node);
	} else if (t_sym == sh_sym.unset_command) {
		sh_walk_unset(w, node);
	} else if (t_sym == sh_sym.for_statement) {
		sh_walk_for(w, node);
	} else if (t_sym == sh_sym.redirected_statement) {
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
				walk(w, c, ct_sym == sh_sym.command ? &node : NULL, background);
		}
		w->pool_n = kb;
	} else if (t_sym == sh_sym.list) {
		walk_list(w, node, background);
	} else if (t_sym == sh_sym.subshell) {
		w->subshell++;
		sh_walk_children(w, node);
		w->subshell--;
	} else if ((t_sym == sh_sym.pipeline) || (t_sym == sh_sym.program) ||
		   (t_sym == sh_sym.do_group) || (t_sym == sh_sym.compound_statement)) {
		sh_walk_children(w, node);
	} else if (t_sym == sh_sym.function_definition) {
		sh_define_function(w, node);
	} else if (t_sym == sh_sym.if_statement) {
		sh_walk_if(w, node);
	} else if (t_sym == sh_sym.case_statement) {
		sh_walk_case(w, node);
	} else if (t_sym == sh_sym.c_style_for_statement) {
		sh_walk_c_for(w, node);
	} else if (t_sym == sh_sym.while_statement) {
		sh_walk_while(w, node);
	} else {
		/* negated_command, test_command, ...: no service */
	}
	w->in_background -= bg_block;
	w->depth--;
}

void sh_walk_statement(walker *w, TSNode node, int background)
{
	walk(w, node, NULL, background);
}
