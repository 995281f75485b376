/*
 * findings.h (check, internal): making a finding, for every file of the
 * stage that reports one (findings.c).
 */
#ifndef SL_CHECK_FINDINGS_H
#define SL_CHECK_FINDINGS_H

#include "rules.h"

/* Appends a finding of rule r at where, its message printf-formatted (up
 * to 1,023 bytes); the finding is the list's last, until the next one. */
sl_finding *sl_finding_add(sl_findings *out, const sl_rule *r, const sl_origin *where, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Adds a place the finding also concerns, with what it is (copied). */
void sl_finding_related(sl_finding *f, const sl_origin *o, const char *msg);

/* Adds a replacement to f's fix, when f's rule declares a fix of this
 * kind (its file's `fix:`): the oldlen bytes of src's text at off, which
 * must be old (what the check read there), become text. what (the first
 * call's) is what the fix does, for the reports. Returns 0; -1 when the
 * rule has no such fix, or the text there is not old (a place an
 * expansion moved): then f has no fix at all, not a part of one, and the
 * caller adds no more. */
int sl_finding_fix(sl_finding *f, fix_kind kind, const sl_source *src, size_t off, const char *old, size_t oldlen,
		   const char *text, const char *what);
/* Whether b is near enough to a to be what a typo of it meant, for a fix
 * (tighter than a hint's "did you mean"): one edit (a letter dropped,
 * added, changed, or two swapped), two in a name of 10 or more bytes. A
 * hint further away stays a hint: `--grpc-port` is 3 edits from
 * `--grpc-mode`, and no typo of it. */
int sl_finding_typo_close(const char *a, const char *b);

/* Takes f's fix away (a check that finds its fix uncertain after all). */
void sl_finding_fix_drop(sl_finding *f);
/* A setting's flag and value deleted as f's fix of that kind (SL1003's
 * repeat, SL1013's ignored --model), in a shell script only, with the
 * blanks and the line continuation around them, so the text reads as the
 * line's deletion would leave it; what_fmt says it, with %s for the
 * setting as written. No fix where that is not certain. */
void sl_check_delete_setting(sl_finding *f, const sl_setting *b, int kind, const char *what_fmt);
/* The same for any arguments: raw, as written on one line at offset a of
 * src, goes (SL1010's and SL1011's moves delete so, then insert); what
 * says what the fix does. Returns 0 when the deletion is f's, -1 when it
 * is not certain (f has then no fix). */
int sl_check_delete_span(sl_finding *f, const sl_source *src, size_t a, const char *raw, int kind, const char *what);

/* A setting's value as a message writes it: a string as is, else JSON.
 * Caller frees. */
char *sl_finding_value_text(json_t *v);

#endif
