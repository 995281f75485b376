/*
 * variants.c: the variants of a script. A reading records the undecided
 * conditionals it meets and follows the alternative its choice vector names;
 * the variants are every combination, found by reading again. Labels say in
 * words what each alternative assumes, for the reports.
 */
#include "internal.h"

/* The source text of [a, b), blanks collapsed, at most 80 bytes. */
char *sh_label_text(walker *w, size_t a, size_t b, const char *prefix)
{
	sl_buf l = {0};
	sl_buf_puts(&l, prefix);
	int blank = 0;
	for (size_t i = a; i < b && l.len < 80 + strlen(prefix); i++) {
		char ch = w->v.text[i];
		if (ch == '\\' && i + 1 < b && w->v.text[i + 1] == '\n') {
			i++;
			blank = 1;
			continue;
		}
		if (ch == ' ' || ch == '\t' || ch == '\n') {
			blank = 1;
			continue;
		}
		if (blank && l.len > strlen(prefix))
			sl_buf_putc(&l, ' ');
		blank = 0;
		sl_buf_putc(&l, ch);
	}
	if (l.len >= 80 + strlen(prefix))
		sl_buf_puts(&l, "...");
	unsigned line, col;
	sl_source_pos(w->v.src, sh_src_off(&w->v, a), &line, &col);
	sl_buf_printf(&l, " (line %u)", line);
	return sl_buf_detach(&l);
}

/* Which of n alternatives to follow at an undecided conditional; records
 * the point (once per conditional: a loop meets it again). Takes labels. */
static unsigned choose(walker *w, TSNode node, char **labels, unsigned n)
{
	uint32_t off = sh_src_off(&w->v, ts_node_start_byte(node));
	for (size_t i = 0; i < w->s->npoints; i++)
		if (w->s->points[i].off == off) {
			for (unsigned k = 0; k < n; k++)
				free(labels[k]);
			free(labels);
			return w->s->points[i].taken;
		}
	size_t k = w->s->npoints;
	unsigned c = k < w->nchoice ? w->choice[k] : 0;
	if (c >= n)
		c = n - 1;
	sl_branch_point p = {off, n, labels, c};
	SL_PUSH(w->s->points, w->s->npoints, w->pt_cap, p);
	return c;
}

/* The alternative to read among na labelled ones (labels are taken: freed
 * here or by choose), or -1 when the reading failed or there is none. */
int sh_pick_alternative(walker *w, TSNode node, char **labels, unsigned na)
{
	if (w->failed || na == 0) {
		for (unsigned i = 0; i < na; i++)
			free(labels[i]);
		free(labels);
		return -1;
	}
	if (na > 1)
		return (int)choose(w, node, labels, na);
	free(labels[0]);
	free(labels);
	return 0;
}

char *sl_script_variant_label(const sl_script *s)
{
	if (!s->npoints)
		return NULL;
	sl_buf b = {0};
	for (size_t i = 0; i < s->npoints; i++) {
		if (i)
			sl_buf_puts(&b, ", ");
		sl_buf_puts(&b, s->points[i].labels[s->points[i].taken]);
	}
	if (s->exited) {
		unsigned line, col;
		sl_source_pos(s->src, s->exit_off, &line, &col);
		sl_buf_printf(&b, ", then exit (line %u)", line);
	}
	return sl_buf_detach(&b);
}

void sl_variants_free(sl_variant *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].choice);
		free(v[i].label);
		sl_script_free(v[i].script);
	}
	free(v);
}

/*
 * Every combination of alternatives, in order, like an odometer over the
 * undecided conditionals met: read with a choice vector, then advance the
 * last point that has an alternative left (points after it start again at
 * their first). A choice can lead to other conditionals (nested ones), which
 * is why each reading reports the points it met.
 */
int sl_shell_variants(const sl_source *src, const sl_binds *binds, sl_variant **out, size_t *n,
		      int *truncated, sl_error *err)
{
	*out = NULL;
	*n = 0;
	*truncated = 0;
	unsigned *choice = NULL;
	size_t nchoice = 0, cap = 0;
	for (;;) {
		sl_shell_opts o = {binds, choice, nchoice};
		sl_script *s;
		int rc = sl_shell_parse_with(src, &o, &s, err);
		if (rc) {
			free(choice);
			sl_variants_free(*out, *n);
			*out = NULL;
			*n = 0;
			return rc;
		}
		if (*n == SL_MAX_VARIANTS) {
			*truncated = 1;
			sl_script_free(s);
			break;
		}
		sl_variant v;
		v.nchoice = s->npoints;
		v.choice = sl_calloc(s->npoints + 1, sizeof *v.choice);
		for (size_t i = 0; i < s->npoints; i++)
			v.choice[i] = s->points[i].taken;
		v.label = sl_script_variant_label(s);
		v.script = s; /* kept: read from here on, freed with the variants */
		sl_grow((void **)out, &cap, *n + 1, sizeof **out);
		(*out)[(*n)++] = v;
		/* advance */
		size_t i = s->npoints;
		while (i > 0 && s->points[i - 1].taken + 1 >= s->points[i - 1].n)
			i--;
		if (i == 0)
			break;
		free(choice);
		choice = sl_calloc(i, sizeof *choice);
		for (size_t k = 0; k + 1 < i; k++)
			choice[k] = s->points[k].taken;
		choice[i - 1] = s->points[i - 1].taken + 1;
		nchoice = i;
	}
	free(choice);
	return SL_OK;
}
