/*
 * control.c: control statements. `for v in ...` is unrolled (each command
 * once per value, sharing its `stmt`), which is how later stages count
 * replicas; `if` and `case` follow the alternative their condition decides,
 * or the one the variant being read chose; C-style `for ((...))` loops over
 * known bounds are unrolled like `for`; a while loop over known arguments
 * (`while [ $# -gt 0 ]; do case "$1" ...; shift; done`) is followed turn by
 * turn, and any other leaves what it assigns unknown. A new loop form
 * belongs here.
 */
#include "internal.h"

static void assigned_names(walker *w, TSNode body, char ***names, size_t *n);
static void alternatives_not_read(walker *w, TSNode node, char **names, size_t n);

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
	unsigned save_while = w->in_while;
	w->in_while = 1;   /* a `break` in its body ends this loop, not an outer while */
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
		if (w->broke) {
			/* `break`: the turns after it do not run */
			w->broke = 0;
			break;
		}
	}
	w->loop_var = save_var;
	w->loop_value = save_val;
	w->iteration = save_it;
	w->iterations = save_its;
	w->in_head = save_in;
	w->head = save_head;
	w->in_while = save_while;
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
	TSNode body = ts_node_child_by_field_id(node, sh_sym.f.body);
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
		TSNode c = sh_child(w, node, i);
		if (!ts_node_is_named(c))
			continue;
		int bg = i + 1 < to && !ts_node_is_named(sh_child(w, node, i + 1)) &&
			 !strcmp(ts_node_type(sh_child(w, node, i + 1)), "&");
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
static void split_branch(walker *w, TSNode node, if_branch *b)
{
	uint32_t k = ts_node_child_count(node);
	b->holder = node;
	b->cond_from = 1;
	b->cond_to = 1;
	b->body_from = k;
	b->body_to = k;
	b->has_cond = 1;
	for (uint32_t i = 0; i < k; i++) {
		TSNode c = sh_child(w, node, i);
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
		TSNode c = sh_child(w, b->holder, i);
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

/* Whether the statements [from, to) of holder are a failure: they end in
 * `exit N` with N a number other than 0, after statements that change
 * nothing (an error message). */
static int fails_out(walker *w, TSNode holder, uint32_t from, uint32_t to)
{
	for (uint32_t i = to; i-- > from;) {
		TSNode c = sh_child(w, holder, i);
		if (!ts_node_is_named(c) || ts_node_symbol(c) == sh_sym.comment)
			continue;
		if (ts_node_symbol(c) != sh_sym.command || ts_node_named_child_count(c) != 2)
			return 0;
		TSNode nm = ts_node_child_by_field_id(c, sh_sym.f.name), arg = ts_node_named_child(c, 1);
		size_t a = ts_node_start_byte(nm), b = ts_node_end_byte(nm);
		long long code;
		size_t ca = ts_node_start_byte(arg), cb = ts_node_end_byte(arg);
		if (b - a != 4 || memcmp(w->v.text + a, "exit", 4) || sh_parse_ll(w->v.text + ca, cb - ca, &code) ||
		    code == 0)
			return 0;
		return sh_stateless(w, holder, from, i);
	}
	return 0;
}

/* Alternatives that only fail (an error message, then `exit 1`) are how a
 * script refuses what it cannot run with, not a configuration: they are
 * dropped while another is left, each said in a note at the conditional.
 * alt[i] -1 (no branch runs) never fails. Returns the alternatives left. */
static unsigned drop_failures(walker *w, TSNode node, int *alt, char **labels, unsigned na,
			      int (*fails)(walker *, TSNode, int, void *), void *ctx)
{
	unsigned left = 0;
	for (unsigned i = 0; i < na; i++)
		left += alt[i] < 0 || !fails(w, node, alt[i], ctx);
	if (!left || left == na)
		return na;
	unsigned k = 0;
	for (unsigned i = 0; i < na; i++) {
		if (alt[i] >= 0 && fails(w, node, alt[i], ctx)) {
			sl_buf b = {0};
			const char *l = labels[i], *e = sl_label_place(l);
			sl_buf_puts(&b, "when ");
			sl_buf_add(&b, l, e ? (size_t)(e - l) : strlen(l));
			sl_buf_puts(&b, ", the script fails (exits non-zero) before anything more: not a variant");
			sh_note(w, node, b.data);
			sl_buf_free(&b);
			free(labels[i]);
			continue;
		}
		alt[k] = alt[i];
		labels[k++] = labels[i];
	}
	return k;
}

static int if_fails(walker *w, TSNode node, int a, void *ctx)
{
	(void)node;
	const if_branch *br = ctx;
	return fails_out(w, br[a].holder, br[a].body_from, br[a].body_to);
}

/* The command a condition's statement runs: itself, the body of a
 * redirected one, the last of a pipeline; NULL node for a test or any
 * other form. */
static TSNode probe_command(TSNode st)
{
	TSNode none = {0};
	for (int depth = 0; depth < 4 && !ts_node_is_null(st); depth++) {
		TSSymbol k = ts_node_symbol(st);
		if (k == sh_sym.command)
			return st;
		if (k == sh_sym.redirected_statement)
			st = ts_node_child_by_field_id(st, sh_sym.f.body);
		else if (k == sh_sym.pipeline)
			st = ts_node_named_child(st, ts_node_named_child_count(st) - 1);
		else
			return none;
	}
	return none;
}

static int text_is(walker *w, TSNode n, const char *s)
{
	size_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
	return b - a == strlen(s) && !memcmp(w->v.text + a, s, b - a);
}

/* Whether node's subtree holds a node of kind k outside a command
 * substitution (stop: that kind is not looked into). */
static int holds_kind(TSNode node, TSSymbol k, TSSymbol stop)
{
	if (ts_node_symbol(node) == k)
		return 1;
	if (ts_node_symbol(node) == stop)
		return 0;
	for (uint32_t i = 0; i < ts_node_named_child_count(node); i++)
		if (holds_kind(ts_node_named_child(node, i), k, stop))
			return 1;
	return 0;
}

/* Whether the statement st of a loop body assigns name from a command's
 * output (`used=$(nvidia-smi ...)`, `local v=$(...)`). */
static int reads_command_into(walker *w, TSNode st, const char *name, size_t n)
{
	TSNode a = st;
	if (ts_node_symbol(st) == sh_sym.declaration_command) {
		for (uint32_t i = 0; i < ts_node_named_child_count(st); i++) {
			TSNode c = ts_node_named_child(st, i);
			if (ts_node_symbol(c) == sh_sym.variable_assignment && reads_command_into(w, c, name, n))
				return 1;
		}
		return 0;
	}
	if (ts_node_symbol(a) != sh_sym.variable_assignment)
		return 0;
	TSNode lhs = ts_node_child_by_field_id(a, sh_sym.f.name), rhs = ts_node_child_by_field_id(a, sh_sym.f.value);
	if (ts_node_is_null(lhs) || ts_node_is_null(rhs) || ts_node_symbol(lhs) != sh_sym.variable_name ||
	    ts_node_end_byte(lhs) - ts_node_start_byte(lhs) != n || memcmp(w->v.text + ts_node_start_byte(lhs), name, n))
		return 0;
	return holds_kind(rhs, sh_sym.command_substitution, 0xffff);
}

/* The variables a test reads outside command substitutions: each is
 * assigned from a command's output by a statement of the loop body before
 * the `if`, or holds a value the script knows (1), or some is not (0).
 * *probes counts what it reads of the
 * world: such variables and command substitutions. */
static int test_reads_probes(walker *w, TSNode n, TSNode body, TSNode ifnode, unsigned *probes)
{
	TSSymbol k = ts_node_symbol(n);
	if (k == sh_sym.command_substitution) {
		(*probes)++;
		return 1;
	}
	if (k == sh_sym.variable_name || k == sh_sym.special_variable_name) {
		size_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
		if (k == sh_sym.special_variable_name)
			return 0;
		for (uint32_t i = 0; i < ts_node_named_child_count(body); i++) {
			TSNode st = ts_node_named_child(body, i);
			if (ts_node_start_byte(st) >= ts_node_start_byte(ifnode))
				break;
			if (reads_command_into(w, st, w->v.text + a, b - a)) {
				(*probes)++;
				return 1;
			}
		}
		/* else a value the script knows (`-lt "$limit"`, limit=2000) */
		const sl_assign *v = sh_var_get(w, w->v.text + a, b - a);
		return v && !(v->value.flags & SL_WORD_SYMBOLIC);
	}
	for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
		if (!test_reads_probes(w, ts_node_named_child(n, i), body, ifnode, probes))
			return 0;
	return 1;
}

/* Whether an assignment's value is written out: `true`, `1`, `"true"`,
 * `'ok'` (no expansion). */
static int constant(TSNode v)
{
	TSSymbol k = ts_node_symbol(v);
	if (k == sh_sym.word || k == sh_sym.number || k == sh_sym.raw_string)
		return 1;
	if (k != sh_sym.string)
		return 0;
	for (uint32_t i = 0; i < ts_node_named_child_count(v); i++)
		if (ts_node_symbol(ts_node_named_child(v, i)) != sh_sym.string_content)
			return 0;
	return 1;
}

/* Whether a statement of a poll writes nothing later statements see:
 * stateless, or a message whose arithmetic only computes (`echo "up after
 * $((i * 5))s"`). */
static int only_tells(walker *w, TSNode holder, uint32_t i)
{
	if (sh_stateless(w, holder, i, i + 1))
		return 1;
	TSTreeCursor c = ts_tree_cursor_new(sh_child(w, holder, i));
	int ok = 1;
	for (;;) {
		TSNode x = ts_tree_cursor_current_node(&c);
		TSSymbol k = ts_node_symbol(x);
		size_t xa = ts_node_start_byte(x), xb = ts_node_end_byte(x);
		if (k == sh_sym.variable_assignment || k == sh_sym.heredoc_redirect ||
		    (k == sh_sym.arithmetic_expansion && sh_arith_writes(w->v.text + xa, xb - xa)) ||
		    (k == sh_sym.expansion && memchr(w->v.text + xa, '=', xb - xa)))
			ok = 0;
		if (!ok || !sh_cursor_next(&c))
			break;
	}
	ts_tree_cursor_delete(&c);
	return ok;
}

/* Whether a statement of the body of a poll that tests what it read only
 * waits: the probe's reading (`used=$(...)`, `local used`), a count of
 * the turns (`waited=$((waited + 3))`), sleep or a message. */
static int only_waits(walker *w, TSNode body, uint32_t i)
{
	TSNode st = sh_child(w, body, i);
	TSSymbol k = ts_node_symbol(st);
	if (!ts_node_is_named(st) || k == sh_sym.comment)
		return 1;
	if (k == sh_sym.variable_assignment) {
		TSNode rhs = ts_node_child_by_field_id(st, sh_sym.f.value);
		return !ts_node_is_null(rhs) && (ts_node_symbol(rhs) == sh_sym.command_substitution ||
						 ts_node_symbol(rhs) == sh_sym.arithmetic_expansion);
	}
	if (k == sh_sym.declaration_command) {
		TSNode kw = sh_child(w, st, 0);
		if (!text_is(w, kw, "local"))
			return 0;
		for (uint32_t q = 0; q < ts_node_named_child_count(st); q++) {
			TSNode c = ts_node_named_child(st, q);
			TSNode rhs = ts_node_symbol(c) == sh_sym.variable_assignment
					     ? ts_node_child_by_field_id(c, sh_sym.f.value)
					     : c;
			if (ts_node_symbol(c) == sh_sym.variable_assignment &&
			    (ts_node_is_null(rhs) || ts_node_symbol(rhs) != sh_sym.command_substitution))
				return 0;
			if (ts_node_symbol(c) != sh_sym.variable_assignment && ts_node_symbol(c) != sh_sym.variable_name)
				return 0;
		}
		return 1;
	}
	TSNode t = probe_command(st);
	TSNode tn = ts_node_is_null(t) ? t : ts_node_child_by_field_id(t, sh_sym.f.name);
	return !ts_node_is_null(tn) &&
	       sh_harness_tool(w->v.text + ts_node_start_byte(tn), ts_node_end_byte(tn) - ts_node_start_byte(tn)) &&
	       only_tells(w, body, i);
}

/*
 * Whether an `if` is the probe of a poll: a plain `if PROBE; then ...;
 * break; fi` (no elif, no else) directly in the body of a loop that also
 * sleeps, whose branch ends in `break` after assignments (READY=1) and
 * messages, and whose condition reads the world:
 *   - it runs a program (curl of a health endpoint, nc, grep of a log; not
 *     the script's own function);
 *   - or it is a test of what the loop read from a program: every variable
 *     it reads is set from a command's output earlier in the same body
 *     (`used=$(nvidia-smi --query-gpu=memory.used ...)`, then `if [ "$used"
 *     -lt 2000 ]`), or the test runs the command itself (`[ "$(curl -s
 *     .../health)" = ok ]`). Such a loop must only wait: its body does
 *     nothing else than read the probe, count its turns, sleep and tell,
 *     and the branch assigns only constants (GPU_CLEAN=true), so that
 *     nothing after the loop depends on the turn it ended at.
 * Such a loop retries until a server (or a cache, a master, GPUs drained)
 * is up; its turns where the probe fails are no configuration (what they
 * lead to, a timeout, is the script's guard): the probe is read as
 * succeeding, and never multiplies the variants.
 */
static int poll_probe(walker *w, TSNode node, const if_branch *b, unsigned nb)
{
	if (nb != 1 || (!w->loop_var && !w->in_while))
		return 0;
	TSNode body = ts_node_parent(node);
	if (ts_node_is_null(body) || ts_node_symbol(body) != sh_sym.do_group)
		return 0;
	/* the loop sleeps between its turns */
	int sleeps = 0;
	for (uint32_t i = 0; i < ts_node_named_child_count(body) && !sleeps; i++) {
		TSNode c = probe_command(ts_node_named_child(body, i));
		TSNode nm = ts_node_is_null(c) ? c : ts_node_child_by_field_id(c, sh_sym.f.name);
		sleeps = !ts_node_is_null(nm) && text_is(w, nm, "sleep");
	}
	if (!sleeps)
		return 0;
	/* the condition: one statement, a program run or a test */
	TSNode cond = {0};
	unsigned ncond = 0;
	for (uint32_t i = b->cond_from; i < b->cond_to; i++) {
		TSNode c = sh_child(w, b->holder, i);
		if (ts_node_is_named(c) && ts_node_symbol(c) != sh_sym.comment) {
			cond = c;
			ncond++;
		}
	}
	if (ncond != 1)
		return 0;
	TSNode cmd = probe_command(cond);
	TSNode nm = ts_node_is_null(cmd) ? cmd : ts_node_child_by_field_id(cmd, sh_sym.f.name);
	int tested = 0;  /* a test of what the loop read */
	if (ts_node_symbol(cond) == sh_sym.test_command ||
	    (!ts_node_is_null(nm) && (text_is(w, nm, "[") || text_is(w, nm, "test")))) {
		unsigned probes = 0;
		if (!test_reads_probes(w, cond, body, node, &probes) || !probes)
			return 0;
		for (uint32_t i = 0; i < ts_node_child_count(body); i++) {
			TSNode st = sh_child(w, body, i);
			if (!ts_node_eq(st, node) && ts_node_is_named(st) && !only_waits(w, body, i))
				return 0;
		}
		tested = 1;
	} else {
		if (ts_node_is_null(nm) || ts_node_named_child_count(nm) != 1 ||
		    strcmp(ts_node_type(ts_node_named_child(nm, 0)), "word"))
			return 0;
		for (size_t f = 0; f < w->nfns; f++)
			if (text_is(w, nm, w->fns[f].name))
				return 0;
	}
	/* the branch: ends in break */
	uint32_t last = b->body_to;
	while (last > b->body_from && (!ts_node_is_named(sh_child(w, b->holder, last - 1)) ||
				       ts_node_symbol(sh_child(w, b->holder, last - 1)) == sh_sym.comment))
		last--;
	if (last == b->body_from)
		return 0;
	TSNode brk = sh_child(w, b->holder, last - 1);
	if (ts_node_symbol(brk) != sh_sym.command || ts_node_named_child_count(brk) != 1 ||
	    !text_is(w, ts_node_child_by_field_id(brk, sh_sym.f.name), "break"))
		return 0;
	/* before it, assignments (READY=1: what the loop's success says) and
	 * the harness's read-only tools (echo up) */
	for (uint32_t i = b->body_from; i + 1 < last; i++) {
		TSNode c = sh_child(w, b->holder, i);
		if (!ts_node_is_named(c) || ts_node_symbol(c) == sh_sym.comment)
			continue;
		if (ts_node_symbol(c) == sh_sym.variable_assignment) {
			/* a test's poll: a constant, never the turn it ended at */
			TSNode rhs = ts_node_child_by_field_id(c, sh_sym.f.value);
			if (tested && !ts_node_is_null(rhs) && !constant(rhs))
				return 0;
			continue;
		}
		TSNode t = probe_command(c);
		TSNode tn = ts_node_is_null(t) ? t : ts_node_child_by_field_id(t, sh_sym.f.name);
		if (ts_node_is_null(tn) ||
		    !sh_harness_tool(w->v.text + ts_node_start_byte(tn), ts_node_end_byte(tn) - ts_node_start_byte(tn)) ||
		    !only_tells(w, b->holder, i))
			return 0;
	}
	return 1;
}

void sh_walk_if(walker *w, TSNode node)
{
	if_branch br[64];
	unsigned nb = 0;
	split_branch(w, node, &br[nb++]);
	int has_else = 0;
	uint32_t k = ts_node_child_count(node);
	for (uint32_t i = 0; i < k && nb < 64; i++) {
		TSNode c = sh_child(w, node, i);
		if (ts_node_symbol(c) == sh_sym.elif_clause) {
			split_branch(w, c, &br[nb++]);
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
	na = drop_failures(w, node, alt, labels, na, if_fails, br);
	if (na == 2 && alt[0] == 0 && alt[1] == -1 && poll_probe(w, node, br, nb)) {
		/* a poll's probe: read as succeeding (said once: at the first
		 * turn, which the break ends) */
		sl_buf m = {0};
		const char *l = labels[0], *e = sl_label_place(l);
		sl_buf_puts(&m, "a poll: `");
		sl_buf_add(&m, l, e ? (size_t)(e - l) : strlen(l));
		sl_buf_puts(&m, "` in a loop that sleeps and retries is read as succeeding (what is polled comes "
				"up); its failing turns are not variants");
		if (!w->iteration)
			sh_note(w, node, m.data);
		sl_buf_free(&m);
		free(labels[1]);
		na = 1;
	}
	int stateless = 1;
	for (unsigned i = 0; i < na && stateless && na > 1; i++)
		if (alt[i] >= 0)
			stateless = sh_unread_by_engines(w, br[alt[i]].holder, br[alt[i]].body_from, br[alt[i]].body_to);
	int pick = sh_pick_alternative(w, node, labels, na, stateless);
	if (pick == -2) {
		char **names = NULL;
		size_t n = 0;
		for (unsigned i = 0; i < na; i++)
			for (uint32_t q = alt[i] >= 0 ? br[alt[i]].body_from : 0; alt[i] >= 0 && q < br[alt[i]].body_to; q++)
				assigned_names(w, sh_child(w, br[alt[i]].holder, q), &names, &n);
		alternatives_not_read(w, node, names, n);
		return;
	}
	if (pick < 0)
		return;
	if (alt[pick] >= 0) {
		const if_branch *b = &br[alt[pick]];
		walk_range(w, b->holder, b->body_from, b->body_to);
	}
}

/* The first child of a case item after its `)`: where its statements start. */
static uint32_t item_body(walker *w, TSNode it)
{
	uint32_t c = ts_node_child_count(it);
	for (uint32_t q = 0; q < c; q++)
		if (!strcmp(ts_node_type(sh_child(w, it, q)), ")"))
			return q + 1;
	return c;
}

static int case_fails(walker *w, TSNode node, int a, void *ctx)
{
	(void)node;
	const TSNode *items = ctx;
	return fails_out(w, items[a], item_body(w, items[a]), ts_node_child_count(items[a]));
}

void sh_walk_case(walker *w, TSNode node)
{
	TSNode val = ts_node_child_by_field_id(node, sh_sym.f.value);
	if (ts_node_is_null(val))
		return;
	sl_word v;
	int known = sh_cond_word(w, val, &v) == 0;
	TSNode items[64];
	unsigned ni = 0;
	uint32_t k = ts_node_child_count(node);
	for (uint32_t i = 0; i < k && ni < 64; i++)
		if (ts_node_symbol(sh_child(w, node, i)) == sh_sym.case_item)
			items[ni++] = sh_child(w, node, i);
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
			TSNode p = sh_child(w, items[i], q);
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
	na = drop_failures(w, node, alt, labels, na, case_fails, items);
	int stateless = 1;
	for (unsigned i = 0; i < na && stateless && na > 1; i++)
		if (alt[i] >= 0)
			stateless = sh_unread_by_engines(w, items[alt[i]], item_body(w, items[alt[i]]),
							 ts_node_child_count(items[alt[i]]));
	int pick = sh_pick_alternative(w, node, labels, na, stateless);
	if (pick == -2) {
		char **names = NULL;
		size_t n = 0;
		for (unsigned i = 0; i < na; i++)
			if (alt[i] >= 0)
				assigned_names(w, items[alt[i]], &names, &n);
		alternatives_not_read(w, node, names, n);
		return;
	}
	if (pick < 0)
		return;
	if (alt[pick] >= 0) {
		/* the item's statements: after `)`, up to `;;` */
		TSNode it = items[alt[pick]];
		walk_range(w, it, item_body(w, it), ts_node_child_count(it));
	}
}

/* The names a loop body assigns (NAME=, NAME+=, A[i]=, in declarations
 * too), each once, in order. */
/* Adds to names[0..*n) each name not there yet, in order. */
static void add_names(char ***names, size_t *n, char *const *add, size_t nadd)
{
	size_t cap = *n;
	for (size_t k = 0; k < nadd; k++) {
		int seen = 0;
		for (size_t i = 0; i < *n && !seen; i++)
			seen = !strcmp((*names)[i], add[k]);
		if (!seen)
			SL_PUSH(*names, *n, cap, sl_strdup(add[k]));
	}
}

/* The names the assignments within body write, added to names in the
 * order they are first written; the same for every reading of a tree the
 * cache keeps, so asked of it first. */
static void assigned_names(walker *w, TSNode body, char ***names, size_t *n)
{
	uint32_t nk;
	char *const *known = sh_cache_assigned(w->cache, body, &nk);
	if (known) {
		add_names(names, n, known, nk);
		return;
	}
	char **own = NULL;
	size_t nown = 0, cap = 0;
	TSTreeCursor c = ts_tree_cursor_new(body);
	for (;;) {
		TSNode x = ts_tree_cursor_current_node(&c);
		if (ts_node_symbol(x) == sh_sym.variable_assignment && ts_node_named_child_count(x) >= 1) {
			TSNode lhs = ts_node_named_child(x, 0);
			if (ts_node_symbol(lhs) == sh_sym.subscript)
				lhs = ts_node_child_by_field_id(lhs, sh_sym.f.name);
			if (!ts_node_is_null(lhs) && ts_node_symbol(lhs) == sh_sym.variable_name) {
				size_t a = ts_node_start_byte(lhs), b = ts_node_end_byte(lhs);
				int seen = 0;
				for (size_t i = 0; i < nown && !seen; i++)
					seen = strlen(own[i]) == b - a && !memcmp(own[i], w->v.text + a, b - a);
				if (!seen)
					SL_PUSH(own, nown, cap, sl_strndup(w->v.text + a, b - a));
			}
		}
		if (!sh_cursor_next(&c))
			break;
	}
	ts_tree_cursor_delete(&c);
	sh_cache_keep_assigned(w->cache, body, own, nown);
	add_names(names, n, own, nown);
	for (size_t i = 0; i < nown; i++)
		free(own[i]);
	free(own);
}

/* An undecided conditional of a sourced file that changes state, not
 * made variants of the script (variants.c): none of its alternatives is
 * read, and what any of them assigns is unknown after it (names taken);
 * a note says so when there is any. */
static void alternatives_not_read(walker *w, TSNode node, char **names, size_t n)
{
	uint32_t at = sh_src_off(&w->v, ts_node_start_byte(node));
	sl_buf b = {0};
	sl_buf_printf(&b, "`%s` of a sourced file not decided: not made variants of the script, none of its "
		      "alternatives read", ts_node_type(sh_child(w, node, 0)));
	for (size_t i = 0; i < n; i++) {
		sl_buf_printf(&b, "%s`%s`", i ? ", " : "; unknown after it (bind with --set NAME=VALUE): ", names[i]);
		sh_var_forget(w, names[i], at, ts_node_start_byte(node));
		free(names[i]);
	}
	free(names);
	if (n)
		sh_note(w, node, b.data);
	sl_buf_free(&b);
}

/* A loop not read: whatever it assigns is unknown after it, spelled $NAME
 * (never the stale value from before the loop), or the --set value of the
 * name; the note names them. */
static void loop_not_read(walker *w, TSNode node, TSNode body, const char *why)
{
	char **names = NULL;
	size_t n = 0;
	if (!ts_node_is_null(body))
		assigned_names(w, body, &names, &n);
	uint32_t at = sh_src_off(&w->v, ts_node_start_byte(node));
	sl_buf b = {0};
	const char *kw = ts_node_child_count(node) ? ts_node_type(sh_child(w, node, 0)) : "while";
	sl_buf_printf(&b, "`%s` loop %s", strcmp(kw, "until") ? "while" : "until", why);
	for (size_t i = 0; i < n; i++) {
		sl_buf_printf(&b, "%s`%s`", i ? ", " : "; unknown after it (bind with --set NAME=VALUE): ",
			      names[i]);
		sh_var_forget(w, names[i], at, ts_node_start_byte(node));
		free(names[i]);
	}
	free(names);
	sh_note(w, node, b.data);
	sl_buf_free(&b);
}

/* The condition of a while/until loop: the last statement before `do`
 * decides it (1, 0, or -1 unknown). */
static int loop_cond(walker *w, TSNode node, TSNode body, int until)
{
	TSNode last = {0};
	int have = 0;
	uint32_t k = ts_node_child_count(node);
	for (uint32_t i = 1; i < k; i++) {
		TSNode c = sh_child(w, node, i);
		if (ts_node_start_byte(c) >= ts_node_start_byte(body))
			break;
		if (ts_node_is_named(c) && ts_node_symbol(c) != sh_sym.comment) {
			last = c;
			have = 1;
		}
	}
	int v = have ? sh_cond_value(w, last, 0) : -1;
	return v < 0 ? -1 : until ? !v : v;
}

/*
 * while/until loops. The loop harnesses use to read their arguments,
 * `while [ $# -gt 0 ]; do case "$1" in --mode) MODE=$2; shift 2 ;; esac;
 * done`, is run when the arguments are known (a function's call gives them):
 * its condition is decided at each turn and each `shift` brings it closer to
 * the end, so it is followed turn by turn while it shifts, up to the loop
 * limit. Any other loop, or one over the script's own arguments (unknown),
 * is not read: what it assigns is unknown after it, never its value from
 * before the loop (a default the arguments may replace).
 */
#define NOT_KNOWN                                                                                     \
	"not analysed (its condition depends on what the script cannot know: its own arguments, a server " \
	"coming up, ...); commands inside it are not in the model"

void sh_walk_while(walker *w, TSNode node)
{
	TSNode body = ts_node_child_by_field_id(node, sh_sym.f.body);
	int until = ts_node_child_count(node) && !strcmp(ts_node_type(sh_child(w, node, 0)), "until");
	const varr *args = sh_var_array(w, "@", 1);
	if (ts_node_is_null(body)) {
		loop_not_read(w, node, body, "of a form not analysed");
		return;
	}
	if (!args) {
		loop_not_read(w, node, body, NOT_KNOWN);
		return;
	}
	for (unsigned turn = 0;; turn++) {
		if (w->failed || w->s->exited)
			return;
		int v = loop_cond(w, node, body, until);
		if (v == 0)
			break;
		const varr *now = sh_var_array(w, "@", 1);
		size_t before = now ? now->n : 0;
		if (v < 0 && !turn) {
			loop_not_read(w, node, body, NOT_KNOWN);
			return;
		}
		if (v < 0 || turn >= SL_MAX_LOOP_ITERATIONS || !before) {
			loop_not_read(w, node, body,
				      "whose condition is not decided by its arguments, or that runs "
				      "past them; its last turns are not in the model");
			return;
		}
		if (++w->iterations_total > SL_MAX_TOTAL_ITERATIONS) {
			sh_fail_at(w, ts_node_start_byte(node),
				   "loops run more than the limit of %s iterations in all (nested loops multiply)",
				   "10000");
			return;
		}
		w->in_while++;
		sh_walk_children(w, body);
		w->in_while--;
		if (w->broke) {
			w->broke = 0;
			break;
		}
		now = sh_var_array(w, "@", 1);
		if ((now ? now->n : 0) >= before) {
			/* no shift this turn: it would run forever, or on what we
			 * cannot know */
			loop_not_read(w, node, body,
				      "over the arguments that does not shift them at each turn; "
				      "its other turns are not in the model");
			return;
		}
	}
}
