/*
 * catalogue_summary.h (check, internal): what the catalogue rules read of
 * one entry (catalogue_summary.c), for the rules themselves (catalogue.c).
 * A summary is made of an entry's model as it is read; audit then puts
 * it aside in its store (sl_catalogue_summary_freeze, check.h) and the
 * rules read it back, one entry at a time, for each pass over the
 * catalogue (sl_catalogue_summary_thaw): what stays in memory per entry
 * does not grow with the catalogue (issue 18).
 */
#ifndef SL_CHECK_CATALOGUE_SUMMARY_H
#define SL_CHECK_CATALOGUE_SUMMARY_H

#include "findings.h"

/* a value an entry gives a key: a setting's, else a claim's */
typedef struct {
	json_t *value;     /* the summaries' one copy of it (a reference, never changed); owned */
	uint32_t vid;      /* its index among those copies (a summary put aside names it so),
			    * or UINT32_MAX when it has none */
	sl_origin origin;  /* a copy, its raw shared (sl_intern) */
	char *raw;         /* the claim's words, or NULL; shared */
	char *engine;      /* its service's engine family; shared */
} given;

/* the first worker with a version: the build it runs */
typedef struct {
	char *engine;      /* family; shared */
	char *version;     /* shared */
	char *image;       /* docker image without its digest, or NULL; shared */
	char *commit;      /* the +g<hash> of the version, or NULL; shared */
	sl_origin at;      /* its version's place, else its command's; its raw shared */
} build;

struct sl_catalogue_summary {
	const char *path;     /* the entry's path, or NULL: not owned (the entry outlives its summary:
			       * a copy each was 3% of audit's peak), or in rec when read back */
	char *model_of;       /* sl_catalogue_model_of, or NULL; shared (sl_intern) */
	given **keys;         /* each K_ENTRIES rule's keys, in the rules' order: NULL when unset */
	size_t nkeys;
	sl_origin command;    /* the first command's place (src NULL: none); its raw shared */
	build *build;         /* or NULL */
	sl_findings meta;     /* metadata_command's findings, the one rule that reads one entry alone */
	/* read back (sl_catalogue_summary_thaw): the record (owned) and the
	 * copies of the lines its places are on (owned; NULL when read
	 * without its places, whose src is then NULL), its first nown those
	 * of the entry's own files */
	char *rec;
	sl_source **srcs;
	size_t nsrcs, nown;
};

/* The finding of rule r at where with message msg (freed), added to out. */
sl_finding *sl_catalogue_add(sl_findings *out, const sl_rule *r, const sl_origin *where, sl_buf *msg);

/* The summary put aside at rec (len bytes, sl_catalogue_summary_freeze;
 * taken: freed with the summary), with the copies of its places' lines
 * when places is set, else every place's src NULL: the caller's
 * (sl_catalogue_summary_free); NULL when rec is not one. */
sl_catalogue_summary *sl_catalogue_summary_thaw(char *rec, size_t len, int places);

/* Whether src is one of the entry's own files (its script, metadata or
 * files) among a summary's read back: 1 or 0; -1 for a summary made in
 * memory, which does not know (its caller tells by the entry's sources). */
int sl_catalogue_summary_owns(const sl_catalogue_summary *s, const sl_source *src);

#endif
