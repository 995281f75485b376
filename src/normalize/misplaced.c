/*
 * misplaced.c: arguments written where the program that reads them takes
 * them for something else: a quote that swallows the flags after it into
 * one value, a flag after `--` (the end of options: a positional), an
 * mpirun option after the program (mpirun passes it to the program), an
 * engine flag before the image in `docker run` (docker takes it, and
 * fails), the model given both positionally and by --model. Each is a note
 * of its kind (sl_note_kind), reported by the `structure:` rules
 * SL1010-SL1014 and SL9005. Where the place a misplaced docker or mpirun
 * argument belongs is certain, the note says it (move_len, move_to: the
 * check's move fix). Uses grammar.c and build.c.
 */
#include "misplaced.h"

#include <ctype.h>
#include <string.h>

/* Where in w's text a blank is followed by a flag of g that is not an
 * abbreviation (`m --port 8000` -> 2), or -1. *len is the flag's length. */
static long flag_inside(sl_ctx *c, const sl_grammar *g, const sl_word *w, size_t from, size_t *len)
{
	const char *t = w->text;
	for (size_t i = from; i + 3 < w->len; i++) {
		if (!(t[i] == ' ' || t[i] == '\t' || t[i] == '\n') || t[i + 1] != '-' || t[i + 2] != '-' ||
		    !islower((unsigned char)t[i + 3]))
			continue;
		size_t e = i + 1;
		while (e < w->len && !strchr(" \t\n=", t[e]))
			e++;
		char name[128];
		if (e - (i + 1) >= sizeof name)
			continue;
		memcpy(name, t + i + 1, e - (i + 1));
		name[e - (i + 1)] = '\0';
		sl_flag_match m;
		if (sl_grammar_match(c->gs, g, name, &m) && m.flag && !m.abbrev && !m.ambiguous) {
			*len = e - (i + 1);
			return (long)(i + 1);
		}
	}
	return -1;
}

void sl_misplaced_swallowed(sl_ctx *c, const sl_grammar *g, const sl_source *src, const sl_word *w,
			    const char *flag)
{
	/* a JSON value may hold any text; an unquoted word cannot hold a blank
	 * unless a variable gave it one unquoted (split by the reader) */
	if (!(w->flags & SL_WORD_QUOTED) || !strcmp(g->id, "unknown"))
		return;
	size_t len;
	long at = flag_inside(c, g, w, 0, &len);
	if (at < 0)
		return;
	if (flag)
		sl_note_kind(c, "quote_swallows_flags", src, w->offs[at],
			     "`%.*s` is inside the quoted value of %s, which is `%s`: %s takes it all as that one "
			     "value, and `%.*s` is not set",
			     (int)len, w->text + at, flag, w->text, g->title, (int)len, w->text + at);
	else
		sl_note_kind(c, "quote_swallows_flags", src, w->offs[at],
			     "`%.*s` is inside a quoted positional argument, `%s`: %s takes it all as one "
			     "argument, and `%.*s` is not set",
			     (int)len, w->text + at, w->text, g->title, (int)len, w->text + at);
}

/* ---- the moves: where a misplaced argument belongs -------------------- */

/* Characters a word may hold to mean the same unquoted, in double quotes
 * and in single quotes alike: what can be taken into or out of a `bash -c`
 * string as it is. */
static int plain_char(char ch)
{
	return isalnum((unsigned char)ch) || strchr("-_=.,:/+@%", ch) != NULL;
}

/* Whether w is written in src as its own text, byte for byte (no quote,
 * escape or expansion: an unknown `$TP` is kept as written, and is none
 * of these), and, when plain, only of plain characters. */
static int literal(const sl_source *src, const sl_word *w, int plain)
{
	if ((w->flags & SL_WORD_SYMBOLIC) || w->end < w->start || w->end > src->len || w->end - w->start != w->len ||
	    memcmp(src->text + w->start, w->text, w->len))
		return 0;
	for (size_t i = 0; plain && i < w->len; i++)
		if (!plain_char(w->text[i]))
			return 0;
	return w->len > 0;
}

/* Whether the argument ws[0] (a flag written as itself) and its values
 * ws[1..n) can be moved as they are written: side by side on one line of
 * src (no line continuation between them), each value the one word it is
 * wherever it goes: written as itself, in quotes whole (`"$TP"`), or an
 * expansion known to be one word (an unquoted `$TP` whose value is
 * unknown may be no word or several); plain (literal() above) when the
 * move takes them into or out of a string. */
static int movable(const sl_source *src, const sl_word *const *ws, size_t n, int plain)
{
	if (!literal(src, ws[0], plain))
		return 0;
	for (size_t i = 1; i < n; i++) {
		const sl_word *w = ws[i], *p = ws[i - 1];
		if (w->start < p->end || w->end > src->len || w->end <= w->start)
			return 0;
		for (uint32_t k = p->end; k < w->start; k++)
			if (src->text[k] != ' ' && src->text[k] != '\t')
				return 0;
		if (literal(src, w, plain))
			continue;
		const char *t = src->text + w->start;
		size_t len = w->end - w->start;
		if (plain || memchr(t, '\n', len))
			return 0;
		if (len >= 2 && t[0] == '"' && t[len - 1] == '"') {
			for (size_t k = 1; k + 1 < len; k++)
				if (t[k] == '"' || t[k] == '\\' || t[k] == '`')
					return 0;
			continue;  /* "$TP": one word */
		}
		if (len >= 2 && t[0] == '\'' && t[len - 1] == '\'' && !memchr(t + 1, '\'', len - 2))
			continue;
		/* $TP the script sets: one word when its value has no blank */
		if ((w->flags & (SL_WORD_SYMBOLIC | SL_WORD_QUOTED)) || strpbrk(w->text, " \t\n") || !w->len)
			return 0;
		for (size_t k = 0; k < len; k++)
			if (t[k] == '"' || t[k] == '\'' || t[k] == '\\' || t[k] == '`' || t[k] == '*' || t[k] == '?' ||
			    t[k] == '[' || t[k] == '(')
				return 0;
	}
	return 1;
}

/* The note just made at (src, off) of kind, or NULL (one of a loop's
 * earlier iterations is that note). */
static sl_note *note_made(sl_ctx *c, const char *kind, const sl_source *src, uint32_t off)
{
	if (!c->model->nnotes)
		return NULL;
	sl_note *n = &c->model->notes[c->model->nnotes - 1];
	return n->kind && !strcmp(n->kind, kind) && n->origin.src == src && n->origin.off == off ? n : NULL;
}

/* The flag at a note, as written (without =value). */
static char *noted_flag(const sl_note *n)
{
	const sl_source *s = n->origin.src;
	size_t l = 0;
	while (n->origin.off + l < s->len && !strchr(" \t\n=\"'\\", s->text[n->origin.off + l]))
		l++;
	return sl_strndup(s->text + n->origin.off, l);
}

/* What an mpirun option after the program sets, from its words as
 * written (flag, then values): the flag, and for -x the variable's name
 * (`-x A=1` and `-x B=2` set two things, `-x A=1` and `-x A=2` one). */
static char *option_key(const char *flag, size_t flen, const char *value, int env)
{
	sl_buf b = {0};
	sl_buf_add(&b, flag, flen);
	if (env && value) {
		sl_buf_putc(&b, ' ');
		sl_buf_add(&b, value, strcspn(value, "= \t\n"));
	}
	return sl_buf_detach(&b);
}

/* option_key of an mpirun_option_after_program note. */
static char *noted_key(const sl_note *n, int env)
{
	char *flag = noted_flag(n);
	const sl_source *s = n->origin.src;
	size_t at = n->origin.off + strlen(flag);
	const char *value = NULL;
	if (at < s->len && s->text[at] == '=') {
		value = s->text + at + 1;
	} else {
		while (at < s->len && (s->text[at] == ' ' || s->text[at] == '\t'))
			at++;
		value = s->text + at;
	}
	char *k = option_key(flag, strlen(flag), value, env);
	free(flag);
	return k;
}

/* An mpirun option w (with the values rest[0..nv), rest[0..nrest) the
 * words after it) after the program: it goes right after the word
 * `mpirun` of the service's mpirun wrapper, where mpirun reads it, when
 * mpirun is not given the same option already (a second -n, the same -x
 * NAME: which one would win is mpirun's guess). */
static void mpirun_move(sl_ctx *c, const sl_build *b, const sl_source *src, const sl_word *w,
			sl_word *const *rest, size_t nrest, size_t nv, const sl_flag *f)
{
	const sl_word *const *vals = (const sl_word *const *)rest;
	sl_note *n = note_made(c, "mpirun_option_after_program", src, w->start);
	const sl_wrapper *mw = NULL;
	int string = 0;  /* a `bash -c` string between mpirun and the engine */
	for (size_t k = 0; k < b->svc.nwrappers; k++) {
		if (!strcmp(b->svc.wrappers[k].kind, "mpirun")) {
			mw = &b->svc.wrappers[k];
			string = 0;
		} else if (mw && (!strcmp(b->svc.wrappers[k].kind, "bash -c") || !strcmp(b->svc.wrappers[k].kind, "eval"))) {
			string = 1;
		}
	}
	if (!n || !mw || mw->origin.src != src || mw->origin.off >= src->len)
		return;
	/* the option misplaced twice (-x A=1 ... -x A=2): which one mpirun
	 * would take is its guess; before this one, its note; after, a word */
	int env = f->action && !strcmp(f->action, "env");
	char *key = noted_key(n, env);
	int twice = 0;
	for (size_t k = 0; k + 1 < c->model->nnotes && !twice; k++) {
		const sl_note *o = &c->model->notes[k];
		if (o->kind && !strcmp(o->kind, n->kind) && o->origin.src == src && o->origin.off > mw->origin.off &&
		    o->origin.off < w->start) {
			char *ok = noted_key(o, env);
			twice = !strcmp(ok, key);
			free(ok);
		}
	}
	for (size_t k = 0; k < nrest && !twice; k++) {
		const char *t = rest[k]->text, *eq = strchr(t, '=');
		const char *value = eq ? eq + 1 : k + 1 < nrest ? rest[k + 1]->text : NULL;
		char *ok = option_key(t, eq ? (size_t)(eq - t) : strlen(t), value, env);
		twice = !strcmp(ok, key);
		free(ok);
	}
	free(key);
	if (twice)
		return;
	const sl_word *ws[3] = {w, nv > 0 ? vals[0] : NULL, nv > 1 ? vals[1] : NULL};
	if (!movable(src, ws, 1 + nv, string))
		return;
	/* the word mpirun (or mpiexec, by any path) as written */
	uint32_t a = mw->origin.off, e = a;
	while (e < src->len && !strchr(" \t\n;&|<>()\"'\\", src->text[e]))
		e++;
	uint32_t base = e;
	while (base > a && src->text[base - 1] != '/')
		base--;
	if (e >= w->start || !((e - base == 6 && !memcmp(src->text + base, "mpirun", 6)) ||
			       (e - base == 7 && !memcmp(src->text + base, "mpiexec", 7))))
		return;
	/* mpirun given the option already */
	json_t *opts = json_object_get(mw->detail, "options");
	const char *act = f->action ? f->action : "";
	if (json_object_get(opts, f->names[0]) || (!strcmp(act, "ranks") && json_object_get(mw->detail, "ranks")))
		return;
	if (!strcmp(act, "env")) {
		const char *v = nv ? vals[0]->text : strchr(w->text, '=') ? strchr(w->text, '=') + 1 : "";
		size_t vl = strcspn(v, "=");
		for (size_t k = 0; k < b->svc.nenv; k++)
			if (!strcmp(b->svc.env[k].via, "mpirun") && strlen(b->svc.env[k].name) == vl &&
			    !strncmp(b->svc.env[k].name, v, vl))
				return;
	}
	n->move_len = (nv ? ws[nv]->end : w->end) - w->start;
	n->move_to = e;
}

void sl_misplaced_unknown(sl_ctx *c, const sl_build *b, const sl_grammar *g, const sl_source *src,
			  const sl_word *w, const char *name, sl_word *const *rest, size_t nrest)
{
	if (!strcmp(g->id, "unknown"))
		return;
	/* `"--tensor-parallel-size 8"`: one word, a flag and its value */
	const char *blank = strpbrk(name, " \t\n");
	if (blank && (w->flags & SL_WORD_QUOTED)) {
		char first[128];
		size_t fl = (size_t)(blank - name);
		sl_flag_match m;
		if (fl < sizeof first) {
			memcpy(first, name, fl);
			first[fl] = '\0';
			if (sl_grammar_match(c->gs, g, first, &m) && m.flag && !m.abbrev && !m.ambiguous) {
				sl_note_kind(c, "quote_swallows_flags", src, w->start,
					     "`%s` is one quoted word: %s reads it as one flag named `%s`, which it does "
					     "not have, and `%s` is not set",
					     w->text, g->title, name, first);
				return;
			}
		}
	}
	/* an mpirun option after the program mpirun runs: mpirun stops reading
	 * options at the program, so the program gets it (Open MPI mpirun(1):
	 * "mpirun [options] <program> [<args>]") */
	int mpi = 0;
	for (size_t k = 0; k < b->svc.nwrappers && !mpi; k++)
		mpi = !strcmp(b->svc.wrappers[k].kind, "mpirun");
	const sl_grammar *mg = mpi ? sl_grammar_find(c->gs, "mpirun") : NULL;
	sl_flag_match m;
	if (!mg || !sl_grammar_match(c->gs, mg, name, &m) || !m.flag || m.abbrev)
		return;
	sl_note_kind(c, "mpirun_option_after_program", src, w->start,
		     "`%s` is an mpirun option written after the program mpirun runs: mpirun reads its "
		     "options only before the program, so %s is given it, and mpirun runs without it",
		     name, g->title);
	/* its values, as mpirun would read them there: none for a switch or
	 * `--opt=value`, two for --mca NAME VALUE, else the next word; a
	 * value that looks like a flag is one missing */
	size_t nv = m.flag->type == SL_T_BOOL || strchr(w->text, '=') ? 0 : m.flag->type == SL_T_PAIR ? 2 : 1;
	if (m.flag->type == SL_T_LIST || m.flag->type == SL_T_JSON || nv > nrest)
		return;
	for (size_t k = 0; k < nv; k++)
		if (!rest[k]->len || rest[k]->text[0] == '-')
			return;
	mpirun_move(c, b, src, w, rest, nrest, nv, m.flag);
}

void sl_misplaced_after_dashes(sl_ctx *c, const sl_grammar *g, const sl_source *src, const sl_word *w,
			       const sl_word *dd)
{
	sl_buf at = {0};
	sl_source_place(&at, src, dd->start, w->start, 1);
	sl_note_kind(c, "flag_after_double_dash", src, w->start,
		     "`%s` comes after `--` (%s), which ends the options: %s reads it as a "
		     "positional argument, not as a flag",
		     w->text, at.data, g->title);
	sl_buf_free(&at);
}

void sl_misplaced_model_twice(sl_ctx *c, sl_build *b, const sl_grammar *g, size_t first)
{
	sl_setting *pos = NULL, *flag = NULL;
	for (size_t k = first; k < b->svc.nsettings; k++) {
		sl_setting *st = &b->svc.settings[k];
		if (strcmp(st->key, "model"))
			continue;
		if (!strcmp(st->via, "positional") && !pos)
			pos = st;
		else if (!strcmp(st->via, "flag") && !flag)
			flag = st;
	}
	if (!pos || !flag)
		return;
	const char *pv = json_is_string(pos->value) ? json_string_value(pos->value) : "?";
	const char *fv = json_is_string(flag->value) ? json_string_value(flag->value) : "?";
	if (!strcmp(g->id, "vllm")) {
		/* vllm/entrypoints/cli/serve.py (22quinn/vllm e675dda, lines 49-51):
		 * "If model is specified in CLI (as positional arg), it takes
		 * precedence": args.model = args.model_tag, whatever --model said */
		pos->flags |= SL_SET_WINS;  /* the overrides (topology.c) rank it first */
		sl_note_kind(c, "model_twice", flag->origin.src, flag->origin.off,
			     "the model is given twice, `%s` as the positional argument and `%s` by %s: %s serves "
			     "the positional one and ignores %s",
			     pv, fv, flag->flag, g->title, flag->flag);
	} else {
		sl_note_kind(c, "model_twice", flag->origin.src, flag->origin.off,
			     "the model is given twice, `%s` as the positional argument and `%s` by %s", pv, fv,
			     flag->flag);
	}
}

int sl_misplaced_docker(sl_ctx *c, const sl_source *src, const sl_word *w, const char *name, int has_eq,
			const sl_word *next)
{
	static const char *const engines[] = {"vllm", "sglang", "trtllm"};
	for (size_t i = 0; i < sizeof engines / sizeof *engines; i++) {
		const sl_grammar *g = sl_grammar_find(c->gs, engines[i]);
		sl_flag_match m;
		if (!g || !sl_grammar_match(c->gs, g, name, &m) || !m.flag || m.abbrev || m.ambiguous)
			continue;
		sl_note_kind(c, "docker_engine_flag", src, w->start,
			     "`%s` is a flag of %s written before the image: docker reads everything up to the "
			     "image as its own options, has no `%s`, and refuses to run (`unknown flag`); an "
			     "engine flag goes after the image",
			     name, g->title, name);
		int takes = m.flag->type != SL_T_BOOL && !has_eq;
		/* what moves, the flag and its value (a list's values run on: not
		 * certain); where to, once the engine's arguments are read
		 * (sl_misplaced_docker_place) */
		sl_note *n = note_made(c, "docker_engine_flag", src, w->start);
		const sl_word *ws[2] = {w, next};
		if (n && m.flag->type != SL_T_LIST && m.flag->type != SL_T_PAIR && (!takes || next) &&
		    movable(src, ws, takes ? 2 : 1, 0))
			n->move_len = (takes ? next->end : w->end) - w->start;
		return takes;
	}
	return 0;
}

void sl_misplaced_docker_place(sl_ctx *c, const sl_build *b, size_t first_note, const sl_word *const *words,
			       size_t n)
{
	const sl_source *src = c->entry->script;
	/* the engine is one of the command's own words (the image, an
	 * --entrypoint, a word after the image; not inside a string), no `--`
	 * ends its options, and its last word is written after the image */
	size_t at = n;
	for (size_t i = 0; i < n && at == n; i++)
		if (words[i] == b->engine_word)
			at = i;
	const sl_word *last = words[n - 1];
	int certain = b->grammar && at < n && last->end <= src->len && (n == 1 || last->start >= words[0]->end);
	for (size_t i = at + 1; certain && i < n; i++)
		certain = strcmp(words[i]->text, "--") != 0;
	for (size_t i = first_note; i < c->model->nnotes; i++) {
		sl_note *nt = &c->model->notes[i];
		if (!nt->kind || strcmp(nt->kind, "docker_engine_flag") || !nt->move_len || nt->move_to)
			continue;
		int ok = certain && nt->origin.src == src;
		char *name = ok ? noted_flag(nt) : NULL;
		sl_flag_match m;
		ok = ok && sl_grammar_match(c->gs, b->grammar, name, &m) && m.flag && !m.abbrev && !m.ambiguous &&
		     m.flag->key;
		/* the engine given it already, after the image, or twice before it:
		 * moved, it would be given twice */
		for (size_t k = 0; ok && k < b->svc.nsettings; k++)
			ok = strcmp(b->svc.settings[k].key, m.flag->key) &&
			     (!b->svc.settings[k].flag || strcmp(b->svc.settings[k].flag, m.flag->names[0]));
		for (size_t k = first_note; ok && k < c->model->nnotes; k++) {
			const sl_note *o = &c->model->notes[k];
			if (k != i && o->kind && !strcmp(o->kind, "docker_engine_flag") && o->origin.src == src) {
				char *on = noted_flag(o);
				ok = strcmp(on, name) != 0;
				free(on);
			}
		}
		free(name);
		if (ok)
			nt->move_to = last->end;
		else
			nt->move_len = 0;
	}
}
