/*
 * cond.c: the value of a condition ([ ], [[ ]], true, false, !, && and ||)
 * from what the script and --set know: true, false, or unknown. Unknown is
 * an answer of its own: it makes the conditional a point with variants.
 */
#include "internal.h"

#include <fnmatch.h>

/*
 * An `if` or `case` is decided when its condition can be computed from what
 * the script (and --set) knows: `[ "$TP" -eq 8 ]`, `[[ $GPU == b200 ]]`,
 * `case $GPU in`; a `${X:-default}` of an X unknown to both does not
 * decide it. Otherwise each alternative is a variant of the entry: the
 * walker follows the one opts->choice names and records the point, and
 * sl_shell_variants reads the script once per combination.
 */

/* 1 true, 0 false, -1 unknown */
int sh_cond_word(walker *w, TSNode n, sl_word *out)
{
	const char *ty = ts_node_type(n);
	if (!strcmp(ty, "regex") || !strcmp(ty, "extglob_pattern")) {
		/* [[ $X = 9.0 ]]: the right side as written */
		wbuild wb = {0};
		sh_wb_add_view(&wb, &w->v, ts_node_start_byte(n), ts_node_end_byte(n) - ts_node_start_byte(n));
		sh_wb_finish(&wb, out, 0, 0);
		return 0;
	}
	/* `[ "${EP_SIZE:-1}" -gt 1 ]`: a default stands for an input the
	 * harness may well give, so it does not decide the condition */
	size_t defaults = w->defaults_used;
	sh_eval_word(w, n, out);
	if ((out->flags & SL_WORD_SYMBOLIC) || w->defaults_used != defaults) {
		sl_word_free(out);
		return -1;
	}
	return 0;
}

static int cond_expr(walker *w, TSNode n, int dbl, unsigned depth)
{
	if (depth > SL_MAX_NESTING || w->failed)
		return -1;
	TSSymbol k = ts_node_symbol(n);
	const char *t = w->v.text;
	if (k == sh_sym.parenthesized_expression && ts_node_named_child_count(n) == 1)
		return cond_expr(w, ts_node_named_child(n, 0), dbl, depth + 1);
	if (k == sh_sym.binary_expression) {
		TSNode l = ts_node_child_by_field_id(n, sh_sym.f.left);
		TSNode r = ts_node_child_by_field_id(n, sh_sym.f.right);
		TSNode op = ts_node_child_by_field_id(n, sh_sym.f.operator);
		if (ts_node_is_null(l) || ts_node_is_null(r) || ts_node_is_null(op))
			return -1;
		size_t oa = ts_node_start_byte(op), ob = ts_node_end_byte(op);
		char o[8] = {0};
		if (ob - oa >= sizeof o)
			return -1;
		memcpy(o, t + oa, ob - oa);
		if (!strcmp(o, "&&") || !strcmp(o, "||") || !strcmp(o, "-a") || !strcmp(o, "-o")) {
			int x = cond_expr(w, l, dbl, depth + 1), y = cond_expr(w, r, dbl, depth + 1);
			int and = o[0] == '&' || o[1] == 'a';
			if (and)
				return x == 0 || y == 0 ? 0 : x == 1 && y == 1 ? 1 : -1;
			return x == 1 || y == 1 ? 1 : x == 0 && y == 0 ? 0 : -1;
		}
		sl_word a, b;
		if (sh_cond_word(w, l, &a) < 0)
			return -1;
		if (sh_cond_word(w, r, &b) < 0) {
			sl_word_free(&a);
			return -1;
		}
		int res = -1;
		long long x, y;
		if (!strcmp(o, "=") || !strcmp(o, "==") || !strcmp(o, "!=")) {
			/* in [[ ]], an unquoted right side is a pattern */
			int eq = dbl && !(b.flags & SL_WORD_QUOTED) ? !fnmatch(b.text, a.text, 0)
								    : !strcmp(a.text, b.text);
			res = o[0] == '!' ? !eq : eq;
		} else if (o[0] == '-' && !sh_parse_ll(a.text, a.len, &x) && !sh_parse_ll(b.text, b.len, &y)) {
			if (!strcmp(o, "-eq")) res = x == y;
			else if (!strcmp(o, "-ne")) res = x != y;
			else if (!strcmp(o, "-lt")) res = x < y;
			else if (!strcmp(o, "-le")) res = x <= y;
			else if (!strcmp(o, "-gt")) res = x > y;
			else if (!strcmp(o, "-ge")) res = x >= y;
		}
		sl_word_free(&a);
		sl_word_free(&b);
		return res;
	}
	if (k == sh_sym.unary_expression) {
		TSNode op = ts_node_child_by_field_id(n, sh_sym.f.operator);
		if (ts_node_is_null(op) || ts_node_named_child_count(n) < 1)
			return -1;
		size_t oa = ts_node_start_byte(op), ob = ts_node_end_byte(op);
		TSNode arg = ts_node_named_child(n, ts_node_named_child_count(n) - 1);
		if (ob - oa == 1 && t[oa] == '!') {
			int x = cond_expr(w, arg, dbl, depth + 1);
			return x < 0 ? -1 : !x;
		}
		if (ob - oa == 2 && t[oa] == '-' && (t[oa + 1] == 'z' || t[oa + 1] == 'n')) {
			sl_word a;
			if (sh_cond_word(w, arg, &a) < 0)
				return -1;
			int empty = a.len == 0;
			sl_word_free(&a);
			return t[oa + 1] == 'z' ? empty : !empty;
		}
		return -1;   /* -f, -d, -e ...: the machine's files are unknown */
	}
	/* a lone word: true when not empty */
	sl_word a;
	if (sh_cond_word(w, n, &a) < 0)
		return -1;
	int r = a.len != 0;
	sl_word_free(&a);
	return r;
}

int sh_cond_value(walker *w, TSNode n, unsigned depth)
{
	if (depth > SL_MAX_NESTING)
		return -1;
	TSSymbol k = ts_node_symbol(n);
	if (k == sh_sym.test_command) {
		size_t a = ts_node_start_byte(n);
		int dbl = a + 1 < w->v.len && w->v.text[a] == '[' && w->v.text[a + 1] == '[';
		if (ts_node_named_child_count(n) != 1)
			return -1;
		return cond_expr(w, ts_node_named_child(n, 0), dbl, depth + 1);
	}
	if (k == sh_sym.command) {
		TSNode name = ts_node_child_by_field_id(n, sh_sym.f.name);
		if (ts_node_is_null(name) || ts_node_named_child_count(n) != 1)
			return -1;
		size_t a = ts_node_start_byte(name), b = ts_node_end_byte(name);
		if (b - a == 4 && !memcmp(w->v.text + a, "true", 4))
			return 1;
		if (b - a == 5 && !memcmp(w->v.text + a, "false", 5))
			return 0;
		if (b - a == 1 && w->v.text[a] == ':')
			return 1;
		return -1;
	}
	if (!strcmp(ts_node_type(n), "negated_command") && ts_node_named_child_count(n) == 1) {
		int x = sh_cond_value(w, ts_node_named_child(n, 0), depth + 1);
		return x < 0 ? -1 : !x;
	}
	if (k == sh_sym.list && ts_node_child_count(n) == 3) {
		int x = sh_cond_value(w, ts_node_child(n, 0), depth + 1);
		int y = sh_cond_value(w, ts_node_child(n, 2), depth + 1);
		const char *o = ts_node_type(ts_node_child(n, 1));
		if (!strcmp(o, "&&"))
			return x == 0 || y == 0 ? 0 : x == 1 && y == 1 ? 1 : -1;
		if (!strcmp(o, "||"))
			return x == 1 || y == 1 ? 1 : x == 0 && y == 0 ? 0 : -1;
	}
	return -1;
}
