/*
 * json_members.c: a JSON flag value spread into one setting per member
 * (`--kv-transfer-config '{"kv_role":"kv_producer",...}'` gives
 * kv.transfer.role), nested objects with dotted paths, members the engine
 * does not accept marked with the nearest one.
 *
 * A value with parts the script does not know is spread all the same
 * (parse.h's sl_json_holes): a member whose value holds a hole is kept
 * symbolic, its value the text as the word has it (`$PORT`, "10.0.0.$N"),
 * so that SL0004 names it; the others are known and checked. A member
 * whose name holds a hole is symbolic whole, and not held to the members
 * the engine accepts.
 *
 * A top-level member the engine's source declares (grammars/facts/
 * <id>-members.tsv: its type and choices per release) carries those facts
 * (the setting's facts' "member"), and its value's place when the value is
 * a string written as is, so that SL1007 judges the value by the entry's
 * release as it does a flag's.
 *
 * Uses build.c, grammar.c and engine_facts.c; called by flags.c.
 */
#include "json_members.h"

#include <stdlib.h>
#include <string.h>

#include "engine_facts.h"

#define MAX_JSON_DEPTH 16

const char *sl_json_member_key(const sl_flag *f, const char *member)
{
	for (size_t i = 0; i < f->njkeys; i++)
		if (!strcmp(f->jkeys[i].member, member))
			return f->jkeys[i].key;
	return NULL;
}

/* Where "member" sits inside a JSON word, as a source offset. */
static uint32_t member_offset(const sl_word *w, const char *member)
{
	sl_buf pat = {0};
	sl_buf_printf(&pat, "\"%s\"", member);
	const char *p = strstr(w->text, pat.data);
	sl_buf_free(&pat);
	if (!p)
		return w->start;
	return w->offs[p - w->text];
}

/* Where the value of string member `member` starts inside a JSON word (past
 * its opening quote), when the word holds it as v alone, unescaped; -1
 * otherwise (a value the word spells otherwise is not placed). */
static long value_index(const sl_word *w, const char *member, const char *v)
{
	sl_buf pat = {0};
	sl_buf_printf(&pat, "\"%s\"", member);
	const char *p = strstr(w->text, pat.data);
	size_t plen = pat.len;
	sl_buf_free(&pat);
	if (!p)
		return -1;
	p += plen;
	while (*p == ' ' || *p == '\t' || *p == '\n')
		p++;
	if (*p++ != ':')
		return -1;
	while (*p == ' ' || *p == '\t' || *p == '\n')
		p++;
	if (*p++ != '"')
		return -1;
	size_t n = strlen(v);
	if (strncmp(p, v, n) || p[n] != '"')
		return -1;
	return p - w->text;
}

/* The facts the engine's source gives a top-level member, on setting st. */
static void member_facts(sl_setting *st, const sl_grammar *g, const sl_flag *f, const char *member, json_t *v,
			 const sl_word *w, const sl_source *src)
{
	if (!g || !g->id)
		return;
	json_t *rel = NULL;
	const json_t *e = sl_engine_facts_member(g->id, f->names[0], member, &rel);
	if (!e)
		return;
	json_t *fx = sl_build_facts(rel, g->id, g->title ? g->title : g->id, NULL);
	if (!fx)
		return;
	json_object_set(fx, "member", (json_t *)e);
	json_object_set_new(fx, "member_of", json_string(f->names[0]));
	st->facts = fx;
	long i = json_is_string(v) && !(st->flags & (SL_SET_SYMBOLIC | SL_SET_PLACEHOLDER))
			 ? value_index(w, member, json_string_value(v))
			 : -1;
	if (i >= 0)
		sl_origin_set(&st->value_at, src, w->offs[i], json_string_value(v));
}

static int accepted(const sl_flag *f, const char *member)
{
	for (size_t k = 0; k < f->nmembers; k++)
		if (!strcmp(f->members[k], member))
			return 1;
	return 0;
}

/* The flags a hole gives a setting (parse.h's SL_WORD_* to SL_SET_*). */
static unsigned set_flags(unsigned hf)
{
	return ((hf & SL_WORD_SYMBOLIC) ? SL_SET_SYMBOLIC : 0) | ((hf & SL_WORD_PLACEHOLDER) ? SL_SET_PLACEHOLDER : 0);
}

static void spread(sl_build *b, const sl_grammar *g, const sl_flag *f, const char *prefix_key, const char *prefix_member,
		   json_t *obj, const sl_word *w, const sl_source *src, unsigned flags,
		   const sl_json_holes *h, unsigned depth)
{
	const char *jmember;
	json_t *v;
	json_object_foreach(obj, jmember, v) {
		/* the member's name as written; a hole in it leaves it unknown */
		char *member = NULL;
		unsigned name_holes = sl_json_holes_str(h, jmember, &member);
		sl_buf path = {0}, key = {0}, raw = {0};
		if (prefix_member)
			sl_buf_printf(&path, "%s.%s", prefix_member, member);
		else
			sl_buf_puts(&path, member);
		const char *mapped = name_holes ? NULL : sl_json_member_key(f, path.data);
		if (mapped)
			sl_buf_puts(&key, mapped);
		else
			sl_buf_printf(&key, "%s.%s", prefix_key, path.data);
		/* an object under a member the engine does not accept is kept whole */
		int unknown_obj = !prefix_member && f->nmembers && json_is_object(v) && !accepted(f, member);
		if (json_is_object(v) && json_object_size(v) > 0 && depth < MAX_JSON_DEPTH && !unknown_obj &&
		    !name_holes) {
			spread(b, g, f, prefix_key, path.data, v, w, src, flags, h, depth + 1);
		} else {
			unsigned value_holes = sl_json_holes_in(h, v);
			char *text = sl_json_holes_text(h, v);
			sl_buf_printf(&raw, "\"%s\":%s", member, text);
			json_t *value;
			if (name_holes) {
				value = json_string(raw.data);  /* which member is not known */
			} else if (value_holes && json_is_string(v)) {
				char *s = NULL;
				sl_json_holes_str(h, json_string_value(v), &s);
				value = json_string(s);
				free(s);
			} else if (value_holes) {
				value = json_string(text);
			} else {
				value = json_incref(v);
			}
			free(text);
			sl_buf jflag = {0};
			sl_buf_printf(&jflag, "%s %s", f->names[0], path.data);
			/* a top-level member the engine does not accept (when the
			 * grammar lists them): kept, marked, with the nearest one */
			unsigned mf = flags | set_flags(name_holes | value_holes);
			const char *near = NULL;
			if (!prefix_member && f->nmembers && !name_holes && !accepted(f, member)) {
				mf |= SL_SET_UNKNOWN;
				near = sl_nearest(member, f->members, f->nmembers);
			}
			sl_build_setting(b, key.data, value, jflag.data, "json", mf, src, member_offset(w, member),
					 raw.data);
			if (!prefix_member && !name_holes && !value_holes)
				member_facts(&b->svc.settings[b->svc.nsettings - 1], g, f, member, v, w, src);
			if (near) {
				b->svc.settings[b->svc.nsettings - 1].hint = sl_strdup(near);
				if (sl_nearest_tied(member, f->members, f->nmembers, near))
					b->svc.settings[b->svc.nsettings - 1].flags |= SL_SET_HINT_TIED;
			}
			sl_buf_free(&jflag);
		}
		free(member);
		sl_buf_free(&path);
		sl_buf_free(&key);
		sl_buf_free(&raw);
	}
}

void sl_json_spread(sl_build *b, const sl_grammar *g, const sl_flag *f, json_t *obj, const sl_word *w,
		    const sl_source *src, unsigned flags, const sl_json_holes *h)
{
	spread(b, g, f, f->key, NULL, obj, w, src, flags, h, 0);
}
