/*
 * functions.c: functions the script defines. Nothing runs at the definition;
 * the body is walked at each call, with the call's words as the positional
 * parameters ($1..., "$@", $#), which are restored after, so that a launch
 * helper called once per role yields one command per call.
 */
#include "internal.h"

#include <stdio.h>

#define MAX_CALL_DEPTH 16

#define MAX_POSITIONAL 64

/* $1..$N, "$@" and $# from words (copied); the ones past N are unset. */
/* The name of positional parameter i (1-based) in nm: its digits. A
 * harness's option loop (`while [ $# -gt 0 ]; do ...; shift; done`) sets
 * every parameter again at each shift, and snprintf was a fifth of it. */
static const char *pos_name(char nm[24], size_t i)
{
	char *p = nm + 23;
	*p = '\0';
	do
		*--p = (char)('0' + i % 10);
	while ((i /= 10) != 0);
	return p;
}

static void set_positional(walker *w, const sl_word *args, size_t n, size_t old_n, uint32_t at)
{
	if (n > MAX_POSITIONAL)
		n = MAX_POSITIONAL;
	char nm[24];
	for (size_t i = 0; i < n; i++)
		sh_var_set(w, pos_name(nm, i + 1), &args[i], args[i].start, 0);
	for (size_t i = n; i < old_n; i++)
		sh_var_unset(w, pos_name(nm, i + 1));
	sl_word *el = NULL;
	size_t k = 0, cap = 0;
	sh_words_copy(&el, &k, &cap, args, n);
	sh_var_set_array(w, "@", el, k, at, 0);
	wbuild wb = {0};
	sh_add_number(&wb, (long long)n, at);
	sl_word cnt;
	sh_wb_finish(&wb, &cnt, at, at);
	sh_var_set(w, "#", &cnt, at, 0);
	sl_word_free(&cnt);
}

/* The positional parameters now: a function's arguments, or NULL (the
 * script's own, which are unknown). */
static const varr *positional(const walker *w)
{
	return sh_var_array(w, "@", 1);
}

/* A call of a function the script defined: its body runs here, with the
 * call's words as $1... (restored after). */
void sh_walk_call(walker *w, const struct fn *f, const sl_word *args, size_t n, TSNode call)
{
	if (w->calls >= MAX_CALL_DEPTH) {
		sh_note(w, call, "function calls nested deeper than 16: this one is not followed");
		return;
	}
	/* depth is bounded above; breadth (a function calling another twice,
	 * that one calling the next twice...) only by the calls in all */
	if (++w->calls_total > SL_MAX_CALLS) {
		sh_fail_at(w, ts_node_start_byte(call), "more function calls than the limit of %s in all", "10000");
		return;
	}
	const varr *before = positional(w);
	sl_word *saved = NULL;
	size_t ns = 0, scap = 0;
	int had = before != NULL;
	if (had)
		sh_words_copy(&saved, &ns, &scap, before->elems, before->n);
	uint32_t at = sh_src_off(&w->v, ts_node_start_byte(call));
	set_positional(w, args, n, ns, at);
	w->calls++;
	view caller = w->v;  /* the body is read in the text it is written in */
	w->v = f->v;
	sh_walk_statement(w, f->body, 0);
	w->v = caller;
	w->calls--;
	/* back to the caller's parameters (a `shift` inside changed them) */
	const varr *now = positional(w);
	size_t now_n = now ? now->n : 0;
	if (had) {
		set_positional(w, saved, ns, now_n, at);
	} else {
		char nm[24];
		for (size_t i = 0; i < now_n || i < n; i++)
			sh_var_unset(w, pos_name(nm, i + 1));
		sh_var_unset(w, "@");
		sh_var_unset(w, "#");
	}
	for (size_t i = 0; i < ns; i++)
		sl_word_free(&saved[i]);
	free(saved);
}

/* `shift [N]` inside a function: its parameters move down. */
void sh_walk_shift(walker *w, const sl_word *argv, size_t argc, TSNode call)
{
	const varr *p = positional(w);
	if (!p)
		return;
	long long k = 1;
	if (argc > 1 && (sh_parse_ll(argv[1].text, argv[1].len, &k) || k < 0))
		return;
	size_t n = p->n, from = (size_t)k < n ? (size_t)k : n;
	sl_word *rest = NULL;
	size_t nr = 0, cap = 0;
	sh_words_copy(&rest, &nr, &cap, p->elems + from, n - from);
	set_positional(w, rest, nr, n, sh_src_off(&w->v, ts_node_start_byte(call)));
	for (size_t i = 0; i < nr; i++)
		sl_word_free(&rest[i]);
	free(rest);
}

/* A function definition: its body is walked where it is called (sh_walk_call). */
void sh_define_function(walker *w, TSNode node)
{
	TSNode fn = ts_node_child_by_field_id(node, sh_sym.f.name);
	TSNode body = ts_node_child_by_field_id(node, sh_sym.f.body);
	if (!ts_node_is_null(fn) && !ts_node_is_null(body)) {
		size_t fa = ts_node_start_byte(fn), fb = ts_node_end_byte(fn);
		SL_PUSH(w->s->functions, w->s->nfunctions, w->fn_cap,
			sl_strndup(w->v.text + fa, fb - fa));
		struct fn f = {sl_strndup(w->v.text + fa, fb - fa), body, w->v};
		SL_PUSH(w->fns, w->nfns, w->fns_cap, f);
	}
}
