/*
 * check_out.c (cmd): check's reports, written as the entries' findings are
 * handed back (in input order) rather than kept to the end (issue 18:
 * memory flat in the input's size; 39 MB over 100 MB of scripts when every
 * finding and the lines it points to were kept). The bytes are those of
 * the reports written whole one after the other: the first report for
 * standard output is written there as it goes; a later one, and a report
 * for a file, go to a temporary file (tmpfile: unlinked, gone with the
 * process) copied at the end to standard output after the reports before
 * it, or into its file whole or not at all (sl_write_file_atomic).
 */
#include "check_out.h"
#include "options.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct out {
	const sl_check_output *o;
	FILE *f;                  /* stdout, or a spool (a temporary file) */
	sl_findings_report *rep;  /* NULL: --format diff's, written at the end */
	int failed;               /* a write into the spool failed */
} out;

struct sl_check_outs {
	out *v;
	size_t n;
};

static int to_stdout(const sl_check_output *o)
{
	return !o->file || sl_opt_is_stdout(o->file);
}

sl_check_outs *sl_check_outs_open(const sl_check_output *outs, size_t n, const sl_rules *rules, sl_severity min,
				  int color)
{
	sl_check_outs *s = sl_calloc(1, sizeof *s);
	s->v = sl_calloc(n + 1, sizeof *s->v);
	s->n = n;
	int direct = 0;  /* standard output has its report being written there */
	for (size_t i = 0; i < n; i++) {
		out *x = &s->v[i];
		x->o = &outs[i];
		if (to_stdout(x->o) && !direct) {
			x->f = stdout;
			direct = 1;
		} else if (!(x->f = tmpfile())) {
			x->failed = 1;
		}
		if (!x->o->diff && x->f)
			x->rep = sl_report_findings_start(x->f, x->o->fmt, rules, min, to_stdout(x->o) ? color : 0);
	}
	return s;
}

void sl_check_outs_next(sl_check_outs *s, const sl_findings *fs)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].rep && sl_report_findings_next(s->v[i].rep, fs))
			s->v[i].failed = 1;
}

/* sl_write_file_atomic's writer: a spool's bytes */
static int copy_spool(FILE *to, void *ud)
{
	FILE *from = ud;
	char chunk[1 << 16];
	size_t got;
	if (fflush(from) || fseek(from, 0, SEEK_SET))
		return -1;
	while ((got = fread(chunk, 1, sizeof chunk, from)) > 0)
		if (fwrite(chunk, 1, got, to) != got)
			return -1;
	return ferror(from) || ferror(to) ? -1 : 0;
}

int sl_check_outs_close(sl_check_outs *s, const sl_fixes *fixes)
{
	int rc = 0;
	for (size_t i = 0; i < s->n; i++) {
		out *x = &s->v[i];
		int bad = x->failed;
		if (x->f && x->rep) {
			bad |= sl_report_findings_end(x->rep) != 0;
			x->rep = NULL;
		} else if (x->f) {
			bad |= sl_fix_diff(x->f, fixes) != 0;
		}
		if (!to_stdout(x->o)) {
			if (bad || !x->f || sl_write_file_atomic(x->o->file, copy_spool, x->f)) {
				perror(x->o->file);
				rc = -1;
			}
		} else if (bad || (x->f != stdout && copy_spool(stdout, x->f))) {
			rc = -1;
		}
		if (x->f && x->f != stdout)
			fclose(x->f);
		x->f = NULL;
	}
	sl_check_outs_drop(s);
	return rc;
}

void sl_check_outs_drop(sl_check_outs *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++) {
		sl_report_findings_free(s->v[i].rep);
		if (s->v[i].f && s->v[i].f != stdout)
			fclose(s->v[i].f);
	}
	free(s->v);
	free(s);
}
