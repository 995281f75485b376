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

typedef struct sl_finding {
	const sl_rule *rule;     /* not owned */
	sl_severity severity;
	char *message;           /* owned */
	sl_origin where;         /* primary location */
	sl_origin *related;      /* other places the message names; owned */
	char **related_msg;      /* owned */
	size_t nrelated;
	char *hint;              /* "did you mean", or NULL; owned */
	/* a certain fix: replace fix_len characters, fix_skip characters after
	 * the primary location, with fix (NULL: no fix); owned */
	char *fix;
	unsigned fix_skip, fix_len;
	int suppressed;          /* by a `# servelint disable=` comment or the config */
	char *justification;     /* the reason given after `--`, or NULL; owned */
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

const char *sl_severity_name(sl_severity s);
int sl_severity_parse(const char *s, sl_severity *out);

/* Runs every rule (or only `only`, when not NULL) over a model, appending
 * findings in source order. */
int sl_check_model(const sl_rules *r, const sl_model *m, const sl_rule *only, sl_findings *out);
void sl_findings_free(sl_findings *f);

/* Sorts findings [first, n) by file, line, column and rule. */
void sl_findings_sort(sl_findings *fs, size_t first);

/* ---- the catalogue: entries held against each other (catalogue.c) ------- */

/* The catalogue rules (SL7xxx) hold entries against each other; they run
 * only in sl_check_catalogue, never in sl_check_model. */
int sl_rule_is_catalogue(const sl_rule *r);

typedef struct sl_catalogue_entry {
	const sl_model *model;  /* not owned; NULL when the entry did not normalize */
	const char *llm;        /* the served model as the catalogue names it ("Kimi K3 (max)"); not owned, may be NULL */
	const char *system;     /* "B300 x8"; not owned, may be NULL */
	size_t same_as;         /* an earlier entry of the same model whose command is the same after
				 * normalization (sl_diff_same_command), or SIZE_MAX */
} sl_catalogue_entry;

/* "Kimi K3 (max)", "moonshotai/Kimi-K3" -> "kimi-k3": the name entries of one
 * model share (a trailing parenthetical is a reasoning level, an org/ prefix
 * and case do not count). Caller frees. */
char *sl_catalogue_model_key(const char *name);
/* The model an entry serves when the catalogue does not name it: the
 * weights its workers load, unless a path or placeholder; NULL if none (not owned). */
const char *sl_catalogue_model_of(const sl_model *m);

/* Runs the catalogue rules (or only `only`) over n entries, appending findings. */
int sl_check_catalogue(const sl_rules *r, const sl_catalogue_entry *v, size_t n, const sl_rule *only,
		       sl_findings *out);

/* An entry that did not normalize because a flag's JSON is invalid is a
 * finding of the invalid_json rule at the bad character, not an input
 * error; returns 1 when err was that (and the finding was added). */
int sl_check_input_error(const sl_rules *r, const sl_entry *e, const sl_error *err, sl_findings *out);

/* Marks findings [first, n) of an entry suppressed by its comments:
 *   # servelint disable=SL2002[,SL1001] -- reason   the next command
 *   # servelint disable-file=SL2002                   the whole entry
 * Suppressed findings stay in the list (SARIF reports them as such). */
void sl_check_suppress(const sl_entry *e, sl_findings *fs, size_t first);

/* ---- one entry checked, as check and audit check it (checking.c) -------- */

/* The engine grammars and the rules, for the commands that check: *gs
 * (sl_normalize_grammars_free) and *rules (sl_rules_free) are the
 * caller's. On failure (-1) the error is printed and nothing is left to
 * free. */
int sl_check_load_rules(sl_grammars **gs, sl_rules **rules);

/* The config's disable and severity (see sl_entry_config), applied to the
 * findings [first, fs->n). cfg is borrowed. */
void sl_check_config_apply(const sl_entry_config *cfg, sl_findings *fs, size_t first);

/* Checks every variant of ENTRY, appending to fs; gs, rules, binds (may be
 * NULL) and cfg are borrowed. *model is the first variant's model (NULL
 * when the script could not be read: an input error that is a finding
 * becomes one, any other is printed and -1 returned; else 0); the other
 * variants' models are appended to *extra (grown with SL_PUSH: *nextra used
 * of *xcap). The models are the caller's (sl_model_free, before the entry);
 * the findings point into the models and the entry: keep them until the
 * findings are freed. */
int sl_check_entry(sl_entry *entry, const sl_grammars *gs, const sl_rules *rules, const sl_binds *binds,
		   const sl_entry_config *cfg, sl_findings *fs, sl_model **model, sl_model ***extra, size_t *nextra,
		   size_t *xcap);

#endif
