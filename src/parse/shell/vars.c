/*
 * vars.c: the table of shell variables. It is a stack of assignments: the
 * newest entry of a name is its value, so that a loop iteration or a
 * function call pushes and the exports in effect at each command can be
 * told in order; a hash of names to their newest entry makes each read
 * O(1). The exports in effect are one shared set, made again only after an
 * exported variable changed. Also the --set bindings and the script's inputs
 * (variables it reads but never sets), which are what a user has to provide.
 */
#include "internal.h"

static size_t name_hash(const char *name, size_t n)
{
	size_t h = 1469598103934665603u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)name[i]) * 1099511628211u;
	return h;
}

/* The slot of a name: the one holding it, or the empty one where it goes. */
static size_t *slot_of(const vartab *t, const char *name, size_t n)
{
	size_t mask = t->nslots - 1;
	for (size_t i = name_hash(name, n) & mask;; i = (i + 1) & mask) {
		size_t *s = &t->slots[i];
		if (!*s)
			return s;
		const char *k = t->items[*s - 1].name;
		if (!strncmp(k, name, n) && k[n] == 0)
			return s;
	}
}

size_t sh_var_newest(const walker *w, const char *name, size_t n)
{
	if (!w->vars.nslots)
		return (size_t)-1;
	size_t *s = slot_of(&w->vars, name, n);
	return *s ? *s - 1 : (size_t)-1;
}

/* Entry i becomes its name's newest. The table stays at most half full. */
static void slot_set(vartab *t, size_t i)
{
	if (2 * (t->used + 1) > t->nslots) {
		size_t old_n = t->nslots, *old = t->slots;
		t->nslots = old_n ? 2 * old_n : 64;
		t->slots = sl_calloc(t->nslots, sizeof *t->slots);
		for (size_t k = 0; k < old_n; k++)
			if (old[k]) {
				const char *nm = t->items[old[k] - 1].name;
				*slot_of(t, nm, strlen(nm)) = old[k];
			}
		free(old);
	}
	const char *nm = t->items[i].name;
	size_t *s = slot_of(t, nm, strlen(nm));
	if (!*s)
		t->used++;
	*s = i + 1;
}

const sl_assign *sh_var_get(const walker *w, const char *name, size_t n)
{
	size_t i = sh_var_newest(w, name, n);
	return i == (size_t)-1 || w->vars.arr[i].unset ? NULL : &w->vars.items[i];
}

/* The array behind the newest value of a name, or NULL for a scalar. */
const varr *sh_var_array(const walker *w, const char *name, size_t n)
{
	size_t i = sh_var_newest(w, name, n);
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
/* A command's word reads a variable the script has not set (yet): kept
 * until the script sets it, when the order is a break (set_after_read). */
static void pending_read(walker *w, const char *name, size_t n, size_t view_off)
{
	/* $1, $@: a function's parameters, which each call sets */
	if (!w->in_argv || !n || !(name[0] == '_' || (name[0] >= 'A' && name[0] <= 'Z') || (name[0] >= 'a' && name[0] <= 'z')))
		return;
	for (size_t i = 0; i < w->nreads; i++)
		if (strlen(w->reads[i].name) == n && !memcmp(w->reads[i].name, name, n))
			return;
	struct sh_read r = {sl_strndup(name, n), sh_src_off(&w->v, view_off), w->argv_cmd};
	SL_PUSH(w->reads, w->nreads, w->reads_cap, r);
}

/* The script sets a variable a command read before: that command ran with
 * it unset (or the caller's value). Said at the assignment, of the
 * command (normalize keeps it when that command is a service). */
static void set_after_read(walker *w, const char *name, uint32_t start)
{
	for (size_t i = 0; i < w->nreads; i++) {
		if (strcmp(w->reads[i].name, name))
			continue;
		sl_buf at = {0};
		sl_source_place(&at, w->v.src, w->reads[i].off, start, 0);
		sl_buf m = {0};
		sl_buf_printf(&m, "`%s` is set here, after the command that reads it at %s: that command ran "
			      "before it was set, with `$%s` empty, its default or the caller's value", name, at.data, name);
		sl_buf_free(&at);
		sh_break_cmd(w, "export_after_use", start, w->reads[i].cmd, m.data);
		sl_buf_free(&m);
		free(w->reads[i].name);
		w->reads[i] = w->reads[--w->nreads];
		return;
	}
}

void sh_reads_free(walker *w)
{
	for (size_t i = 0; i < w->nreads; i++)
		free(w->reads[i].name);
	free(w->reads);
	w->reads = NULL;
	w->nreads = w->reads_cap = 0;
}

sl_script_input *sh_record_input(walker *w, const char *name, size_t n, size_t view_off,
				 const char *val)
{
	pending_read(w, name, n, view_off);
	for (size_t i = 0; i < w->s->ninputs; i++)
		if (strlen(w->s->inputs[i].name) == n && !memcmp(w->s->inputs[i].name, name, n))
			return &w->s->inputs[i];
	sl_script_input in = {sl_strndup(name, n), sh_src_off(&w->v, view_off), val ? sl_strdup(val) : NULL, 0};
	SL_PUSH(w->s->inputs, w->s->ninputs, w->in_cap, in);
	return &w->s->inputs[w->s->ninputs - 1];
}

/* A name sh_stale can find by the hash from what a label writes after `$`:
 * one byte (`#`, `1`, `@`), or only name bytes. */
static int plain_name(const char *nm)
{
	if (!nm[0] || !nm[1])
		return 1;
	for (; *nm; nm++)
		if (!(*nm == '_' || (*nm >= 'a' && *nm <= 'z') || (*nm >= 'A' && *nm <= 'Z') || (*nm >= '0' && *nm <= '9')))
			return 0;
	return 1;
}

static void var_push(walker *w, sl_assign *a, varr *ar)
{
	if (!plain_name(a->name))
		w->vars.odd_names = 1;
	/* the exports change when this one is exported or shadows one that was */
	size_t prev = sh_var_newest(w, a->name, strlen(a->name));
	if (a->exported || (prev != (size_t)-1 && w->vars.items[prev].exported && !w->vars.arr[prev].unset))
		w->vars.exports_changed = 1;
	SL_PUSH(w->vars.items, w->vars.n, w->vars.cap, *a);
	sl_grow((void **)&w->vars.arr, &w->vars.arr_cap, w->vars.n, sizeof *w->vars.arr);
	w->vars.arr[w->vars.n - 1] = *ar;
	slot_set(&w->vars, w->vars.n - 1);
}

static int by_index(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return x < y ? -1 : x > y;
}

/* The exports in effect now, oldest first (by where each name's value was
 * set), as a set shared by every command that runs with it: NULL for none.
 * It is made again only when an exported variable changed since the last. */
const struct sl_export_set *sh_exports(walker *w)
{
	sl_script *s = w->s;
	if (!w->vars.exports_changed)
		return s->nexport_sets ? &s->export_sets[s->nexport_sets - 1] : NULL;
	w->vars.exports_changed = 0;
	size_t *idx = NULL, n = 0, cap = 0;
	for (size_t k = 0; k < w->vars.nslots; k++) {
		size_t i = w->vars.slots[k];
		if (i && w->vars.items[i - 1].exported && !w->vars.arr[i - 1].unset)
			SL_PUSH(idx, n, cap, i - 1);
	}
	qsort(idx, n, sizeof *idx, by_index);
	struct sl_export_set set = {n ? sl_calloc(n, sizeof *set.items) : NULL, n};
	for (size_t k = 0; k < n; k++) {
		const sl_assign *a = &w->vars.items[idx[k]];
		set.items[k].name = sl_strdup(a->name);
		sl_word_copy(&set.items[k].value, &a->value);
		set.items[k].start = a->start;
		set.items[k].exported = 1;
	}
	free(idx);
	SL_PUSH(s->export_sets, s->nexport_sets, w->vars.export_sets_cap, set);
	return &s->export_sets[s->nexport_sets - 1];
}

void sh_vars_free(walker *w)
{
	for (size_t i = 0; i < w->vars.n; i++) {
		free(w->vars.items[i].name);
		sl_word_free(&w->vars.items[i].value);
		for (size_t k = 0; k < w->vars.arr[i].n; k++)
			sl_word_free(&w->vars.arr[i].elems[k]);
		free(w->vars.arr[i].elems);
	}
	free(w->vars.items);
	free(w->vars.arr);
	free(w->vars.slots);
	memset(&w->vars, 0, sizeof w->vars);
}

void sh_var_set(walker *w, const char *name, const sl_word *value, uint32_t start,
		int exported)
{
	const sl_assign *old = sh_var_get(w, name, strlen(name));
	if (w->nreads)
		set_after_read(w, name, start);
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
	if (w->nreads)
		set_after_read(w, name, start);
	sl_assign a = {0};
	a.name = sl_strdup(name);
	sh_join_words(&a.value, elems, n, start);
	a.start = start;
	a.exported = exported || (old && old->exported);
	varr ar = {elems, n, 1, 0};
	var_push(w, &a, &ar);
}

/* An empty setting of name that marks it unset (kind: the varr's unset) */
static void push_unset(walker *w, const char *name, int kind)
{
	sl_assign a = {0};
	a.name = sl_strdup(name);
	wbuild wb = {0};
	sh_wb_finish(&wb, &a.value, 0, 0);
	varr u = {NULL, 0, 0, kind};
	var_push(w, &a, &u);
}

void sh_var_unset(walker *w, const char *name)
{
	if (sh_var_get(w, name, strlen(name)))
		push_unset(w, name, 1);
}

void sh_var_clear(walker *w, const char *name)
{
	size_t i = sh_var_newest(w, name, strlen(name));
	if (i == (size_t)-1 || w->vars.arr[i].unset != 2)
		push_unset(w, name, 2);
}

int sh_var_cleared(const walker *w, const char *name, size_t n)
{
	size_t i = sh_var_newest(w, name, n);
	return i != (size_t)-1 && w->vars.arr[i].unset == 2;
}

void sh_var_forget(walker *w, const char *name, uint32_t at, size_t view_off)
{
	size_t n = strlen(name);
	const char *bv = sh_bound(w, name, n);
	wbuild wb = {0};
	if (bv) {
		sh_wb_add_at(&wb, bv, strlen(bv), at);
		wb.flags = SL_WORD_BOUND;
	} else {
		sh_wb_add_at(&wb, "$", 1, at);
		sh_wb_add_at(&wb, name, n, at);
		wb.flags = SL_WORD_SYMBOLIC;
	}
	sl_word v;
	sh_wb_finish(&wb, &v, at, at);
	sh_record_input(w, name, n, view_off, bv);
	sh_var_set(w, name, &v, at, 0);
	sl_word_free(&v);
}
