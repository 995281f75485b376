/*
 * misplaced.c: arguments written where the program that reads them takes
 * them for something else: a quote that swallows the flags after it into
 * one value, a flag after `--` (the end of options: a positional), an
 * mpirun option after the program (mpirun passes it to the program), an
 * engine flag before the image in `docker run` (docker takes it, and
 * fails), the model given both positionally and by --model. Each is a note
 * of its kind (sl_note_kind), reported by the `structure:` rules
 * SL1010-SL1014 and SL9005. Uses grammar.c and build.c.
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

void sl_misplaced_unknown(sl_ctx *c, const sl_build *b, const sl_grammar *g, const sl_source *src,
			  const sl_word *w, const char *name)
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
	if (mg && sl_grammar_match(c->gs, mg, name, &m) && m.flag && !m.abbrev)
		sl_note_kind(c, "mpirun_option_after_program", src, w->start,
			     "`%s` is an mpirun option written after the program mpirun runs: mpirun reads its "
			     "options only before the program, so %s is given it, and mpirun runs without it",
			     name, g->title);
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

int sl_misplaced_docker(sl_ctx *c, const sl_source *src, const sl_word *w, const char *name, int has_eq)
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
		return m.flag->type != SL_T_BOOL && !has_eq;
	}
	return 0;
}
