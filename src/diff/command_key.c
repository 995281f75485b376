/*
 * command_key.c: a model's command as one string (see diff.h), so that a
 * catalogue finds its duplicates by hashing each entry once instead of
 * diffing every pair of one model's entries (audit was quadratic in
 * entries: 13 s at 3,500).
 *
 * The key is a necessary condition of sl_diff_same_command: two models the
 * diff finds the same command have one key. It holds what that diff
 * compares (diff.c): the topology (it pairs services by role and order),
 * then per service its engine, version, replicas, GPUs, the environment in
 * effect and the settings in effect that are not at their default (a
 * default written out on one side and left out on the other is no
 * difference). Claims are left out: they are not the command.
 *
 * It is coarser than the diff where the diff has a tolerance: a list of
 * one is keyed as its item (vLLM's --served-model-name is a list, SGLang's
 * a string); a number as the integer nearest to it, with the boundaries
 * moved off the half-integers a config writes (0.5), so that 8 and 8.0
 * and values within the diff's 1e-12 share a key. Models of one key may
 * still differ (0.9 and 0.85 are both 1): the caller confirms with the
 * diff, or without the models by the values the key rounds
 * (sl_diff_command_print, sl_diff_same_print: audit, which frees each
 * model once read). A setting's default is the grammar's for its engine and version,
 * both in the key, so both sides leave out the same defaults.
 */
#include "diff.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int by_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void put_str(sl_buf *b, const char *s)
{
	/* length first: no string can be read as two */
	sl_buf_printf(b, "%zu:", strlen(s));
	sl_buf_puts(b, s);
}

static void put_value(sl_buf *b, json_t *v)
{
	while (json_is_array(v) && json_array_size(v) == 1)
		v = json_array_get(v, 0);
	if (json_is_number(v)) {
		double d = json_number_value(v);
		if (isfinite(d) && fabs(d) < 1e15)
			sl_buf_printf(b, "n%.0f;", floor(d + 0.4990234375));
		else
			sl_buf_puts(b, "n;");
	} else if (json_is_string(v)) {
		sl_buf_putc(b, 's');
		put_str(b, json_string_value(v));
	} else if (json_is_array(v)) {
		sl_buf_printf(b, "[%zu", json_array_size(v));
		for (size_t i = 0; i < json_array_size(v); i++)
			put_value(b, json_array_get(v, i));
		sl_buf_putc(b, ']');
	} else if (json_is_object(v)) {
		/* json_equal ignores member order: members sorted */
		size_t n = json_object_size(v), k = 0;
		const char **names = sl_calloc(n + 1, sizeof *names);
		const char *name;
		json_t *m;
		json_object_foreach(v, name, m)
			names[k++] = name;
		qsort(names, k, sizeof *names, by_name);
		sl_buf_printf(b, "{%zu", k);
		for (size_t i = 0; i < k; i++) {
			put_str(b, names[i]);
			put_value(b, json_object_get(v, names[i]));
		}
		sl_buf_putc(b, '}');
		free(names);
	} else {
		sl_buf_putc(b, json_is_true(v) ? 't' : json_is_false(v) ? 'f' : '0');
	}
}

/* the value in effect of each environment variable, as the diff reads it */
static const sl_env *env_of(const sl_service *s, const char *name)
{
	const sl_env *e = NULL;
	for (size_t i = 0; i < s->nenv; i++)
		if (!strcmp(s->env[i].name, name) && !(s->env[i].flags & SL_SET_OVERRIDDEN))
			e = &s->env[i];
	return e;
}

/* vals, when not NULL: each keyed setting's value appended (a copy) */
static void put_service(sl_buf *b, const sl_service *s, json_t *vals)
{
	sl_buf_putc(b, '(');
	put_str(b, s->role);
	put_str(b, s->engine);
	put_str(b, s->version ? s->version : "");
	sl_buf_printf(b, "%c%u;%ld;", s->version ? 'v' : '-', s->replicas, s->gpus >= 0 || s->gpus == -2 ? s->gpus : -1);
	size_t cap = (s->nenv > s->nsettings ? s->nenv : s->nsettings) + 1, k = 0;
	const char **names = sl_calloc(cap, sizeof *names);
	for (size_t i = 0; i < s->nenv; i++)
		if (env_of(s, s->env[i].name) == &s->env[i])
			names[k++] = s->env[i].name;
	qsort(names, k, sizeof *names, by_name);
	for (size_t i = 0; i < k; i++) {
		sl_buf_putc(b, 'e');
		put_str(b, names[i]);
		put_str(b, env_of(s, names[i])->value);
	}
	k = 0;
	for (size_t i = 0; i < s->nsettings; i++) {
		const sl_setting *st = &s->settings[i];
		if (sl_service_get(s, st->key) != st)
			continue;  /* overridden, or not the last of its key */
		if (st->dflt && sl_diff_same(st->value, st->dflt))
			continue;  /* at its default: the same as left out */
		if (st->flags & SL_SET_OWN_NAME)
			continue;  /* a file read alone naming itself: no served value */
		names[k++] = st->key;
	}
	qsort(names, k, sizeof *names, by_name);
	for (size_t i = 0; i < k; i++) {
		sl_buf_putc(b, 'k');
		put_str(b, names[i]);
		json_t *v = sl_service_get(s, names[i])->value;
		put_value(b, v);
		if (vals)
			json_array_append_new(vals, json_deep_copy(v));
	}
	free(names);
	sl_buf_putc(b, ')');
}

static char *command_key(const sl_model *m, json_t *vals)
{
	sl_buf b = {0};
	char *topo = sl_diff_topology(m);
	put_str(&b, topo);
	free(topo);
	for (size_t i = 0; i < m->nservices; i++)
		put_service(&b, &m->services[i], vals);
	return sl_buf_detach(&b);
}

char *sl_diff_command_key(const sl_model *m)
{
	return command_key(m, NULL);
}

char *sl_diff_command_print(const sl_model *m, json_t **values)
{
	*values = json_array();
	return command_key(m, *values);
}

int sl_diff_same_print(json_t *a, json_t *b)
{
	if (json_array_size(a) != json_array_size(b))
		return 0;
	for (size_t i = 0; i < json_array_size(a); i++)
		if (!sl_diff_same(json_array_get(a, i), json_array_get(b, i)))
			return 0;
	return 1;
}
