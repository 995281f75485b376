/*
 * redirect.c: the words among a command's redirections that are its
 * arguments. Bash lets redirections stand anywhere among a command's words
 * and ends each at its target: in `vllm serve m > log 2>&1 --port 8000`
 * the redirections are `> log` and `2>&1`, and `--port 8000` are arguments.
 * tree-sitter-bash's file_redirect takes every word after its operator as a
 * destination (`log`, then `1 --port 8000` for `2>&1`), and its
 * heredoc_redirect holds the words written after `<<EOF` on its line; the
 * command node ends before them. What is a target and what an argument is
 * decided here, for command.c (the command's words) and relevant.c (what
 * the command reads).
 */
#include "internal.h"

/* A node that is one word of a command (what tree-sitter-bash's _literal
 * gives a destination or an argument). */
static int is_word(TSSymbol k)
{
	return k == sh_sym.word || k == sh_sym.number || k == sh_sym.string || k == sh_sym.raw_string ||
	       k == sh_sym.concatenation || k == sh_sym.simple_expansion || k == sh_sym.expansion ||
	       k == sh_sym.command_substitution || k == sh_sym.ansi_c_string ||
	       k == sh_sym.translated_string || k == sh_sym.arithmetic_expansion ||
	       k == sh_sym.process_substitution || k == sh_sym.brace_expression;
}

TSNode sh_redirect_target(TSNode r)
{
	if (ts_node_symbol(r) != sh_sym.file_redirect)
		return (TSNode){0};
	uint32_t n = ts_node_named_child_count(r);
	for (uint32_t i = 0; i < n; i++) {
		TSNode x = ts_node_named_child(r, i);
		if (is_word(ts_node_symbol(x)))
			return x;
	}
	return (TSNode){0};
}

void sh_redirect_words(TSNode r, sh_word_fn f, void *ctx)
{
	TSSymbol k = ts_node_symbol(r);
	uint32_t n = ts_node_named_child_count(r);
	if (k == sh_sym.file_redirect) {
		int target = 0;
		for (uint32_t i = 0; i < n; i++) {
			TSNode x = ts_node_named_child(r, i);
			if (!is_word(ts_node_symbol(x)))
				continue;
			if (target)
				f(ctx, x);
			target = 1;
		}
	} else if (k == sh_sym.heredoc_redirect) {
		/* `<<EOF --port 8000 > log --tp 2`: the words on its line, and
		 * those after a redirection written there */
		for (uint32_t i = 0; i < n; i++) {
			TSNode x = ts_node_named_child(r, i);
			TSSymbol xk = ts_node_symbol(x);
			if (is_word(xk))
				f(ctx, x);
			else if (xk == sh_sym.file_redirect)
				sh_redirect_words(x, f, ctx);
		}
	}
}
