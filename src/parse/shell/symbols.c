/*
 * symbols.c: tree-sitter-bash's node kinds as symbol ids, looked up once per
 * thread, so that the walk compares integers rather than type names on its
 * hot paths; and the language itself, which the binary links in.
 *
 * One pass over the language's symbols, each named one looked up in the
 * sorted table of the kinds the walk uses, where a ts_language_symbol_for_name
 * per kind scanned every symbol each time (51 scans of 250 symbols: 385,000
 * of the 2.3 M instructions of `check` of one small script; issue 18). The
 * walk compares ts_node_symbol's ids, the public ones: a named, visible
 * symbol whose name no other such symbol has is its own public id; where
 * several have one name (a rule and its aliases), tree-sitter's generator
 * chose among them by what the API does not show, so those few kinds are
 * asked of ts_language_symbol_for_name (test_shell's test_symbols holds
 * every id to that function's).
 */
#include "internal.h"

#include <stddef.h>
#include <string.h>

_Thread_local struct sh_symbols sh_sym;

const void *sl_tree_sitter_bash(void)
{
	return tree_sitter_bash();
}

/* the kinds the walk compares, by name, sorted as strcmp orders them */
#define W(n) {#n, offsetof(struct sh_symbols, n)}
static const struct {
	const char *name;
	size_t off;
} kinds[] = {
	W(ansi_c_string),
	W(arithmetic_expansion),
	W(array),
	W(binary_expression),
	W(brace_expression),
	W(c_style_for_statement),
	W(case_item),
	W(case_statement),
	W(command),
	W(command_name),
	W(command_substitution),
	W(comment),
	W(compound_statement),
	W(concatenation),
	W(declaration_command),
	W(do_group),
	W(elif_clause),
	W(else_clause),
	W(expansion),
	W(file_redirect),
	W(for_statement),
	W(function_definition),
	W(heredoc_body),
	W(heredoc_redirect),
	W(heredoc_start),
	W(herestring_redirect),
	W(if_statement),
	W(list),
	W(number),
	W(parenthesized_expression),
	W(pipeline),
	W(process_substitution),
	W(program),
	W(raw_string),
	W(redirected_statement),
	W(simple_expansion),
	W(special_variable_name),
	W(string),
	W(string_content),
	W(subscript),
	W(subshell),
	W(ternary_expression),
	W(test_command),
	W(translated_string),
	W(unary_expression),
	W(unset_command),
	W(variable_assignment),
	W(variable_name),
	W(while_statement),
	W(word),
};
#undef W

static TSSymbol *field(size_t off)
{
	return (TSSymbol *)((char *)&sh_sym + off);
}

void sh_symbols_init(void)
{
	if (sh_sym.ready)
		return;
	const TSLanguage *l = tree_sitter_bash();
	size_t nk = sizeof kinds / sizeof *kinds;
	/* per kind: 0 not seen, 1 seen once (its id set), 2 seen again */
	unsigned char seen[sizeof kinds / sizeof *kinds] = {0};
	uint32_t n = ts_language_symbol_count(l);
	for (uint32_t i = 0; i < n; i++) {
		if (ts_language_symbol_type(l, (TSSymbol)i) != TSSymbolTypeRegular)
			continue;
		const char *name = ts_language_symbol_name(l, (TSSymbol)i);
		size_t lo = 0, hi = nk;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			int c = strcmp(name, kinds[mid].name);
			if (!c) {
				if (!seen[mid]++)
					*field(kinds[mid].off) = (TSSymbol)i;
				else
					seen[mid] = 2;
				break;
			}
			if (c < 0)
				hi = mid;
			else
				lo = mid + 1;
		}
	}
	/* a kind of several symbols, or one the pass did not find (the grammar
	 * has no such node: 0), asked as before */
	for (size_t k = 0; k < nk; k++)
		if (seen[k] != 1)
			*field(kinds[k].off) = ts_language_symbol_for_name(l, kinds[k].name,
									   (uint32_t)strlen(kinds[k].name), true);
	static const struct {
		const char *name;
		size_t off;
	} fields[] = {
#define F(n) {#n, offsetof(struct sh_symbols, f.n)}
		F(alternative), F(body), F(condition), F(consequence), F(descriptor), F(destination), F(index), F(left), F(name), F(operator), F(right), F(value), F(variable),
#undef F
	};
	for (size_t k = 0; k < sizeof fields / sizeof *fields; k++)
		*(TSFieldId *)((char *)&sh_sym + fields[k].off) =
			ts_language_field_id_for_name(l, fields[k].name, (uint32_t)strlen(fields[k].name));
	sh_sym.ready = 1;
}
