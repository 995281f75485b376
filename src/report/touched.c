/*
 * touched.c (report): an entry touched between two revisions, as `diff REV
 * REV`, `log` and `review` print it (see report.h).
 */
#include "report.h"

void sl_report_touched_diff(const sl_touched_cmp *c, int md, int color)
{
	if (c->status != 0 && c->status != 4)
		return;
	if (md)
		fputs("\n", stdout);
	sl_report_diff_noted(stdout, md ? "markdown" : "tty", &c->diff, c->na, c->nb, color, 0);
	if (md)
		fputs("\n", stdout);
}

const char *sl_report_touched_label(const sl_touched_cmp *c)
{
	/* a change of what the entry says about itself (comments, metadata)
	 * is not a change of what runs */
	if ((c->status == 0 || c->status == 4) && sl_diff_same_command(&c->diff))
		return c->status == 0 ? "claims changed (the command is the same)"
				      : "renamed, claims changed (the command is the same)";
	if (c->hidden)
		return c->status == 1 ? "no change in the keys shown" : "renamed, no change in the keys shown";
	return sl_diff_touched_status[c->status];
}

void sl_report_touched(const sl_touched_cmp *c, const sl_touched *t, int md, int color)
{
	const char *path = c->status == 2 ? t->new_path : t->old_path, *st = sl_report_touched_label(c);
	if (md)
		printf("- **%s** `%s`", st, path);
	else
		printf("%s%s: %s", color ? "\033[1m" : "", st, path);
	if (c->status >= 4)
		printf(md ? " → `%s`" : " -> %s", t->new_path);
	fputs(color && !md ? "\033[0m\n" : "\n", stdout);
	sl_report_touched_diff(c, md, color);
}
