/*
 * findings.c (report): findings in the formats review tools read: tty (like
 * a compiler), gcc, JSON, SARIF 2.1.0 (GitHub code scanning), GitHub
 * workflow annotations, Checkstyle XML. JSON and SARIF are written with
 * jansson; Checkstyle is XML, escaped here.
 */
#include "report.h"

#include <stdlib.h>
#include <string.h>

#ifndef SL_VERSION /* set by CMakeLists.txt from the project's version */
#define SL_VERSION "0.0.0"
#endif

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

/* The end of a finding's span (exclusive column): its raw spelling's first
 * line when the text there is that spelling; else the token the place
 * starts (up to a blank, a quote, a bracket or a separator), so that
 * `--entrypoint vllm \` underlines `vllm` and `(vLLM 0.31.1,` `0.31.1`. */
static unsigned end_col(const sl_origin *o, unsigned col)
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

/* The revision the findings were read at, while one report is written
 * (sl_report_findings_at): its REV: prefix is left out of every path, so
 * machine formats carry repository paths, and the revision has its own
 * field. NULL: paths as they are. */
static const sl_report_vcs *vcs;

static const char *shown(const char *p)
{
	size_t n = vcs && vcs->prefix ? strlen(vcs->prefix) : 0;
	return n && !strncmp(p, vcs->prefix, n) ? p + n : p;
}

static const char *path_of(const sl_origin *o)
{
	return o->src ? shown(o->src->path) : "-";
}

/* a finding's own place: its origin, or the file and line of one that
 * could not be read (no source to point into) */
static const char *fpath(const sl_finding *f)
{
	return shown(sl_finding_file(f));
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

static const char *sarif_level(sl_severity s)
{
	return s == SL_SEV_ERROR ? "error" : s == SL_SEV_WARNING ? "warning" : "note";
}

static json_t *sarif_location_at(const char *path, unsigned l, unsigned c, unsigned e, const char *msg, int id)
{
	json_t *region = json_pack("{s:i, s:i, s:i, s:i}", "startLine", (json_int_t)l, "startColumn",
				   (json_int_t)c, "endLine", (json_int_t)l, "endColumn", (json_int_t)e);
	json_t *loc = json_pack("{s:{s:{s:s}, s:o}}", "physicalLocation", "artifactLocation", "uri",
				path, "region", region);
	if (msg)
		json_object_set_new(loc, "message", json_pack("{s:s}", "text", msg));
	if (id >= 0)
		json_object_set_new(loc, "id", json_integer(id));
	return loc;
}

static json_t *sarif_location(const sl_origin *w, const char *msg, int id)
{
	unsigned l, c;
	sl_origin_pos(w, &l, &c);
	return sarif_location_at(path_of(w), l, c, end_col(w, c), msg, id);
}

static json_t *sarif_flocation(const sl_finding *f)
{
	if (f->where.src || !f->file)
		return sarif_location(&f->where, NULL, -1);
	return sarif_location_at(fpath(f), f->line, f->col, f->col + 1, NULL, -1);
}

/* A fingerprint that survives lines moving: rule, file and the text of the
 * line (FNV-1a, 64 bits), as GitHub's primaryLocationLineHash; the same
 * hash again (the same rule on two lines of the same text) gets the next
 * occurrence number, `:2`, `:3`, so distinct results never share one. */
typedef struct {
	const sl_rule *rule;
	const char *path;
	const sl_source *src;
	unsigned line;
	uint64_t h;
} line_hash_memo;

static uint64_t line_hash(const sl_finding *f, line_hash_memo *memo, size_t nmemo, size_t *next)
{
	unsigned l, c;
	sl_finding_pos(f, &l, &c);
	/* the findings of one line (a flag repeated 3,000 times on it) hash the
	 * same text: once per rule and line, not the line's length each time */
	for (size_t i = 0; i < nmemo; i++)
		if (memo[i].rule == f->rule && memo[i].src == f->where.src && memo[i].line == l &&
		    memo[i].path && !strcmp(memo[i].path, fpath(f)))
			return memo[i].h;
	size_t len = 0;
	const char *line = f->where.src ? sl_source_line(f->where.src, l, &len) : "";
	uint64_t h = 1469598103934665603ull;
	const char *parts[] = {sl_rule_id(f->rule), fpath(f)};
	for (size_t i = 0; i < 2; i++)
		for (const char *p = parts[i]; *p; p++)
			h = (h ^ (unsigned char)*p) * 1099511628211ull;
	for (size_t i = 0; i < len; i++)
		if (line[i] != ' ' && line[i] != '\t')
			h = (h ^ (unsigned char)line[i]) * 1099511628211ull;
	memo[*next] = (line_hash_memo){f->rule, fpath(f), f->where.src, l, h};
	*next = (*next + 1) % nmemo;
	return h;
}

static char *fingerprint(uint64_t h, size_t occurrence)
{
	char buf[48];
	snprintf(buf, sizeof buf, "%016llx:%zu", (unsigned long long)h, occurrence);
	return sl_strdup(buf);
}

/* Where a rule is documented: its file in the repository, under
 * SL_DOCS_URL (a build setting, SERVELINT_DOCS_URL, by default the source
 * tree's git remote: cmake/docs_url.cmake), as
 * BASE/rules/SL1001-unknown-flag.yaml: ids are never renumbered and names
 * are stable, so the address is too (docs/rules.md). With no web address
 * (a build from a tarball, a clone with no remote), the same file in the
 * source tree the build was made from, as a file:// URI: SARIF wants an
 * absolute URI, and that file is there (never a made-up address). */
#ifndef SL_DOCS_URL
#define SL_DOCS_URL ""
#endif
#ifndef SL_SOURCE_DIR
#define SL_SOURCE_DIR ""
#endif
static char *help_uri(const sl_rule *r)
{
	sl_buf b = {0};
	if (*SL_DOCS_URL) {
		sl_buf_printf(&b, "%s/rules/%s-%s.yaml", SL_DOCS_URL, sl_rule_id(r), sl_rule_name(r));
		return sl_buf_detach(&b);
	}
	if (SL_SOURCE_DIR[0] != '/')
		return NULL;
	sl_buf_puts(&b, "file://");
	for (const char *p = SL_SOURCE_DIR; *p; p++) {
		unsigned char c = (unsigned char)*p;
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || strchr("/-._~", c))
			sl_buf_putc(&b, (char)c);
		else
			sl_buf_printf(&b, "%%%02X", c); /* RFC 3986: the rest percent-encoded */
	}
	sl_buf_printf(&b, "/rules/%s-%s.yaml", sl_rule_id(r), sl_rule_name(r));
	return sl_buf_detach(&b);
}

static json_t *sarif(const sl_rules *rules, const sl_findings *fs, sl_severity min)
{
	json_t *rl = json_array();
	for (size_t i = 0; i < sl_rules_count(rules); i++) {
		const sl_rule *r = sl_rules_at(rules, i);
		sl_buf help = {0};
		sl_buf_printf(&help, "%s\nBad:\n%s\nGood:\n%s", sl_rule_explanation(r), sl_rule_bad(r),
			      sl_rule_good(r));
		char *uri = help_uri(r);
		json_array_append_new(rl, json_pack("{s:s, s:s, s:{s:s}, s:{s:s}, s:s*, s:{s:s}, s:{s:s}}", "id",
						    sl_rule_id(r), "name", sl_rule_name(r), "shortDescription",
						    "text", sl_rule_summary(r), "fullDescription", "text",
						    sl_rule_explanation(r), "helpUri", uri, "help", "text", help.data,
						    "defaultConfiguration", "level",
						    sarif_level(sl_rule_severity(r))));
		free(uri);
		sl_buf_free(&help);
	}
	json_t *results = json_array();
	/* how many results had each hash before: a map, as a scan of every
	 * earlier hash made the results quadratic in their number */
	sl_strmap seen = {0};
	size_t *times = sl_calloc(fs->n + 1, sizeof *times), ntimes = 0;
	line_hash_memo memo[8] = {{0}};
	size_t memo_next = 0;
	for (size_t i = 0; i < fs->n; i++) {
		const sl_finding *f = &fs->v[i];
		if (f->severity < min)
			continue;
		uint64_t h = line_hash(f, memo, sizeof memo / sizeof *memo, &memo_next);
		size_t slot = sl_strmap_put(&seen, (const char *)&h, sizeof h, ntimes);
		if (slot == ntimes)
			ntimes++;
		size_t occurrence = ++times[slot];
		size_t idx = 0;
		while (idx < sl_rules_count(rules) && sl_rules_at(rules, idx) != f->rule)
			idx++;
		char *fp = fingerprint(h, occurrence);
		json_t *res = json_pack("{s:s, s:i, s:s, s:{s:s}, s:[o], s:{s:s}}", "ruleId", sl_rule_id(f->rule),
					"ruleIndex", (json_int_t)idx, "level", sarif_level(f->severity), "message",
					"text", f->message, "locations", sarif_flocation(f),
					"partialFingerprints", "primaryLocationLineHash", fp);
		free(fp);
		if (f->fix) {
			/* one artifactChange per file, its replacements in order */
			json_t *changes = json_array();
			for (size_t k = 0; k < f->nedits; k++) {
				const char *p = path_of(&(sl_origin){f->edits[k].src, 0, NULL});
				json_t *ch = NULL;
				for (size_t x = 0; x < json_array_size(changes) && !ch; x++) {
					json_t *c = json_array_get(changes, x);
					if (!strcmp(json_string_value(json_object_get(
							    json_object_get(c, "artifactLocation"), "uri")), p))
						ch = c;
				}
				if (!ch) {
					ch = json_pack("{s:{s:s}, s:[]}", "artifactLocation", "uri", p, "replacements");
					json_array_append_new(changes, ch);
				}
				unsigned l, c, el, ec;
				sl_fix_span(&f->edits[k], &l, &c, &el, &ec);
				json_array_append_new(json_object_get(ch, "replacements"),
						      json_pack("{s:{s:i, s:i, s:i, s:i}, s:{s:s}}", "deletedRegion",
								"startLine", (json_int_t)l, "startColumn", (json_int_t)c,
								"endLine", (json_int_t)el, "endColumn", (json_int_t)ec,
								"insertedContent", "text", f->edits[k].text));
			}
			json_object_set_new(res, "fixes", json_pack("[{s:{s:s}, s:o}]", "description", "text", f->fix,
								     "artifactChanges", changes));
		}
		if (f->suppressed) {
			/* SARIF keeps suppressed results, marked (GitHub hides them) */
			json_t *sup = json_pack("{s:s}", "kind", "inSource");
			if (f->justification)
				json_object_set_new(sup, "justification", json_string(f->justification));
			json_object_set_new(res, "suppressions", json_pack("[o]", sup));
		}
		if (f->nrelated) {
			json_t *rel = json_array();
			for (size_t k = 0; k < f->nrelated; k++)
				json_array_append_new(rel, sarif_location(&f->related[k], f->related_msg[k], (int)k + 1));
			json_object_set_new(res, "relatedLocations", rel);
		}
		json_array_append_new(results, res);
	}
	sl_strmap_free(&seen);
	free(times);
	json_t *doc = json_pack("{s:s, s:s, s:[{s:{s:{s:s, s:s, s:s*, s:o}}, s:o}]}", "$schema",
				"https://json.schemastore.org/sarif-2.1.0.json", "version", "2.1.0", "runs", "tool",
				"driver", "name", "servelint", "version", SL_VERSION, "informationUri",
				*SL_DOCS_URL ? SL_DOCS_URL : NULL, "rules", rl, "results", results);
	if (vcs && vcs->revision && vcs->repository) {
		/* the revision the paths are of, in its own place */
		json_t *run = json_array_get(json_object_get(doc, "runs"), 0);
		json_object_set_new(run, "versionControlProvenance",
				    json_pack("[{s:s, s:s}]", "repositoryUri", vcs->repository, "revisionId",
					      vcs->revision));
	}
	return doc;
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

static void checkstyle(FILE *out, const sl_findings *fs, sl_severity min)
{
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<checkstyle version=\"4.3\">\n", out);
	const char *open = NULL;
	for (size_t i = 0; i < fs->n; i++) {
		const sl_finding *f = &fs->v[i];
		if (f->severity < min || f->suppressed)
			continue;
		const char *p = fpath(f);
		if (!open || strcmp(open, p)) {
			if (open)
				fputs("  </file>\n", out);
			fputs("  <file name=\"", out);
			xml_escape(out, p);
			fputs("\">\n", out);
			open = p;
		}
		unsigned l, c;
		sl_finding_pos(f, &l, &c);
		const char *sev = f->severity == SL_SEV_ERROR ? "error" : f->severity == SL_SEV_WARNING ? "warning" : "info";
		fprintf(out, "    <error line=\"%u\" column=\"%u\" severity=\"%s\" message=\"", l, c, sev);
		xml_escape(out, f->message);
		fprintf(out, "\" source=\"servelint.%s\"/>\n", sl_rule_id(f->rule));
	}
	if (open)
		fputs("  </file>\n", out);
	fputs("</checkstyle>\n", out);
}

/* ---- dispatch ---------------------------------------------------------------------------- */

static int report_findings(FILE *out, sl_format fmt, const sl_rules *rules, const sl_findings *fs,
			   sl_severity min, int color);

int sl_report_findings(FILE *out, sl_format fmt, const sl_rules *rules, const sl_findings *fs,
		       sl_severity min, int color)
{
	return report_findings(out, fmt, rules, fs, min, color);
}

int sl_report_findings_at(FILE *out, sl_format fmt, const sl_rules *rules, const sl_findings *fs,
			  sl_severity min, int color, const sl_report_vcs *at)
{
	vcs = fmt == SL_FMT_TTY ? NULL : at;  /* a terminal keeps REV: in its paths */
	int rc = report_findings(out, fmt, rules, fs, min, color);
	vcs = NULL;
	return rc;
}

static int report_findings(FILE *out, sl_format fmt, const sl_rules *rules, const sl_findings *fs,
			   sl_severity min, int color)
{
	if (fmt == SL_FMT_JSON || fmt == SL_FMT_SARIF) {
		json_t *doc;
		if (fmt == SL_FMT_SARIF) {
			doc = sarif(rules, fs, min);
		} else {
			json_t *arr = json_array();
			for (size_t i = 0; i < fs->n; i++)
				if (fs->v[i].severity >= min && !fs->v[i].suppressed)
					json_array_append_new(arr, one_json(&fs->v[i]));
			doc = sl_report_json_doc(json_pack("{s:o}", "findings", arr));
			if (vcs && vcs->revision)
				json_object_set_new(doc, "revision", json_string(vcs->revision));
		}
		int rc = json_dumpf(doc, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		json_decref(doc);
		fputc('\n', out);
		return rc || ferror(out) ? -1 : 0;
	}
	if (fmt == SL_FMT_CHECKSTYLE) {
		checkstyle(out, fs, min);
		return ferror(out) ? -1 : 0;
	}
	size_t shown = 0, fixable = 0;
	for (size_t i = 0; i < fs->n; i++) {
		const sl_finding *f = &fs->v[i];
		if (f->severity < min || f->suppressed)
			continue;
		shown++;
		fixable += f->fix != NULL;
		if (fmt == SL_FMT_GCC)
			one_gcc(out, f);
		else if (fmt == SL_FMT_GITHUB)
			one_github(out, f);
		else
			one_tty(out, f, color);
	}
	if (fmt == SL_FMT_TTY && shown) {
		/* a footer: each rule that fired, with its summary */
		fputc('\n', out);
		int wn = 0;
		for (int pass = 0; pass < 2; pass++)
			for (size_t r = 0; r < sl_rules_count(rules); r++) {
				const sl_rule *ru = sl_rules_at(rules, r);
				size_t k = 0;
				for (size_t i = 0; i < fs->n; i++)
					k += fs->v[i].rule == ru && fs->v[i].severity >= min && !fs->v[i].suppressed;
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
	if (fmt == SL_FMT_TTY) {
		/* what was not checked, even when its findings are below
		 * --severity: no report reads as clean when it was not */
		size_t unchecked = 0, files = 0, hidden = 0;
		for (size_t i = 0; i < fs->n; i++)
			if (!fs->v[i].suppressed) {
				unchecked += fs->v[i].unchecked;
				files += fs->v[i].unread_files;
				hidden += (fs->v[i].unchecked || fs->v[i].unread_files) && fs->v[i].severity < min;
			}
		if (unchecked)
			fprintf(out, "%zu setting%s not checked, %s value%s unknown to the script", unchecked,
				unchecked == 1 ? " was" : "s were", unchecked == 1 ? "its" : "their", unchecked == 1 ? "" : "s");
		/* a config file a service names and the entry does not hold:
		 * none of its settings was checked */
		if (files)
			fprintf(out, "%s%zu config file%s the entry does not hold%s", unchecked ? ", nor the settings of " : "The settings of ",
				files, files == 1 ? "" : "s", unchecked ? "" : " were not checked");
		if (unchecked || files)
			fprintf(out, " (SL0004%s).\n", hidden ? ", below --severity" : unchecked ? "; bind with --set NAME=VALUE" : "");
	}
	return ferror(out) ? -1 : 0;
}
