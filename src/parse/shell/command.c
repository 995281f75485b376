/*
 * command.c: a simple command into an sl_command, the unit every later stage
 * reads: its words, prefix assignments, loop context and the exports in
 * effect. The builtins that change the walk's state (shift, source in
 * source.c; `unset` is a node of its own, assign.c) and calls of the script's own functions are dispatched here,
 * since they are commands by syntax; and a backslash that does not continue
 * its line, or a comment line that ends a continued command, is a break of
 * the script's structure (sh_break), since it silently turns flags into a
 * command of their own.
 */
#include "internal.h"

/* Whether the bytes [a, b) of the view are blanks around one
 * backslash-newline: the line continues into what follows. */
static int continues_into(const walker *w, size_t a, size_t b)
{
	const char *t = w->v.text;
	int bs = 0;
	for (size_t i = a; i < b; i++) {
		if (t[i] == '\\' && i + 1 < b && t[i + 1] == '\n' && !bs) {
			bs = 1;
			i++;
		} else if (t[i] != ' ' && t[i] != '\t' && t[i] != '\r') {
			return 0;
		}
	}
	return bs;
}

/* A comment line inside a continued command: bash's comment runs to the end
 * of its line, backslash and all, so the command ends above it and the
 * flags below run as a command of their own (`--port` is then a command
 * name). Seen in the tree: this command starts with a flag, the siblings
 * before it are comments, and the command before them continues its last
 * line into the first of them. */
static void comment_ends_command(walker *w, TSNode node, const sl_command *me)
{
	if (!me->argc || me->argv[0].text[0] != '-' || (me->argv[0].flags & SL_WORD_SYMBOLIC))
		return;
	TSNode at = node, par = ts_node_parent(node);
	if (!ts_node_is_null(par) && ts_node_symbol(par) == sh_sym.redirected_statement)
		at = par;
	TSNode prev = ts_node_prev_named_sibling(at), first = prev;
	while (!ts_node_is_null(prev) && ts_node_symbol(prev) == sh_sym.comment) {
		first = prev;
		prev = ts_node_prev_named_sibling(prev);
	}
	if (ts_node_is_null(prev) || ts_node_is_null(first) || ts_node_symbol(first) != sh_sym.comment ||
	    (ts_node_symbol(prev) != sh_sym.command && ts_node_symbol(prev) != sh_sym.redirected_statement))
		return;
	if (!continues_into(w, ts_node_end_byte(prev), ts_node_start_byte(first)))
		return;
	sl_buf m = {0};
	sl_buf_printf(&m, "this comment line ends the command above it (a comment cannot be continued): "
		      "`%s` and what follows run as a command of their own", me->argv[0].text);
	sh_break(w, "comment_in_command", sh_src_off(&w->v, ts_node_start_byte(first)), m.data);
	sl_buf_free(&m);
}

/* The words a redirection holds that are the command's (redirect.c),
 * evaluated onto its argv. */
struct more_words {
	walker *w;
	sl_command *c;
	size_t *cap;
	size_t end;  /* the end of the last of them (view offset), 0: none */
};

static void more_word(void *ctx, TSNode x)
{
	struct more_words *m = ctx;
	sh_eval_fields(m->w, x, &m->c->argv, &m->c->argc, m->cap);
	m->end = ts_node_end_byte(x);
}

void sh_walk_command(walker *w, TSNode node, const TSNode *stmt, int background)
{
	if (w->s->ncmds >= SL_MAX_COMMANDS) {
		sh_fail_at(w, ts_node_start_byte(node), "more commands than the limit of %s", "100000");
		return;
	}
	sl_command c;
	memset(&c, 0, sizeof c);
	size_t acap = 0, pcap = 0;
	uint32_t nc;
	size_t kb = sh_kids(w, node, 1, &nc);
	int was_in_argv = w->in_argv;
	uint32_t was_cmd = w->argv_cmd;
	w->argv_cmd = sh_src_off(&w->v, ts_node_start_byte(node));
	struct more_words more = {w, &c, &acap, 0};
	for (uint32_t i = 0; i < nc && !w->failed; i++) {
		TSNode ch = KID(i);
		w->in_argv = !(ts_node_symbol(ch) == sh_sym.variable_assignment && c.argc == 0);
		const char *t = ts_node_type(ch);
	TSSymbol t_sym = ts_node_symbol(ch);
	(void)t;
		if ((t_sym == sh_sym.variable_assignment) && c.argc == 0) {
			sl_assign a;
			sh_assign_from_node(w, ch, &a);
			SL_PUSH(c.prefix, c.nprefix, pcap, a);
		} else if ((t_sym == sh_sym.file_redirect) || (t_sym == sh_sym.heredoc_redirect)) {
			sh_redirect_words(ch, more_word, &more);
		} else if ((t_sym == sh_sym.herestring_redirect) || (t_sym == sh_sym.comment)) {
			continue;
		} else {
			sh_eval_fields(w, ch, &c.argv, &c.argc, &acap);
		}
	}
	/* `vllm serve m > log 2>&1 --port 8000`: the redirections after the
	 * command's node hold the rest of its words */
	uint32_t sn = stmt ? ts_node_named_child_count(*stmt) : 0;
	for (uint32_t i = 0; i < sn && !w->failed; i++) {
		TSNode r = ts_node_named_child(*stmt, i);
		if (ts_node_symbol(r) == sh_sym.file_redirect || ts_node_symbol(r) == sh_sym.heredoc_redirect) {
			w->in_argv = 1;
			sh_redirect_words(r, more_word, &more);
		}
	}
	w->in_argv = was_in_argv;
	w->argv_cmd = was_cmd;
	w->pool_n = kb;
	uint32_t a = sh_src_off(&w->v, ts_node_start_byte(node));
	c.start = a;
	c.end = sh_src_off(&w->v, more.end > ts_node_end_byte(node) ? more.end : ts_node_end_byte(node));
	c.stmt = a;
	c.head = w->in_head ? w->head : a;
	c.background = background || w->in_background;
	c.iteration = w->iteration;
	c.iterations = w->iterations ? w->iterations : 1;
	c.block = -1;
	if (w->loop_var) {
		c.loop_var = sl_strdup(w->loop_var);
		sl_word_copy(&c.loop_value, w->loop_value);
	}
	/* the exports in effect: a set shared with the commands before it while
	 * no export changed (vars.c); their sum over every command is bounded,
	 * since each later stage reads each command's whole set */
	const struct sl_export_set *ex = sh_exports(w);
	if (ex) {
		c.exported = ex->items;
		c.nexported = ex->n;
		w->exported_total += ex->n;
		if (w->exported_total > SL_MAX_EXPORTED)
			sh_fail_at(w, ts_node_start_byte(node),
				   "more exported variables in commands than the limit of %s in all "
				   "(each command runs with every export before it)", "100000");
	}
	/* `exit`: nothing after it runs (a subshell's exit leaves the subshell) */
	int exits = c.argc && !strcmp(c.argv[0].text, "exit") && !w->subshell && !w->in_list;
	SL_PUSH(w->s->cmds, w->s->ncmds, w->cmd_cap, c);
	if (exits) {
		w->s->exited = 1;
		w->s->exit_off = c.start;
	}
	/* builtins that change variables, and calls of the script's functions
	 * (the words are copied: walking the body adds commands) */
	size_t mine = w->s->ncmds - 1;
	const sl_command *me = &w->s->cmds[mine];
	if (me->argc && !w->failed) {
		const char *name = me->argv[0].text;
		if (!strcmp(name, "break") && w->in_while) {
			w->broke = 1;
		} else if (!strcmp(name, "shift")) {
			sl_word *cp = NULL;
			size_t n = 0, cap = 0;
			sh_words_copy(&cp, &n, &cap, me->argv, me->argc);
			sh_walk_shift(w, cp, n, node);
			for (size_t i = 0; i < n; i++)
				sl_word_free(&cp[i]);
			free(cp);
		} else if ((!strcmp(name, "source") || !strcmp(name, ".")) && me->argc > 1) {
			sh_walk_source(w, me, node);
		} else {
			const struct fn *f = NULL;
			for (size_t i = w->nfns; i-- > 0 && !f;)
				if (!strcmp(w->fns[i].name, name))
					f = &w->fns[i];
			if (f) {
				sl_word *cp = NULL;
				size_t n = 0, cap = 0;
				sh_words_copy(&cp, &n, &cap, me->argv + 1, me->argc - 1);
				int bg = me->background;  /* `f &`: its body runs in the background */
				w->in_background += bg;
				sh_walk_call(w, f, cp, n, node);
				w->in_background -= bg;
				for (size_t i = 0; i < n; i++)
					sl_word_free(&cp[i]);
				free(cp);
			}
		}
	}
	/* `--port 8200 \ ` with a blank after the backslash: the line does not
	 * continue (the parser reads it as a blank), so the next line runs on
	 * its own. Said once, where the backslash is. */
	const char *t = w->v.text;
	size_t e = more.end > ts_node_end_byte(node) ? more.end : ts_node_end_byte(node), k = e;
	while (k < w->v.len && (t[k] == ' ' || t[k] == '\t'))
		k++;
	/* `\` then an empty line, then what looks like more flags: the empty
	 * line ends the command */
	if (k + 1 < w->v.len && t[k] == '\\' && t[k + 1] == '\n') {
		size_t q = k + 2;
		while (q < w->v.len && (t[q] == ' ' || t[q] == '\t' || t[q] == '\r'))
			q++;
		if (q < w->v.len && t[q] == '\n') {
			while (q < w->v.len && strchr(" \t\r\n", t[q]))
				q++;
			if (q < w->v.len && t[q] == '-')
				sh_break(w, "continuation_onto_empty_line", sh_src_off(&w->v, k),
					 "this backslash continues onto an empty line, which ends the command: the flags after it run as a command of its own");
		}
	}
	if (k < w->v.len && t[k] == '\\' && k + 1 < w->v.len && (t[k + 1] == ' ' || t[k + 1] == '\t')) {
		size_t q = k + 1;
		while (q < w->v.len && (t[q] == ' ' || t[q] == '\t' || t[q] == '\r'))
			q++;
		if (q >= w->v.len || t[q] == '\n')
			sh_break(w, "blank_after_backslash", sh_src_off(&w->v, k),
				 "a blank after this backslash ends the command here: the next line runs as a command of its own");
	}
	if (!w->failed)  /* cmds may have grown: a function call adds commands */
		comment_ends_command(w, node, &w->s->cmds[mine]);
}
