/*
 * where.c (report): a finding's place as the findings' formats write it
 * (findings_fmt.h): its file, without the prefix of the revision it was
 * read at, and the end column of its span.
 */
#include "findings_fmt.h"

#include <string.h>

/* The revision the findings were read at, while one report is written
 * (sl_report_findings_at); NULL: paths as they are. */
static const sl_report_vcs *vcs;

void sl_report_vcs_use(const sl_report_vcs *at)
{
	vcs = at;
}

const sl_report_vcs *sl_report_vcs_used(void)
{
	return vcs;
}

static const char *shown(const char *p)
{
	size_t n = vcs && vcs->prefix ? strlen(vcs->prefix) : 0;
	return n && !strncmp(p, vcs->prefix, n) ? p + n : p;
}

const char *sl_report_origin_path(const sl_origin *o)
{
	return o->src ? shown(o->src->path) : "-";
}

/* a finding's own place: its origin, or the file and line of one that
 * could not be read (no source to point into) */
const char *sl_report_finding_path(const sl_finding *f)
{
	return shown(sl_finding_file(f));
}

/* The end of a finding's span (exclusive column): its raw spelling's first
 * line when the text there is that spelling; else the token the place
 * starts (up to a blank, a quote, a bracket or a separator), so that
 * `--entrypoint vllm \` underlines `vllm` and `(vLLM 0.31.1,` `0.31.1`. */
unsigned sl_report_end_col(const sl_origin *o, unsigned col)
{
	const char *at = o->src && o->off < o->src->len ? o->src->text + o->off : NULL;
	size_t n = 0;
	if (o->raw && *o->raw) {
		while (o->raw[n] && o->raw[n] != '\n')
			n++;
		if (at && strncmp(at, o->raw, n))
			n = 0;  /* the place is not the spelling: the token there */
		else if (!at)
			at = o->raw;
	}
	if (!n && at)
		while (at[n] && !strchr(" \t\r\n,;()[]{}\"'`", at[n]))
			n++;
	unsigned w = 0;
	for (size_t i = 0; i < n; i++)
		if (((unsigned char)at[i] & 0xC0) != 0x80)
			w++;
	return col + (w ? w : 1);
}
