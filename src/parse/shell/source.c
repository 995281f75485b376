/*
 * source.c: `source FILE` and `. FILE`. The sourced file is not read (yet):
 * whatever it assigns is unknown after it, so every variable the script
 * knew before it is spelled $NAME from there on (or takes its --set value),
 * never kept at a value the file may have replaced, and a note names the
 * file and the variables. Assignments after the command are read as usual,
 * which is where real harnesses set what they serve with
 * (`source "$(dirname "$0")/../benchmark_lib.sh"` comes first).
 */
#include "internal.h"

#define LISTED 8   /* names the note lists before "and N more" */

static int is_name(const char *s)
{
	if (!(*s == '_' || (*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z')))
		return 0;
	for (; *s; s++)
		if (!(*s == '_' || (*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') ||
		      (*s >= '0' && *s <= '9')))
			return 0;
	return 1;
}

static int by_index(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return x < y ? -1 : x > y;
}

void sh_walk_source(walker *w, const sl_command *c, TSNode node)
{
	uint32_t at = c->start;
	/* the newest entry of each name set and not unset, in assignment order */
	size_t *idx = NULL, n = 0;
	if (w->vars.nslots)
		idx = sl_calloc(w->vars.nslots, sizeof *idx);
	for (size_t i = 0; i < w->vars.nslots; i++) {
		size_t e = w->vars.slots[i];
		if (e && !w->vars.arr[e - 1].unset && is_name(w->vars.items[e - 1].name))
			idx[n++] = e - 1;
	}
	if (n)
		qsort(idx, n, sizeof *idx, by_index);
	char **names = sl_calloc(n + 1, sizeof *names);
	for (size_t i = 0; i < n; i++)
		names[i] = sl_strdup(w->vars.items[idx[i]].name);
	free(idx);

	sl_buf b = {0};
	sl_buf_printf(&b, "`%s %s`: the file is not read", c->argv[0].text,
		      c->argc > 1 ? c->argv[1].text : "");
	for (size_t i = 0; i < n; i++) {
		if (i < LISTED)
			sl_buf_printf(&b, "%s`%s`", i ? ", " : "; unknown after it, since it may set them "
							       "(bind with --set NAME=VALUE): ", names[i]);
		else if (i == LISTED)
			sl_buf_printf(&b, " and %zu more", n - LISTED);
		sh_var_forget(w, names[i], at, ts_node_start_byte(node));
		free(names[i]);
	}
	free(names);
	sh_note(w, node, b.data);
	sl_buf_free(&b);
}
