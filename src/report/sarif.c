/*
 * sarif.c (report): findings as a SARIF 2.1.0 log (GitHub code scanning),
 * written with jansson a result at a time (sl_json_stream): check writes
 * each entry's results as they are handed back and frees them (issue 18).
 * What the log needs of every result before it is kept: how many results
 * had each fingerprint's hash (its occurrence number), a hash and a count
 * in a table at most half full (32 bytes a result at most).
 */
#include "findings_fmt.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifndef SL_VERSION /* set by CMakeLists.txt from the project's version */
#define SL_VERSION "0.0.0"
#endif

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
	return sarif_location_at(sl_report_origin_path(w), l, c, sl_report_end_col(w, c), msg, id);
}

static json_t *sarif_flocation(const sl_finding *f)
{
	if (f->where.src || !f->file)
		return sarif_location(&f->where, NULL, -1);
	return sarif_location_at(sl_report_finding_path(f), f->line, f->col, f->col + 1, NULL, -1);
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

enum { NMEMO = 8 };

static uint64_t line_hash(const sl_finding *f, line_hash_memo *memo, size_t *next)
{
	unsigned l, c;
	sl_finding_pos(f, &l, &c);
	const char *fpath = sl_report_finding_path(f);
	/* the findings of one line (a flag repeated 3,000 times on it) hash the
	 * same text: once per rule and line, not the line's length each time */
	for (size_t i = 0; i < NMEMO; i++)
		if (memo[i].rule == f->rule && memo[i].src == f->where.src && memo[i].line == l &&
		    memo[i].path && !strcmp(memo[i].path, fpath))
			return memo[i].h;
	size_t len = 0;
	const char *line = f->where.src ? sl_source_line(f->where.src, l, &len) : "";
	uint64_t h = 1469598103934665603ull;
	const char *parts[] = {sl_rule_id(f->rule), fpath};
	for (size_t i = 0; i < 2; i++)
		for (const char *p = parts[i]; *p; p++)
			h = (h ^ (unsigned char)*p) * 1099511628211ull;
	for (size_t i = 0; i < len; i++)
		if (line[i] != ' ' && line[i] != '\t')
			h = (h ^ (unsigned char)line[i]) * 1099511628211ull;
	memo[*next] = (line_hash_memo){f->rule, fpath, f->where.src, l, h};
	*next = (*next + 1) % NMEMO;
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

/* How many results had each hash before: a table, as a scan of every
 * earlier hash made the results quadratic in their number. Open
 * addressing over the hash itself (FNV-1a's bits are spread already); a
 * count 0 is a free slot. sl_strmap would copy each 8-byte key into an
 * allocation of its own: 145 bytes a result, 2.9 MB over 20,000. */
typedef struct {
	uint64_t *hash;
	uint32_t *count;
	size_t cap, n;
} seen_table;

static size_t seen_slot(const seen_table *t, uint64_t h)
{
	size_t i = (size_t)(h ^ (h >> 32)) & (t->cap - 1);
	while (t->count[i] && t->hash[i] != h)
		i = (i + 1) & (t->cap - 1);
	return i;
}

/* The results with hash h so far, this one counted. */
static size_t seen_again(seen_table *t, uint64_t h)
{
	if (2 * (t->n + 1) > t->cap) {
		seen_table o = *t;
		t->cap = o.cap ? 2 * o.cap : 256;
		t->hash = sl_calloc(t->cap, sizeof *t->hash);
		t->count = sl_calloc(t->cap, sizeof *t->count);
		for (size_t i = 0; i < o.cap; i++)
			if (o.count[i]) {
				size_t j = seen_slot(t, o.hash[i]);
				t->hash[j] = o.hash[i];
				t->count[j] = o.count[i];
			}
		free(o.hash);
		free(o.count);
	}
	size_t i = seen_slot(t, h);
	if (!t->count[i]) {
		t->hash[i] = h;
		t->n++;
	}
	return ++t->count[i];
}

struct sl_report_sarif {
	const sl_rules *rules;
	sl_severity min;
	sl_json_stream *js;  /* the log, its results written as they come */
	seen_table seen;
};

sl_report_sarif *sl_report_sarif_new(const sl_rules *rules, sl_severity min)
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
	json_t *doc = json_pack("{s:s, s:s, s:[{s:{s:{s:s, s:s, s:s*, s:o}}, s:O}]}", "$schema",
				"https://json.schemastore.org/sarif-2.1.0.json", "version", "2.1.0", "runs", "tool",
				"driver", "name", "servelint", "version", SL_VERSION, "informationUri",
				*SL_DOCS_URL ? SL_DOCS_URL : NULL, "rules", rl, "results", results);
	const sl_report_vcs *vcs = sl_report_vcs_used();
	if (doc && vcs && vcs->revision && vcs->repository) {
		/* the revision the paths are of, in its own place */
		json_t *run = json_array_get(json_object_get(doc, "runs"), 0);
		json_object_set_new(run, "versionControlProvenance",
				    json_pack("[{s:s, s:s}]", "repositoryUri", vcs->repository, "revisionId",
					      vcs->revision));
	}
	sl_json_stream *js = doc ? sl_json_stream_new(doc, results, JSON_INDENT(2) | JSON_PRESERVE_ORDER) : NULL;
	json_decref(results);
	json_decref(doc);
	if (!js)
		return NULL;
	sl_report_sarif *s = sl_calloc(1, sizeof *s);
	s->rules = rules;
	s->min = min;
	s->js = js;
	return s;
}

/* One finding's result (a new reference), its hash's occurrence counted. */
static json_t *result(sl_report_sarif *s, const sl_finding *f, line_hash_memo *memo, size_t *memo_next)
{
	const sl_rules *rules = s->rules;
	uint64_t h = line_hash(f, memo, memo_next);
	size_t occurrence = seen_again(&s->seen, h);
	size_t idx = 0;
	while (idx < sl_rules_count(rules) && sl_rules_at(rules, idx) != f->rule)
		idx++;
	char *fp = fingerprint(h, occurrence);
	json_t *res = json_pack("{s:s, s:i, s:s, s:{s:s}, s:[o], s:{s:s}}", "ruleId", sl_rule_id(f->rule),
				"ruleIndex", (json_int_t)idx, "level", sarif_level(f->severity), "message",
				"text", f->message, "locations", sarif_flocation(f),
				"partialFingerprints", "primaryLocationLineHash", fp);
	free(fp);
	if (!res)
		return NULL;
	if (f->fix) {
		/* one artifactChange per file, its replacements in order */
		json_t *changes = json_array();
		for (size_t k = 0; k < f->nedits; k++) {
			const char *p = sl_report_origin_path(&(sl_origin){f->edits[k].src, 0, NULL});
			json_t *ch = NULL;
			for (size_t x = 0; x < json_array_size(changes) && !ch; x++) {
				json_t *c = json_array_get(changes, x);
				if (!strcmp(json_string_value(json_object_get(json_object_get(c, "artifactLocation"), "uri")),
					    p))
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
	return res;
}

int sl_report_sarif_add(sl_report_sarif *s, FILE *f, const sl_findings *fs)
{
	/* the memo points into these findings, which may go after this call */
	line_hash_memo memo[NMEMO] = {{0}};
	size_t memo_next = 0;
	int rc = 0;
	for (size_t i = 0; i < fs->n; i++) {
		if (fs->v[i].severity < s->min)
			continue;
		json_t *res = result(s, &fs->v[i], memo, &memo_next);
		/* a result jansson cannot make (a path not UTF-8) is left out,
		 * as the whole log's array left it */
		if (res && sl_json_stream_add(s->js, f, res))
			rc = -1;
		json_decref(res);
	}
	return rc;
}

int sl_report_sarif_end(sl_report_sarif *s, FILE *f)
{
	int rc = sl_json_stream_end(s->js, f);
	fputc('\n', f);
	return rc || ferror(f) ? -1 : 0;
}

void sl_report_sarif_free(sl_report_sarif *s)
{
	if (!s)
		return;
	sl_json_stream_free(s->js);
	free(s->seen.hash);
	free(s->seen.count);
	free(s);
}
