/*
 * vars.c: the table of shell variables. It is a stack of assignments, not a
 * map: the newest entry of a name is its value, so that a loop iteration or
 * a function call pushes and the exports in effect at each command can be
 * told in order. Also the --set bindings and the script's inputs (variables
 * it reads but never sets), which are what a user has to provide.
 */
#include "internal.h"

static size_t var_find(const walker *w, const char *name, size_t n)
{
	for (size_t i = w->vars.n; i-- > 0;)
		if (strlen(w->vars.items[i].name) == n && !memcmp(w->vars.items[i].name, name, n))
			return i;
	return (size_t)-1;
}

const sl_assign *sh_var_get(const walker *w, const char *name, size_t n)
{
	size_t i = var_find(w, name, n);
	return i == (size_t)-1 || w->vars.arr[i].unset ? NULL : &w->vars.items[i];
}

/* The array behind the newest value of a name, or NULL for a scalar. */
const varr *sh_var_array(const walker *w, const char *name, size_t n)
{
	size_t i = var_find(w, name, n);
	return i == (size_t)-1 || !w->vars.arr[i].is_array || w->vars.arr[i].unset ? NULL : &w->vars.arr[i];
}

/* A --set binding for a name, or NULL. */
const char *sh_bound(const walker *w, const char *name, size_t n)
{
	if (!w->binds)
		return NULL;
	for (size_t i = w->binds->n; i-- > 0;)
		if (strlen(w->binds->names[i]) == n && !memcmp(w->binds->names[i], name, n))
			return w->binds->values[i];
	return NULL;
}

/* Remembers a variable read without a value from the script. */
sl_script_input *sh_record_input(walker *w, const char *name, size_t n, size_t view_off,
				 const char *val)
{
	for (size_t i = 0; i < w->s->ninputs; i++)
		if (strlen(w->s->inputs[i].name) == n && !memcmp(w->s->inputs[i].name, name, n))
			return &w->s->inputs[i];
	sl_script_input in = {sl_strndup(name, n), sh_src_off(&w->v, view_off), val ? sl_strdup(val) : NULL, 0};
	SL_PUSH(w->s->inputs, w->s->ninputs, w->in_cap, in);
	return &w->s->inputs[w->s->ninputs - 1];
}

static void var_push(walker *w, sl_assign *a, varr *ar)
{
	SL_PUSH(w->vars.items, w->vars.n, w->vars.cap, *a);
	sl_grow((void **)&w->vars.arr, &w->vars.arr_cap, w->vars.n, sizeof *w->vars.arr);
	w->vars.arr[w->vars.n - 1] = *ar;
}

void sh_var_set(walker *w, const char *name, const sl_word *value, uint32_t start,
		int exported)
{
	const sl_assign *old = sh_var_get(w, name, strlen(name));
	sl_assign a = {0};
	a.name = sl_strdup(name);
	sl_word_copy(&a.value, value);
	a.start = start;
	a.exported = exported || (old && old->exported);
	varr none = {NULL, 0, 0, 0};
	var_push(w, &a, &none);
}

/* Takes ownership of elems. */
void sh_var_set_array(walker *w, const char *name, sl_word *elems, size_t n, uint32_t start,
		      int exported)
{
	const sl_assign *old = sh_var_get(w, name, strlen(name));
	sl_assign a = {0};
	a.name = sl_strdup(name);
	sh_join_words(&a.value, elems, n, start);
	a.start = start;
	a.exported = exported || (old && old->exported);
	varr ar = {elems, n, 1, 0};
	var_push(w, &a, &ar);
}

void sh_var_unset(walker *w, const char *name)
{
	if (!sh_var_get(w, name, strlen(name)))
		return;
	sl_assign a = {0};
	a.name = sl_strdup(name);
	wbuild wb = {0};
	sh_wb_finish(&wb, &a.value, 0, 0);
	varr u = {NULL, 0, 0, 1};
	var_push(w, &a, &u);
}
