/*
 * findings.c (report): findings in the formats review tools read: tty (like
 * a compiler), gcc, JSON, SARIF 2.1.0 (GitHub code scanning; sarif.c),
 * GitHub workflow annotations, Checkstyle XML. JSON and SARIF are written
 * with jansson, an element at a time (json_stream.c); Checkstyle is XML,
 * escaped here. A report is written as its findings come
 * (sl_report_findings_start, _next, _end): what its end says of all of
 * them (tty's counts per rule, checkstyle's open <file>) is counted as they
 * go, so that check keeps no finding once written (issue 18).
 */
#include "findings_fmt.h"

#include <stdlib.h>
#include <string.h>

int sl_format_parse(const char *s, sl_format *out)
{
	static const struct { const char *n; sl_format f; } t[] = {
		{"tty", SL_FMT_TTY}, {"gcc", SL_FMT_GCC}, {"json", SL_FMT_JSON}, {"sarif", SL_FMT_SARIF},
		{"github", SL_FMT_GITHUB}, {"checkstyle", SL_FMT_CHECKSTYLE},
	};
	for (size_t i = 0; i < sizeof t / sizeof *t; i++)
		if (!strcmp(s, t[i].n)) {
			*out = t[i].f;
			return 0;
		}
	return -1;
}

static unsigned end_col(const sl_origin *o, unsigned col)
{
	return sl_report_end_col(o, col);
}

static const char *path_of(const sl_origin *o)
{
	return sl_report_origin_path(o);
}

static const char *fpath(const sl_finding *f)
{
	return sl_report_finding_path(f);
}

/* ---- tty, gcc --------------------------------------------------------------------- */

/* The byte offset of 1-based column col in a line of len bytes (columns
 * count code points), clamped to len. */
static size_t col_byte(const char *line, size_t len, unsigned col)
{
	size_t i = 0;
	for (unsigned c = 1; i < len && c < col; c++)
		do
			i++;
		while (i < len && ((unsigned char)line[i] & 0xC0) == 0x80);
	return i;
}

/* The widest source line shown whole; a longer one is cut around the
 * finding's columns, with an ellipsis where text is left out (as gcc and
 * rustc do). */
enum { SL_TTY_LINE = 200, SL_TTY_CONTEXT = 60 };

/* Text of the input (a path, a message quoting a flag, a source line) goes
 * out with its control characters visible (sl_fput_visible): a terminal
 * escape in a flag must not reach the reader's terminal. */
static void one_tty(FILE *out, const sl_finding *f, int color)
{
	static const char *const col_of[] = {"\033[36m", "\033[34m", "\033[33m", "\033[31m"};
	unsigned l, c;
	sl_finding_pos(f, &l, &c);
	fputs(color ? "\033[1m" : "", out);
	sl_fputs_visible(out, fpath(f));
	fprintf(out, ":%u:%u:%s %s%s:%s ", l, c, color ? "\033[0m" : "", color ? col_of[f->severity] : "",
		sl_severity_name(f->severity), color ? "\033[0m" : "");
	sl_fputs_visible(out, f->message);
	fprintf(out, " [%s]\n", sl_rule_id(f->rule));
	if (f->where.src) {
		size_t len;
		const char *line = sl_source_line(f->where.src, l, &len);
		unsigned width = 0;
		for (size_t i = 0; i < len; i++)
			width += ((unsigned char)line[i] & 0xC0) != 0x80;
		unsigned e = end_col(&f->where, c);
		if (e > width + 1)
			e = width + 1 > c ? width + 1 : c + 1;  /* never past the line's end */
		/* the columns shown: [from, to) */
		unsigned from = 1, to = width + 1;
		if (width > SL_TTY_LINE) {
			unsigned span = e - c > SL_TTY_LINE - 2 * SL_TTY_CONTEXT ? SL_TTY_LINE - 2 * SL_TTY_CONTEXT : e - c;
			from = c > SL_TTY_CONTEXT ? c - SL_TTY_CONTEXT : 1;
			to = c + span + SL_TTY_CONTEXT < width + 1 ? c + span + SL_TTY_CONTEXT : width + 1;
			if (e > to)
				e = to;
		}
		size_t b0 = col_byte(line, len, from), b1 = col_byte(line, len, to);
		const char *pre = from > 1 ? "..." : "", *post = to <= width ? "..." : "";
		fprintf(out, "%5u | %s", l, pre);
		sl_fput_visible(out, line + b0, b1 - b0);
		fprintf(out, "%s\n      | %*s", post, (int)(strlen(pre) + (c - from)), "");
		fputs(color ? col_of[f->severity] : "", out);
		for (unsigned k = c; k < e; k++)
			fputc(k == c ? '^' : '~', out);
		fprintf(out, "%s\n", color ? "\033[0m" : "");
	}
	if (f->hint) {
		fputs("      = did you mean `", out);
		sl_fputs_visible(out, f->hint);
		fputs("`?\n", out);
	}
	/* a finding `check --fix` corrects says how, as rustc's `= help:`
	 * and clippy's suggestions do */
	if (f->fix) {
		fputs("      = fix: ", out);
		sl_fputs_visible(out, f->fix);
		fputc('\n', out);
	}
	for (size_t k = 0; k < f->nrelated; k++) {
		unsigned rl, rc;
		sl_origin_pos(&f->related[k], &rl, &rc);
		fputs("  ", out);
		sl_fputs_visible(out, path_of(&f->related[k]));
		fprintf(out, ":%u:%u: note: ", rl, rc);
		sl_fputs_visible(out, f->related_msg[k]);
		fputc('\n', out);
	}
}

void sl_report_finding_tty(FILE *out, const sl_finding *f, int color)
{
	one_tty(out, f, color);
}

static void one_gcc(FILE *out, const sl_finding *f)
{
	unsigned l, c;
	sl_finding_pos(f, &l, &c);
	/* gcc's levels: error, warning, note (info and style) */
	const char *lvl = f->severity == SL_SEV_ERROR ? "error" : f->severity == SL_SEV_WARNING ? "warning" : "note";
	sl_fputs_visible(out, fpath(f));
	fprintf(out, ":%u:%u: %s: ", l, c, lvl);
	sl_fputs_visible(out, f->message);
	fprintf(out, " [%s]\n", sl_rule_id(f->rule));
}

/* ---- JSON, SARIF ---------------------------------------------------------------------- */

static json_t *loc_json(const sl_origin *w)
{
	unsigned l, c;
	sl_origin_pos(w, &l, &c);
	if (!w->src)
		return json_null();
	return json_pack("{s:s, s:i, s:i, s:i}", "file", path_of(w), "line", (json_int_t)l, "col",
			 (json_int_t)c, "end_col", (json_int_t)end_col(w, c));
}

/* a finding's place; one with no source has its file, line and column */
static json_t *floc_json(const sl_finding *f)
{
	if (f->where.src || !f->file)
		return loc_json(&f->where);
	return json_pack("{s:s, s:i, s:i, s:i}", "file", fpath(f), "line", (json_int_t)f->line, "col",
			 (json_int_t)f->col, "end_col", (json_int_t)f->col + 1);
}

static json_t *one_json(const sl_finding *f)
{
	json_t *o = json_pack("{s:s, s:s, s:s, s:s, s:o}", "rule", sl_rule_id(f->rule), "name",
			      sl_rule_name(f->rule), "severity", sl_severity_name(f->severity), "message",
			      f->message, "location", floc_json(f));
	json_t *rel = json_array();
	for (size_t k = 0; k < f->nrelated; k++)
		json_array_append_new(rel, json_pack("{s:s, s:o}", "message", f->related_msg[k], "location",
						     loc_json(&f->related[k])));
	json_object_set_new(o, "related", rel);
	if (f->entry)
		json_object_set_new(o, "entry", json_string(f->entry));
	if (f->hint)
		json_object_set_new(o, "did_you_mean", json_string(f->hint));
	if (f->fix) {
		/* the replacements, as ShellCheck's json1 gives them: start and
		 * end (exclusive) line and column, in the file's positions */
		json_t *reps = json_array();
		for (size_t k = 0; k < f->nedits; k++) {
			unsigned l, c, el, ec;
			sl_fix_span(&f->edits[k], &l, &c, &el, &ec);
			json_array_append_new(reps, json_pack("{s:s, s:i, s:i, s:i, s:i, s:s}", "file",
							      path_of(&(sl_origin){f->edits[k].src, 0, NULL}), "line",
							      (json_int_t)l, "col", (json_int_t)c, "end_line",
							      (json_int_t)el, "end_col", (json_int_t)ec, "replacement",
							      f->edits[k].text));
		}
		json_object_set_new(o, "fix_description", json_string(f->fix));
		json_object_set_new(o, "replacements", reps);
		/* the first form of a fix (JSON format 1), kept for one
		 * replacement on one line of the finding's own file */
		unsigned l, c, el, ec;
		sl_fix_span(&f->edits[0], &l, &c, &el, &ec);
		if (f->nedits == 1 && l == el && f->edits[0].src == f->where.src)
			json_object_set_new(o, "fix", json_pack("{s:i, s:i, s:i, s:s}", "line", (json_int_t)l, "col",
								(json_int_t)c, "end_col", (json_int_t)ec, "replacement",
								f->edits[0].text));
	}
	return o;
}

char *sl_report_finding_where(const sl_finding *f)
{
	unsigned l, c;
	sl_finding_pos(f, &l, &c);
	sl_buf b = {0};
	sl_buf_printf(&b, "%s:%u:%u", sl_finding_file(f), l, c);
	return sl_buf_detach(&b);
}

json_t *sl_report_finding_json(const sl_finding *f)
{
	return one_json(f);
}

/* ---- GitHub annotations, Checkstyle ----------------------------------------------------- */

/* workflow-command escaping: data escapes %, CR, LF; properties also : and , */
static void gh_escape(FILE *out, const char *s, int property)
{
	for (; *s; s++) {
		if (*s == '%')
			fputs("%25", out);
		else if (*s == '\r')
			fputs("%0D", out);
		else if (*s == '\n')
			fputs("%0A", out);
		else if (property && *s == ':')
			fputs("%3A", out);
		else if (property && *s == ',')
			fputs("%2C", out);
		else
			fputc(*s, out);
	}
}

static void one_github(FILE *out, const sl_finding *f)
{
	unsigned l, c;
	sl_finding_pos(f, &l, &c);
	const char *cmd = f->severity == SL_SEV_ERROR ? "error" : f->severity == SL_SEV_WARNING ? "warning" : "notice";
	fprintf(out, "::%s file=", cmd);
	gh_escape(out, fpath(f), 1);
	fprintf(out, ",line=%u,col=%u,endLine=%u,endColumn=%u,title=", l, c, l, f->where.src ? end_col(&f->where, c) : c + 1);
	gh_escape(out, sl_rule_id(f->rule), 1);
	fputs("::", out);
	gh_escape(out, f->message, 0);
	fputc('\n', out);
}

/* An attribute value: markup escaped; tab, LF and CR as character
 * references (attribute normalization would make them spaces); the other
 * C0 characters and DEL, which XML 1.0 cannot hold at all, as visible text
 * (\x1b), so that the document stays well-formed. */
static void xml_escape(FILE *out, const char *s)
{
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		switch (*s) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&apos;", out); break;
		case '\t': fputs("&#9;", out); break;
		case '\n': fputs("&#10;", out); break;
		case '\r': fputs("&#13;", out); break;
		default:
			if (ch < 0x20 || ch == 0x7f)
				fprintf(out, "\\x%02x", ch);
			else
				fputc(*s, out);
		}
	}
}

/* Checkstyle groups the findings of one file (consecutive ones of one
 * path) in a <file> element: the one open is kept across calls. */
static void checkstyle_one(FILE *out, const sl_finding *f, char **open)
{
	const char *p = fpath(f);
	if (!*open || strcmp(*open, p)) {
		if (*open)
			fputs("  </file>\n", out);
		fputs("  <file name=\"", out);
		xml_escape(out, p);
		fputs("\">\n", out);
		free(*open);
		*open = sl_strdup(p);
	}
	unsigned l, c;
	sl_finding_pos(f, &l, &c);
	const char *sev = f->severity == SL_SEV_ERROR ? "error" : f->severity == SL_SEV_WARNING ? "warning" : "info";
	fprintf(out, "    <error line=\"%u\" column=\"%u\" severity=\"%s\" message=\"", l, c, sev);
	xml_escape(out, f->message);
	fprintf(out, "\" source=\"servelint.%s\"/>\n", sl_rule_id(f->rule));
}

/* ---- a report written as its findings come ------------------------------------------------ */

/* What a report keeps between its findings: the text before them and
 * after them, and what its end says of all of them (tty's footer of
 * counts, checkstyle's open file, SARIF's fingerprints' occurrences). No
 * finding is kept: check frees each entry's once they are written. */
struct sl_findings_report {
	FILE *out;
	sl_format fmt;
	const sl_rules *rules;
	sl_severity min;
	int color;
	const sl_report_vcs *at;  /* borrowed; NULL: paths as they are */
	int started;              /* the text before the findings is written */
	int failed;               /* a finding could not be written */
	sl_json_stream *json;
	sl_report_sarif *sarif;
	char *open;               /* checkstyle: the path of the <file> open, or NULL */
	/* tty's footer: the findings shown of each rule (by its index), those
	 * with a fix; and what was not checked (SL0004's counts) */
	size_t *per_rule;
	size_t shown, fixable, unchecked, files, hidden;
};

static sl_findings_report *report_new(FILE *out, sl_format fmt, const sl_rules *rules, sl_severity min,
				      int color, const sl_report_vcs *at)
{
	sl_findings_report *r = sl_calloc(1, sizeof *r);
	r->out = out;
	r->fmt = fmt;
	r->rules = rules;
	r->min = min;
	r->color = color;
	r->at = fmt == SL_FMT_TTY ? NULL : at;  /* a terminal keeps REV: in its paths */
	sl_report_vcs_use(r->at);
	if (fmt == SL_FMT_JSON) {
		json_t *arr = json_array();
		json_t *doc = sl_report_json_doc(json_pack("{s:O}", "findings", arr));
		if (r->at && r->at->revision)
			json_object_set_new(doc, "revision", json_string(r->at->revision));
		r->json = sl_json_stream_new(doc, arr, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		json_decref(arr);
		json_decref(doc);
		r->failed = !r->json;
	} else if (fmt == SL_FMT_SARIF) {
		r->failed = !(r->sarif = sl_report_sarif_new(rules, min));
	} else if (fmt == SL_FMT_TTY) {
		r->per_rule = sl_calloc(sl_rules_count(rules) + 1, sizeof *r->per_rule);
	}
	sl_report_vcs_use(NULL);
	return r;
}

sl_findings_report *sl_report_findings_start(FILE *out, sl_format fmt, const sl_rules *rules, sl_severity min,
					     int color)
{
	return report_new(out, fmt, rules, min, color, NULL);
}

/* What comes before the findings (the XML declaration), once. JSON's and
 * SARIF's head is their stream's, written with their first element. */
static void report_begin(sl_findings_report *r)
{
	if (r->started)
		return;
	r->started = 1;
	if (r->fmt == SL_FMT_CHECKSTYLE)
		fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<checkstyle version=\"4.3\">\n", r->out);
}

int sl_report_findings_next(sl_findings_report *r, const sl_findings *fs)
{
	FILE *out = r->out;
	sl_report_vcs_use(r->at);
	report_begin(r);
	if (r->fmt == SL_FMT_SARIF && r->sarif && sl_report_sarif_add(r->sarif, out, fs))
		r->failed = 1;
	for (size_t i = 0; i < fs->n && r->fmt != SL_FMT_SARIF; i++) {
		const sl_finding *f = &fs->v[i];
		if (r->fmt == SL_FMT_TTY && !f->suppressed) {
			/* what was not checked counts even below --severity */
			r->unchecked += f->unchecked;
			r->files += f->unread_files;
			r->hidden += (f->unchecked || f->unread_files) && f->severity < r->min;
		}
		if (f->severity < r->min || f->suppressed)
			continue;
		if (r->fmt == SL_FMT_JSON) {
			json_t *o = one_json(f);
			/* a finding jansson cannot make (a path not UTF-8) is left
			 * out, as the whole document's array left it */
			if (o && r->json && sl_json_stream_add(r->json, out, o))
				r->failed = 1;
			json_decref(o);
			continue;
		}
		if (r->fmt == SL_FMT_CHECKSTYLE) {
			checkstyle_one(out, f, &r->open);
			continue;
		}
		r->shown++;
		r->fixable += f->fix != NULL;
		if (r->fmt == SL_FMT_GCC) {
			one_gcc(out, f);
		} else if (r->fmt == SL_FMT_GITHUB) {
			one_github(out, f);
		} else {
			one_tty(out, f, r->color);
			size_t k = 0;
			while (k < sl_rules_count(r->rules) && sl_rules_at(r->rules, k) != f->rule)
				k++;
			r->per_rule[k]++;
		}
	}
	sl_report_vcs_use(NULL);
	return r->failed || ferror(out) ? -1 : 0;
}

void sl_report_tty_footer(FILE *out, const sl_rules *rules, const size_t *per_rule, size_t shown, size_t fixable,
			  size_t unchecked, size_t files, int hidden)
{
	if (shown) {
		fputc('\n', out);
		int wn = 0;
		for (int pass = 0; pass < 2; pass++)
			for (size_t i = 0; i < sl_rules_count(rules); i++) {
				const sl_rule *ru = sl_rules_at(rules, i);
				size_t k = per_rule[i];
				if (k && !pass && (int)strlen(sl_rule_name(ru)) > wn)
					wn = (int)strlen(sl_rule_name(ru));
				else if (k && pass)
					fprintf(out, "%s %-*s %zu: %s\n", sl_rule_id(ru), wn, sl_rule_name(ru), k,
						sl_rule_summary(ru));
			}
		if (fixable)
			fprintf(out, "%zu fixable: `servelint check --fix` corrects %s in place, `--format diff` shows the patch.\n",
				fixable, fixable == 1 ? "it" : "them");
		fputs("`servelint rules ID` explains a rule.\n", out);
	}
	/* what was not checked, even when its findings are below --severity:
	 * no report reads as clean when it was not */
	if (unchecked)
		fprintf(out, "%zu setting%s not checked, %s value%s unknown to the script", unchecked,
			unchecked == 1 ? " was" : "s were", unchecked == 1 ? "its" : "their", unchecked == 1 ? "" : "s");
	/* a config file a service names and the entry does not hold: none of
	 * its settings was checked */
	if (files)
		fprintf(out, "%s%zu config file%s the entry does not hold%s", unchecked ? ", nor the settings of " : "The settings of ",
			files, files == 1 ? "" : "s", unchecked ? "" : " were not checked");
	if (unchecked || files)
		fprintf(out, " (SL0004%s).\n", hidden ? ", below --severity" : unchecked ? "; bind with --set NAME=VALUE" : "");
}

/* tty's end: each rule that fired, with its summary, and what was not
 * checked */
static void tty_footer(sl_findings_report *r)
{
	sl_report_tty_footer(r->out, r->rules, r->per_rule, r->shown, r->fixable, r->unchecked, r->files, r->hidden != 0);
}

int sl_report_findings_end(sl_findings_report *r)
{
	FILE *out = r->out;
	sl_report_vcs_use(r->at);
	report_begin(r);
	if (r->fmt == SL_FMT_JSON || r->fmt == SL_FMT_SARIF) {
		if (r->fmt == SL_FMT_SARIF ? r->sarif && sl_report_sarif_end(r->sarif, out)
					   : r->json && sl_json_stream_end(r->json, out))
			r->failed = 1;
		if (r->fmt == SL_FMT_JSON)
			fputc('\n', out);
	} else if (r->fmt == SL_FMT_CHECKSTYLE) {
		if (r->open)
			fputs("  </file>\n", out);
		fputs("</checkstyle>\n", out);
	} else if (r->fmt == SL_FMT_TTY) {
		tty_footer(r);
	}
	sl_report_vcs_use(NULL);
	int rc = r->failed || ferror(out) ? -1 : 0;
	sl_report_findings_free(r);
	return rc;
}

void sl_report_findings_free(sl_findings_report *r)
{
	if (!r)
		return;
	sl_json_stream_free(r->json);
	sl_report_sarif_free(r->sarif);
	free(r->open);
	free(r->per_rule);
	free(r);
}

/* ---- a report of findings all at hand ------------------------------------------------------ */

static int report_findings(FILE *out, sl_format fmt, const sl_rules *rules, const sl_findings *fs,
			   sl_severity min, int color, const sl_report_vcs *at)
{
	sl_findings_report *r = report_new(out, fmt, rules, min, color, at);
	int rc = sl_report_findings_next(r, fs);
	return sl_report_findings_end(r) || rc ? -1 : 0;
}

int sl_report_findings(FILE *out, sl_format fmt, const sl_rules *rules, const sl_findings *fs,
		       sl_severity min, int color)
{
	return report_findings(out, fmt, rules, fs, min, color, NULL);
}

int sl_report_findings_at(FILE *out, sl_format fmt, const sl_rules *rules, const sl_findings *fs,
			  sl_severity min, int color, const sl_report_vcs *at)
{
	return report_findings(out, fmt, rules, fs, min, color, at);
}
