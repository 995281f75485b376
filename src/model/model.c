/* model.c: lifetime and lookups of the normalized model. */
#include "model.h"

#include <ctype.h>

#include <stdlib.h>
#include <string.h>

void sl_origin_set(sl_origin *o, const sl_source *src, uint32_t off, const char *raw)
{
	/* a value from a file the script sources is placed in that file */
	o->src = sl_source_at(src, &off);
	o->off = off;
	o->raw = raw ? sl_strdup(raw) : NULL;
}

void sl_origin_copy(sl_origin *dst, const sl_origin *src)
{
	*dst = *src;
	dst->raw = src->raw ? sl_strdup(src->raw) : NULL;
}

void sl_origin_clear(sl_origin *o)
{
	free(o->raw);
	memset(o, 0, sizeof *o);
}

void sl_origin_pos(const sl_origin *o, unsigned *line, unsigned *col)
{
	if (!o->src) {
		*line = *col = 0;
		return;
	}
	sl_source_pos(o->src, o->off, line, col);
}

/* Each kind is made in one place, named here: the parse stage's shell
 * reader (src/parse/shell/) or the normalizer's reading of launchers and
 * engine arguments (src/normalize/). */
const char *const sl_structure_kinds[] = {
	"blank_after_backslash",        /* `\ ` at a line's end (shell/command.c) */
	"continuation_onto_empty_line", /* `\` then an empty line (shell/command.c) */
	"comment_in_command",           /* a comment line inside a continued command (shell/command.c) */
	"export_after_use",             /* a variable exported after a command that read it (shell/vars.c) */
	"foreground_before_services",   /* a server run in the foreground, services after it (normalize.c) */
	"quote_swallows_flags",         /* one quoted word holding several flags (normalize/flags.c) */
	"docker_engine_flag",           /* an engine flag before the image in docker run (normalize.c) */
	"mpirun_option_after_program",  /* an mpirun option after the program it runs (normalize/flags.c) */
	"flag_after_double_dash",       /* a flag after `--`, read as a positional (normalize/flags.c) */
	"model_twice",                  /* the model given positionally and by --model (normalize/flags.c) */
	"source_not_read",              /* a file sourced that is not read (parse/shell/source.c) */
	"variants_beyond_limit",        /* more variants than are read (entry/variants.c) */
	"variants_covered",             /* variants read in a covering set of any three decisions (entry/variants.c) */
	"config_not_read",              /* a config file a service names that the entry does not hold (normalize/config.c) */
	NULL,
};

const char *sl_structure_kind(const char *kind)
{
	for (size_t i = 0; sl_structure_kinds[i]; i++)
		if (!strcmp(sl_structure_kinds[i], kind))
			return sl_structure_kinds[i];
	return NULL;
}

const sl_setting *sl_service_get(const sl_service *s, const char *key)
{
	/* the first byte before strcmp: the rules look keys up 500,000 times
	 * in a check of 350 entries */
	for (size_t i = s->nsettings; i-- > 0;)
		if (s->settings[i].key[0] == key[0] && !(s->settings[i].flags & SL_SET_OVERRIDDEN) &&
		    !strcmp(s->settings[i].key, key))
			return &s->settings[i];
	return NULL;
}

json_t *sl_setting_canonical(const sl_setting *st, json_t *v)
{
	json_t *c = st && st->same && json_is_string(v) ? json_object_get(st->same, json_string_value(v)) : NULL;
	return c ? c : v;
}

json_t *sl_setting_meaning(const sl_service *s, const sl_setting *st, json_t *v)
{
	v = sl_setting_canonical(st, v);
	const json_t *x = st && st->facts ? json_object_get(st->facts, "ext") : NULL;
	json_t *same = x ? json_object_get(x, "same") : NULL;
	if (!same || !json_is_string(v))
		return v;
	const char *ver = s ? sl_service_release(s, json_string_value(json_object_get(x, "engine"))) : NULL;
	const char *since = json_string_value(json_object_get(x, "since"));
	const char *until = json_string_value(json_object_get(x, "until"));
	if (ver && ((since && sl_version_cmp(since, ver) > 0) || (until && sl_version_cmp(ver, until) >= 0)))
		return v;  /* a release of the wrapper that passes the value on as written */
	json_t *c = json_object_get(same, json_string_value(v));
	return c ? c : v;
}

const char *sl_service_release(const sl_service *s, const char *facts_engine)
{
	if (!facts_engine || !s->engine || strcmp(facts_engine, s->engine))
		return NULL;
	const char *v = s->version;
	if (!strncmp(facts_engine, "dynamo-", 7))
		v = s->dynamo_version ? s->dynamo_version : !strcmp(s->engine, "dynamo-frontend") ? s->version : NULL;
	return v && isdigit((unsigned char)v[0]) ? v : NULL;
}

static void service_free(sl_service *s)
{
	free(s->name);
	free(s->role);
	free(s->role_from);
	free(s->engine);
	free(s->program);
	free(s->version);
	sl_origin_clear(&s->version_origin);
	free(s->dynamo_version);
	free(s->replicas_from);
	sl_origin_clear(&s->replicas_origin);
	free(s->gpus_from);
	json_decref(s->gpu_devices);
	sl_origin_clear(&s->gpus_origin);
	sl_origin_clear(&s->command_origin);
	json_decref(s->argv);
	json_decref(s->launches);
	json_decref(s->health);
	json_decref(s->defaults);
	for (size_t i = 0; i < s->nenv; i++) {
		free(s->env[i].name);
		free(s->env[i].value);
		sl_origin_clear(&s->env[i].origin);
	}
	free(s->env);
	for (size_t i = 0; i < s->nsettings; i++) {
		free(s->settings[i].key);
		free(s->settings[i].flag);
		json_decref(s->settings[i].value);
		sl_origin_clear(&s->settings[i].origin);
		sl_origin_clear(&s->settings[i].value_origin);
		free(s->settings[i].hint);
		free(s->settings[i].since);
		free(s->settings[i].until);
		json_decref(s->settings[i].dflt);
		json_decref(s->settings[i].same);
		json_decref(s->settings[i].facts);
		sl_origin_clear(&s->settings[i].value_at);
	}
	free(s->settings);
	for (size_t i = 0; i < s->nwrappers; i++) {
		free(s->wrappers[i].kind);
		json_decref(s->wrappers[i].detail);
		sl_origin_clear(&s->wrappers[i].origin);
	}
	free(s->wrappers);
}

void sl_model_free(sl_model *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->nservices; i++)
		service_free(&m->services[i]);
	free(m->services);
	for (size_t i = 0; i < m->nnotes; i++) {
		free(m->notes[i].msg);
		sl_origin_clear(&m->notes[i].origin);
	}
	free(m->notes);
	for (size_t i = 0; i < m->nclaims; i++) {
		free(m->claims[i].key);
		free(m->claims[i].role);
		json_decref(m->claims[i].value);
		free(m->claims[i].text);
		sl_origin_clear(&m->claims[i].origin);
	}
	free(m->claims);
	for (size_t i = 0; i < m->ninputs; i++) {
		free(m->inputs[i].name);
		free(m->inputs[i].value);
		sl_origin_clear(&m->inputs[i].origin);
	}
	free(m->inputs);
	for (size_t i = 0; i < m->nfiles; i++)
		sl_source_free(m->files[i]);
	free(m->files);
	free(m->variant);
	free(m);
}
