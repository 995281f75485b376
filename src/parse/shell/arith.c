/*
 * arith.c: integers as bash reads them, and $(( ... )). Replica counts and
 * ports are often computed ($((BASE_PORT + i))), so arithmetic is evaluated
 * when every operand is known, and kept as written otherwise.
 */
#include "internal.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>

int sh_parse_ll(const char *s, size_t n, long long *out)
{
	while (n && (*s == ' ' || *s == '\t' || *s == '\n')) {
		s++;
		n--;
	}
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n'))
		n--;
	if (!n || n > 30)
		return -1;
	char tmp[32];
	memcpy(tmp, s, n);
	tmp[n] = 0;
	char *e;
	errno = 0;
	long long v = strtoll(tmp, &e, 10);
	if (*e || errno)
		return -1;
	*out = v;
	return 0;
}

/*
 * $(( ... )) over integers, as bash computes it (64-bit, wrapping). A
 * variable the script does not set, or sets to something unknown, makes the
 * whole expression unknown: it stays symbolic as written, never guessed (bash
 * would read an unset variable as 0, but the harness may well set it).
 * Returns 0 with *out set, 1 when unknown; errors fail the walker.
 */
#define ARITH_MAX_INDIRECTION 16

static int arith(walker *w, TSNode n, long long *out, unsigned depth);

/* A variable's value in arithmetic: a number, or the name of another
 * variable (bash follows it), or empty (0 when the script set it empty). */
static int arith_var(walker *w, const char *name, size_t len, size_t at, long long *out,
		     unsigned depth)
{
	if (depth > ARITH_MAX_INDIRECTION) {
		char *nm = sl_strndup(name, len);
		sh_fail_at(w, at, "arithmetic: variable `%s` refers to itself (recursion)", nm);
		free(nm);
		return 1;
	}
	const sl_assign *v = sh_var_get(w, name, len);
	const char *txt;
	size_t tl;
	if (v) {
		const varr *ar = sh_var_array(w, name, len);
		const sl_word *val = ar ? (ar->n ? &ar->elems[0] : NULL) : &v->value;
		if (!val) {
			*out = 0;
			return 0;
		}
		if (val->flags & SL_WORD_SYMBOLIC)
			return 1;
		w->arith_bound |= (val->flags & SL_WORD_BOUND) != 0;
		txt = val->text;
		tl = val->len;
	} else if (sh_var_cleared(w, name, len)) {
		*out = 0;  /* `unset NAME` ran: bash reads it as 0 */
		return 0;
	} else {
		txt = sh_bound(w, name, len);
		sh_record_input(w, name, len, at, txt);
		if (!txt)
			return 1;
		w->arith_bound = 1;
		tl = strlen(txt);
	}
	while (tl && (*txt == ' ' || *txt == '\t')) {
		txt++;
		tl--;
	}
	while (tl && (txt[tl - 1] == ' ' || txt[tl - 1] == '\t'))
		tl--;
	if (!tl) {
		*out = 0;
		return 0;
	}
	if (!sh_parse_ll(txt, tl, out))
		return 0;
	int ident = isalpha((unsigned char)txt[0]) || txt[0] == '_';
	for (size_t i = 0; i < tl && ident; i++)
		ident = isalnum((unsigned char)txt[i]) || txt[i] == '_';
	if (ident)
		return arith_var(w, txt, tl, at, out, depth + 1);
	return 1;
}

int sh_arith_operand(walker *w, const char *s, size_t n, size_t at, long long *out)
{
	while (n && (*s == ' ' || *s == '\t'))
		s++, n--;
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	if (!sh_parse_ll(s, n, out))
		return 0;
	if (n > 1 && s[0] == '$')
		s++, n--;
	if (n > 2 && s[0] == '{' && s[n - 1] == '}')
		s++, n -= 2;
	if (!n || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
		return 1;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_')
			return 1;
	return arith_var(w, s, n, at, out, 0);
}

static int arith_word(walker *w, TSNode n, long long *out, unsigned depth)
{
	wbuild tmp = {0};
	sh_eval_node(w, n, &tmp, 1);
	int rc = 1;
	if (!w->failed && !(tmp.flags & SL_WORD_SYMBOLIC)) {
		const char *txt = tmp.b.data ? tmp.b.data : "";
		size_t tl = tmp.b.len;
		if (!sh_parse_ll(txt, tl, out))
			rc = 0;
		else {
			int ident = tl && (isalpha((unsigned char)txt[0]) || txt[0] == '_');
			for (size_t i = 0; i < tl && ident; i++)
				ident = isalnum((unsigned char)txt[i]) || txt[i] == '_';
			if (ident)
				rc = arith_var(w, txt, tl, ts_node_start_byte(n), out, depth + 1);
		}
	}
	sh_wb_discard(&tmp);
	return rc;
}

static int arith(walker *w, TSNode n, long long *out, unsigned depth)
{
	if (w->failed)
		return 1;
	if (depth > SL_MAX_NESTING) {
		sh_fail_at(w, ts_node_start_byte(n), "nesting deeper than the limit of %s levels", "64");
		return 1;
	}
	TSSymbol k = ts_node_symbol(n);
	const char *t = w->v.text;
	size_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
	/* the grammar reads the 1 of `1%0` as a variable's name: digits are a
	 * number in bash's arithmetic (a positional needs its $) */
	int digits = b > a && strspn(t + a, "0123456789") >= b - a;
	if ((k == sh_sym.number || (k == sh_sym.variable_name && digits)) && ts_node_named_child_count(n) == 0) {
		/* decimal, 0x hex and 0 octal, as bash reads them */
		char tmp[32];
		if (b - a >= sizeof tmp)
			return 1;
		memcpy(tmp, t + a, b - a);
		tmp[b - a] = 0;
		char *e;
		errno = 0;
		long long v = strtoll(tmp, &e, 0);
		if (*e || errno)
			return 1;
		*out = v;
		return 0;
	}
	if (k == sh_sym.variable_name)
		return arith_var(w, t + a, b - a, a, out, 0);
	if (k == sh_sym.parenthesized_expression) {
		if (ts_node_named_child_count(n) != 1)
			return 1;
		return arith(w, ts_node_named_child(n, 0), out, depth + 1);
	}
	if (k == sh_sym.unary_expression) {
		TSNode op = ts_node_child_by_field_id(n, sh_sym.f.operator);
		if (ts_node_is_null(op) || ts_node_named_child_count(n) < 1)
			return 1;
		const char *o = ts_node_type(op);
		long long x;
		TSNode arg = ts_node_named_child(n, ts_node_named_child_count(n) - 1);
		if (arith(w, arg, &x, depth + 1))
			return 1;
		if (!strcmp(o, "-"))
			*out = (long long)(0ULL - (unsigned long long)x);
		else if (!strcmp(o, "+"))
			*out = x;
		else if (!strcmp(o, "!"))
			*out = !x;
		else if (!strcmp(o, "~"))
			*out = ~x;
		else
			return 1;   /* ++ and -- change variables: not followed */
		return 0;
	}
	if (k == sh_sym.ternary_expression) {
		TSNode c = ts_node_child_by_field_id(n, sh_sym.f.condition);
		TSNode y = ts_node_child_by_field_id(n, sh_sym.f.consequence);
		TSNode z = ts_node_child_by_field_id(n, sh_sym.f.alternative);
		long long cv;
		if (ts_node_is_null(c) || ts_node_is_null(y) || ts_node_is_null(z) ||
		    arith(w, c, &cv, depth + 1))
			return 1;
		return arith(w, cv ? y : z, out, depth + 1);
	}
	if (k == sh_sym.binary_expression) {
		TSNode l = ts_node_child_by_field_id(n, sh_sym.f.left);
		TSNode r = ts_node_child_by_field_id(n, sh_sym.f.right);
		TSNode op = ts_node_child_by_field_id(n, sh_sym.f.operator);
		if (ts_node_is_null(l) || ts_node_is_null(r) || ts_node_is_null(op))
			return 1;
		const char *o = ts_node_type(op);
		long long x, y;
		int ul = arith(w, l, &x, depth + 1);
		int ur = arith(w, r, &y, depth + 1);
		if (ul || ur)
			return 1;
		unsigned long long ux = (unsigned long long)x, uy = (unsigned long long)y;
		if (!strcmp(o, "+")) *out = (long long)(ux + uy);
		else if (!strcmp(o, "-")) *out = (long long)(ux - uy);
		else if (!strcmp(o, "*")) *out = (long long)(ux * uy);
		else if (!strcmp(o, "/") || !strcmp(o, "%")) {
			if (y == 0) {
				sh_fail_at(w, ts_node_start_byte(op), "arithmetic: division by zero%s", "");
				return 1;
			}
			if (x == LLONG_MIN && y == -1)
				*out = o[0] == '/' ? x : 0;
			else
				*out = o[0] == '/' ? x / y : x % y;
		} else if (!strcmp(o, "**")) {
			if (y < 0)
				return 1;
			unsigned long long p = 1;
			for (long long i = 0; i < y && i < 128; i++)
				p *= ux;
			*out = (long long)p;
		} else if (!strcmp(o, "<<")) *out = y >= 0 && y < 64 ? (long long)(ux << y) : 0;
		else if (!strcmp(o, ">>")) *out = y >= 0 && y < 64 ? x >> y : (x < 0 ? -1 : 0);
		else if (!strcmp(o, "<")) *out = x < y;
		else if (!strcmp(o, ">")) *out = x > y;
		else if (!strcmp(o, "<=")) *out = x <= y;
		else if (!strcmp(o, ">=")) *out = x >= y;
		else if (!strcmp(o, "==")) *out = x == y;
		else if (!strcmp(o, "!=")) *out = x != y;
		else if (!strcmp(o, "&")) *out = x & y;
		else if (!strcmp(o, "|")) *out = x | y;
		else if (!strcmp(o, "^")) *out = x ^ y;
		else if (!strcmp(o, "&&")) *out = x && y;
		else if (!strcmp(o, "||")) *out = x || y;
		else
			return 1;   /* assignments (=, +=, ...) and the comma: not followed */
		return 0;
	}
	if (k == sh_sym.simple_expansion || k == sh_sym.expansion || k == sh_sym.string || k == sh_sym.number)
		return arith_word(w, n, out, depth);
	return 1;
}

/* $(( expr )): its value when every part is known, else as written. */
void sh_eval_arith(walker *w, TSNode node, wbuild *wb)
{
	size_t a = sh_node_start(w, node), b = ts_node_end_byte(node);
	long long v = 0;
	int save = w->arith_bound;
	w->arith_bound = 0;
	int unknown = ts_node_named_child_count(node) != 1;
	if (!unknown)
		unknown = arith(w, ts_node_named_child(node, 0), &v, 0);
	if (w->failed)
		return;
	if (unknown) {
		sh_wb_add_view(wb, &w->v, a, b - a);
		wb->flags |= SL_WORD_SYMBOLIC;
		return;
	}
	sh_add_number(wb, v, sh_src_off(&w->v, a));
	if (w->arith_bound)
		wb->flags |= SL_WORD_BOUND;
	w->arith_bound |= save;
}
