/*
 * entry.h: the entry stage, its whole interface. From command-line
 * arguments to models, for every command: what a PATH argument names
 * (entries found in folders, a published page's entries one by one), an
 * entry's variants as models, entries read from git once per object id,
 * and the project's .servelint.yaml. It comes after normalize and before
 * check, diff, run and report: what needs those (one entry checked, the
 * config's disable and severity applied to findings, an entry touched
 * between two revisions compared and printed) is theirs.
 *
 * Naming: the source stage already has sl_entry_load, sl_entry_from_*
 * (memory, files, git, stdin, source), sl_entry_rename, sl_entry_file and
 * sl_entry_free for one sl_entry; this stage's functions are
 * sl_entry_input_*, sl_entry_models, sl_entry_model_one, sl_entry_cache_*,
 * sl_entry_config_* and the names import gives (sl_entry_slug,
 * sl_entry_*_name, sl_entry_import_tell_apart).
 *
 * Errors: functions returning int return SL_OK (0) or a negative SL_ERR_*
 * code with *err set, unless said otherwise. Ownership is stated at each.
 */
#ifndef SL_ENTRY_H
#define SL_ENTRY_H

#include "../normalize/normalize.h"

/* ---- inputs: what a PATH argument names (input.c) ----------------------- */

/* An entry folder, a launch script, an entry in catalogue form, or a whole
 * published page (several "Submitted by" lines), whose entries are then
 * read one by one, each named page:LINE. */
typedef struct sl_entry_input {
	const char *path;       /* not owned */
	sl_source *file;        /* a regular file, loaded once; owned until handed over */
	sl_page_entry *pes;     /* a page's entries, or NULL; owned */
	size_t npe, next;
	int done;
	char *owner;            /* the entry folder a file given alone belongs to, or NULL; owned */
	sl_entry *alone;        /* an engine config YAML read alone (sl_entry_input_alone), or NULL; owned */
	sl_entry *owned;        /* owner's entry, read once when open found it (next hands it over), or NULL; owned */
	int folder;             /* open's stat found a folder at path: next loads it without another */
} sl_entry_input;

/* Opens PATH (borrowed: it must outlive *in); fails (with err) only when a
 * file cannot be read, or is a YAML file that belongs to no entry. A file
 * inside an entry folder (its script, or a YAML file the script names) is
 * read as that folder's entry (sl_entry_input_owner); in->path is then the
 * folder. PATH may also be a page's entry as servelint names it,
 * page.txt:LINE. Close *in with sl_entry_input_close in any case. */
int sl_entry_input_open(sl_entry_input *in, const char *path, sl_error *err);
/* The next entry: 1 with *out (caller frees, sl_entry_free), 0 when there
 * are no more, -1 when it cannot be read (err says why; the next call goes
 * on). */
int sl_entry_input_next(sl_entry_input *in, sl_entry **out, sl_error *err);
void sl_entry_input_close(sl_entry_input *in);
/* sl_entry_input_open and sl_entry_input_next for the commands that go on
 * past an entry they cannot read (check, audit): the error is printed
 * (`servelint: file:line:col: ...`) and *failed set; open returns 0 or -1;
 * next returns 1 with *out (caller frees), or 0 at the end, never -1. */
int sl_entry_input_open_told(sl_entry_input *in, const char *path, int *failed);
int sl_entry_input_next_told(sl_entry_input *in, sl_entry **out, int *failed);

/* One entry named on the command line: a folder or file, - for standard
 * input, page.txt:LINE (one entry of a page), or REV:path from the git
 * repository around the current directory (when no such file exists and
 * the name has a colon). A file that belongs to an entry folder, on disk
 * or at the revision, is read as that entry; a YAML file that belongs to
 * none is an error. *out is the
 * caller's (sl_entry_free). */
int sl_entry_input_load_one(const char *spec, sl_entry **out, sl_error *err);
/* How many entries the regular file PATH holds (a published page holds
 * many); 1 for anything else (a folder, stdin, REV:path). Commands that
 * take one entry refuse a page rather than read its first. */
size_t sl_entry_input_count(const char *path);

/* PATH as entries: an entry (folder with launch.sh, or a file) is pushed
 * onto *out as it is; a folder that is not one is searched for them (folders
 * holding launch.sh, loose *.sh files, Kubernetes or Dynamo manifests), in
 * name order. In a folder of several scripts, a group of them (stated in
 * .servelint.yaml, or sl_source_groups') is pushed as its first script. A PATH that is not there is pushed too (loading says why).
 * The array (grown with SL_PUSH: *n used of *cap) and each string pushed
 * are the caller's to free. Call with depth 0. */
void sl_entry_input_discover(const char *path, char ***out, size_t *n, size_t *cap, unsigned depth);
/* The same (depth 0), each path handed to found(ud, path) as soon as it is
 * found, in the same order (the path is found's to free). */
void sl_entry_input_discover_each(const char *path, void (*found)(void *ud, char *path), void *ud);

/* ---- a file inside an entry (resolve.c) -------------------------------- */

/* Whether NAME ends in .yaml or .yml. */
int sl_entry_is_yaml_name(const char *name);
/* The entry folder FILE (on disk) belongs to: the folder's entry has FILE
 * as its script and something beside it (a YAML file the script names, or
 * metadata.txt), or FILE is a YAML file of it that its script names, or
 * its metadata.txt. The folder (caller frees), or NULL. */
char *sl_entry_input_owner(const char *file);
/* As sl_entry_input_owner, for FILE already known to be a regular file
 * (the caller's stat), and with the folder's entry that told it in *e
 * (caller frees; NULL when there is no owner): reading the folder again
 * to load it cost every file of it twice (issue 18). */
char *sl_entry_input_owner_of(const char *file, sl_entry **e);
/* The same at a revision: SPEC is REV:path of a file; REV:folder (caller
 * frees), or NULL. */
char *sl_entry_input_owner_git(const char *spec);
/* A file that no entry owns, PATH (as shown) with its text: a YAML engine
 * config file is read alone as an entry of its own, the file and the
 * command line that would name it for the engine its keys are of (a
 * script named "(NAME alone, read as ENGINE's config file).sh", which is
 * no file); *out is then the caller's. SL_OK with *out NULL when it is not
 * YAML or is a manifest (an entry of its own already); an error, located
 * at the file, when its engine cannot be told. */
int sl_entry_input_alone(const char *path, const char *text, size_t len, sl_entry **out, sl_error *err);
/* A YAML file (by PATH's name) that is not a manifest is no entry of its
 * own: SL_ERR_INPUT with err saying so, at PATH:1:1; SL_OK for any other. */
int sl_entry_input_not_entry(const char *path, const char *text, size_t len, sl_error *err);

/* Whether PATH is a folder that holds several entries rather than being
 * one: several scripts and no launch.sh, or no script and several
 * manifests or recipes (show then reads each, as found by discover). */
int sl_entry_input_is_many(const char *path);

/* ---- groups stated in .servelint.yaml (groups.c) ------------------------ */

/* What the nearest .servelint.yaml at or above PATH states under
 * `entries: [{name: N, files: [a.sh, b.sh, x.yaml]}]`: one group per item
 * (names relative to *base, the config's folder, the first script first;
 * how says it was stated). None (SL_OK) without a config or the key; a
 * key not so shaped is an error with its place. *out (sl_source_groups_free)
 * and *base are the caller's. */
int sl_entry_stated_groups(const char *path, sl_group **out, size_t *n, char **base, sl_error *err);
/* Whether the file at path is in one of the groups: 1 as its first file,
 * -1 as another, 0 not. */
int sl_entry_stated_lead(const sl_group *gs, size_t n, const char *base, const char *path);
/* The stated group the file at path is in, loaded as one entry named
 * path: 1 with *out (caller frees), 0 when there is none, or an error. */
int sl_entry_load_stated(const char *path, sl_entry **out, sl_error *err);

/* ---- variants: the models of one entry (variants.c) --------------------- */

/* One model per variant of the entry's script (each combination of
 * alternatives at the `if`s and `case`s whose conditions depend on
 * something unknown), for show, check, diff, matrix, run and audit. */

/* Builds the models of e: every variant (which == 0) or only the which-th
 * (1-based; past the last is an error). gs and binds (may be NULL) are
 * borrowed. *out is the caller's: free each model (before the entry: a
 * model points into it) and the array. A script with more than
 * SL_MAX_VARIANTS variants gets a note saying the rest are not read. */
int sl_entry_models(const sl_entry *e, const sl_grammars *gs, const sl_binds *binds, unsigned which,
		    sl_model ***out, size_t *n, sl_error *err);

/* Whether err (from sl_entry_models) says the entry starts no service: a
 * script found in a folder that is so is a helper (a library, a tool),
 * which check, audit and show leave out; named on the command line, it
 * is an error. */
int sl_entry_error_no_service(const sl_error *err);

/* As sl_entry_models, but a flag's invalid JSON is no error: the model
 * keeps the value as text with a note `invalid JSON: ...` at the bad
 * character, for check to report as one finding (SL1004) beside the
 * entry's other findings. (Models read through the cache are so too.) */
int sl_entry_models_lenient(const sl_entry *e, const sl_grammars *gs, const sl_binds *binds, unsigned which,
			    sl_model ***out, size_t *n, sl_error *err);

/* One model of e: the which-th variant, or (which == 0) the only one; a
 * script with several variants then is an error naming them. *out is the
 * caller's (sl_model_free, before the entry). */
int sl_entry_model_one(const sl_entry *e, const sl_grammars *gs, const sl_binds *binds,
		       unsigned which, sl_model **out, sl_error *err);

/* ---- the cache: entries read from git once per object id (cache.c) ------ */

/* `diff REV REV`, `log` and `review` ask for the same entry content many
 * times under different names (an entry unchanged between two commits of
 * a log, both sides of a rename, review's diff and its check); the git
 * object id of the entry (its folder's tree, or its file's blob; for a
 * script of a folder of many, an id of its group's blobs) tells when the
 * content is the same, and then the parse is. */
typedef struct sl_entry_cache sl_entry_cache;

/* One entry in use. entry is non-NULL on success; model is NULL when the
 * entry was read but could not be normalized (then get returned the
 * error). Both are the cache's: release the handle, never free them. */
typedef struct sl_entry_cached {
	sl_entry *entry;
	sl_model *model;
	struct sl_cache_slot *slot;  /* internal */
} sl_entry_cached;

/* A cache over the grammars gs (borrowed; it must outlive the cache).
 * The caller owns the cache (sl_entry_cache_free). */
sl_entry_cache *sl_entry_cache_new(const sl_grammars *gs);
/* The entry at SPEC (REV:path) and its model. The entry carries the name
 * SPEC in every place it reports. Returns SL_OK; or an error with *err set,
 * and h->entry still set (uncached) when only normalizing failed. Release
 * h in every case. */
int sl_entry_cache_get(sl_entry_cache *c, const char *spec, sl_entry_cached *h, sl_error *err);
/* The entry at PATH (from the top) in the working tree, read from disk and
 * named PATH; never cached (no object id). As sl_entry_cache_get. */
int sl_entry_cache_get_worktree(sl_entry_cache *c, const char *path, sl_entry_cached *h, sl_error *err);
void sl_entry_cache_release(sl_entry_cache *c, sl_entry_cached *h);
/* What a command worked out from a cached entry alone (review: its
 * findings), kept with it so that the same content asked for again under
 * another name is not worked out again; it may point into the entry and
 * model, as they are renamed. The memo is the cache's once set: freed
 * with free_fn(memo) when the entry goes. NULL when none was set. */
void *sl_entry_cached_memo(const sl_entry_cached *h);
void sl_entry_cached_set_memo(sl_entry_cached *h, void *memo, void (*free_fn)(void *));
/* The same for two entries together (diff: a's model against b's), kept
 * with a and found while both are the same readings (a reading freed is
 * never found again, whatever takes its place). At most one per pair:
 * ask before setting. Freed with free_fn(memo) when a goes; it may point
 * into both (b may go first: free_fn must not read what memo points to). */
void *sl_entry_cached_pair_memo(const sl_entry_cached *a, const sl_entry_cached *b);
void sl_entry_cached_set_pair_memo(sl_entry_cached *a, const sl_entry_cached *b, void *memo, void (*free_fn)(void *));
/* Counts for --stats: lookups, entries parsed, distinct object ids seen. */
void sl_entry_cache_stats(const sl_entry_cache *c, size_t *lookups, size_t *parsed, size_t *ids);
/* `servelint CMD: N entry lookups, I distinct objects, P parsed` on stderr. */
void sl_entry_cache_print_stats(const char *cmd, const sl_entry_cache *c);
void sl_entry_cache_free(sl_entry_cache *c);

/* ---- the project's .servelint.yaml (config.c) --------------------------- */

/* Shared by check and audit: `disable: [IDs]` (findings suppressed) and
 * `severity: {ID: level}` (changed), which the check stage applies
 * (sl_check_config_apply), and `exclude: [globs]` (entry paths left out). */
typedef struct sl_entry_config {
	sl_source *src;      /* owned */
	sl_yaml_doc *doc;    /* owned; NULL: no config */
} sl_entry_config;

/* The nearest .servelint.yaml at or above PATH (its folder when a file);
 * the caller frees it; NULL when there is none. */
char *sl_entry_config_find(const char *path);
/* Reads FILE (NULL: no config, *cfg empty). A file that is not a mapping
 * is an error with its place. Free *cfg with sl_entry_config_free in any
 * case. */
int sl_entry_config_load(const char *file, sl_entry_config *cfg, sl_error *err);
/* Whether the config's exclude globs match an entry's path. */
int sl_entry_config_excludes(const sl_entry_config *cfg, const char *path);
/* Whether seq (one of the config's lists; NULL or not a sequence: none)
 * holds the scalar s, or with glob a pattern (fnmatch) matching s. */
int sl_entry_config_listed(const sl_yaml_node *seq, const char *s, int glob);
void sl_entry_config_free(sl_entry_config *cfg);

/* ---- names: what `servelint import` calls an entry (naming.c) ------------ */

/* s as a folder name: letters (lower case), digits and dots, each run of
 * other characters one dash between them.
 * Caller frees. */
char *sl_entry_slug(const char *s);
/* A model heading as a folder name, without its "(...)" remark. Caller frees. */
char *sl_entry_model_slug(const char *heading);
/* The claim KEY the entry's metadata makes, entry-wide (role NULL) or of
 * one role; NULL when none. Borrowed from m. */
const sl_claim *sl_entry_metadata_claim(const sl_model *m, const char *key, const char *role);
/* The VARIANT of an entry's name: engine, mode, replicas and parallelism,
 * speculative decoding. NULL when the model runs no engine. Caller frees. */
char *sl_entry_variant_name(const sl_model *m);
/* MODEL/SYSTEM/VARIANT, as import names the entry's folder before telling
 * same-named entries apart: the model heading and system slugged, the
 * variant from the model. NULL when the model runs no engine. Caller frees. */
char *sl_entry_import_name(const sl_model *m, const char *model, const char *system);
/* Same names told apart as import does: by image date, else a setting
 * catalogues vary (mns256, mem0.9), else -1, -2 in order; names[i] (owned,
 * may be NULL) is replaced in place; models[i] is the entry's model. */
void sl_entry_import_tell_apart(char **names, const sl_model *const *models, size_t n);

#endif
