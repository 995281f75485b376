/*
 * report.h: the report stage: turning models into what people and tools
 * read. Every JSON document is built and written with jansson.
 */
#ifndef SL_REPORT_H
#define SL_REPORT_H

#include <stdio.h>
#include <jansson.h>
#include "../model/model.h"
#include "../check/check.h"
#include "../diff/diff.h"
#include "../plan/plan.h"

/* Every JSON document servelint writes (SARIF and hyperfine's layout
 * apart, which have theirs) starts with this member, the version of its
 * shape (docs/json.md): raised when a member changes meaning or goes. */
#define SL_JSON_VERSION_KEY "servelint_json"
#define SL_JSON_VERSION 1
/* A document: {"servelint_json": 1} followed by the members of doc (stolen;
 * may be NULL). A new reference. */
json_t *sl_report_json_doc(json_t *doc);

/* The model of one entry as JSON (the shape is documented in README.md).
 * Returns a new reference. */
json_t *sl_report_model_json(const sl_model *m);
/* Writes the model for a terminal; color adds ANSI colours. Returns 0, or -1
 * when writing failed. */
int sl_report_model_tty(FILE *f, const sl_model *m, int color);
/* An entry's memory and shape plan for a terminal (plan.c): the system,
 * the model and each worker's figures. Returns 0, or -1 when writing failed. */
int sl_report_plan_tty(FILE *f, const sl_entry_plan *p);
/* An origin as "file:line:col" (caller frees). */
char *sl_report_where(const sl_origin *o);

/* ---- findings ---------------------------------------------------------- */

typedef enum {
	SL_FMT_TTY, SL_FMT_GCC, SL_FMT_JSON, SL_FMT_SARIF, SL_FMT_GITHUB, SL_FMT_CHECKSTYLE,
} sl_format;

int sl_format_parse(const char *s, sl_format *out);

/* Writes findings (those at or above min) in a format to f. rules is the
 * whole catalogue (SARIF lists every rule). Returns 0, or -1 on a write error. */
int sl_report_findings(FILE *f, sl_format fmt, const sl_rules *rules, const sl_findings *fs,
		       sl_severity min, int color);

/* The same written as the findings come (check writes each entry's as it
 * is handed back, then frees them: memory flat in the input's size, issue
 * 18), byte for byte the report sl_report_findings writes of them all:
 * start (nothing is written yet), next for each run of findings in the
 * report's order (fs is borrowed for the call only; no finding is kept),
 * then end, which writes the rest (all of the report when next never ran)
 * and frees the report; free alone drops it, writing nothing more. next
 * and end return 0, or -1 on a write error. f is borrowed until then. */
typedef struct sl_findings_report sl_findings_report;
sl_findings_report *sl_report_findings_start(FILE *f, sl_format fmt, const sl_rules *rules, sl_severity min,
					     int color);
int sl_report_findings_next(sl_findings_report *r, const sl_findings *fs);
int sl_report_findings_end(sl_findings_report *r);
void sl_report_findings_free(sl_findings_report *r);

/* The revision findings were read at, for review's machine formats:
 * prefix ("HEAD:", as the sources are named) is left out of every path
 * (gcc, github, checkstyle, json, sarif; tty keeps it), so each is a
 * repository path; the revision goes in its own field: JSON's
 * "revision", SARIF's versionControlProvenance (when repository, its URI,
 * is known). All borrowed. */
typedef struct sl_report_vcs {
	const char *prefix;      /* "HEAD:" */
	const char *revision;    /* the commit's full id */
	const char *repository;  /* the repository's URI (its origin remote, else file://), or NULL */
} sl_report_vcs;

/* sl_report_findings with paths of a revision (at may be NULL). */
int sl_report_findings_at(FILE *f, sl_format fmt, const sl_rules *rules, const sl_findings *fs,
			  sl_severity min, int color, const sl_report_vcs *at);

/* A finding's place as "file:line:col", also of one with no source (an
 * entry that could not be read). Caller frees. */
char *sl_report_finding_where(const sl_finding *f);

/* One finding as the JSON format writes it (a new reference). */
json_t *sl_report_finding_json(const sl_finding *f);
/* One finding as the tty format writes it (sl_report_findings, SL_FMT_TTY). */
void sl_report_finding_tty(FILE *f, const sl_finding *f1, int color);
/* The terminal report's footer: per rule that fired (per_rule[i]: the
 * findings shown of rules' i-th), its count and summary, the fixable
 * count, and what was not checked (SL0004: unchecked settings, files the
 * entry does not hold; hidden: their findings are below --severity). */
void sl_report_tty_footer(FILE *out, const sl_rules *rules, const size_t *per_rule, size_t shown, size_t fixable,
			  size_t unchecked, size_t files, int hidden);

/* ---- findings put aside and written in order (spool.c) ----------------- */

/* A catalogue's findings rendered as they are made and put aside in a
 * store, then written in file order (sl_findings_sort's) by a merge of
 * sorted runs: audit's terminal report without every finding in memory.
 * Limits: SL_SPOOL_RUN bytes of records sorted in memory at a time, at
 * most SL_SPOOL_FANIN runs merged at once (each read SL_SPOOL_READ bytes
 * at a time); more runs are merged in passes. */
#define SL_SPOOL_RUN (512u * 1024u)
#define SL_SPOOL_FANIN 32
#define SL_SPOOL_READ (16u * 1024u)
typedef struct sl_findings_spool sl_findings_spool;

/* What a report says of the findings put aside (tty, severity style and up). */
typedef struct sl_findings_tally {
	size_t all;              /* every finding, the suppressed too */
	size_t sev[4];           /* those not suppressed, by severity */
	size_t suppressed, catalogue, fixable;
	size_t failing;          /* not suppressed, of a rule that is not advisory: exit 1 */
	size_t unchecked, unread_files;  /* SL0004's, of those not suppressed */
	size_t *by_rule;         /* not suppressed, per rule in the rules' order; the spool's */
} sl_findings_tally;

/* Appends f as a record (its sort key, counts and tty text) to pending:
 * thread-safe, f's sources need only live until it returns. */
void sl_findings_spool_render(sl_buf *pending, const sl_finding *f, int color);
/* A new spool putting its runs in st (not owned; it outlives the spool). */
sl_findings_spool *sl_findings_spool_new(sl_store *st, const sl_rules *rules);
/* Takes pending's records (made by sl_findings_spool_render), in order:
 * each later than every one taken before where their places tie. */
void sl_findings_spool_take(sl_findings_spool *s, const char *pending, size_t len);
/* Writes the last run and merges the runs down to SL_SPOOL_FANIN, so that
 * writing only reads: 0, or -1 when the store cannot be written. */
int sl_findings_spool_finish(sl_findings_spool *s);
const sl_findings_tally *sl_findings_spool_tally(const sl_findings_spool *s);
/* The findings in order and the footer, byte for byte sl_report_findings
 * (SL_FMT_TTY, SL_SEV_STYLE) of the same findings. 0, or -1 on a write or
 * store error. */
int sl_findings_spool_write(FILE *f, sl_findings_spool *s);
void sl_findings_spool_free(sl_findings_spool *s);

/* ---- a JSON document written an element at a time (json_stream.c) ------ */

/* A document whose one array is written element by element, each dumped
 * with jansson where the whole document's dump would write it, so that
 * only one element's values are held at a time: the bytes are those of
 * json_dumps(doc, flags) with the elements in the array. */
typedef struct sl_json_stream sl_json_stream;
/* doc and arr, an empty array in doc, are borrowed (a reference to doc is
 * kept: it is dumped whole at the end when no element was added; arr must
 * stay empty). NULL when doc cannot be dumped. */
sl_json_stream *sl_json_stream_new(json_t *doc, json_t *arr, size_t flags);
/* v (borrowed), the array's next element, to f: after the document's text
 * before it, or the separator. 0, or -1 (not dumpable, or a write error). */
int sl_json_stream_add(sl_json_stream *s, FILE *f, json_t *v);
/* The rest of the document to f (the whole of it when no element was
 * added), without a newline. 0, or -1 on a write error. */
int sl_json_stream_end(sl_json_stream *s, FILE *f);
void sl_json_stream_free(sl_json_stream *s);

/* ---- diffs ------------------------------------------------------------- */

/* A diff for a terminal (grouped by service, `key: old -> new`), as JSON,
 * or as markdown for a pull-request comment. name_a/name_b label the sides. */
/* The facts a diff or matrix key names, as members of o: `env NAME` gives
 * "env": {"name"}, `claim KEY [ROLE] (SOURCE)` gives "claim": {"key",
 * "role"?, "source"}; other keys add nothing. */
void sl_report_key_facts(json_t *o, const char *key);
/* The diff as a JSON document (a new reference), as --format json writes it. */
json_t *sl_report_diff_json(const sl_diff *d, const char *name_a, const char *name_b);
/* In a JSON document made from REV:path names, a "file" (or "a", "b")
 * that starts with r1: or r2: becomes the repository path and the revision
 * goes in a member beside it ("revision", "a_revision", "b_revision"), so
 * that no machine format glues the two. r1 or r2 may be NULL. */
void sl_report_json_split_revision(json_t *v, const char *r1, const char *r2);
int sl_report_diff(FILE *f, const char *format, const sl_diff *d, const char *name_a, const char *name_b,
		   int color);
/* The same; claims_note 0 leaves out the "claims changed (the command is
 * the same)" line, for a caller whose status label already says it. */
int sl_report_diff_noted(FILE *f, const char *format, const sl_diff *d, const char *name_a, const char *name_b,
			 int color, int claims_note);
/* Only claims differ (what the entry says of itself, comments and
 * metadata): what runs is the same. */
int sl_report_diff_claims_only(const sl_diff *d);

/* ---- matrices ---------------------------------------------------------- */

/* N entries side by side: format tty, markdown, csv or json; names label
 * the columns (m->ncols of them); all puts the same-everywhere rows in the
 * table too. Returns 0, or -1 on a write error. */
int sl_report_matrix(FILE *f, const char *format, const sl_matrix *m, char *const *names, int all, int color);

/* ---- catalogue audits (audit.c, html.c) -------------------------------- */

typedef struct sl_audit_entry {
	const sl_entry *entry;   /* not owned; NULL when the audit let it go (its path is then its
				  * summary's, which is in the store) */
	const sl_model *model;   /* not owned; NULL when the entry did not normalize */
	const char *llm;         /* the model it serves, as the catalogue names it; not owned, may be NULL */
	const char *system;      /* not owned, may be NULL */
	const char *name;        /* its label (a page's entry: as import would name it), or NULL:
				  * its path less the folders all entries share; not owned */
	/* sl_report_audit_entry_text of it, made while the model was there,
	 * kept in the audit's store (memory flat in the catalogue's size) at
	 * summary_at, summary_len bytes; summary_len 0: made from model */
	uint64_t summary_at;
	size_t summary_len;
	unsigned nfind[SL_SEV_ERROR + 1];  /* its findings by severity, not suppressed, when the
					    * audit's are spooled (sl_audit's spool) */
} sl_audit_entry;

/* What an audit entry's summary says of its model (m may be NULL: not
 * read), the report's id, name and finding counts aside, as compact JSON
 * text (the caller frees): sl_audit_entry's summary, so that the model can
 * be freed once the entry is read (text: a tenth of its jansson values). */
char *sl_report_audit_entry_text(const sl_entry *entry, const sl_model *m, const char *llm, const char *system);

/* The pairwise diffs a report keeps for a model of at most this many
 * entries (their number grows as the square: 48 entries, 1,128 pairs);
 * a model with more has none, and the HTML page says so. */
#define SL_AUDIT_MAX_DIFF_ENTRIES 48

/* The semantic diff of two entries of one model (a < b). */
typedef struct sl_audit_pair {
	size_t a, b;
	sl_diff diff;
} sl_audit_pair;

typedef struct sl_audit {
	const sl_audit_entry *entries; /* or NULL: each told by entry_at(ud, i, out), and common the
					* length of the folders every entry's path starts with (the
					* terminal's report: nothing held per entry but the audit's) */
	void (*entry_at)(const void *ud, size_t i, sl_audit_entry *out);
	const void *ud;
	size_t common;
	size_t n;
	const sl_rules *rules;
	const sl_findings *findings;   /* every finding, in file order */
	const size_t *finding_entry;   /* the entry of each finding (an index into entries) */
	const sl_audit_pair *pairs;
	size_t npairs;
	char *const *inputs;           /* the PATHs audited, as given (the HTML names them) */
	size_t ninputs;
	sl_store *store;               /* the entries' summaries (not owned); NULL when none is */
	/* the findings put aside (not owned): then findings holds none, and
	 * the terminal's report (the only format that reads a spool) counts
	 * and writes them from it; NULL: they are in findings */
	sl_findings_spool *spool;
} sl_audit;

/* The audit as JSON (a new reference): summary (entries, models, systems,
 * findings by severity and by rule), the matrix of models by systems (each
 * cell the entries there), each entry's summary (engine, version,
 * precision, parallelism per role, speculative decoding, GPUs used of
 * total, finding counts) and every finding. */
json_t *sl_report_audit_json(const sl_audit *a);
/* An audit entry's (of sl_report_audit_json) speculative decoding as text,
 * "dspark 5" (caller frees), or NULL when it has none. */
char *sl_report_audit_spec(json_t *entry);
/* The audit as format tty, markdown or json. Returns 0, or -1 on a write error. */
int sl_report_audit(FILE *f, const char *format, const sl_audit *a, int color);
/* The audit as one self-contained HTML page: inline CSS and a little
 * script, no network; its header names servelint's version, the date
 * (UTC; $SOURCE_DATE_EPOCH when set, for a reproducible page) and the
 * inputs. Returns 0, or -1 on a write error. */
int sl_report_audit_html(FILE *f, const sl_audit *a);

/* ---- entries touched between two revisions (touched.c) ----------------- */

/* On standard output: the status line (`changed: path`, markdown
 * `- **changed** `path``) and, for a change, the diff; md: markdown, else
 * tty. c and t are borrowed. */
void sl_report_touched(const sl_touched_cmp *c, const sl_touched *t, int md, int color);
/* The diff alone, for a change (statuses 0 and 4). */
void sl_report_touched_diff(const sl_touched_cmp *c, int md, int color);
/* The status as printed: sl_diff_touched_status, or "claims changed (the
 * command is the same)" (renamed, ...) when only claims differ. Static text. */
const char *sl_report_touched_label(const sl_touched_cmp *c);

#endif
