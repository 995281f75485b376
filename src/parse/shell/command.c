/*
 * command.c: a simple command into an sl_command, the unit every later stage
 * reads: its words, prefix assignments, loop context and the exports in
 * effect. The builtins that change the walk's state (shift, unset) and calls
 * of the script's own functions are dispatched here, since they are commands
 * by syntax; and a backslash that does not continue its line is noted, since
 * it silently turns flags into a command of their own.
 */
#include "internal.h"

void sh_walk_command(walker *w, TSNode node, int background)
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
	for (uint32_t i = 0; i < nc && !w->failed; i++) {
		TSNode ch = KID(i);
		const char *t = ts_node_type(ch);
	TSSymbol t_sym = ts_node_symbol(ch);
	(void)t;
		if ((t_sym == sh_sym.variable_assignment) && c.argc == 0) {
			sl_assign a;
			sh_assign_from_node(w, ch, &a);
			SL_PUSH(c.prefix, c.nprefix, pcap, a);
		} else if ((t_sym == sh_sym.file_redirect) || (t_sym == sh_sym.herestring_redirect) ||
			   (t_sym == sh_sym.comment)) {
			continue;
		} else {
			sh_eval_fields(w, ch, &c.argv, &c.argc, &acap);
		}
	}
	w->pool_n = kb;
	uint32_t a = sh_src_off(&w->v, ts_node_start_byte(node));
	c.start = a;
	c.end = sh_src_off(&w->v, ts_node_end_byte(node));
	c.stmt = a;
	c.head = w->in_head ? w->head : a;
	c.background = background;
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
	const sl_command *me = &w->s->cmds[w->s->ncmds - 1];
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
		} else if (!strcmp(name, "unset")) {
			for (size_t i = 1; i < me->argc; i++)
				if (me->argv[i].text[0] != '-') {
					char *nm = sl_strndup(me->argv[i].text, me->argv[i].len);
					sh_var_unset(w, nm);
					free(nm);
				}
		} else {
			const struct fn *f = NULL;
			for (size_t i = w->nfns; i-- > 0 && !f;)
				if (!strcmp(w->fns[i].name, name))
					f = &w->fns[i];
			if (f) {
				sl_word *cp = NULL;
				size_t n = 0, cap = 0;
				sh_words_copy(&cp, &n, &cap, me->argv + 1, me->argc - 1);
				sh_walk_call(w, f, cp, n, node);
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
	size_t e = ts_node_end_byte(node), k = e;
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
			if (q < w->v.len && t[q] == '-') {
				size_t n = w->s->nnotes;
				SL_PUSH(w->s->notes, w->s->nnotes, w->note_cap,
					sl_strdup("this backslash continues onto an empty line, which ends the command: the flags after it run as a command of its own"));
				SL_PUSH(w->s->note_offs, n, w->note_off_cap, sh_src_off(&w->v, k));
			}
		}
	}
	if (k < w->v.len && t[k] == '\\' && k + 1 < w->v.len && (t[k + 1] == ' ' || t[k + 1] == '\t')) {
		size_t q = k + 1;
		while (q < w->v.len && (t[q] == ' ' || t[q] == '\t' || t[q] == '\r'))
			q++;
		if (q >= w->v.len || t[q] == '\n') {
			uint32_t off = sh_src_off(&w->v, k);
			int seen = 0;
			for (size_t i = 0; i < w->s->nnotes && !seen; i++)
				seen = w->s->note_offs[i] == off;
			if (!seen) {
				size_t n = w->s->nnotes;
				SL_PUSH(w->s->notes, w->s->nnotes, w->note_cap,
					sl_strdup("a blank after this backslash ends the command here: the next line runs as a command of its own"));
				SL_PUSH(w->s->note_offs, n, w->note_off_cap, off);
			}
		}
	}
}
