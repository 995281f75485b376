/*
 * variants.c: the alternatives of one reading. A reading records the
 * undecided conditionals it meets and follows the alternative its choice
 * vector names; labels say in words what each alternative assumes, for the
 * reports. Every combination is read by readings.c, above the driver.
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
