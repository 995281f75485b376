/*
 * audit.h (cmd, internal): what `servelint audit` holds of a catalogue
 * while it reads it (audit_read.c) and then checks it as a whole and
 * writes its report (audit.c): each entry's item, the run of every path
 * (or of one path's, audit -j), and the reading of the paths.
 */
#ifndef SL_CMD_AUDIT_H
#define SL_CMD_AUDIT_H

#include <stdint.h>

#include "check/check.h"
#include "entry/entry.h"
#include "report/report.h"

/* One entry read. Its model is summarized as it is read (what the report
 * says of it, what the catalogue rules read, its command's key) and freed,
 * so that memory stays flat in the catalogue's size (every model kept:
 * 236 MB over 3,500 entries, 12 MB over 35); kept only for --html, whose
 * page shows each entry's services and the pairwise diffs, and for a
 * page's entries until their names are told apart. The entry's sources
 * go too once the places its findings and summary hold are moved into
 * copies of the lines they are on (sl_audit_keep_places). For the
 * terminal's report its summary and its text then go to the store
 * (sl_audit_put_aside) and the entry is let go: what stays is its item.
 *
 * What an entry holds while it is read, and after only when it is not
 * put aside: then freed, so that what stays per entry is its item, 56
 * bytes. */
typedef struct {
	sl_entry *entry;      /* owned */
	char *llm, *system;   /* sl_intern's once read (entries share them: not freed), until the entry
			       * is taken into the whole run (then its item's names) */
	uint64_t sum_at;      /* its catalogue summary put aside, in the store (its item's sum_len) */
	char *text;           /* its report's summary text (sl_report_audit_entry_text) until it is put
			       * in the store, with its catalogue summary after it when that is put
			       * aside at once (one place for both: the item holds one); owned */
	sl_model *model;      /* NULL: freed, or the entry did not normalize */
	char *name;           /* a page entry's label, as import names it; owned, may be NULL */
	sl_catalogue_summary *sum; /* owned, NULL when the entry did not normalize or it is put aside */
	char *cmd;            /* its command's key (sl_diff_command_print), until it is placed among the
			       * duplicates (then NULL); owned */
	json_t *cmdvals;      /* the key's values: kept while the entry is the first of its command */
	sl_source **kept;     /* the copies its places were moved into (sl_audit_keep_places), the first nown
			       * those of its script, metadata and files, in that order; owned */
	size_t nkept, nown;
	size_t ffirst, fend;  /* its findings in its run's, while its model is kept (a page's entry) */
	int aside;            /* its summary put aside (or it has none) and its sources dropped:
			       * the entry and this are freed once it is placed among the duplicates */
} sl_audit_extra;

typedef struct {
	sl_audit_extra *x;             /* owned; NULL once the entry is let go (its path is then in its
			       * summary's text, its catalogue summary right after that text) */
	uint64_t summary_at;  /* sl_report_audit_entry_text, in the run's store (summary_len bytes) */
	uint32_t summary_len;
	uint32_t sum_len;     /* its catalogue summary put aside (sl_catalogue_summary_freeze), its
			       * length; 0: not */
	uint32_t same_as;     /* the earlier entry it duplicates, or SL_AUDIT_NONE */
	uint32_t group;       /* its model's index among the run's (settle), or SL_AUDIT_NONE */
	uint32_t names;       /* its model's and system's names, an index in the whole run's */
	unsigned nfind[SL_SEV_ERROR + 1]; /* its findings by severity, the suppressed aside, when they are
					   * spooled (the run's spool) */
} sl_audit_item;

#define SL_AUDIT_NONE UINT32_MAX
/* The entries one audit reads at most (an item's indexes are 32 bits;
 * 5.6 GB of items): past it audit says so and writes no report */
#define SL_AUDIT_MAX_ENTRIES 100000000u

/* A run's items, in blocks of SL_AUDIT_ITEMS (an array of every item, grown by
 * doubling, held twice its size while it was copied: 22 MB at 69,440
 * entries) */
enum { SL_AUDIT_ITEMS = 1024 };


/* What one run holds: the entries read, their findings, the pairs compared. */
typedef struct {
	sl_audit_item **blocks;          /* the items, SL_AUDIT_ITEMS a block; owned */
	size_t n, nblocks, blockcap;
	sl_findings fs;
	sl_audit_pair *pairs;   /* --html only: the diffs its page shows */
	size_t npairs, paircap; /* npairs counts them all the same */
	int progress;           /* standard error is a terminal */
	int keep_models;        /* --html */
	sl_store *store;        /* the entries' summaries; the whole run's (not owned) */
	int whole;              /* the run of every path (not one path's, audit -j) */
	const sl_entry_config *cfg; /* the project's .servelint.yaml (maybe empty) */
	sl_model **extra;       /* the models of variants after the first, --html only (else freed) */
	size_t nextra, xcap;
	sl_source **heredocs;   /* the here-documents of the models freed (findings point into them) */
	size_t nheredocs, hcap;
	/* the entries placed among the duplicates so far (settle), in input
	 * order: each model key's index and number of entries (and of those
	 * read), and per model and command key the first entry of each
	 * distinct command */
	sl_strmap models, buckets;
	struct model_count { size_t n, read; } *of_model;
	size_t ngroups, gcap;
	struct bucket { size_t *v, n, cap; } *reps;
	size_t nbuckets, bcap;
	/* the terminal's report: each finding rendered once made and put
	 * aside (report's spool.c), not kept; the whole run's, NULL for the
	 * other formats and --html, which read the findings whole */
	sl_findings_spool *spool;
	int spooling, color;    /* this run's findings go to the spool, in these colours */
	sl_buf pending;         /* rendered, not yet taken by the spool (a path's run, audit -j) */
	int unread;             /* a summary put aside could not be read back */
	int too_many;           /* an entry past SL_AUDIT_MAX_ENTRIES was not taken */
	/* the distinct pairs of a model's and a system's names of the
	 * entries (sl_intern's: a pair's key is their addresses) */
	sl_strmap names_of;
	struct names { const char *llm, *system; } *names;
	size_t nnames, ncap;
	/* the paths less the folders all of them share (the report's names):
	 * the first path and the length of the part every path shares */
	char *path0;
	size_t shared;
} sl_audit_run;

/* audit -j N: the PATHs read on N threads as they are found (util's
 * sl_jobs_start), each into a run of its own, then taken into the whole
 * run in input order (as -j 1 reads them). A list of every path found
 * before the first was read was 62 bytes an entry (4.3 MB at 69,440). */
typedef struct sl_audit_jobs {
	sl_audit_run *r;        /* the whole run */
	const sl_grammars *gs;
	const sl_rules *rules;
	int failed;             /* a path could not be read */
} sl_audit_jobs;

/* One PATH: from its finding to its taking (at most sl_jobs' window of
 * them at once) */
typedef struct sl_audit_job {
	char *path;             /* owned: freed once read */
	int found;              /* a script found by searching a folder */
	sl_audit_run *each;     /* its entries, findings and variants' models, read */
	int failed;
} sl_audit_job;

/* Item i of r (r's) */
sl_audit_item *sl_audit_at(const sl_audit_run *r, size_t i);
/* The sources of every entry of r -> the first entry they belong to
 * (its index), into m: not for the terminal's report, whose entries may
 * be let go. */
void sl_audit_index_sources(sl_strmap *m, const sl_audit_run *r);
/* Frees a model once read, keeping its here-documents in r (places point into them) */
void sl_audit_release_model(sl_audit_run *r, sl_model *m);
/* Findings [first, n) of r rendered into r's pending records (or its
 * spool's) and freed, each counted to it (may be NULL), entry e's item,
 * when it is one of e's own files; e NULL: no entry's findings. */
void sl_audit_spool_findings(sl_audit_run *r, size_t first, const sl_entry *e, sl_audit_item *it);
/* it's sources to be freed: its places and its findings [first, end) of
 * fs moved into copies of their lines (sl_check_keep_places); 0, or -1
 * when they stay whole. */
int sl_audit_keep_places(sl_audit_item *it, sl_findings *fs, size_t first, size_t end);
/* The terminal's report: it's summary (its places kept) put in r's store
 * and freed (put_aside: audit_read.c). */
void sl_audit_put_aside(sl_audit_run *r, sl_audit_item *it);
/* Whether path is a script found by searching a folder (none of the n
 * arguments args names it) */
int sl_audit_found_script(const char *path, char **args, int n);
/* Reads and checks every entry of path into r; 0, or -1 when one could
 * not be read (told on stderr; the others are read all the same). */
int sl_audit_read_path(sl_audit_run *r, const char *path, const sl_grammars *gs, const sl_rules *rules,
		       int found);
/* sl_jobs_start's work, done and start for audit -j (ud: sl_audit_jobs,
 * item: an sl_audit_job, freed by done): its path read into a run of its
 * own, then taken into the whole run in input order; the grammars
 * shared before the threads start */
void sl_audit_read_job(void *ud, void *item);
void sl_audit_read_job_done(void *ud, void *item);
void sl_audit_read_jobs_start(void *ud);
/* Frees what r holds (not r, nor its store) */
void sl_audit_run_free(sl_audit_run *r);

#endif
