/*
 * control.c: control statements. `for v in ...` is unrolled (each command
 * once per value, sharing its `stmt`), which is how later stages count
 * replicas; `if` and `case` follow the alternative their condition decides,
 * or the one the variant being read chose; C-style `for ((...))` loops over
 * known bounds are unrolled like `for`; while/until loops are not read yet
 * (a note says so). A new loop form belongs here.
 */
#include "internal.h"

#include <ctype.h>
#include <fnmatch.h>

/* The body once per value, with NAME set to it: how later stages count
 * replicas (commands of one statement, iteration k of n). */
static void unroll(walker *w, TSNode node, const char *name, sl_word *vals, size_t nvals, TSNode body)
{
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
		/* the per-loop limit does not bound nested loops: their product is */
		if (++w->iterations_total > SL_MAX_TOTAL_ITERATIONS) {
			sh_fail_at(w, ts_node_start_byte(node),
				   "loops run more than the limit of %s iterations in all (nested loops multiply)",
				   "10000");
			break;
		}
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
		} else if (t_sym == sh_sym.comment) {
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
	unroll(w, node, name, vals, nvals, body);
	free(name);
out:
	w->pool_n = kb;
	for (size_t i = 0; i < nvals; i++)
		sl_word_free(&vals[i]);
	free(vals);
}

/* NAME at s (n bytes, blanks around it allowed): its length, or 0. */
static size_t name_at(const char *s, size_t n)
{
	size_t i = 0;
	if (!n || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
		return 0;
	while (i < n && (isalnum((unsigned char)s[i]) || s[i] == '_'))
		i++;
	return i;
}

static void trim(const char **s, size_t *n)
{
	while (*n && isspace((unsigned char)**s))
		(*s)++, (*n)--;
	while (*n && isspace((unsigned char)(*s)[*n - 1]))
		(*n)--;
}

/*
 * `for ((i = START; i OP BOUND; STEP))`, the form harnesses use for replicas
 * and capture-size lists: OP one of < <= > >= !=, STEP i++, ++i, i--, --i,
 * i+=K, i-=K or i=i+K, START, BOUND and K numbers or variables the script
 * knows. Unrolled as `for i in START ...` is; any other form, or an unknown
 * bound, is noted and not read.
 */
void sh_walk_c_for(walker *w, TSNode node)
{
	const char *t = w->v.text;
	size_t a = ts_node_start_byte(node), b = ts_node_end_byte(node);
	const char *open = NULL, *close = NULL;
	for (size_t i = a; i + 1 < b && !open; i++)
		if (t[i] == '(' && t[i + 1] == '(')
			open = t + i + 2;
	for (const char *p = open; p && p + 1 < t + b && !close; p++)
		if (p[0] == ')' && p[1] == ')')
			close = p;
	TSNode body = ts_node_child_by_field_name(node, "body", 4);
	const char *part[3];
	size_t plen[3], np = 0;
	for (const char *p = open, *from = open; p && close && p <= close && np < 3; p++)
		if (p == close || *p == ';') {
			part[np] = from;
			plen[np] = (size_t)(p - from);
			trim(&part[np], &plen[np]);
			np++;
			from = p + 1;
		}
	char *name = NULL;
	long long start = 0, bound = 0, step = 0;
	char op[3] = {0};
	int ok = !ts_node_is_null(body) && np == 3;
	size_t nl = ok ? name_at(part[0], plen[0]) : 0;
	ok = ok && nl && nl < plen[0];
	if (ok) {
		name = sl_strndup(part[0], nl);
		const char *q = part[0] + nl;
		size_t ql = plen[0] - nl;
		trim(&q, &ql);
		ok = ql > 1 && q[0] == '=' && !sh_arith_operand(w, q + 1, ql - 1, (size_t)(q - t), &start);
	}
	/* the condition: NAME OP BOUND */
	if (ok) {
		const char *q = part[1];
		size_t ql = plen[1];
		ok = name_at(q, ql) == nl && !strncmp(q, name, nl);
		q += nl, ql -= nl;
		trim(&q, &ql);
		size_t ol = ql >= 2 && q[1] == '=' ? 2 : 1;
		ok = ok && ql > ol && strchr("<>!", q[0]) && (q[0] != '!' || ol == 2);
		if (ok) {
			memcpy(op, q, ol);
			ok = !sh_arith_operand(w, q + ol, ql - ol, (size_t)(q - t), &bound);
		}
	}
	/* the step */
	if (ok) {
		const char *q = part[2];
		size_t ql = plen[2];
		if (ql == nl + 2 && !strncmp(q, name, nl) && (!strncmp(q + nl, "++", 2) || !strncmp(q + nl, "--", 2)))
			step = q[nl] == '+' ? 1 : -1;
		else if (ql == nl + 2 && !strncmp(q + 2, name, nl) && (!strncmp(q, "++", 2) || !strncmp(q, "--", 2)))
			step = q[0] == '+' ? 1 : -1;
		else if (name_at(q, ql) == nl && !strncmp(q, name, nl)) {
			const char *r = q + nl;
			size_t rl = ql - nl;
			trim(&r, &rl);
			long long k = 0;
			if (rl > 2 && (r[0] == '+' || r[0] == '-') && r[1] == '=' &&
			    !sh_arith_operand(w, r + 2, rl - 2, (size_t)(r - t), &k))
				step = r[0] == '+' ? k : -k;
			else if (rl > 1 && r[0] == '=') {
				r++, rl--;
				trim(&r, &rl);
				if (name_at(r, rl) == nl && !strncmp(r, name, nl)) {
					r += nl, rl -= nl;
					trim(&r, &rl);
					if (rl > 1 && (r[0] == '+' || r[0] == '-') &&
					    !sh_arith_operand(w, r + 1, rl - 1, (size_t)(r - t), &k))
						step = r[0] == '+' ? k : -k;
				}
			}
		}
		ok = step != 0;
	}
	if (!ok || w->failed) {
		if (!w->failed)
			sh_note(w, node, "C-style for loop of a form not analysed, or over an unknown bound; "
					 "commands inside it are not in the model");
		free(name);
		return;
	}
	sl_word *vals = NULL;
	size_t nvals = 0, vcap = 0;
	uint32_t at = sh_src_off(&w->v, (size_t)(open - t));
	long long v = start;
	for (;;) {
		int more = !strcmp(op, "<") ? v < bound : !strcmp(op, "<=") ? v <= bound
			 : !strcmp(op, ">") ? v > bound : !strcmp(op, ">=") ? v >= bound : v != bound;
		if (!more)
			break;
		if (nvals >= SL_MAX_LOOP_ITERATIONS) {
			sh_fail_at(w, a, "for loop over more than %s values", "1024");
			break;
		}
		wbuild wb = {0};
		sh_add_number(&wb, v, at);
		sl_word val;
		sh_wb_finish(&wb, &val, at, at);
		SL_PUSH(vals, nvals, vcap, val);
		v += step;
	}
	if (!w->failed)
		unroll(w, node, name, vals, nvals, body);
	if (!w->failed) {
		/* after the loop NAME holds the value that ended it */
		wbuild wb = {0};
		sh_add_number(&wb, v, at);
		sl_word end;
		sh_wb_finish(&wb, &end, at, at);
		sh_var_set(w, name, &end, at, 0);
		sl_word_free(&end);
	}
	for (size_t i = 0; i < nvals; i++)
		sl_word_free(&vals[i]);
	free(vals);
	free(name);
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

/* while/until loops and C-style for loops are not read yet: said in a note. */
void sh_walk_unread_loop(walker *w, TSNode node)
{
	TSSymbol t_sym = ts_node_symbol(node);
	sl_buf b = {0};
	sl_buf_printf(&b, "%s not analysed yet; commands inside it are not in the model",
		      t_sym == sh_sym.while_statement ? "while/until loop" : "loop");
	sh_note(w, node, b.data);
	sl_buf_free(&b);
}
