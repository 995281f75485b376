/*
 * internal.h: what the files of src/source/git/ share, the reader of git
 * repositories behind source.h's sl_git_* and sl_entry_from_git (nothing
 * here is seen outside this folder).
 *
 * Entries read from a git repository at a revision, with libgit2: REV:path
 * names a folder (an entry: its blobs) or a file (a script or an entry in
 * catalogue form). Nothing is checked out and no git process runs.
 *
 * The files, lowest first: repo.c (the repository, failures, revisions),
 * paths.c, tree.c (a folder of a tree), read.c (entries at a revision),
 * treediff.c (the files two trees differ at), sourced_index.c (what each
 * blob sources, kept across runs), sourced.c, touched.c (entries touched
 * between revisions), history.c, blobs.c.
 */
#ifndef SL_SOURCE_GIT_INTERNAL_H
#define SL_SOURCE_GIT_INTERNAL_H

#include "../source.h"

#include "git_lazy.h" /* <git2.h>, its calls through a table loaded on first use */

/* repo.c */
/* The repository around the current directory, opened once per process
 * (*out borrowed; closed at exit). 0, or -1 with the failure kept for
 * gt_fail. */
int gt_repo_open(git_repository **out);
/* err set to what (naming spec) and libgit2's message; SL_ERR_INPUT. */
int gt_fail(sl_error *err, const char *spec, const char *what);
/* git_revparse_single, but a name whose reference points at an object
 * that is not there fails here. */
int gt_revparse(git_object **out, git_repository *repo, const char *rev);
/* No repository, said in our words; SL_ERR_INPUT. */
int gt_not_a_repo(sl_error *err, const char *spec);
/* The tree of revision REV (*out the caller's), or -1 with libgit2's error. */
int gt_rev_tree(git_repository *repo, const char *rev, git_tree **out);

/* paths.c */
/* The current folder's path inside the working tree ("cat/dsv41/", "" at
 * the top); NULL outside a repository or a working tree. Caller frees. */
char *gt_cwd_prefix(void);
/* PREFIX and PATH joined, `.` and `..` resolved ("" for the top). Caller frees. */
char *gt_join_norm(const char *prefix, const char *path);

/* tree.c */
/* A folder of a tree that holds several scripts and no launch.sh: its
 * group files and their groups. */
typedef struct {
	char **names, **texts;
	size_t *lens;
	git_oid *ids;
	size_t n;
	sl_group *gs;
	size_t ng;
} tree_folder;
int gt_is_binary(const git_blob *b);
/* The folder part of a path ("" at the top; caller frees) and its base name. */
char *gt_split_path(const char *path, const char **base);
void gt_tree_folder_free(tree_folder *f);
/* Folder dir of tree t read into *f when it holds several scripts (then
 * 0, *f the caller's); else -1 with *f empty. */
int gt_tree_folder_read(git_repository *repo, git_tree *t, const char *dir, tree_folder *f);
/* The group of the script at path in tree t, when its folder holds
 * several scripts and no launch.sh and the script is not alone in it (*f
 * then the caller's, gt_tree_folder_free); else NULL. */
const sl_group *gt_tree_group(git_repository *repo, git_tree *t, const char *path, tree_folder *f);
/* Offers script (the file at path in tree t) the scripts beside it, which
 * `source NAME` reads (sl_source_offer), as it would on disk. */
void gt_offer_siblings(git_repository *repo, git_tree *t, const char *path, sl_source *script);
/* The text of the blob at path of tree t, a text file within the size
 * limit: 0 with *text (the caller's, NUL-terminated) and *len, and *id if
 * id is not NULL; -1 when there is none (tree.c). */
int gt_blob_text(git_repository *repo, git_tree *t, const char *path, git_oid *id, char **text, size_t *len);
/* The id of the blob at path of tree t: 0, or -1 when there is no blob
 * there (tree.c). */
int gt_blob_id(git_tree *t, const char *path, git_oid *id);
/* git_blob_lookup, from the blobs read last when one of them is id
 * (recent_blobs.c): the same contract (*out the caller's, git_blob_free). */
int gt_blob_lookup(git_blob **out, git_repository *repo, const git_oid *id);

/* treediff.c */
/* The files (paths from the top) whose blob, mode or kind differs between
 * trees a and b, either side's, each once, in path order: *out the
 * caller's; their count. *modified_only: each is a blob of the same mode
 * at both sides (none added, removed or of another kind). Folders with
 * the same id at both sides are not read. */
size_t gt_changed_files(git_repository *repo, git_tree *a, git_tree *b, char ***out, int *modified_only);

/* sourced_index.c: what each script blob sources (sl_source_sourced_paths)
 * and the trees whose scripts name nothing to source, kept per repository
 * across runs in <common git dir>/servelint/sourced-index, by object id.
 * GT_SOURCED_WALK_VERSION names the rules of sourced.c's walk that make a
 * tree quiet (which files are scripts): raise it with any change of them.
 * At most GT_INDEX_MAX records of each kind. Off when SERVELINT_NO_INDEX
 * is set and not empty. Thread-safe. */
#define GT_SOURCED_WALK_VERSION 1
#define GT_INDEX_MAX (1u << 20)
/* What the index knows of blob id of repo: 1 with *text (1 text within
 * the size limit, 0 not, -1 not tested) and the paths it names (*paths
 * and each path the caller's, *n); 0 when it does not know the blob. */
int gt_index_blob(git_repository *repo, const git_oid *id, int *text, char ***paths, size_t *n);
/* Tells the index what blob id names, read now (paths copied). */
void gt_index_put_blob(git_repository *repo, const git_oid *id, int text, char *const *paths, size_t n);
/* Whether the index knows tree id for one whose scripts name nothing. */
int gt_index_quiet_tree(git_repository *repo, const git_oid *id);
/* Tells the index that tree id's scripts, every one read, name nothing. */
void gt_index_put_quiet_tree(git_repository *repo, const git_oid *id);

/* sourced.c */
/* A file a script sources: its path from the script's folder (key), from
 * the top of the tree (full), its blob id and its text (key, full and text
 * owned). */
typedef struct {
	char *key, *full;
	git_oid id;
	char *text;
	size_t len;
} gt_sourced;
/* The files the script at path of tree t sources, and those they source,
 * by the letter (inside the tree, at most SL_MAX_ENTRY_FILES), in the order
 * found: *out the caller's (gt_sourced_free); their count. The script is
 * its blob id (what each blob names is remembered by id: sourced.c) with
 * its text or NULL (then read, and not followed unless it is text within
 * the size limit), or its text alone (id NULL). The one walk of both
 * uses: offered, when not NULL, is the script as the shell stage gets it,
 * with the files offered to it before (its siblings): those are scanned
 * too, after the script, and not found again (gt_offer_sourced offers the
 * rest); NULL follows what the script sources only (an entry's id,
 * gt_sourced_ids). */
size_t gt_sourced_files(git_repository *repo, git_tree *t, const char *path, const git_oid *id, const char *text,
			size_t len, const sl_source *offered, gt_sourced **out);
void gt_sourced_free(gt_sourced *v, size_t n);
/* Offers script (at path of tree t) the files of the tree beyond its
 * folder's that it, or a file so offered, may source (sl_source_sourced_paths;
 * `source ../lib.sh`), as on disk; never one above the tree's top. */
void gt_offer_sourced(git_repository *repo, git_tree *t, const char *path, sl_source *script);
/* "ID PATH\n" appended to b for each of those files (the script as for
 * gt_sourced_files), but those under folder inside ("" for none): what an
 * entry's id adds for the files it reads from outside its own. */
void gt_sourced_ids(git_repository *repo, git_tree *t, const char *path, const git_oid *id, const char *text,
		    size_t len, const char *inside, sl_buf *b);
/* The scripts of tree t (paths from its top) that source one of the
 * changed paths, themselves not changed: *out the caller's; their count. */
size_t gt_sourcers(git_repository *repo, git_tree *t, char *const *changed, size_t nchanged, char ***out);

#endif
