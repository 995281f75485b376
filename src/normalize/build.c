/*
 * build.c: the builders every file of the normalize stage shares: a note of
 * the model (plain, or of a structure that changes what runs), and a service's environment variables, settings and wrappers
 * as they are read. The bottom of the stage (with grammar.c): it uses no
 * other file of it, so that the files that read commands, config files and
 * comments can all add to the model without calling each other.
 */
#include "internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void note_v(sl_ctx *c, const char *kind, const sl_source *src, uint32_t off, const char *fmt, va_list ap)
{
	sl_note n;
	memset(&n, 0, sizeof n);
	char tmp[1024];
	vsnprintf(tmp, sizeof tmp, fmt, ap);
	/* the same note at the same place once: loop iterations repeat them,
	 * close together, so a look at the recent notes suffices */
	for (size_t i = c->model->nnotes, k = 0; i-- > 0 && k < 64; k++)
		if (c->model->notes[i].origin.src == src && c->model->notes[i].origin.off == off &&
		    !strcmp(c->model->notes[i].msg, tmp))
			return;
	n.msg = sl_strdup(tmp);
	n.kind = kind ? sl_structure_kind(kind) : NULL;
	sl_origin_set(&n.origin, src, off, NULL);
	SL_PUSH(c->model->notes, c->model->nnotes, c->note_cap, n);
}

void sl_note_add(sl_ctx *c, const sl_source *src, uint32_t off, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	note_v(c, NULL, src, off, fmt, ap);
	va_end(ap);
}

void sl_note_kind(sl_ctx *c, const char *kind, const sl_source *src, uint32_t off, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	note_v(c, kind, src, off, fmt, ap);
	va_end(ap);
}

void sl_note_breaks(sl_ctx *c, const sl_script *s, const sl_source *src)
{
	for (size_t i = 0; i < s->nbreaks; i++)
		if (strcmp(s->breaks[i].kind, "export_after_use"))  /* structure.c's, once services are known */
			sl_note_kind(c, s->breaks[i].kind, src, s->breaks[i].off, "%s", s->breaks[i].msg);
}

void sl_build_env(sl_build *b, const char *name, const char *value, unsigned flags,
		  const char *via, const sl_source *src, uint32_t off, const char *raw)
{
	sl_env e;
	memset(&e, 0, sizeof e);
	e.name = sl_strdup(name);
	e.value = sl_strdup(value);
	e.flags = flags;
	e.via = (char *)via;
	sl_origin_set(&e.origin, src, off, raw);
	SL_PUSH(b->svc.env, b->svc.nenv, b->env_cap, e);
}

void sl_build_setting(sl_build *b, const char *key, json_t *value, const char *flag,
		      const char *via, unsigned flags, const sl_source *src, uint32_t off,
		      const char *raw)
{
	sl_setting s;
	memset(&s, 0, sizeof s);
	s.key = sl_strdup(key);
	s.value = value;
	s.flag = sl_strdup(flag);
	s.via = (char *)via;
	s.flags = flags;
	sl_origin_set(&s.origin, src, off, raw);
	SL_PUSH(b->svc.settings, b->svc.nsettings, b->set_cap, s);
}

void sl_build_wrapper(sl_build *b, const char *kind, json_t *detail, const sl_source *src,
		      uint32_t off, const char *raw)
{
	sl_wrapper w;
	memset(&w, 0, sizeof w);
	w.kind = sl_strdup(kind);
	w.detail = detail ? detail : json_object();
	sl_origin_set(&w.origin, src, off, raw);
	SL_PUSH(b->svc.wrappers, b->svc.nwrappers, b->wrap_cap, w);
}

json_t *sl_build_facts(json_t *versions, const char *engine, const char *title, const char *in)
{
	/* built by hand, not with json_pack, whose format parsing was most of
	 * its cost (10,800 calls, 50 M instructions, in a check of 350
	 * entries); as json_pack did, a string missing or not UTF-8 gives NULL */
	json_t *o = json_object(), *e = json_string(engine), *t = json_string(title);
	json_t *ev = in ? json_object() : NULL, *iv = in ? json_string(in) : NULL;
	if (!o || !versions || !e || !t || (in && (!ev || !iv))) {
		json_decref(o);
		json_decref(e);
		json_decref(t);
		json_decref(ev);
		json_decref(iv);
		return NULL;
	}
	json_object_set(o, "r", versions);
	json_object_set_new(o, "engine", e);
	json_object_set_new(o, "title", t);
	if (in) {
		json_object_set_new(ev, "in", iv);
		json_object_set_new(o, "e", ev);
	}
	return o;
}
