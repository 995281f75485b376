/*
 * expand.c: a word node into the bytes of a word: quote and backslash
 * removal, $NAME and ${...} (defaults, lengths, array elements, "$@") from
 * what the script set. What the script cannot know stays symbolic, spelled
 * as written, so that two scripts reading the same unknown compare equal;
 * nothing is ever run, so a command substitution is always unknown.
 */
#include "internal.h"

#include <ctype.h>
#include <fnmatch.h>

/* Backslash rules: outside quotes any char may be escaped; inside double
 * quotes only $ ` " \ and newline. Backslash-newline vanishes in both. */
void sh_add_unescaped(walker *w, wbuild *wb, size_t a, size_t b, int in_dq)
{
	const char *t = w->v.text;
	size_t i = a;
	while (i < b) {
		/* copy a run without backslashes at once */
		const char *bs = memchr(t + i, '\\', b - i);
		size_t run = bs ? (size_t)(bs - (t + i)) : b - i;
		if (run) {
			sh_wb_add_view(wb, &w->v, i, run);
			i += run;
			continue;
		}
		if (t[i] == '\\' && i + 1 < b) {
			char c = t[i + 1];
			if (c == '\n') {
				i += 2;
				continue;
			}
			/* in_dq 2: a here-document, where \" stays as written */
			if (!in_dq || c == '$' || c == '`' || (c == '"' && in_dq == 1) || c == '\\') {
				/* the escaped character is written where its backslash is */
				uint32_t off = sh_src_off(&w->v, i);
				sh_wb_add(wb, t + i + 1, 1, &off);
				i += 2;
				continue;
			}
		}
		sh_wb_add_view(wb, &w->v, i, 1);
		i++;
	}
}

/* A variable's value into the word: unquoted, its blanks split words. */
static void add_value(wbuild *wb, const sl_word *v, int in_dq)
{
	int save = wb->splitting;
	wb->splitting = !in_dq;
	sh_wb_add(wb, v->text, v->len, v->offs);
	wb->splitting = save;
	wb->flags |= v->flags & (SL_WORD_SYMBOLIC | SL_WORD_PLACEHOLDER | SL_WORD_BOUND);
}

/* A --set value, which has no place in the source: it is put where the
 * expansion is written. */
static void add_bound(wbuild *wb, const char *val, uint32_t at, int in_dq)
{
	int save = wb->splitting;
	wb->splitting = !in_dq;
	sh_wb_add_at(wb, val, strlen(val), at);
	wb->splitting = save;
	wb->flags |= SL_WORD_BOUND;
}

/* An unknown variable stays symbolic, spelled $NAME however it was written
 * ($NAME, ${NAME}), so that two scripts compare equal when they read the
 * same unknown. Its bytes point at the expansion. */
static void add_symbolic(walker *w, wbuild *wb, size_t a, size_t na, size_t nb)
{
	sh_wb_add_view(wb, &w->v, a, 1);
	sh_wb_add_view(wb, &w->v, na, nb - na);
	wb->flags |= SL_WORD_SYMBOLIC;
	sh_record_input(w, w->v.text + na, nb - na, a, NULL);
}

/* The elements of an array expansion: "${A[@]}" gives one word each,
 * unquoted they are split as well; "${A[*]}" joins them with blanks. */
static void add_elements(wbuild *wb, const varr *ar, int in_dq, int star)
{
	if (!ar->n && in_dq && !star)
		wb->none = 1;   /* "$@" of no arguments is no word at all */
	for (size_t i = 0; i < ar->n; i++) {
		if (i > 0) {
			if (in_dq && !star) {
				sh_wb_break(wb);
			} else {
				int save = wb->splitting;
				wb->splitting = !in_dq;
				uint32_t at = ar->elems[i].len ? ar->elems[i].offs[0] : ar->elems[i].start;
				sh_wb_add_at(wb, " ", 1, at);
				wb->splitting = save;
			}
		}
		struct wb_elem e = {wb->b.len, 0, ar->elems[i].start, ar->elems[i].end};
		add_value(wb, &ar->elems[i], in_dq);
		e.to = wb->b.len;
		SL_PUSH(wb->els, wb->nels, wb->els_cap, e);
	}
}

/* The bytes [from, to) of a variable's value into the word, split unquoted. */
static void add_part(wbuild *wb, const sl_word *v, size_t from, size_t to, int in_dq)
{
	int save = wb->splitting;
	wb->splitting = !in_dq;
	sh_wb_add(wb, v->text + from, to - from, v->offs + from);
	wb->splitting = save;
	wb->flags |= v->flags & (SL_WORD_PLACEHOLDER | SL_WORD_BOUND);
}

/* `${NAME%pat}` and the other trims of a value the script knows, with a
 * pattern written literally (glob as bash's, by fnmatch): 1 when done. */
static int trim_value(walker *w, wbuild *wb, const sl_word *val, size_t k, size_t b, int in_dq)
{
	const char *t = w->v.text;
	char op = t[k];
	int twice = k + 1 < b && t[k + 1] == op;
	size_t pa = k + 1 + (size_t)twice, pe = b - 1, ra = pe;
	if (op == '/') {
		for (size_t i = pa; i < pe; i++)
			if (t[i] == '/' && t[i - 1] != '\\') {
				ra = i + 1;
				pe = i;
				break;
			}
	}
	for (size_t i = pa; i < b - 1; i++)
		if (t[i] == '$' || t[i] == '`' || t[i] == '"' || t[i] == '\'' || t[i] == '\\')
			return 0;
	if (op == '/' && pa < pe && (t[pa] == '#' || t[pa] == '%'))
		return 0;   /* anchored replacements: not read */
	char *pat = sl_strndup(t + pa, pe - pa);
	char *s = sl_strndup(val->text, val->len);
	size_t n = val->len, from = 0, to = n, ms = 0, me = 0;
	int found = 0;
	if (op == '#') {
		for (size_t l = 0; l <= n; l++) {
			size_t e = twice ? n - l : l;
			char ch = s[e];
			s[e] = 0;
			int m = !fnmatch(pat, s, 0);
			s[e] = ch;
			if (m) {
				from = e;
				break;
			}
		}
	} else if (op == '%') {
		for (size_t l = 0; l <= n; l++) {
			size_t st = twice ? l : n - l;
			if (!fnmatch(pat, s + st, 0)) {
				to = st;
				break;
			}
		}
	} else {
		/* the first longest match (every one with //) */
		for (size_t st = 0; st < n && !found && *pat; st++)
			for (size_t e = n; e > st && !found; e--) {
				char ch = s[e];
				s[e] = 0;
				if (!fnmatch(pat, s + st, 0))
					found = 1, ms = st, me = e;
				s[e] = ch;
			}
	}
	if (op != '/') {
		add_part(wb, val, from, to, in_dq);
	} else if (!found) {
		add_part(wb, val, 0, n, in_dq);
	} else {
		size_t pos = 0;
		while (found) {
			add_part(wb, val, pos, ms, in_dq);
			sh_add_unescaped(w, wb, ra, b - 1, in_dq);
			pos = me;
			found = 0;
			for (size_t st = pos; twice && st < n && !found; st++)
				for (size_t e = n; e > st && !found; e--) {
					char ch = s[e];
					s[e] = 0;
					if (!fnmatch(pat, s + st, 0))
						found = 1, ms = st, me = e;
					s[e] = ch;
				}
		}
		add_part(wb, val, pos, n, in_dq);
	}
	free(pat);
	free(s);
	return 1;
}

static void eval_expansion_k(walker *w, TSNode node, wbuild *wb, int in_dq, size_t kb,
			     uint32_t nc)
{
	const char *t = w->v.text;
	size_t a = sh_node_start(w, node), b = ts_node_end_byte(node);
	TSSymbol type_sym = ts_node_symbol(node);
	TSNode name = {0}, sub = {0};
	int have_name = 0, have_sub = 0;
	for (uint32_t i = 0; i < nc; i++) {
		TSNode c = KID(i);
		TSSymbol ct_sym = ts_node_symbol(c);
		if ((ct_sym == sh_sym.variable_name) || (ct_sym == sh_sym.special_variable_name)) {
			name = c;
			have_name = 1;
			break;
		}
		if (ct_sym == sh_sym.subscript) {
			sub = c;
			have_sub = 1;
			name = ts_node_child_by_field_id(c, sh_sym.f.name);
			have_name = !ts_node_is_null(name);
			break;
		}
	}
	if (have_name && (type_sym == sh_sym.expansion)) {
		size_t na = ts_node_start_byte(name), nb = ts_node_end_byte(name);
		size_t ne = have_sub ? ts_node_end_byte(sub) : nb;   /* past NAME or NAME[i] */
		const sl_assign *v = sh_var_get(w, t + na, nb - na);
		const varr *ar = sh_var_array(w, t + na, nb - na);
		int cleared = !v && sh_var_cleared(w, t + na, nb - na);
		const char *bv = v || cleared ? NULL : sh_bound(w, t + na, nb - na);
		int all = 0, star = 0, idx_known = 1;
		long long idx = 0;
		if (have_sub) {
			TSNode ix = ts_node_child_by_field_id(sub, sh_sym.f.index);
			size_t ia = ts_node_start_byte(ix), ib = ts_node_end_byte(ix);
			if (ib == ia + 1 && (t[ia] == '@' || t[ia] == '*')) {
				all = 1;
				star = t[ia] == '*';
			} else if (sh_parse_ll(t + ia, ib - ia, &idx) || idx < 0) {
				idx_known = 0;
			}
		}
		/* ${#NAME}, ${#A[@]}: lengths and counts */
		if (a + 2 < b && t[a + 2] == '#' && na == a + 3 && ne + 1 == b) {
			if (v && all && ar) {
				sh_add_number(wb, (long long)ar->n, sh_src_off(&w->v, a));
				return;
			}
			if (v && !all && !have_sub && !(v->value.flags & SL_WORD_SYMBOLIC) && !ar) {
				sh_add_number(wb, (long long)v->value.len, sh_src_off(&w->v, a));
				return;
			}
			sh_wb_add_view(wb, &w->v, a, b - a);
			wb->flags |= SL_WORD_SYMBOLIC;
			return;
		}
		if (na == a + 2) {
			/* the value of ${NAME} or ${A[i]} */
			const sl_word *val = v ? &v->value : NULL;
			if (ar && have_sub && !all) {
				val = idx_known && (size_t)idx < ar->n ? &ar->elems[idx] : NULL;
				if (!idx_known)
					v = NULL, bv = NULL;
			} else if (ar && !have_sub) {
				val = ar->n ? &ar->elems[0] : NULL;
			}
			size_t k = ne;
			if (k + 1 == b) {
				if (ar && all)
					add_elements(wb, ar, in_dq, star);
				else if (val)
					add_value(wb, val, in_dq);
				else if ((v && idx_known) || cleared)
					;  /* an index past the end, or `unset NAME` ran: empty */
				else if (bv && !have_sub) {
					add_bound(wb, bv, sh_src_off(&w->v, a), in_dq);
					sh_record_input(w, t + na, nb - na, a, bv);
				} else if (!have_sub)
					add_symbolic(w, wb, a, na, nb);
				else {
					sh_wb_add_view(wb, &w->v, a, b - a);
					wb->flags |= SL_WORD_SYMBOLIC;
				}
				return;
			}
			/* ${NAME%pat}, %%, #, ##, ${NAME/pat/rep}, //: of a known value
			 * and a literal pattern (else kept as written, symbolic) */
			if (k < b && (t[k] == '%' || t[k] == '#' || t[k] == '/') && val && !have_sub &&
			    !(val->flags & SL_WORD_SYMBOLIC) && trim_value(w, wb, val, k, b, in_dq))
				return;
			/* ${NAME:-default}, ${NAME-default}, := and =, :+ and + */
			int colon = k < b && t[k] == ':';
			if (colon)
				k++;
			if (k < b && (t[k] == '-' || t[k] == '=' || t[k] == '+') && !have_sub) {
				char op = t[k];
				int symbolic = val && (val->flags & SL_WORD_SYMBOLIC);
				int set = val || bv;
				int empty = val ? val->len == 0 : bv ? !*bv : 1;
				if (op == '+' && !set && !cleared)
					sh_record_input(w, t + na, nb - na, a, NULL);
				if (op == '+' && (symbolic || (!set && !cleared))) {
					/* ${X:+word} of an unknown X: word or nothing */
					sh_wb_add_view(wb, &w->v, a, b - a);
					wb->flags |= SL_WORD_SYMBOLIC;
					return;
				}
				int use_word = op == '+' ? set && !(colon && empty) : !set || (colon && empty);
				if (!use_word) {
					if (op == '+')
						return;
					if (val)
						add_value(wb, val, in_dq);
					else {
						add_bound(wb, bv, sh_src_off(&w->v, a), in_dq);
						sh_record_input(w, t + na, nb - na, a, bv);
					}
					return;
				}
				/* the word: named children after the operator, or raw text */
				if (!set && op != '+' && !cleared) {
					sh_record_input(w, t + na, nb - na, a, NULL)->defaulted = 1;
					w->defaults_used++;
				}
				size_t da = k + 1, db = b - 1;
				size_t from = wb->b.len;
				int any = 0;
				for (uint32_t i = 0; i < nc; i++) {
					TSNode c = KID(i);
					if (ts_node_start_byte(c) >= da && ts_node_end_byte(c) <= db) {
						sh_eval_node(w, c, wb, in_dq);
						any = 1;
					}
				}
				if (!any)
					sh_add_unescaped(w, wb, da, db, in_dq);
				if (op == '=') {
					/* ${NAME:=default} also assigns it */
					sl_word dv = {0};
					dv.text = sl_strndup(wb->b.data ? wb->b.data + from : "", wb->b.len - from);
					dv.len = wb->b.len - from;
					dv.offs = sl_malloc((dv.len + 1) * sizeof *dv.offs);
					memcpy(dv.offs, wb->offs + from, dv.len * sizeof *dv.offs);
					dv.offs[dv.len] = sh_src_off(&w->v, db);
					dv.start = sh_src_off(&w->v, da);
					dv.end = sh_src_off(&w->v, db);
					dv.flags = wb->flags & (SL_WORD_SYMBOLIC | SL_WORD_BOUND);
					char *nm = sl_strndup(t + na, nb - na);
					sh_var_set(w, nm, &dv, sh_src_off(&w->v, na), 0);
					free(nm);
					sl_word_free(&dv);
				}
				return;
			}
		}
	} else if (have_name) {
		/* $NAME */
		size_t na = ts_node_start_byte(name), nb = ts_node_end_byte(name);
		if (nb == na + 1 && (t[na] == '@' || t[na] == '*')) {
			/* "$@" and "$*" of a function call: its arguments */
			const varr *args = sh_var_array(w, "@", 1);
			if (args) {
				add_elements(wb, args, in_dq, t[na] == '*');
				return;
			}
		}
		const sl_assign *v = sh_var_get(w, t + na, nb - na);
		const varr *ar = sh_var_array(w, t + na, nb - na);
		if (ar) {
			if (ar->n)
				add_value(wb, &ar->elems[0], in_dq);
			return;
		}
		if (v) {
			add_value(wb, &v->value, in_dq);
			return;
		}
		if (sh_var_cleared(w, t + na, nb - na))
			return;  /* `unset NAME` ran: empty */
		const char *bv = sh_bound(w, t + na, nb - na);
		if (bv) {
			add_bound(wb, bv, sh_src_off(&w->v, a), in_dq);
			sh_record_input(w, t + na, nb - na, a, bv);
			return;
		}
		if (ts_node_symbol(name) == sh_sym.variable_name) {
			add_symbolic(w, wb, a, na, nb);
			return;
		}
	}
	/* Unknown value: keep it as written, marked symbolic. */
	sh_wb_add_view(wb, &w->v, a, b - a);
	wb->flags |= SL_WORD_SYMBOLIC;
}

static void eval_expansion(walker *w, TSNode node, wbuild *wb, int in_dq)
{
	uint32_t nc;
	size_t kb = sh_kids(w, node, 1, &nc);
	eval_expansion_k(w, node, wb, in_dq, kb, nc);
	w->pool_n = kb;
}

static void eval_string(walker *w, TSNode node, wbuild *wb)
{
	size_t a = ts_node_start_byte(node), b = ts_node_end_byte(node);
	size_t pos = a + 1;
	size_t end = b > a + 1 && w->v.text[b - 1] == '"' ? b - 1 : b;
	uint32_t nc;
	size_t kb = sh_kids(w, node, 1, &nc);
	wb->flags |= SL_WORD_QUOTED;
	for (uint32_t i = 0; i < nc; i++) {
		TSNode c = KID(i);
		size_t ca = sh_node_start(w, c), cb = ts_node_end_byte(c);
		if (ca > pos)
			sh_add_unescaped(w, wb, pos, ca, 1);
		if ((ts_node_symbol(c) == sh_sym.string_content))
			sh_add_unescaped(w, wb, ca, cb, 1);
		else
			sh_eval_node(w, c, wb, 1);
		pos = cb;
	}
	w->pool_n = kb;
	if (end > pos)
		sh_add_unescaped(w, wb, pos, end, 1);
}

/* Whether single-quoted text holds what reads as an expansion ($X, ${X},
 * $(cmd)). */
static int raw_names_expansion(const char *s, size_t n)
{
	for (size_t i = 0; i + 1 < n; i++)
		if (s[i] == '$' && (s[i + 1] == '{' || s[i + 1] == '_' || s[i + 1] == '(' ||
				    isalpha((unsigned char)s[i + 1])))
			return 1;
	return 0;
}

void sh_eval_node(walker *w, TSNode node, wbuild *wb, int in_dq)
{
	if (w->failed)
		return;
	if (++w->depth > SL_MAX_NESTING) {
		sh_fail_at(w, ts_node_start_byte(node),
			"nesting deeper than the limit of %s levels", "64");
		w->depth--;
		return;
	}
	const char *type = ts_node_type(node);
	TSSymbol type_sym = ts_node_symbol(node);
	(void)type;
	size_t a = sh_node_start(w, node), b = ts_node_end_byte(node);
	if (type_sym == sh_sym.raw_string) {
		wb->flags |= SL_WORD_QUOTED;
		if (b - a >= 2)
			sh_wb_add_view(wb, &w->v, a + 1, b - a - 2);
		/* `eval "$CMD"` of CMD="... --x '${CFG}'": bash expanded ${CFG}
		 * when CMD was made, so the quotes hold its unknown value, not the
		 * text `${CFG}` the value of CMD is written with here */
		if (w->v.symbolic && b - a >= 2 && raw_names_expansion(w->v.text + a + 1, b - a - 2))
			wb->flags |= SL_WORD_SYMBOLIC;
	} else if (type_sym == sh_sym.string) {
		eval_string(w, node, wb);
	} else if ((type_sym == sh_sym.concatenation) || (type_sym == sh_sym.command_name)) {
		uint32_t nc;
		size_t kb = sh_kids(w, node, 0, &nc);
		size_t pos = a;
		for (uint32_t i = 0; i < nc; i++) {
			TSNode c = KID(i);
			size_t ca = ts_node_start_byte(c), cb = ts_node_end_byte(c);
			if (ca > pos)
				sh_add_unescaped(w, wb, pos, ca, in_dq);
			if (ts_node_is_named(c))
				sh_eval_node(w, c, wb, in_dq);
			else
				sh_add_unescaped(w, wb, ca, cb, in_dq);
			pos = cb;
		}
		w->pool_n = kb;
		if (b > pos)
			sh_add_unescaped(w, wb, pos, b, in_dq);
	} else if ((type_sym == sh_sym.simple_expansion) || (type_sym == sh_sym.expansion)) {
		eval_expansion(w, node, wb, in_dq);
	} else if (type_sym == sh_sym.arithmetic_expansion) {
		sh_eval_arith(w, node, wb);
	} else if ((type_sym == sh_sym.command_substitution) ||
		   (type_sym == sh_sym.process_substitution)) {
		/* Never run anything: the value is unknown. Still look inside so
		 * that absurd nesting is refused rather than silently accepted. */
		uint32_t nc;
	size_t kb = sh_kids(w, node, 1, &nc);
		wbuild tmp = {0};
		for (uint32_t i = 0; i < nc && !w->failed; i++)
			sh_eval_node(w, KID(i), &tmp, 0);
		w->pool_n = kb;
		sh_wb_discard(&tmp);
		sh_wb_add_view(wb, &w->v, a, b - a);
		wb->flags |= SL_WORD_SYMBOLIC;
	} else if (type_sym == sh_sym.ansi_c_string) {
		wb->flags |= SL_WORD_QUOTED;
		if (b - a >= 3)
			sh_wb_add_view(wb, &w->v, a + 2, b - a - 3);
	} else {
		/* word, number, and anything plain */
		sh_add_unescaped(w, wb, a, b, in_dq);
	}
	w->depth--;
}
