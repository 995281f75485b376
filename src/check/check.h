/*
 * check.h: the check stage, its whole interface. Rules are data (rules/ (one YAML file each),
 * embedded at build time, or $SERVELINT_RULES): an id, a name, a severity,
 * a summary, an explanation, a bad and a good example, and a check written
 * in a small vocabulary over canonical keys, claims and roles. Checks that
 * cannot be said that way are named C functions, still with a rule file.
 *
 * Ownership: sl_rules and sl_findings own everything they point to. A
 * finding's origins point into the entry's sources: free findings first.
 */
#ifndef SL_CHECK_H
#define SL_CHECK_H

#include <stdint.h>
#include "../model/model.h"
#include "../entry/entry.h"

typedef enum { SL_SEV_STYLE, SL_SEV_INFO, SL_SEV_WARNING, SL_SEV_ERROR } sl_severity;

typedef struct sl_rule sl_rule;
typedef struct sl_rules sl_rules;

/* One replacement of a fix: len bytes of src's text at off (the text as
 * written there, which the fix was made against) become text. */
typedef struct sl_edit {
	const sl_source *src;  /* not owned */
	uint32_t off, len;
	char *text;            /* owned */
} sl_edit;

typedef struct sl_finding {
	const sl_rule *rule;     /* not owned */
	sl_severity severity;
	char *message;           /* owned */
	sl_origin where;         /* primary location */
	sl_origin *related;      /* other places the message names; owned */
	char **related_msg;      /* owned */
	size_t nrelated;
	char *hint;              /* "did you mean", or NULL; owned */
	/* a certain fix (fix.c applies it): what it does ("replace
	 * `--tensor-paralel-size` with `--tensor-parallel-size`"; NULL: no
	 * fix; owned) and its replacements, all or none applied (owned) */
	char *fix;
	sl_edit *edits;
	size_t nedits;
	int fixed;               /* its fix is in the fixes sl_fix_collect made */
	int suppressed;          /* by a `# servelint disable=` comment or the config */
	char *justification;     /* the reason given after `--`, or NULL; owned */
	const char *entry;       /* the name of the entry it is about, or NULL; not owned */
	/* the place of a finding with no source to point into (where.src NULL:
	 * an entry that could not be read at all): a path (owned) and a 1-based
	 * line and column */
	char *file;
	unsigned line, col;
	/* SL0004's: the settings it names as not checked, their values
	 * unknown (check's summary counts them); 0 for any other */
	size_t unchecked;
	/* SL0004's: the config files it names that the entry does not hold,
	 * whose settings are all unchecked (check's summary counts them) */
	size_t unread_files;
} sl_finding;

typedef struct sl_findings {
	sl_finding *v;
	size_t n, cap;
} sl_findings;

int sl_rules_load(sl_rules **out, sl_error *err);
void sl_rules_free(sl_rules *r);
size_t sl_rules_count(const sl_rules *r);
const sl_rule *sl_rules_at(const sl_rules *r, size_t i);
const sl_rule *sl_rules_find(const sl_rules *r, const char *id);

/* A rule's fields (not owned). */
const char *sl_rule_id(const sl_rule *r);
const char *sl_rule_name(const sl_rule *r);
sl_severity sl_rule_severity(const sl_rule *r);
const char *sl_rule_summary(const sl_rule *r);
const char *sl_rule_explanation(const sl_rule *r);
const char *sl_rule_bad(const sl_rule *r);
const char *sl_rule_good(const sl_rule *r);
/* The rule's fix kind (its file's `fix:`: spelling, delete_repeat,
 * claim_value), or NULL when its findings carry no fix; and what the kind
 * does, in a sentence (`servelint rules ID`). Not owned. */
const char *sl_rule_fix(const sl_rule *r);
/* Whether the rule's findings say what was not checked rather than what is
 * wrong (its file's `advisory: true`): they count toward check's exit
 * status only under a --failure-threshold given on the command line. */
int sl_rule_advisory(const sl_rule *r);
const char *sl_rule_fix_doc(const sl_rule *r);

const char *sl_severity_name(sl_severity s);
int sl_severity_parse(const char *s, sl_severity *out);

/* Runs every rule (or only `only`, when not NULL) over a model, appending
 * findings in source order. */
int sl_check_model(const sl_rules *r, const sl_model *m, const sl_rule *only, sl_findings *out);
void sl_findings_free(sl_findings *f);
/* Appends to *to a copy of findings [first, end) of from: each owns its
 * own strings and edits; their places and rules point where the
 * originals' do (keep those while both are). */
void sl_findings_copy(const sl_findings *from, size_t first, size_t end, sl_findings *to);
/* Moves every finding of *from to the end of *to, in order; *from is left
 * empty (its array freed): the findings are *to's from then on. */
void sl_findings_move(sl_findings *from, sl_findings *to);

/* Sorts findings [first, n) by file, line, column and rule, stably. */
void sl_findings_sort(sl_findings *fs, size_t first);
/* Visits every place of findings [first, end): each one's own, its
 * related places and its edits' spans (sl_source_keep's passes). */
void sl_findings_places(sl_findings *fs, size_t first, size_t end, sl_source_place_fn *fn, void *ud);

/* ---- the catalogue: entries held against each other (catalogue.c) ------- */

/* The catalogue rules (SL7xxx) hold entries against each other; they run
 * only in sl_check_catalogue, never in sl_check_model. */
int sl_rule_is_catalogue(const sl_rule *r);

/* What the catalogue rules read of one entry's model, kept once the model
 * is freed (an audit of thousands of entries holds no model): each value
 * its equal_across_entries rules compare (a copy) and where it was set,
 * the model its workers load, its first command's place, its build
 * (engine, version, image, commit) and the findings of the rule that
 * reads one entry alone (metadata against the command). Its places point
 * into the entry's sources and the model's here-documents: keep those
 * (not the model) while the summary and its findings are; it names the
 * entry by m's entry's path, not copied: the entry (not its sources)
 * outlives the summary. */
typedef struct sl_catalogue_summary sl_catalogue_summary;
/* *out: m's summary (the caller's: sl_catalogue_summary_free), NULL when m is. */
int sl_catalogue_summarize(const sl_rules *r, const sl_model *m, sl_catalogue_summary **out);
void sl_catalogue_summary_free(sl_catalogue_summary *s);
/* Before e's sources are freed (audit: memory flat in the catalogue's
 * size), every place its findings [first, end) and its summary sum (may
 * be NULL) hold moved into copies of the lines it is on (sl_source_keep):
 * *kept the copies (the caller's: sl_source_free each, after the findings
 * and the summary), its first *nown those of e's script, metadata and
 * files, in that order (what places find their entry by). 0; or -1, and
 * nothing changed, when e's sources must stay whole: its script has a
 * `# servelint disable` comment (sl_check_suppress reads it for the
 * catalogue's findings, made later), or a place cannot be kept. The
 * places in e's models' here-documents are moved too: the models may go
 * whole. */
int sl_check_keep_places(const sl_entry *e, sl_findings *fs, size_t first, size_t end, sl_catalogue_summary *sum,
			 sl_source ***kept, size_t *nkept, size_t *nown);
/* Visits every place s holds (its keys', command's, build's and findings'):
 * sl_source_keep's passes, so that the entry's sources can go. */
void sl_catalogue_summary_places(sl_catalogue_summary *s, sl_source_place_fn *fn, void *ud);
/* metadata_command's findings of s moved to out (its places where s's
 * were): audit settles them as the entry is read, so that the summary
 * holds no finding and can be put aside */
void sl_catalogue_summary_take_meta(sl_catalogue_summary *s, sl_findings *out);
/* s written to out as one record, to be read back by the catalogue rules
 * (sl_check_catalogue_each, from the store it is put in), with the kept
 * copies (sl_check_keep_places) its places point into, of which the
 * first nown are its entry's own files: s (and the copies) can then be
 * freed, so that audit holds no summary per entry (issue 18). 0; or -1,
 * out as it was, when it cannot be: s holds findings, or a place or value
 * is in none of them. */
int sl_catalogue_summary_freeze(const sl_catalogue_summary *s, sl_source *const *kept, size_t nkept, size_t nown,
				sl_buf *out);

typedef struct sl_catalogue_entry {
	const sl_catalogue_summary *sum; /* not owned; NULL when the entry did not normalize */
	const char *llm;        /* the served model as the catalogue names it ("Kimi K3 (max)"); not owned, may be NULL */
	const char *system;     /* "B300 x8"; not owned, may be NULL */
	size_t same_as;         /* an earlier entry of the same model whose command is the same after
				 * normalization (sl_diff_same_command), or SIZE_MAX */
	/* when sum is NULL: the summary put aside (sl_catalogue_summary_freeze)
	 * at at, len bytes, in the store sl_check_catalogue_each reads; len 0:
	 * none (the entry did not normalize) */
	uint64_t at;
	uint32_t len;
} sl_catalogue_entry;

/* "Kimi K3 (max)", "moonshotai/Kimi-K3" -> "kimi-k3": the name entries of one
 * model share (a trailing parenthetical is a reasoning level, an org/ prefix
 * and case do not count). Caller frees. */
char *sl_catalogue_model_key(const char *name);
/* The model an entry serves when the catalogue does not name it: the
 * weights its workers load, unless a path or placeholder; NULL if none (not owned). */
const char *sl_catalogue_model_of(const sl_model *m);

/* Runs the catalogue rules (or only `only`) over n entries, appending findings
 * (sorted: sl_findings_sort). */
int sl_check_catalogue(const sl_rules *r, const sl_catalogue_entry *v, size_t n, const sl_rule *only,
		       sl_findings *out);
/* Takes the findings out holds (each of them, out->n then 0); entries[i]
 * is the entry (its index in the catalogue's) whose summary made finding
 * i, whose places are in that entry's sources; own[i] says whether its
 * place is in one of that entry's own files (script, metadata, files): 1
 * or 0 for a summary read back from the store, -1 for one in memory (the
 * caller tells by the entry's sources). A finding's places may point into
 * copies freed once sink returns: take what is needed of them then. */
typedef void sl_catalogue_sink(void *ud, sl_findings *out, const size_t *entries, const signed char *own);
/* sl_check_catalogue of every rule, the findings handed to sink as they
 * are made, a few dozen at a time (one at a time while a summary read
 * back from st is in use), in the order the rules make them (not sorted:
 * where sl_findings_sort's keys tie, this order is the sorted one), and
 * at the end: a catalogue's findings need not all be held, nor its
 * summaries, read back from st (not owned; NULL when every summary is in
 * memory) one at a time, in passes over the entries; nor every entry's
 * catalogue_entry: entry(eud, i, out) tells entry i's, of n. out must be empty;
 * it is empty again after. -1 when a summary could not be read back (the
 * findings handed over are then not the whole). */
typedef void sl_catalogue_entry_fn(void *ud, size_t i, sl_catalogue_entry *out);
int sl_check_catalogue_each(const sl_rules *r, sl_catalogue_entry_fn *entry, void *eud, size_t n, sl_store *st,
			    sl_findings *out, sl_catalogue_sink *sink, void *ud);

/* An entry that could not be read is a finding, at the place err names
 * (in the entry's sources when it has them; e may be NULL, for an entry
 * that could not be loaded at all, and then PATH names it): of the
 * invalid_json rule (SL1004) when a flag's JSON is invalid, else of the
 * unreadable rule (SL0001). Returns 1 for SL1004 (the entry is read, its
 * finding is an ordinary one), 2 for SL0001 (the entry is not read: an
 * input error), 0 when the rule is missing (nothing added). */
int sl_check_input_error(const sl_rules *r, const sl_entry *e, const sl_error *err, sl_findings *out);
/* The same for an entry known only by its PATH (it could not be loaded). */
int sl_check_unreadable(const sl_rules *r, const char *path, const sl_error *err, sl_findings *out);
/* A finding's place: its file (never NULL), line and column (1-based). */
const char *sl_finding_file(const sl_finding *f);
void sl_finding_pos(const sl_finding *f, unsigned *line, unsigned *col);

/* Marks findings [first, n) of an entry suppressed by its comments:
 *   # servelint disable=SL2002[,SL1001] -- reason   the next command
 *   # servelint disable-file=SL2002                   the whole entry
 * Suppressed findings stay in the list (SARIF reports them as such). */
void sl_check_suppress(const sl_entry *e, sl_findings *fs, size_t first);
/* Whether e's script has a `# servelint disable` comment (sl_check_suppress
 * reads e's script for findings made later, which then needs it whole). */
int sl_check_suppresses(const sl_entry *e);
/* SL0002 (rule r of rs): each id of m's script's `# servelint disable`
 * comments that names no rule of rs (nor `all`), at its place. */
void sl_check_suppress_ids(const sl_rules *rs, const sl_rule *r, const sl_model *m, sl_findings *out);

/* ---- one entry checked, as check and audit check it (checking.c) -------- */

/* The engine grammars and the rules, for the commands that check: *gs
 * (sl_normalize_grammars_free) and *rules (sl_rules_free) are the
 * caller's. On failure (-1) the error is printed and nothing is left to
 * free. */
int sl_check_load_rules(sl_grammars **gs, sl_rules **rules);

/* The config's disable and severity (see sl_entry_config), applied to the
 * findings [first, fs->n). cfg is borrowed. */
void sl_check_config_apply(const sl_entry_config *cfg, sl_findings *fs, size_t first);
/* The config's rule ids and levels are rules and levels there are (its
 * keys and types are checked when it is read): SL_OK, or an error at the
 * place of the first that is not. */
int sl_check_config_validate(const sl_rules *rules, const sl_entry_config *cfg, sl_error *err);

/* Checks every variant of ENTRY, appending to fs; gs, rules, binds (may be
 * NULL) and cfg are borrowed. *model is the first variant's model (NULL
 * when the script could not be read: the error is a finding, SL1004 or
 * SL0001 (sl_check_input_error), and -1 is returned for SL0001, an entry
 * not read; else 0); the other
 * variants' models are appended to *extra (grown with SL_PUSH: *nextra used
 * of *xcap). The models are the caller's (sl_model_free, before the entry);
 * the findings point into the models and the entry: keep them until the
 * findings are freed. */
int sl_check_entry(sl_entry *entry, const sl_grammars *gs, const sl_rules *rules, const sl_binds *binds,
		   const sl_entry_config *cfg, sl_findings *fs, sl_model **model, sl_model ***extra, size_t *nextra,
		   size_t *xcap);

/* A loose script found by searching a folder (a helper script beside the
 * entries, never named on the command line) in which nothing starts a
 * service is no entry: its SL0001 "no service" finding among [first, n)
 * is removed. Returns 1 when one was; *said (unless said is NULL) is then
 * what it said, `FILE:LINE:COL: MESSAGE` (the caller's), for a search
 * that finds nothing else to tell why. */
int sl_check_drop_no_service(sl_findings *fs, size_t first, char **said);

/* ---- fixes: the findings' replacements made into files (fix.c) ---------- */

/* Drops the fixes of findings [first, n) of entry e that cannot be carried
 * to their file's lines (a here-document's line that an expansion wrote):
 * a fix is only ever offered where it is certain (sl_check_entry calls it). */
void sl_fix_settle(const sl_entry *e, sl_findings *fs, size_t first);
/* An edit's place in its file: 1-based lines, columns in code points, the
 * end exclusive. */
void sl_fix_span(const sl_edit *e, unsigned *line, unsigned *col, unsigned *end_line, unsigned *end_col);

/* The line a fix changes, as the fix leaves it (without its newline), for
 * a review's suggestion: NULL when the fix changes more than one line.
 * *src and *line (a file line) say which; *deleted is 1 when the fix
 * removes the line whole. Caller frees. */
char *sl_fix_line(const sl_finding *f, const sl_source **src, unsigned *line, int *deleted);

typedef struct sl_fix_file {
	char *path;         /* as the sources name it; owned */
	char *shown;        /* as a diff names it: relative to the working directory; owned */
	char *old, *new;    /* its bytes as read when collecting, and fixed; owned */
	size_t oldlen, newlen;
	size_t nfixed;      /* findings fixed in it */
} sl_fix_file;

typedef struct sl_fixes {
	sl_fix_file *v;     /* files with a change, in the findings' order; owned */
	size_t n;
	size_t nfixed;      /* findings fixed */
	size_t nskipped;    /* findings with a fix not made (each told on notes) */
} sl_fixes;

/* Makes the new texts of the fixes of findings that are not suppressed,
 * at or above min, and of the rules in only (nonly 0: every rule); marks
 * each finding fixed. A fix is made whole or not at all; one that changes
 * bytes another already changes waits for the next run. Each fix not
 * made is told on notes (may be NULL). Returns 0; -1 when a file could
 * not be read or changed since its entry was (its fixes are not made,
 * the others are). *out is the caller's (sl_fixes_free). */
int sl_fix_collect(sl_findings *fs, sl_severity min, char *const *only, size_t nonly, FILE *notes, sl_fixes *out);
/* The fixes as a unified diff (a/PATH, b/PATH: `git apply` and `patch
 * -p1` take it). Returns 0, or -1 on a write error. */
int sl_fix_diff(FILE *f, const sl_fixes *fx);
/* Writes each fixed file in place, atomically (a temporary file beside
 * it, renamed over it), unless it changed since it was read. Errors are
 * told on notes, and the findings of fs fixed in a file not written are
 * no longer marked fixed; returns 0, or -1 when a file was not written. */
int sl_fix_apply(const sl_fixes *fx, sl_findings *fs, FILE *notes);
void sl_fixes_free(sl_fixes *fx);

#endif
