/*
 * assign.c: assignments, where the variable table changes: NAME=v, arrays,
 * appends and elements, export/declare/local, `unset`, and the VAR=x prefix
 * of a command (which only that command sees, so it does not touch the table).
 */
#include "internal.h"

/*
 * A statement-level assignment (NAME=v, NAME+=v, NAME=(a b), NAME+=(c),
 * A[i]=v), applied to the variables and recorded in the script's assigns.
 * A value left unknown takes a --set binding of the name.
 */
void sh_do_assign(walker *w, TSNode node, int exported)
{
	const char *t = w->v.text;
	uint32_t nc;
	size_t kb = sh_kids(w, node, 1, &nc);
	TSNode lhs = KID(0), name = lhs, idx = {0}, val = {0};
	int have_val = nc >= 2, have_idx = 0;
	if (have_val)
		val = KID(1);
	w->pool_n = kb;
	if (ts_node_symbol(lhs) == sh_sym.subscript) {
		name = ts_node_child_by_field_id(lhs, sh_sym.f.name);
		idx = ts_node_child_by_field_id(lhs, sh_sym.f.index);
		have_idx = !ts_node_is_null(idx);
		if (ts_node_is_null(name))
			return;
	}
	size_t na = ts_node_start_byte(name), nb = ts_node_end_byte(name);
	size_t le = ts_node_end_byte(lhs);
	int append = le + 1 < w->v.len && t[le] == '+' && t[le + 1] == '=';
	char *nm = sl_strndup(t + na, nb - na);
	uint32_t start = sh_src_off(&w->v, na);
	const sl_assign *old = sh_var_get(w, t + na, nb - na);
	const varr *oar = sh_var_array(w, t + na, nb - na);
	if (have_val && ts_node_symbol(val) == sh_sym.array) {
		sl_word *el = NULL;
		size_t n = 0, cap = 0;
		if (append && oar)
			sh_words_copy(&el, &n, &cap, oar->elems, oar->n);
		else if (append && old)
			sh_words_copy(&el, &n, &cap, &old->value, 1);
		uint32_t k;
		size_t kb2 = sh_kids(w, val, 1, &k);
		for (uint32_t i = 0; i < k && !w->failed; i++) {
			if (ts_node_symbol(KID(i)) != sh_sym.comment)
				sh_eval_fields(w, KID(i), &el, &n, &cap);
			if (n > SL_MAX_ARRAY)
				sh_fail_at(w, ts_node_start_byte(val), "an array of more than the limit of %s elements",
					"100000");
		}
		w->pool_n = kb2;
		sh_var_set_array(w, nm, el, n, start, exported);
	} else {
		sl_word v;
		if (have_val) {
			sh_eval_word(w, val, &v);
		} else {
			size_t e = ts_node_end_byte(node);
			wbuild wb = {0};
			sh_wb_finish(&wb, &v, sh_src_off(&w->v, e), sh_src_off(&w->v, e));
		}
		const char *bv = sh_bound(w, nm, strlen(nm));
		if ((v.flags & SL_WORD_SYMBOLIC) && !bv && !have_idx)
			sh_record_input(w, nm, strlen(nm), ts_node_start_byte(name), NULL);
		if ((v.flags & SL_WORD_SYMBOLIC) && bv && !w->failed) {
			/* --set NAME=VALUE stands for what the script could not know */
			uint32_t at = v.start;
			sh_record_input(w, nm, strlen(nm), ts_node_start_byte(name), bv);
			sl_word_free(&v);
			wbuild wb = {0};
			sh_wb_add_at(&wb, bv, strlen(bv), at);
			wb.flags = SL_WORD_BOUND;
			sh_wb_finish(&wb, &v, at, at);
		}
		/* A=$B; B=$A (or X="${H:-$T}"; T="$X"): B's new value is what B
		 * held before, unknown, spelled `$B` as every read of the input B
		 * is; bash reads it so, and it is not recursion (only arithmetic,
		 * which follows a value naming a variable, can recurse) */
		if (append && !have_idx && !oar && old) {
			sl_word cat;
			sh_word_concat(&cat, &old->value, &v);
			sl_word_free(&v);
			v = cat;
		}
		if ((have_idx || append) && oar) {
			/* A[i]=v, A+=v (to element 0) */
			long long i = 0;
			size_t ia = have_idx ? ts_node_start_byte(idx) : 0, ib = have_idx ? ts_node_end_byte(idx) : 0;
			if (have_idx && (sh_parse_ll(t + ia, ib - ia, &i) || i < 0 || i > SL_MAX_LOOP_ITERATIONS)) {
				sh_note(w, node, "array element assigned at an index not analysed");
				sl_word_free(&v);
				free(nm);
				return;
			}
			sl_word *el = NULL;
			size_t n = 0, cap = 0;
			sh_words_copy(&el, &n, &cap, oar->elems, oar->n);
			while (n <= (size_t)i) {
				sl_word e = {0};
				wbuild wb = {0};
				sh_wb_finish(&wb, &e, start, start);
				SL_PUSH(el, n, cap, e);
			}
			if (append && !have_idx) {
				sl_word cat;
				sh_word_concat(&cat, &el[0], &v);
				sl_word_free(&el[0]);
				el[0] = cat;
			} else {
				sl_word_free(&el[i]);
				sl_word_copy(&el[i], &v);
			}
			sh_var_set_array(w, nm, el, n, start, exported);
		} else if (have_idx) {
			sh_note(w, node, "array element assigned to a variable not known as an array");
		} else {
			sh_var_set(w, nm, &v, start, exported);
		}
		sl_word_free(&v);
	}
	/* the record of the statement: the variable's new value */
	const sl_assign *now = sh_var_get(w, nm, strlen(nm));
	if (now && !w->failed) {
		sl_assign rec = {0};
		rec.name = nm;
		sl_word_copy(&rec.value, &now->value);
		rec.start = start;
		rec.exported = exported;
		SL_PUSH(w->s->assigns, w->s->nassigns, w->asg_cap, rec);
	} else {
		free(nm);
	}
}

void sh_assign_from_node(walker *w, TSNode node, sl_assign *out)
{
	memset(out, 0, sizeof *out);
	uint32_t nc;
	size_t kb = sh_kids(w, node, 1, &nc);
	TSNode name = KID(0);
	size_t na = ts_node_start_byte(name), nb = ts_node_end_byte(name);
	out->name = sl_strndup(w->v.text + na, nb - na);
	out->start = sh_src_off(&w->v, na);
	if (nc >= 2) {
		sh_eval_word(w, KID(1), &out->value);
	} else {
		/* NAME= with nothing after it: the empty string */
		size_t e = ts_node_end_byte(node);
		wbuild wb = {0};
		sh_wb_finish(&wb, &out->value, sh_src_off(&w->v, e), sh_src_off(&w->v, e));
	}
	w->pool_n = kb;
}

/* export, declare, local, readonly: their assignments, and `export NAME` of a
 * variable already set. */
void sh_walk_declaration(walker *w, TSNode node)
{
	size_t a0 = ts_node_start_byte(node);
	int exported = sl_starts_with(w->v.text + a0, "export");
	uint32_t nc;
	size_t kb = sh_kids(w, node, 1, &nc);
	for (uint32_t i = 0; i < nc && !w->failed; i++) {
		TSNode c = KID(i);
		const char *ct = ts_node_type(c);
	TSSymbol ct_sym = ts_node_symbol(c);
	(void)ct;
		if (ct_sym == sh_sym.variable_assignment) {
			TSNode cc = c;
			size_t save = w->pool_n;
			sh_do_assign(w, cc, exported);
			w->pool_n = save;
		} else if ((ct_sym == sh_sym.variable_name) && exported) {
			size_t na = ts_node_start_byte(c), nb = ts_node_end_byte(c);
			const sl_assign *old = sh_var_get(w, w->v.text + na, nb - na);
			if (old) {
				sl_word v;
				sl_word_copy(&v, &old->value);
				char *nm = sl_strdup(old->name);
				sh_var_set(w, nm, &v, old->start, 1);
				free(nm);
				sl_word_free(&v);
			}
		}
	}
	w->pool_n = kb;
}

/* `unset A B`, `unset -v A`: tree-sitter-bash reads it as an unset_command
 * node, not a command, so it is walked here. `unset -f NAME` removes a
 * function, not a variable: the variables stay. A name given by expansion
 * (`unset $V`) is its value. */
void sh_walk_unset(walker *w, TSNode node)
{
	uint32_t nc;
	size_t kb = sh_kids(w, node, 1, &nc);
	int functions = 0;
	for (uint32_t i = 0; i < nc && !w->failed; i++) {
		TSNode c = KID(i);
		sl_word v;
		size_t save = w->pool_n;
		sh_eval_word(w, c, &v);
		w->pool_n = save;
		if (v.len && v.text[0] == '-')
			functions |= strchr(v.text, 'f') != NULL;
		else if (v.len && !functions && !(v.flags & SL_WORD_SYMBOLIC))
			sh_var_clear(w, v.text);
		sl_word_free(&v);
	}
	w->pool_n = kb;
}
