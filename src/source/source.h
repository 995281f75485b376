/*
 * source.h: the source stage. It owns reading input from disk into memory,
 * refusing what is not text (binary, invalid UTF-8, empty, too large), and
 * turning byte offsets into line and column for every later message.
 *
 * An entry is one catalogue configuration: a launch script plus the files
 * that sit beside it (engine YAML files, a metadata sidecar).
 */
#ifndef SL_SOURCE_H
#define SL_SOURCE_H

#include "../util/util.h"

/* Explicit input limits. A launch script is a few kilobytes; anything
 * near these sizes is not a launch script. */
#define SL_MAX_FILE_BYTES (4u * 1024u * 1024u)
#define SL_MAX_ENTRY_FILES 64

typedef struct sl_source {
	char *path;        /* as given or as found in the entry folder; owned */
	char *name;        /* base name (e.g. "launch.sh"); owned */
	char *text;        /* NUL-terminated contents; owned (but see kept) */
	size_t len;
	uint32_t *lines;   /* byte offset of the start of each line; owned */
	size_t nlines;
	unsigned line_base;  /* lines before this text in the file (a section of a
			      * catalogue-form entry file); 0 for a whole file */
	char *section;       /* the section's file name (gen_config.yaml), or NULL; owned */
	unsigned *col_shift; /* per line, columns before this text on the file's line (the
			      * tabs `<<-` removed from a here-document), or NULL; owned */
	/* sl_source_pos's memory of the last position it computed: positions
	 * are asked for in file order, and a long line would otherwise be
	 * rescanned from its start each time */
	size_t pos_off, pos_line;
	unsigned pos_col;
	/* every byte below 0x80 (found while validating the text): a column is
	 * then its offset from the line's start, counted without a scan, in
	 * whatever order positions are asked for */
	int ascii;
	/* files the script sources (`source env.sh`), read while parsing it:
	 * offsets from base on are that file's (off - base), so that a word
	 * built from both keeps one offset per byte; owned (sl_source_link) */
	struct sl_source_link {
		struct sl_source *src;
		uint32_t base;
		char *key;   /* its offer's name (a path from the script's folder), or NULL */
	} *links;
	size_t nlinks;
	/* the scripts it may source when it is not read from disk (a folder
	 * at a revision): what `source PATH` reads then, each named by its
	 * path from the script's folder ("env.sh", "../lib.sh"), so that both
	 * sides of a diff read the same; owned (sl_source_offer) */
	struct sl_source_offer {
		char *name, *text;
		size_t len;
	} *offers;
	size_t noffers;
	int offered;       /* offers hold its folder's scripts (maybe none) */
	char *root;        /* the real path of the input's root, found on the first
			    * link from disk (sl_source_link); owned */
	/* a kept copy's (sl_source_keep): the local line number (1-based,
	 * before line_base) of each of its lines, which are some lines of the
	 * original only; NULL for a source read whole; owned */
	unsigned *line_no;
	/* a kept copy (keep.c): its text, name and section sl_intern's
	 * (shared, never written), its lines, line_no, col_shift and path in
	 * the copy's own allocation; sl_source_free frees its links and itself */
	int kept;
} sl_source;

/* Reads and validates one text file. On success *out is owned by the caller
 * (free with sl_source_free). On failure *err says where and why. */
int sl_source_load(const char *path, sl_source **out, sl_error *err);
/* Wraps bytes already in memory (copied); for tests and stdin. */
int sl_source_from_memory(const char *path, const char *text, size_t len,
			  sl_source **out, sl_error *err);
void sl_source_free(sl_source *s);

/* The script at rel (a *.sh path, relative to the folder of from: s itself,
 * or NULL for s, or a file already linked to s) linked to s as a file it
 * sources, named from the two joined with `.` and `..` resolved by the
 * letter (link.c): from s's offers when it has them (a file of the
 * repository at a revision, named from s's folder), else from disk, when s
 * is a file on disk and the file is inside s's root (the git working tree
 * around s, else the current folder when s is under it, else s's own
 * folder; after every symbolic link); loaded once (the same name again
 * gives the same link), its offsets from *base on. Links are the one part
 * of a loaded source that grows after loading (as sl_source_pos's memory
 * does): s owns them. NULL with *err (its msg says why: not found, a loop
 * of symbolic links, a folder, unreadable, too large, outside the root,
 * not text...) otherwise. */
const sl_source *sl_source_link(const sl_source *s, const sl_source *from, const char *rel, uint32_t *base,
				sl_error *err);
/* The paths a script's text may source, found by the letter, for offering
 * what a script read at a revision may source: each `source W` or `. W`
 * whose W, once a leading folder part (`$(dirname "$0")/`, `$SCRIPT_DIR/`)
 * is taken off, is a fixed relative *.sh path ("../benchmark_lib.sh"). The
 * shell stage decides what is read; a path found here that it does not
 * read is offered for nothing. *out (and each path) the caller's; their
 * count. SL_SOURCED_PATHS_VERSION names what it finds: raise it with any
 * change of that, since an index kept across runs (src/source/git/
 * sourced_index.c) holds its answers per blob and trusts only its own. */
#define SL_SOURCED_PATHS_VERSION 1
size_t sl_source_sourced_paths(const char *text, size_t len, char ***out);
/* dir joined with rel, `.` and `..` resolved by the letter ("." for
 * nothing; a `..` above a relative dir is kept). Caller frees. */
char *sl_source_join(const char *dir, const char *rel);
/* Offers a copy of the script name (text, len) for s to source
 * (sl_source_link): a path from s's folder ("env.sh", "../lib.sh"). */
void sl_source_offer(sl_source *s, const char *name, const char *text, size_t len);
/* The source that holds offset *off of s: s itself, or a file linked to
 * it, *off then made that file's own. */
const sl_source *sl_source_at(const sl_source *s, uint32_t *off);

/* ---- keeping the lines places point into (keep.c) ----------------------
 *
 * What outlives a source that is freed early (audit frees each entry once
 * checked: issue 18, memory flat in the catalogue's size): a copy of each
 * source holding only the lines the places given point to, with their line
 * numbers (line_no), columns and the files it links to (only the lines
 * asked of them too), at the same link bases. A place moved into the copy
 * has the line, column, line text, path, name and section it had, and
 * reads the same bytes from its offset to its line's end; two places in
 * one source stay in one copy. Used in two passes over the same places:
 * every place marked, then every place moved. */
typedef struct sl_source_keep sl_source_keep;
/* A place visited (an origin, or an edit's span of len bytes; len NULL
 * for a point), given to a visitor of places (sl_findings_places...) */
typedef void sl_source_place_fn(const sl_source **src, uint32_t *off, uint32_t *len, void *ud);
sl_source_keep *sl_source_keep_new(void);
/* sl_source_place_fn's: the lines *src's place needs, noted (pass 1) */
void sl_source_keep_mark(const sl_source **src, uint32_t *off, uint32_t *len, void *k);
/* Whether every place marked can be kept: 0, or -1 (an offset past its
 * source's text and in no linked file): then keep the sources whole. */
int sl_source_keep_ok(const sl_source_keep *k);
/* sl_source_place_fn's: *src and *off (and *len) moved into the copy of
 * *src, made at the first move (pass 2; every place marked first). */
void sl_source_keep_move(const sl_source **src, uint32_t *off, uint32_t *len, void *k);
/* The copy of orig, or NULL when no place was moved into it (not owned) */
const sl_source *sl_source_keep_copy(const sl_source_keep *k, const sl_source *orig);
/* Frees k; the copies its places were moved into (*n of them) are the
 * caller's (sl_source_free each, after the places). */
sl_source **sl_source_keep_done(sl_source_keep *k, size_t *n);
/* A kept copy (and the copies it links) written to out, to be read back
 * by the same process (audit puts its entries' summaries aside: issue 18) */
void sl_source_kept_freeze(const sl_source *c, sl_buf *out);
/* The copy sl_source_kept_freeze wrote, read at r (the caller's:
 * sl_source_free): every position, line text and link as the copy's; NULL,
 * r->bad set, when the record is not one. */
sl_source *sl_source_kept_thaw(sl_reader *r);

/* The place of offset off of s (in s or a file linked to it) as a message
 * names it, seen from offset here: "line N" (with_col: "line N, column
 * C") when both are in the same file, else "NAME:N" ("NAME:N:C"), NAME
 * the file's name in places (a sourced file's path from the script's
 * folder), appended to b. */
void sl_source_place(sl_buf *b, const sl_source *s, size_t off, size_t here, int with_col);
/* 1-based line and column of a byte offset (of a linked file's when off is
 * in its range). Columns count Unicode code
 * points, so a `—` earlier on the line counts as one column. */
void sl_source_pos(const sl_source *s, size_t off, unsigned *line, unsigned *col);
/* The index (0-based) into s->lines of the line holding byte off. */
size_t sl_source_line_index(const sl_source *s, size_t off);
/* The byte offset of a 1-based local line and column (as libyaml reports
 * them, without line_base); clamped to the text. */
size_t sl_source_offset(const sl_source *s, unsigned line, unsigned col);
/* The text of the line holding offset off, without its newline (not owned). */
const char *sl_source_line(const sl_source *s, unsigned line, size_t *len);

typedef struct sl_entry {
	char *path;            /* the path the user gave; owned */
	sl_source *script;     /* the launch script */
	sl_source **files;     /* other files of the entry (YAML), in name order */
	size_t nfiles;
	sl_source *metadata;   /* metadata.txt sidecar, or NULL */
	sl_source **scripts;   /* a group's other scripts (decode.sh beside prefill.sh, the
				* script a docker wrapper runs), in the group's order; owned */
	size_t nscripts;
	char *grouped;         /* how the group's files were put together ("prefill.sh +
				* decode.sh (sibling role scripts)"), or NULL; owned */
	int alone;             /* an engine config file read alone (the entry stage's
				* sl_entry_input_alone): files[0] is the file, the script the
				* command line that would name it, which is no file */
	/* What the listing of the entry's folder showed, when sl_entry_load
	 * listed one (listed): whether it holds `models` and `.git`, which the
	 * plan would otherwise ask the disk again for this folder (issue 18) */
	unsigned char listed, has_models, has_git;
	unsigned recipe_variant;  /* the variant of a vLLM model recipe a reading reads
				   * (0: the first): set on a view of the entry by
				   * sl_entry_models, one reading per variant */
} sl_entry;

/* Loads an entry: a folder (launch.sh or the only .sh file, its .yaml/.yml
 * files, metadata.txt) or a single file. A script in a folder of several
 * scripts and no launch.sh is the entry sl_source_groups gives it (with
 * the files it names, or its role siblings). A single file may be in catalogue
 * form: the script, then sections headed `# ---------------- NAME.yaml
 * ----------------`, then the page's metadata lines (System..., Submitted
 * by ...). Sections become files of the entry whose positions are those of
 * the outer file. */
int sl_entry_load(const char *path, sl_entry **out, sl_error *err);
/* sl_entry_load of a PATH the caller has just found to be a folder (its
 * stat is not asked again). */
int sl_entry_load_folder(const char *path, sl_entry **out, sl_error *err);
/* An entry from text in memory (a slice of a catalogue page), in the
 * catalogue form above; line_base is the number of page lines before it,
 * so positions are those of the page. */
int sl_entry_from_memory(const char *path, const char *text, size_t len, unsigned line_base,
			 sl_entry **out, sl_error *err);
/* An entry from files already in memory (read from git, say): names[i]
 * is a base name (launch.sh, gen_config.yaml, metadata.txt), display is the
 * prefix shown in places (REV:path/). */
int sl_entry_from_files(const char *path, const char *display, char *const *names,
			char *const *texts, const size_t *lens, size_t n, sl_entry **out, sl_error *err);
/* An entry at a revision of the git repository around the current
 * directory: SPEC is REV:path (a folder or a file at that revision). Read
 * with libgit2, without a checkout. */
int sl_entry_from_git(const char *spec, sl_entry **out, sl_error *err);
/* The git object SPEC (REV:path) names: the folder's tree or the file's
 * blob (for a script of a folder of several scripts that is not alone in
 * its group, the hash of its group's blob ids and names), as 40 hex
 * digits and a NUL in out. Equal ids, equal entries: the
 * id is what callers cache parsed entries by. */
#define SL_GIT_ID_SIZE 41
int sl_git_object_id(const char *spec, char out[SL_GIT_ID_SIZE], sl_error *err);
/* Gives an entry (and every file of it) the name it would have had if read
 * from PATH: an entry read at one revision is the same entry at another
 * when its object id is the same. */
void sl_entry_rename(sl_entry *e, const char *path);
/* Whether sl_entry_rename(e, path) leaves every file's name (its base
 * name, which messages made when the entry was read name it by: "set
 * after the command that reads it at x.sh:57") as it is: then a model
 * read under e's name is the model read under path. */
int sl_entry_rename_keeps_names(const sl_entry *e, const char *path);
/* ---- entries touched between two revisions (libgit2) --------------------- */

typedef struct sl_touched {
	char *old_path, *new_path;  /* the entry's folder (or script) at each side; owned */
	int in_old, in_new;         /* an entry is there (a script in the folder) */
} sl_touched;

/* PATH, given on the command line from the current folder, as a path from
 * the top of the working tree around it (`.` and `..` resolved), as git
 * takes `git log PATH` and pathspecs; PATH itself outside a repository.
 * REV:path is read as git reads it: from the top, or from the current
 * folder when it starts with ./ or ../ (or is not at the top but is
 * there from the current folder). Caller frees. */
char *sl_git_path_from_cwd(const char *path);
/* The top of the working tree around the current directory, ending in
 * `/`; NULL outside one. Caller frees. */
char *sl_git_workdir(void);
/* The entry the file at PATH belongs to at REV, as sl_git_touched names
 * it: the first script of its group in a folder of many scripts, else
 * PATH. The caller frees it. */
char *sl_git_entry_name(const char *rev, const char *path);
/* Whether FOLDER (a repository path) at REV holds several scripts and no
 * launch.sh: an entry per script (or group), as sl_git_touched names
 * them, not the folder. */
int sl_git_many_scripts(const char *rev, const char *folder);
/* Whether SPEC names a revision of the repository around the current directory. */
int sl_git_is_revision(const char *spec);
/* The entries whose files (scripts, YAML, metadata.txt) differ between two
 * revisions, limited by git pathspecs; renames found by similarity. rev2
 * NULL: the working tree (with the index), as `git diff REV`. *out
 * is the caller's (sl_touched_free). */
int sl_git_touched(const char *rev1, const char *rev2, char *const *pathspec, size_t npath, sl_touched **out,
		   size_t *nout, sl_error *err);
void sl_touched_free(sl_touched *v, size_t n);

typedef struct sl_commit {
	char *id;          /* full hex object id; owned */
	char *parent;      /* first parent's id, or NULL for a root; owned */
	char *author;      /* owned */
	long long time;    /* author time, seconds since the epoch */
	int tz_minutes;    /* the author's UTC offset */
	char *subject;     /* first paragraph of the message; owned */
} sl_commit;

/* The first-parent history from REV, newest first (libgit2 revwalk). *out
 * is the caller's (sl_commits_free). */
int sl_git_log(const char *rev, sl_commit **out, size_t *nout, sl_error *err);
void sl_commits_free(sl_commit *v, size_t n);

/* The newest commit (from HEAD and every ref, at most 5,000 back) whose
 * tree has the blob HEX (40 hex digits) at PATH: its id in out, and 1; 0
 * when there is none (an all-zero id, a file not committed). For git's
 * external diff driver, which is given a file's blob and not its
 * revision. */
int sl_git_find_blob(const char *path, const char *hex, char out[SL_GIT_ID_SIZE]);

/* The full id of the commit REV names, in out; 0, or -1. */
int sl_git_commit_id(const char *rev, char out[SL_GIT_ID_SIZE]);
/* The repository's address: its origin remote's URL, else file:// and its
 * working tree; NULL when there is none. Caller frees. */
char *sl_git_repository_uri(void);
/* The blob id git gives FILE's content (git hash-object), in out; 0, or -1. */
int sl_git_hash_file(const char *file, char out[SL_GIT_ID_SIZE]);

/* A unified line diff of two texts (libgit2's patch from buffers); *out
 * is the caller's. Returns 0, or -1. */
int sl_git_line_diff(const char *a, size_t alen, const char *aname, const char *b, size_t blen, const char *bname,
		     char **out);

/* An entry from standard input (a script or catalogue form). */
int sl_entry_from_stdin(sl_entry **out, sl_error *err);

/* An entry from a file already loaded (plain script or catalogue form);
 * takes ownership of whole, even on failure. */
int sl_entry_from_source(const char *path, sl_source *whole, sl_entry **out, sl_error *err);
void sl_entry_free(sl_entry *e);
/* Frees e's sources (script, files, metadata, scripts), keeping its path:
 * an entry whose places were kept (sl_source_keep) named by its path only. */
void sl_entry_drop_sources(sl_entry *e);
/* Whether s is a Kubernetes (or Dynamo) manifest rather than a script: a
 * .yaml/.yml file with apiVersion: and kind: lines. Such a file is an
 * entry's launch "script" when the entry has no shell script. */
int sl_source_is_manifest(const sl_source *s);
/* Whether s is a deployment recipe that is not Kubernetes (also a
 * manifest, above): a .yaml/.yml file with top-level `backend:` and
 * `resources:` (srt-slurm) or `prefill:` and `decode:` (llm-d style). */
int sl_source_is_recipe(const sl_source *s);
/* Whether s is a vLLM model recipe (vllm-project/recipes
 * models/<Provider>/<Model>.yaml: `model: {model_id, base_args: [...]}`
 * beside `variants:` or `meta:`); also a recipe. */
int sl_source_is_vllm_recipe(const sl_source *s);
/* ---- folders of many scripts (group.c) ----------------------------------- */

/* One entry of a folder that holds several scripts and no launch.sh:
 * names[0] the script that starts it, then the other files (base names). */
typedef struct sl_group {
	char **names;   /* owned */
	size_t n;
	char *how;      /* "prefill.sh + decode.sh (sibling role scripts)", "run.sh +
			 * inner.sh (run by run.sh)"; NULL for a script alone; owned */
} sl_group;

/* Whether a folder of these names holds several scripts and no launch.sh. */
int sl_source_many_scripts(char *const *names, size_t n);
/* Files that can be part of a group: *.sh, *.yaml, *.yml. */
int sl_source_is_group_file(const char *name);
/* The entries of such a folder (names[i] with texts[i] of lens[i] bytes,
 * in name order): each script that no other script names starts one, with
 * the files it names (and those name, as scripts run scripts); scripts
 * whose names differ only by a role word (prefill, decode, frontend,
 * router, proxy), one of them prefill or decode, are one entry. *out is
 * the caller's (sl_source_groups_free). */
int sl_source_groups(char *const *names, char *const *texts, const size_t *lens, size_t n, sl_group **out,
		     size_t *nout);
/* The group that starts with name, else the first that holds it, or NULL. */
const sl_group *sl_source_group_of(const sl_group *gs, size_t n, const char *name);
void sl_source_groups_free(sl_group *gs, size_t n);
/* The groups of folder dir on disk when it holds several scripts and no
 * launch.sh (returns 1, *out the caller's), else 0 with none. */
int sl_source_folder_groups(const char *dir, sl_group **out, size_t *nout);
/* A group of files on disk (dir/name for each name; a script first) as one
 * entry named path, with `how` (may be NULL) said in it. */
int sl_entry_from_group(const char *path, const char *dir, char *const *names, size_t n, const char *how,
			sl_entry **out, sl_error *err);

/* Group g of a folder read into memory (names, texts, lens as given to
 * sl_source_groups) as one entry named path: first (NULL: the group's
 * own first) is its script; prefix + name is each file's path. */
int sl_entry_from_group_texts(const char *path, const char *prefix, char *const *names, char *const *texts,
			       const size_t *lens, size_t n, const sl_group *g, const char *first, sl_entry **out,
			       sl_error *err);

/* Finds a file of the entry by base name (or section name), or NULL. */
const sl_source *sl_entry_file(const sl_entry *e, const char *name);

/* ---- catalogue pages ------------------------------------------------------ */

/* One entry of a published catalogue page (scraped web text): its script
 * starts at `first` (a comment, `#!`, an assignment or a known command) and
 * it ends with the page's `Submitted by ...` line at `last`. */
typedef struct sl_page_entry {
	unsigned first, last;  /* 1-based page lines */
	char *model;           /* the model heading above it ("Kimi K3 (max)"), or NULL; owned */
	char *heading;         /* the latest other heading above it ("B300 x8"), or NULL; owned */
	unsigned model_line;   /* the page line of model (0 when none) */
	unsigned heading_line; /* the page line of heading (0 when none) */
} sl_page_entry;

/* Splits a page into entries. An entry that never reaches its `Submitted
 * by` line is an error naming the line where it starts. *out is owned by
 * the caller (sl_page_entries_free). */
int sl_page_split(const sl_source *page, sl_page_entry **out, size_t *n, sl_error *err);
void sl_page_entries_free(sl_page_entry *v, size_t n);

#endif
