/*
 * symbols.c: tree-sitter-bash's node kinds as symbol ids, looked up once per
 * thread, so that the walk compares integers rather than type names on its
 * hot paths; and the language itself, which the binary links in.
 */
#include "internal.h"

_Thread_local struct sh_symbols sh_sym;

const void *sl_tree_sitter_bash(void)
{
	return tree_sitter_bash();
}

void sh_symbols_init(void)
{
	if (sh_sym.ready)
		return;
	const TSLanguage *l = tree_sitter_bash();
	sh_sym.ansi_c_string = ts_language_symbol_for_name(l, "ansi_c_string", 13, true);
	sh_sym.arithmetic_expansion = ts_language_symbol_for_name(l, "arithmetic_expansion", 20, true);
	sh_sym.c_style_for_statement = ts_language_symbol_for_name(l, "c_style_for_statement", 21, true);
	sh_sym.case_statement = ts_language_symbol_for_name(l, "case_statement", 14, true);
	sh_sym.command = ts_language_symbol_for_name(l, "command", 7, true);
	sh_sym.command_name = ts_language_symbol_for_name(l, "command_name", 12, true);
	sh_sym.command_substitution = ts_language_symbol_for_name(l, "command_substitution", 20, true);
	sh_sym.comment = ts_language_symbol_for_name(l, "comment", 7, true);
	sh_sym.compound_statement = ts_language_symbol_for_name(l, "compound_statement", 18, true);
	sh_sym.concatenation = ts_language_symbol_for_name(l, "concatenation", 13, true);
	sh_sym.declaration_command = ts_language_symbol_for_name(l, "declaration_command", 19, true);
	sh_sym.do_group = ts_language_symbol_for_name(l, "do_group", 8, true);
	sh_sym.expansion = ts_language_symbol_for_name(l, "expansion", 9, true);
	sh_sym.file_redirect = ts_language_symbol_for_name(l, "file_redirect", 13, true);
	sh_sym.for_statement = ts_language_symbol_for_name(l, "for_statement", 13, true);
	sh_sym.function_definition = ts_language_symbol_for_name(l, "function_definition", 19, true);
	sh_sym.heredoc_redirect = ts_language_symbol_for_name(l, "heredoc_redirect", 16, true);
	sh_sym.herestring_redirect = ts_language_symbol_for_name(l, "herestring_redirect", 19, true);
	sh_sym.if_statement = ts_language_symbol_for_name(l, "if_statement", 12, true);
	sh_sym.list = ts_language_symbol_for_name(l, "list", 4, true);
	sh_sym.pipeline = ts_language_symbol_for_name(l, "pipeline", 8, true);
	sh_sym.process_substitution = ts_language_symbol_for_name(l, "process_substitution", 20, true);
	sh_sym.program = ts_language_symbol_for_name(l, "program", 7, true);
	sh_sym.raw_string = ts_language_symbol_for_name(l, "raw_string", 10, true);
	sh_sym.redirected_statement = ts_language_symbol_for_name(l, "redirected_statement", 20, true);
	sh_sym.simple_expansion = ts_language_symbol_for_name(l, "simple_expansion", 16, true);
	sh_sym.special_variable_name = ts_language_symbol_for_name(l, "special_variable_name", 21, true);
	sh_sym.string = ts_language_symbol_for_name(l, "string", 6, true);
	sh_sym.string_content = ts_language_symbol_for_name(l, "string_content", 14, true);
	sh_sym.subshell = ts_language_symbol_for_name(l, "subshell", 8, true);
	sh_sym.subscript = ts_language_symbol_for_name(l, "subscript", 9, true);
	sh_sym.array = ts_language_symbol_for_name(l, "array", 5, true);
	sh_sym.number = ts_language_symbol_for_name(l, "number", 6, true);
	sh_sym.binary_expression = ts_language_symbol_for_name(l, "binary_expression", 17, true);
	sh_sym.unary_expression = ts_language_symbol_for_name(l, "unary_expression", 16, true);
	sh_sym.parenthesized_expression = ts_language_symbol_for_name(l, "parenthesized_expression", 24, true);
	sh_sym.ternary_expression = ts_language_symbol_for_name(l, "ternary_expression", 18, true);
	sh_sym.heredoc_body = ts_language_symbol_for_name(l, "heredoc_body", 12, true);
	sh_sym.heredoc_start = ts_language_symbol_for_name(l, "heredoc_start", 13, true);
	sh_sym.elif_clause = ts_language_symbol_for_name(l, "elif_clause", 11, true);
	sh_sym.else_clause = ts_language_symbol_for_name(l, "else_clause", 11, true);
	sh_sym.case_item = ts_language_symbol_for_name(l, "case_item", 9, true);
	sh_sym.test_command = ts_language_symbol_for_name(l, "test_command", 12, true);
	sh_sym.variable_assignment = ts_language_symbol_for_name(l, "variable_assignment", 19, true);
	sh_sym.unset_command = ts_language_symbol_for_name(l, "unset_command", 13, true);
	sh_sym.variable_name = ts_language_symbol_for_name(l, "variable_name", 13, true);
	sh_sym.while_statement = ts_language_symbol_for_name(l, "while_statement", 15, true);
	sh_sym.word = ts_language_symbol_for_name(l, "word", 4, true);
	sh_sym.translated_string = ts_language_symbol_for_name(l, "translated_string", 17, true);
	sh_sym.brace_expression = ts_language_symbol_for_name(l, "brace_expression", 16, true);
	sh_sym.ready = 1;
}
