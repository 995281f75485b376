/*
 * diff.h: the diff stage, its whole interface: the semantic difference of
 * two models. Services are paired by role (and order within a role); what
 * differs is told per canonical key, with both values and both places.
 * Formatting, flag order, aliases, `=` or space, JSON member order never
 * show; a default written out on one side and left implicit on the other is
 * its own kind, reported but not a difference.
 *
 * Ownership: an sl_diff owns its strings and JSON values; origins point into
 * the two entries: free the diff first.
 */
#ifndef SL_DIFF_H
#define SL_DIFF_H

#include "../model/model.h"
#include "../entry/entry.h"

typedef enum {
	SL_CH_CHANGED,    /* both sides, different values */
	SL_CH_ADDED,      /* only in B */
	SL_CH_REMOVED,    /* only in A */
	SL_CH_DEFAULT,    /* one side writes the engine's default, the other leaves it implicit */
} sl_change_kind;

typedef struct sl_change {
	sl_change_kind kind;
	char *service;     /* the pair's name: role, or role-N */
	char *key;         /* canonical key, or service, engine, version, replicas, gpus, env NAME */
	json_t *a, *b;     /* the values (NULL when absent) */
	sl_origin at_a, at_b;
} sl_change;

typedef struct sl_diff {
	sl_change *v;
	size_t n, cap;
	char *topology_a, *topology_b;   /* "prefill x2 (2 GPUs each), decode x1 (4 GPUs)" */
} sl_diff;

typedef struct sl_diff_opts {
	char *const *ignore;   /* key globs left out */
	size_t nignore;
	char *const *only;     /* when any: only keys matching one of these */
	size_t nonly;
} sl_diff_opts;

int sl_diff_models(const sl_model *a, const sl_model *b, const sl_diff_opts *o, sl_diff *out);
/* No difference but explicit defaults. */
int sl_diff_equal(const sl_diff *d);
/* No difference in what runs: explicit defaults and claims (metadata,
 * comments) apart. Two entries so are duplicates of one configuration. */
int sl_diff_same_command(const sl_diff *d);
void sl_diff_free(sl_diff *d);
/* *to (overwritten) as a copy of from: its own strings and origins' raw
 * texts, the same JSON values (a reference more each), origins into the
 * same sources. Free it with sl_diff_free. */
void sl_diff_copy(const sl_diff *from, sl_diff *to);
/* A key of M's command (command_key.c): two models sl_diff_same_command
 * finds the same have one key; two of one key may still differ, which
 * the diff tells. The caller frees the string. */
char *sl_diff_command_key(const sl_model *m);
/* M's command without M (audit frees each model once read): its key, and
 * in *values (a new JSON array, the caller's) the value of each setting
 * the key holds, in the key's order. Two models of one key whose values
 * are pairwise sl_diff_same (sl_diff_same_print) are what
 * sl_diff_same_command finds the same: everything else the diff compares
 * (engine, version, replicas, GPUs, environment, which settings differ
 * from their default, the topology) the key holds as it is, and the
 * values are what the key rounds. */
char *sl_diff_command_print(const sl_model *m, json_t **values);
int sl_diff_same_print(json_t *a, json_t *b);

/* KEY passes --ignore and --only. */
int sl_diff_wanted(const sl_diff_opts *o, const char *key);
/* Equal as the engines read them: 8 and 8.0, a list of one and its item. */
int sl_diff_same(json_t *a, json_t *b);
/* The same for KEY's values in two engines' services (grammar ids): also
 * a speculative method spelt in each engine's own case (SGLang's DSPARK,
 * vLLM's dspark), between different engines only. */
int sl_diff_same_between(const char *key, const char *engine_a, json_t *a, const char *engine_b, json_t *b);
/* "prefill x2 (2 GPUs each), decode x1 (4 GPUs), frontend x1; 8 GPUs";
 * the caller frees the string. */
char *sl_diff_topology(const sl_model *m);

/*
 * The matrix of N models side by side: one row per key any of them has
 * (topology; per service: engine, version, replicas, gpus, env NAME, each
 * canonical setting key), rows in order of first appearance. A service that
 * leaves a setting unset takes the engine's default when another entry's
 * grammar default is known for it: shown as implicit, equal to the same
 * value written out (an explicit default is not a difference).
 */
typedef struct sl_cell {
	json_t *value;     /* owned reference, or NULL: absent */
	int implicit;      /* the engine's default, not written */
	sl_origin at;      /* where written (src NULL when implicit or absent) */
} sl_cell;

typedef struct sl_matrix_row {
	char *service;     /* service name, or "" for the entry (topology) */
	char *key;
	sl_cell *cells;    /* ncols */
	int differs;
} sl_matrix_row;

typedef struct sl_matrix {
	sl_matrix_row *rows;
	size_t nrows, cap, ncols;
} sl_matrix;

int sl_diff_matrix(const sl_model *const *models, size_t n, const sl_diff_opts *o, sl_matrix *out);
void sl_matrix_free(sl_matrix *m);

/*
 * Entries touched between two revisions (touched.c), for `diff REV REV`,
 * `log` and `review`: one loaded at both through the entry cache, and
 * compared (report.h prints the comparison).
 */

/* Indexed by the status: 0 changed, 1 reformatted only, 2 added, 3 removed,
 * 4 renamed (and changed), 5 renamed and reformatted only, 6 renamed with
 * the same content (neither side is read). */
extern const char *const sl_diff_touched_status[];

/* A comparison; the diff's origins point into the entries it keeps. */
typedef struct sl_touched_cmp {
	int status;            /* as above, or -1 when a side could not be read */
	sl_diff diff;          /* filled for statuses 0, 1, 4, 5; owned */
	char *na, *nb;         /* REV:path of each side, as printed; owned */
	sl_entry_cached a, b;  /* each side, from the cache; released by sl_diff_touched_free */
	sl_entry_cache *cache; /* borrowed */
	int hidden;            /* statuses 1, 5 under --only/--ignore: what runs did change, in keys
				* the filter leaves out (never "reformatted only") */
} sl_touched_cmp;

/* Compares the entry at both revisions, read through cache (which must
 * outlive *c); r2 NULL is the working tree; t and o are borrowed. Returns the status, or -1 with err
 * set. Free *c with sl_diff_touched_free in any case. */
int sl_diff_touched_compare(const char *r1, const char *r2, const sl_touched *t, sl_entry_cache *cache,
			    const sl_diff_opts *o, sl_touched_cmp *c, sl_error *err);
/* The same, with the sides read at r1 and r2 but named d1:path and
 * d2:path in what is printed (log reads full ids, shows short ones). */
int sl_diff_touched_compare_named(const char *r1, const char *r2, const char *d1, const char *d2,
				  const sl_touched *t, sl_entry_cache *cache, const sl_diff_opts *o,
				  sl_touched_cmp *c, sl_error *err);
/* Whether both sides were read and neither starts a service (a helper
 * script, a folder of them): no entry, so never "reformatted only". */
int sl_diff_touched_no_service(const sl_touched_cmp *c);
void sl_diff_touched_free(sl_touched_cmp *c);

#endif
