/*
 * flags.c: reading an engine's or a launcher's arguments through its grammar.
 *
 * The rules follow each engine's own parser (grammars/engines/README.md):
 * `--flag value` and `--flag=value`, bools with an optional negation prefix,
 * lists that run to the next flag, JSON values parsed with jansson and
 * spread into one setting per member, vLLM's dotted `--x.member value`, and
 * SGLang's unique-prefix abbreviations. Nothing is dropped: a flag the
 * grammar does not know is kept as an unknown setting.
 *
 * Uses build.c (settings, env, wrappers and notes as they are read),
 * json_members.c (a JSON value's members) and grammar.c; called by unwrap.c
 * and config.c.
 */
#include "flags.h"

#include "json_members.h"
#include "misplaced.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static int is_flag(const sl_word *w)
{
	const char *t = w->text;
	if (w->len < 2 || t[0] != '-')
		return 0;
	/* negative numbers are values */
	if (isdigit((unsigned char)t[1]) || (t[1] == '.' && isdigit((unsigned char)t[2])))
		return 0;
	return 1;
}

static json_t *plain_value(const sl_word *w)
{
	return json_stringn(w->text, w->len);
}

static unsigned word_flags(const sl_word *w)
{
	unsigned f = 0;
	if (w->flags & SL_WORD_SYMBOLIC)
		f |= SL_SET_SYMBOLIC;
	if (w->flags & SL_WORD_PLACEHOLDER)
		f |= SL_SET_PLACEHOLDER;
	if (w->flags & SL_WORD_BOUND)
		f |= SL_SET_BOUND;
	return f;
}

/* vLLM's human-readable ints: 32k = 32000, 32K = 32768 (arg_utils.py). */
static int human_int(const char *s, long long *out)
{
	if (!sl_parse_int(s, out))
		return 0;
	size_t n = strlen(s);
	if (n < 2)
		return -1;
	char suf = s[n - 1];
	double mult;
	switch (suf) {
	case 'k': mult = 1e3; break;
	case 'm': mult = 1e6; break;
	case 'g': mult = 1e9; break;
	case 'K': mult = 1024.0; break;
	case 'M': mult = 1024.0 * 1024; break;
	case 'G': mult = 1024.0 * 1024 * 1024; break;
	default: return -1;
	}
	char *num = sl_strndup(s, n - 1);
	double d;
	int rc = sl_parse_double(num, &d);
	free(num);
	if (rc)
		return -1;
	*out = (long long)(d * mult);
	return 0;
}

static json_t *scalar_typed(const char *s, sl_type t)
{
	long long i;
	double d;
	switch (t) {
	case SL_T_INT:
		if (!sl_parse_int(s, &i))
			return json_integer(i);
		break;
	case SL_T_HUMAN_INT:
		if (!human_int(s, &i))
			return json_integer(i);
		break;
	case SL_T_FLOAT:
		if (!sl_parse_double(s, &d))
			return json_real(d);
		break;
	case SL_T_BOOL:
		if (!strcasecmp(s, "true") || !strcmp(s, "1") || !strcasecmp(s, "yes"))
			return json_true();
		if (!strcasecmp(s, "false") || !strcmp(s, "0") || !strcasecmp(s, "no"))
			return json_false();
		break;
	default:
		break;
	}
	return NULL;
}

/* A word a flag that takes no value may be wrongly given: true, false, ... */
static int bool_word(const sl_word *w)
{
	static const char *const words[] = {"true", "false", "True", "False", "TRUE", "FALSE",
					    "yes", "no", "1", "0", "on", "off"};
	if (w->flags & (SL_WORD_SYMBOLIC | SL_WORD_PLACEHOLDER))
		return 0;
	for (size_t i = 0; i < sizeof words / sizeof *words; i++)
		if (!strcmp(w->text, words[i]))
			return 1;
	return 0;
}

/* Whether the flag takes no value in every release the facts record (a
 * spelling without facts: as the hand-written grammar says, a bool). */
static int takes_no_value(const sl_flag_match *m)
{
	if (!m->facts)
		return m->flag->type == SL_T_BOOL;
	const char *t = json_string_value(json_object_get(m->facts, "type"));
	if (!t || strcmp(t, "bool"))
		return 0;
	size_t i;
	json_t *h;
	json_array_foreach(json_object_get(m->facts, "history"), i, h) {
		const char *ht = json_string_value(json_object_get(h, "type"));
		if (ht && strcmp(ht, "bool"))
			return 0;
	}
	return 1;
}

/* The offset of a flag's value: its own word, or after `=` in the flag's
 * word when that is written plainly. */
static uint32_t value_place(const sl_word *flag, const sl_word *value, size_t after_eq)
{
	if (!after_eq)
		return value->start;
	if (flag->end - flag->start == flag->len)
		return flag->start + (uint32_t)after_eq;
	return flag->start;
}

/* A list item: an int when it reads as one, else the string. */
static json_t *list_item(const sl_word *w)
{
	long long i;
	if (!(w->flags & (SL_WORD_SYMBOLIC | SL_WORD_PLACEHOLDER)) && !sl_parse_int(w->text, &i))
		return json_integer(i);
	return plain_value(w);
}

/* A JSON value with holes (parse.h's sl_json_parse_holes) that reads as
 * an object of members: 1 with *j and *h set; else 0, both empty. */
static int read_holes(const sl_source *src, const sl_word *w, json_t **j, sl_json_holes *h)
{
	if (sl_json_parse_holes(src, w, j, h))
		return 0;
	if (json_is_object(*j) && json_object_size(*j) > 0)
		return 1;
	json_decref(*j);
	*j = NULL;
	sl_json_holes_free(h);
	return 0;
}

/* The choices g changes for an included flag (sl_choice_ext), as a
 * setting's facts carry them: {"values", "replace", "since", "until",
 * "same": {value: read as}, "engine", "title", "r": g's releases} */
static json_t *choice_ext_json(const sl_grammar *g, const sl_choice_ext *x)
{
	json_t *o = json_object(), *vs = json_array();
	for (size_t i = 0; i < x->nvalues; i++)
		json_array_append_new(vs, json_string(x->values[i]));
	json_object_set_new(o, "values", vs);
	json_object_set_new(o, "replace", json_boolean(x->replace));
	if (x->since)
		json_object_set_new(o, "since", json_string(x->since));
	if (x->until)
		json_object_set_new(o, "until", json_string(x->until));
	if (x->nsame) {
		json_t *same = json_object();
		for (size_t i = 0; i < x->nsame; i++)
			json_object_set_new(same, x->same_from[i], json_string(x->same_to[i]));
		json_object_set_new(o, "same", same);
	}
	json_object_set_new(o, "engine", json_string(g->id));
	json_object_set_new(o, "title", json_string(g->title));
	if (g->versions)
		json_object_set(o, "r", g->versions);
	return o;
}

/* The flag and its values as written in the file, when they sit on one
 * line; otherwise (values across continuation lines) the words joined. */
static char *raw_of(const sl_source *src, const sl_word *flag, sl_word *const *vals, size_t nv,
		    int eq)
{
	uint32_t a = flag->start, e = (nv && !eq) ? vals[nv - 1]->end : flag->end;
	if (src && e > a) {
		/* a command of a file the script sources: its text is that file's */
		uint32_t la = a;
		const sl_source *in = sl_source_at(src, &la);
		if (in != src) {
			e -= a - la;
			a = la;
			src = in;
		}
	}
	if (src && e > a && e <= src->len && e - a < 4096 && !memchr(src->text + a, '\n', e - a))
		return sl_strndup(src->text + a, e - a);
	sl_buf b = {0};
	sl_buf_add(&b, flag->text, flag->len);
	if (!eq)
		for (size_t i = 0; i < nv; i++) {
			sl_buf_putc(&b, ' ');
			sl_buf_add(&b, vals[i]->text, vals[i]->len);
		}
	return sl_buf_detach(&b);
}

/* A value that came through a variable ("$MODEL") is written elsewhere:
 * record where, on the setting just added. */
static void value_origin(sl_build *b, const sl_source *src, const sl_word *v)
{
	if (!v || !v->len || !b->svc.nsettings)
		return;
	uint32_t at = v->offs[0];
	if (at >= v->start && at < v->end)
		return;
	sl_setting *st = &b->svc.settings[b->svc.nsettings - 1];
	sl_origin_clear(&st->value_origin);
	sl_origin_set(&st->value_origin, src, at, NULL);
}

/* Whether the next positional is no longer expected: all were given, or
 * its setting came from a flag (`vllm serve --model m`). *scanned keeps
 * how many settings were already looked at, so the checks stay linear. */
static int positional_filled(const sl_build *b, const sl_grammar *g, size_t pos, size_t *scanned,
			     int *by_flag)
{
	if (pos >= g->npositionals)
		return 1;
	for (; *scanned < b->svc.nsettings && !*by_flag; (*scanned)++)
		*by_flag = !strcmp(b->svc.settings[*scanned].key, g->positionals[pos]);
	return *by_flag;
}

/* A JSON flag given twice: argparse keeps the last value whole, so every
 * member of the earlier one is overridden, not just the repeated members. */
typedef struct {
	const sl_flag *flag;
	size_t first, end;  /* settings it produced */
} json_use;

int sl_parse_engine_args(sl_ctx *c, sl_build *b, const sl_grammar *g, sl_word *const *args,
			 size_t n, int positionals)
{
	json_use *uses = NULL;
	size_t nuses = 0, ucap = 0, scanned = 0;
	int by_flag = 0;
	const sl_source *src = b->args_src ? b->args_src : c->entry->script;
	size_t pos = 0, settings_before = b->svc.nsettings;
	int only_positional = 0;
	const sl_word *dashes = NULL;  /* the `--` that ended the options, until a flag after it is noted */
	for (size_t i = 0; i < n && !c->failed; i++) {
		const sl_word *w = args[i];
		if (!only_positional && w->len == 2 && !strcmp(w->text, "--")) {
			only_positional = 1;
			dashes = w;
			continue;
		}
		if (only_positional && dashes && is_flag(w)) {
			sl_misplaced_after_dashes(c, g, src, w, dashes);
			dashes = NULL;
		}
		if (only_positional || !is_flag(w)) {
			if (positionals && pos < g->npositionals) {
				sl_misplaced_swallowed(c, g, src, w, NULL);
				char *raw = raw_of(src, w, NULL, 0, 1);
				sl_build_setting(b, g->positionals[pos], plain_value(w), "(positional)",
						 "positional", word_flags(w), src, w->start, raw);
				value_origin(b, src, w);
				free(raw);
				pos++;
				scanned = 0;  /* the next positional is looked for afresh */
				by_flag = 0;
			} else {
				sl_note_add(c, src, w->start, "unexpected argument `%s` for %s", w->text,
					    g->title);
			}
			continue;
		}
		size_t first_setting = b->svc.nsettings;
		const sl_flag *known = NULL;
		/* split --name=value */
		const char *eqp = memchr(w->text, '=', w->len);
		size_t nlen = eqp ? (size_t)(eqp - w->text) : w->len;
		char *name = sl_strndup(w->text, nlen);
		sl_word eqval;
		memset(&eqval, 0, sizeof eqval);
		if (eqp) {
			sl_word_slice(&eqval, w, nlen + 1, w->len);
			/* written inside the flag's word (--ep_size=$EP_SIZE), even
			 * when its bytes come from elsewhere */
			eqval.start = w->start;
			eqval.end = w->end;
		}

		/* vLLM's dotted form: --speculative-config.num_speculative_tokens 5 */
		char *dot = NULL;
		sl_flag_match m;
		int found = sl_grammar_match(c->gs, g, name, &m);
		if (!found && (dot = strchr(name, '.')) != NULL) {
			*dot = '\0';
			found = sl_grammar_match(c->gs, g, name, &m) && m.grammar->dotted &&
				m.flag->type == SL_T_JSON;
			if (!found)
				*dot = '.';
		}
		/* argparse's attached short value: `-O3` is `-O 3` when `-O` is a
		 * one-letter option that takes a value (vLLM's parser also
		 * rewrites -O<n> itself: vllm/utils/argparse_utils.py) */
		if (!found && !eqp && g->abbrev && nlen > 2 && name[1] != '-' && isalpha((unsigned char)name[1])) {
			char one[3] = {'-', name[1], 0};
			sl_flag_match sm;
			if (sl_grammar_match(c->gs, g, one, &sm) && !sm.abbrev && sm.flag->type != SL_T_BOOL &&
			    sm.flag->type != SL_T_LIST && sm.flag->type != SL_T_PAIR && !sm.flag->action) {
				m = sm;
				found = 1;
				name[2] = '\0';
				nlen = 1;  /* the value starts after the letter (value_place adds 1) */
				eqp = w->text + 1;
				sl_word_slice(&eqval, w, 2, w->len);
				eqval.start = w->start;
				eqval.end = w->end;
			}
		}
		unsigned sflags = 0;
		if (found && m.abbrev)
			sflags |= SL_SET_ABBREV;
		if (found && m.negated)
			sflags |= SL_SET_NEGATED;

		if (!found) {
			sl_misplaced_unknown(c, b, g, src, w, name, args + i + 1, n - i - 1);
			/* Unknown: keep it, with the next word as its value when that
			 * cannot be a flag, since most engine options take one. */
			sl_word *const *vals = NULL;
			size_t nv = 0;
			json_t *v;
			unsigned vf = 0;
			if (eqp) {
				v = plain_value(&eqval);
				vf = word_flags(&eqval);
			} else if (i + 1 < n && !is_flag(args[i + 1]) && positional_filled(b, g, pos, &scanned, &by_flag)) {
				vals = &args[i + 1];
				nv = 1;
				v = plain_value(args[i + 1]);
				vf = word_flags(args[i + 1]);
				i++;
			} else {
				v = json_true();
			}
			sl_buf key = {0};
			sl_buf_printf(&key, "%s.", g->id);
			for (const char *p = name; *p; p++)
				if (*p != '-' || key.data[key.len - 1] != '.')
					sl_buf_putc(&key, *p == '-' ? '_' : *p);
			char *raw = raw_of(src, w, vals, nv, eqp != NULL);
			sl_build_setting(b, key.data, v, name, "flag", SL_SET_UNKNOWN | vf, src,
					 w->start, raw);
			const char *sug = m.ambiguous || !strcmp(g->id, "unknown") ? NULL
							       : sl_grammar_suggest(c->gs, g, name);
			if (sug) {
				b->svc.settings[b->svc.nsettings - 1].hint = sl_strdup(sug);
				if (sl_grammar_suggest_tied(c->gs, g, name, sug))
					b->svc.settings[b->svc.nsettings - 1].flags |= SL_SET_HINT_TIED;
			}
			if (m.ambiguous)
				sl_note_add(c, src, w->start, "ambiguous abbreviation `%s` for %s", name,
					    g->title);
			else if (sug)
				sl_note_add(c, src, w->start, "unknown flag `%s` for %s (did you mean `%s`?)",
					    name, g->title, sug);
			else if (strcmp(g->id, "unknown"))  /* every flag of an unknown engine is */
				sl_note_add(c, src, w->start, "unknown flag `%s` for %s", name, g->title);
			free(raw);
			sl_buf_free(&key);
			goto next;
		}

		const sl_flag *f = m.flag;
		known = f;
		if (f->type == SL_T_BOOL) {
			json_t *v = NULL;
			if (eqp) {
				v = scalar_typed(eqval.text, SL_T_BOOL);
				if (!v) {
					v = plain_value(&eqval);
					sflags |= word_flags(&eqval);
					if (!(sflags & (SL_SET_SYMBOLIC | SL_SET_PLACEHOLDER)))
						sl_note_add(c, src, eqval.start,
							    "`%s` expects true or false", name);
				} else if (m.negated) {
					int t = json_is_true(v);
					json_decref(v);
					v = json_boolean(!t);
				}
			} else {
				v = json_boolean(!m.negated);
			}
			/* `--enforce-eager true`: the flag takes no value, so the
			 * engine leaves `true` as a stray argument */
			const sl_word *stray = NULL;
			/* or any plain word, where no positional argument is left to
			 * take it (`--trust-remote-code auto` after the model, or any
			 * word for an engine without positionals): argparse refuses
			 * the extra argument */
			if (!eqp && i + 1 < n && !is_flag(args[i + 1]) &&
			    (bool_word(args[i + 1]) ||
			     (!(args[i + 1]->flags & (SL_WORD_SYMBOLIC | SL_WORD_PLACEHOLDER)) && strcmp(args[i + 1]->text, "--") &&
			      (!positionals || positional_filled(b, g, pos, &scanned, &by_flag)))) &&
			    takes_no_value(&m)) {
				stray = args[++i];
				sflags |= SL_SET_STRAY;
			}
			char *raw = raw_of(src, w, NULL, 0, 1);
			sl_build_setting(b, f->key, v, f->names[0], "flag", sflags, src, w->start, raw);
			if (stray)
				sl_origin_set(&b->svc.settings[b->svc.nsettings - 1].value_at, src, stray->start,
					      stray->text);
			free(raw);
			goto next;
		}

		/* Values: after '=' or the following word(s). */
		sl_word *const *vals = NULL;
		size_t nv = 0;
		const sl_word *single = NULL;
		sl_word *eqptr = &eqval;
		if (eqp) {
			single = &eqval;
			vals = &eqptr;
			nv = 1;
		} else if (f->type == SL_T_LIST) {
			size_t k = i + 1;
			while (k < n && !is_flag(args[k]))
				k++;
			vals = &args[i + 1];
			nv = k - (i + 1);
			i = k - 1;
		} else if (f->type == SL_T_PAIR) {
			vals = &args[i + 1];
			nv = i + 2 < n ? 2 : n - (i + 1);
			i += nv;
		} else if (i + 1 < n && !(f->optional_value && is_flag(args[i + 1]))) {
			single = args[i + 1];
			vals = &args[i + 1];
			nv = 1;
			i++;
		}
		if (nv == 0 && f->optional_value) {
			/* argparse's nargs="?" written bare (ATOM's `--enable-tbo`
			 * before another flag): the flag is given, its value the
			 * source's `const`, which the facts do not hold */
			char *raw = raw_of(src, w, NULL, 0, 1);
			sl_build_setting(b, f->key, json_true(), f->names[0], "flag", sflags, src, w->start, raw);
			free(raw);
			goto next;
		}
		if (nv == 0) {
			sl_note_add(c, src, w->start, "flag `%s` of %s expects a value", name, g->title);
			char *raw = raw_of(src, w, NULL, 0, 1);
			sl_build_setting(b, f->key, json_null(), f->names[0], "flag", sflags, src,
					 w->start, raw);
			free(raw);
			goto next;
		}
		char *raw = raw_of(src, w, vals, nv, eqp != NULL);
		/* a JSON value the script knows in part (`"kv_ip":"$IP"`): read
		 * with its holes, when it reads as an object that way */
		json_t *holed = NULL;
		sl_json_holes holes = {0};
		if (f->type == SL_T_JSON && !dot && (single->flags & SL_WORD_SYMBOLIC))
			read_holes(src, single, &holed, &holes);
		if (f->type == SL_T_LIST || f->type == SL_T_PAIR) {
			json_t *a = json_array();
			unsigned vf = 0;
			for (size_t k = 0; k < nv; k++) {
				json_array_append_new(a, list_item(vals[k]));
				vf |= word_flags(vals[k]);
				sl_misplaced_swallowed(c, g, src, vals[k], f->names[0]);
			}
			/* `--served-model-name a` is a list of one; keep lists as lists */
			sl_build_setting(b, f->key, a, f->names[0], "flag", sflags | vf, src, w->start, raw);
		} else if (f->type == SL_T_JSON && (dot || holed || !(single->flags & SL_WORD_SYMBOLIC))) {
			json_t *j = holed;
			if (dot && (single->flags & SL_WORD_SYMBOLIC)) {
				/* `--speculative-config.model "$DRAFT"`: that member unknown */
				j = plain_value(single);
				sflags |= word_flags(single);
			} else if (dot) {
				/* vLLM: a dotted value is JSON, else a human-readable int,
				 * else the string (utils/argparse_utils.py) */
				json_error_t je;
				long long hv;
				j = json_loadb(single->text, single->len, JSON_DECODE_ANY, &je);
				if (!j)
					j = !human_int(single->text, &hv) ? json_integer(hv) : plain_value(single);
			}
			sl_error je = {0};
			if (!j && sl_json_parse_word(src, single, &j, &je) &&
			    !(single->flags & SL_WORD_PLACEHOLDER && read_holes(src, single, &j, &holes))) {
				/* invalid JSON (a bare <placeholder> aside: a hole): a
				 * note at the bad character and the value kept as text,
				 * so the entry is still read (check reports it as SL1004
				 * beside its other findings; the entry stage refuses it
				 * for the other commands) */
				sl_note_add(c, src, (uint32_t)sl_source_offset(src, je.line - src->line_base, je.col), "%s",
					    je.msg);
				j = plain_value(single);
			}
			sl_error_clear(&je);
			if (dot) {
				/* dotted member: the value is JSON, else an int, else a string */
				const char *member = dot + 1;
				const char *mapped = sl_json_member_key(f, member);
				sl_buf key = {0};
				if (mapped)
					sl_buf_puts(&key, mapped);
				else
					sl_buf_printf(&key, "%s.%s", f->key, member);
				sl_buf jflag = {0};
				sl_buf_printf(&jflag, "%s %s", f->names[0], member);
				sl_build_setting(b, key.data, j, jflag.data, "dotted", sflags, src,
						 w->start, raw);
				if (single->flags & SL_WORD_SYMBOLIC)
					value_origin(b, src, single);
				sl_buf_free(&key);
				sl_buf_free(&jflag);
			} else if (json_is_object(j) && json_object_size(j) > 0) {
				size_t first = b->svc.nsettings;
				sl_json_spread(b, m.grammar, f, j, single, src, sflags, holes.n ? &holes : NULL);
				json_decref(j);
				for (size_t u = 0; u < nuses; u++)
					if (uses[u].flag == f)
						for (size_t k = uses[u].first; k < uses[u].end; k++)
							b->svc.settings[k].flags |= SL_SET_OVERRIDDEN;
				json_use use = {f, first, b->svc.nsettings};
				SL_PUSH(uses, nuses, ucap, use);
			} else {
				sl_build_setting(b, f->key, j, f->names[0], "flag", sflags, src, w->start,
						 raw);
			}
		} else {
			json_t *v = NULL;
			unsigned vf = word_flags(single);
			sl_misplaced_swallowed(c, g, src, single, f->names[0]);
			if (!(vf & (SL_SET_SYMBOLIC | SL_SET_PLACEHOLDER)))
				v = scalar_typed(single->text, f->type);
			if (!v) {
				if (!vf && f->type != SL_T_STRING && f->type != SL_T_JSON)
					sl_note_add(c, src, single->start, "`%s` expects %s, got `%s`",
						    name,
						    f->type == SL_T_FLOAT ? "a number" : "an integer",
						    single->text);
				v = plain_value(single);
			}
			sl_build_setting(b, f->key, v, f->names[0], "flag", sflags | vf, src, w->start,
					 raw);
			value_origin(b, src, single);
			sl_origin_set(&b->svc.settings[b->svc.nsettings - 1].value_at, src,
				      value_place(w, single, eqp ? nlen + 1 : 0), single->text);
		}
		sl_json_holes_free(&holes);
		free(raw);
	next:;
		/* a JSON value split into its members (or vLLM's dotted member):
		 * no setting keeps the flag's own key, so the flag's facts go with
		 * the first of them, marked as the flag's (releases, removal,
		 * replacement, deprecation judge the flag as written, never a
		 * member's value) */
		int split = known && b->svc.nsettings > first_setting;
		for (size_t k = first_setting; split && k < b->svc.nsettings; k++) {
			const sl_setting *o = &b->svc.settings[k];
			split = strcmp(o->key, known->key) && (!strcmp(o->via, "json") || !strcmp(o->via, "dotted"));
		}
		/* where the flag is written, in the file its first member's place is in */
		uint32_t split_at = w->start;
		if (split && sl_source_at(src, &split_at) != b->svc.settings[first_setting].origin.src)
			split = 0;
		/* the versions that know the flag travel with its settings */
		for (size_t k = first_setting; known && k < b->svc.nsettings; k++) {
			if (known->since && !b->svc.settings[k].since)
				b->svc.settings[k].since = sl_strdup(known->since);
			if (known->until && !b->svc.settings[k].until)
				b->svc.settings[k].until = sl_strdup(known->until);
			/* the default belongs to the flag's own value, not its JSON members */
			if (known->dflt && !b->svc.settings[k].dflt && !strcmp(b->svc.settings[k].key, known->key))
				b->svc.settings[k].dflt = json_incref(known->dflt);
			if (known->same && !b->svc.settings[k].same && !strcmp(b->svc.settings[k].key, known->key))
				b->svc.settings[k].same = json_incref(known->same);
			/* and so do the engine's facts for the spelling, with the
			 * flags an abbreviation may stand for in other releases */
			/* a first member's own facts (json_members.c) go with the flag's */
			json_t *had = b->svc.settings[k].facts;
			if ((m.facts || m.candidates) && m.grammar->versions && (!had || json_object_get(had, "member")) &&
			    (!strcmp(b->svc.settings[k].key, known->key) || (split && k == first_setting))) {
				json_t *fx = sl_build_facts(m.grammar->versions, m.grammar->id, m.grammar->title, NULL);
				if (m.facts)
					json_object_set(fx, "e", (json_t *)m.facts);
				/* the facts of the flag the source names as its
				 * replacement: whether it is a rename (SL1001's fix) */
				const char *rep = m.facts ? json_string_value(json_object_get(m.facts, "replacement")) : NULL;
				sl_flag_match rm;
				if (rep && rep[0] == '-' && sl_grammar_match(c->gs, m.grammar, rep, &rm) && !rm.abbrev &&
				    !rm.negated && rm.facts)
					json_object_set(fx, "rep", (json_t *)rm.facts);
				if (m.candidates)
					json_object_set(fx, "abbrev", (json_t *)m.candidates);
				/* an included flag whose values the wrapper reads first */
				const sl_choice_ext *x = m.grammar != g ? sl_grammar_choice_ext(g, m.flag) : NULL;
				if (x && fx)
					json_object_set_new(fx, "ext", choice_ext_json(g, x));
				if (split && fx)
					json_object_set_new(fx, "split",
							    json_pack("{s:s, s:s, s:I}", "flag", known->names[0], "written", name,
								      "at", (json_int_t)split_at));
				if (!fx)
					continue;
				if (had) {
					json_object_set(fx, "member", json_object_get(had, "member"));
					json_object_set(fx, "member_of", json_object_get(had, "member_of"));
					json_object_set(fx, "member_r", json_object_get(had, "r"));
					json_decref(had);
				}
				b->svc.settings[k].facts = fx;
			}
		}
		free(name);
		sl_word_free(&eqval);
	}
	free(uses);
	if (positionals && !c->failed)
		sl_misplaced_model_twice(c, b, g, settings_before);
	return c->failed ? SL_ERR_INPUT : SL_OK;
}

/* `-itd`: single-letter bool options bundled, as pflag reads them (docker);
 * each is kept as written alone. 0 when one letter is not such an option. */
static int short_bundle(sl_ctx *c, const sl_grammar *g, const char *name, json_t *options)
{
	size_t n = strlen(name);
	if (n < 3 || name[0] != '-' || name[1] == '-')
		return 0;
	const sl_flag *fs[16];
	if (n - 1 > 16)
		return 0;
	for (size_t i = 1; i < n; i++) {
		char one[3] = {'-', name[i], 0};
		sl_flag_match m;
		if (!sl_grammar_match(c->gs, g, one, &m) || m.flag->type != SL_T_BOOL || m.flag->action)
			return 0;
		fs[i - 1] = m.flag;
	}
	for (size_t i = 0; i + 1 < n; i++)
		json_object_set_new(options, fs[i]->names[0], json_true());
	return 1;
}

size_t sl_parse_launcher_args(sl_ctx *c, sl_build *b, const sl_grammar *g, sl_word *const *args,
			      size_t n, sl_word *entrypoint)
{
	const sl_source *src = c->entry->script;
	json_t *detail = json_object();
	json_t *volumes = json_array();
	json_t *options = json_object();
	memset(entrypoint, 0, sizeof *entrypoint);
	size_t i = 0;
	for (; i < n; i++) {
		const sl_word *w = args[i];
		if (!is_flag(w))
			break;
		const char *eqp = memchr(w->text, '=', w->len);
		size_t nlen = eqp ? (size_t)(eqp - w->text) : w->len;
		char *name = sl_strndup(w->text, nlen);
		sl_flag_match m;
		const sl_word *val = NULL;
		sl_word eqval;
		memset(&eqval, 0, sizeof eqval);
		if (eqp) {
			sl_word_slice(&eqval, w, nlen + 1, w->len);
			val = &eqval;
		}
		if (!sl_grammar_match(c->gs, g, name, &m) && short_bundle(c, g, name, options)) {
			free(name);
			continue;
		}
		if (!m.flag) {
			sl_note_add(c, src, w->start, "unknown %s option `%s`", g->title, name);
			/* an engine flag before the image: its value is not the image */
			const sl_word *next = i + 1 < n && !is_flag(args[i + 1]) ? args[i + 1] : NULL;
			if (!strcmp(g->id, "docker") && sl_misplaced_docker(c, src, w, name, eqp != NULL, next) && next)
				i++;
			free(name);
			sl_word_free(&eqval);
			continue;
		}
		const sl_flag *f = m.flag;
		if (f->type != SL_T_BOOL && !val && i + 1 < n)
			val = args[++i];
		if (f->type == SL_T_PAIR && i + 1 < n)
			i++;
		const char *act = f->action ? f->action : "";
		if (!*act) {
			/* options that set no model fact are kept as written */
			json_t *v = val ? json_string(val->text) : json_true();
			json_t *old = json_object_get(options, f->names[0]);
			if (!old) {
				json_object_set_new(options, f->names[0], v);
			} else if (json_is_array(old)) {
				json_array_append_new(old, v);
			} else {
				json_t *a = json_array();
				json_array_append(a, old);
				json_array_append_new(a, v);
				json_object_set_new(options, f->names[0], a);
			}
		}
		if (val && !strcmp(act, "env")) {
			const char *eq = memchr(val->text, '=', val->len);
			char *raw = raw_of(src, w, (sl_word *const *)&val, 1, eqp != NULL);
			uint32_t at = val->len ? val->offs[0] : val->start;
			if (eq) {
				char *nm = sl_strndup(val->text, (size_t)(eq - val->text));
				sl_build_env(b, nm, eq + 1, word_flags(val), g->id, src, at, raw);
				free(nm);
			} else if (val->len) {
				/* `-e NAME` / `-x NAME`: passed through from the launching
				 * shell, with the value it has there (or unknown) */
				const sl_env *host = NULL;
				for (size_t k = 0; k < b->svc.nenv; k++)
					if (!strcmp(b->svc.env[k].name, val->text) &&
					    (!strcmp(b->svc.env[k].via, "export") || !strcmp(b->svc.env[k].via, "inline")))
						host = &b->svc.env[k];
				sl_buf v = {0};
				if (host)
					sl_buf_puts(&v, host->value);
				else
					sl_buf_printf(&v, "$%s", val->text);
				sl_build_env(b, val->text, v.data, host ? host->flags : SL_SET_SYMBOLIC, g->id,
					     src, at, raw);
				sl_buf_free(&v);
			}
			free(raw);
		} else if (val && !strcmp(act, "entrypoint")) {
			sl_word_free(entrypoint);
			sl_word_copy(entrypoint, val);
			json_object_set_new(detail, "entrypoint", json_string(val->text));
		} else if (val && !strcmp(act, "volume")) {
			json_array_append_new(volumes, json_string(val->text));
		} else if (val && !strcmp(act, "gpus")) {
			json_object_set_new(detail, "gpus", json_string(val->text));
		} else if (val && !strcmp(act, "ranks")) {
			long long r;
			if (!sl_parse_int(val->text, &r))
				json_object_set_new(detail, "ranks", json_integer(r));
			else
				json_object_set_new(detail, "ranks", json_string(val->text));
		}
		/* ROCm: where --device=/dev/kfd is written, for the GPU origin */
		if (val && !strcmp(f->names[0], "--device") && sl_starts_with(val->text, "/dev/kfd") &&
		    !json_object_get(detail, "_kfd_at"))
			json_object_set_new(detail, "_kfd_at", json_integer(w->start));
		/* remember where gpus/ranks were written, for the GPU origin */
		if (val && (!strcmp(act, "gpus") || !strcmp(act, "ranks"))) {
			json_object_set_new(detail, "_at", json_integer(w->start));
		}
		free(name);
		sl_word_free(&eqval);
	}
	if (json_array_size(volumes))
		json_object_set_new(detail, "volumes", volumes);
	else
		json_decref(volumes);
	if (json_object_size(options))
		json_object_set_new(detail, "options", options);
	else
		json_decref(options);
	sl_build_wrapper(b, g->id, detail, src, n ? args[0]->start : 0, NULL);
	return i;
}
