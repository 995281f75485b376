/*
 * git_lazy.h: libgit2, loaded when a command first reads a repository
 * (git_lazy.c), so that the commands that never do (check, show, audit,
 * matrix, ... of files) do not pay for it. Linked, libgit2 and what it
 * needs (mbedTLS, libssh2, http-parser, zlib, pcre2) cost every process
 * 8.6 M instructions of dynamic loading before main: more than the check
 * of a small script itself (bench/startup.sh).
 *
 * Included (by internal.h) instead of <git2.h>, it turns every libgit2
 * call of this folder into a call through a table that gt_git_load fills
 * with dlopen of the soname the build linked against (SL_LIBGIT2_SONAME,
 * read from the library by CMake). git_libgit2_init() loads the library
 * and returns -1 when it cannot be loaded (gt_git_error() says why), so
 * every entry point fails there, told; a libgit2 call reached without it
 * loads the library too, and ends the process with that message if it
 * cannot (no such path exists: every entry point initialises first).
 */
#ifndef SL_SOURCE_GIT_LAZY_H
#define SL_SOURCE_GIT_LAZY_H

#include <git2.h>

/* Every libgit2 function this folder calls: a new call is added here. */
#define GT_GIT_FUNCS(X)                                                                                         \
	X(git_blob_dup) X(git_blob_free) X(git_blob_is_binary) X(git_blob_lookup) X(git_blob_owner)          \
	X(git_blob_rawcontent) X(git_blob_rawsize)                                                             \
	X(git_buf_dispose) X(git_commit_author) X(git_commit_free) X(git_commit_lookup)                        \
	X(git_commit_parent_id) X(git_commit_parentcount) X(git_commit_summary) X(git_commit_tree)             \
	X(git_diff_find_options_init) X(git_diff_find_similar) X(git_diff_free) X(git_diff_get_delta)          \
	X(git_diff_num_deltas) X(git_diff_options_init) X(git_diff_tree_to_tree)                               \
	X(git_diff_tree_to_workdir_with_index) X(git_error_clear) X(git_error_last) X(git_error_set_str)       \
	X(git_libgit2_init) X(git_libgit2_opts) X(git_libgit2_shutdown) X(git_libgit2_version) X(git_object_free) X(git_object_id)   \
	X(git_object_lookup) X(git_object_peel) X(git_odb_exists) X(git_odb_free) X(git_odb_hash)             \
	X(git_odb_hashfile)                                                                                    \
	X(git_oid_cpy) X(git_oid_equal) X(git_oid_fromstr) X(git_oid_is_zero) X(git_oid_tostr)                 \
	X(git_patch_free) X(git_patch_from_buffers) X(git_patch_to_buf) X(git_pathspec_free)                  \
	X(git_pathspec_matches_path) X(git_pathspec_new) X(git_reference_dwim)                                 \
	X(git_reference_free) X(git_reference_resolve) X(git_reference_target) X(git_remote_free)              \
	X(git_remote_lookup) X(git_remote_url) X(git_repository_commondir) X(git_repository_free)             \
	X(git_repository_is_bare)               \
	X(git_repository_odb) X(git_repository_open_ext) X(git_repository_workdir) X(git_revparse_single)     \
	X(git_revwalk_free) X(git_revwalk_new) X(git_revwalk_next) X(git_revwalk_push) X(git_revwalk_push_glob) \
	X(git_revwalk_push_head) X(git_revwalk_simplify_first_parent) X(git_revwalk_sorting)                  \
	X(git_tree_entry_byindex) X(git_tree_entry_byname) X(git_tree_entry_bypath) X(git_tree_entry_filemode) \
	X(git_tree_entry_free) X(git_tree_entry_id)                                                            \
	X(git_tree_entry_name) X(git_tree_entry_type) X(git_tree_entrycount) X(git_tree_free) X(git_tree_id)  \
	X(git_tree_lookup) X(git_tree_owner)

/* the table: one pointer per function, of the function's own type */
typedef struct gt_git_api {
#define GT_GIT_MEMBER(f) __typeof__(&f) f;
	GT_GIT_FUNCS(GT_GIT_MEMBER)
#undef GT_GIT_MEMBER
} gt_git_api;

/* Loads libgit2 once: 0, or -1 (and every later call -1) when it cannot be
 * loaded or lacks a function. */
int gt_git_load(void);
/* Why the load failed ("" before a failure). Static storage. */
const char *gt_git_error(void);
/* The loaded table; loads first, and when that fails says so on stderr and
 * exits with status 2 (reached only by a call made before git_libgit2_init). */
const gt_git_api *gt_git(void);
/* git_libgit2_init: loads, then initialises; -1 when it cannot be loaded. */
int gt_git_init(void);
/* git_libgit2_shutdown: nothing when the library was never loaded. */
int gt_git_shutdown(void);

/* each name now calls through the table (a macro does not expand inside
 * its own expansion, so the member keeps its name); git_lazy.c, which
 * fills the table by these names, defines GT_GIT_NO_MACROS */
#ifndef GT_GIT_NO_MACROS
#define GT_GIT_CALL(f) (gt_git()->f)
#define git_blob_free GT_GIT_CALL(git_blob_free)
#define git_blob_is_binary GT_GIT_CALL(git_blob_is_binary)
#define git_blob_lookup GT_GIT_CALL(git_blob_lookup)
#define git_blob_dup GT_GIT_CALL(git_blob_dup)
#define git_blob_owner GT_GIT_CALL(git_blob_owner)
#define git_blob_rawcontent GT_GIT_CALL(git_blob_rawcontent)
#define git_blob_rawsize GT_GIT_CALL(git_blob_rawsize)
#define git_buf_dispose GT_GIT_CALL(git_buf_dispose)
#define git_commit_author GT_GIT_CALL(git_commit_author)
#define git_commit_free GT_GIT_CALL(git_commit_free)
#define git_commit_lookup GT_GIT_CALL(git_commit_lookup)
#define git_commit_parent_id GT_GIT_CALL(git_commit_parent_id)
#define git_commit_parentcount GT_GIT_CALL(git_commit_parentcount)
#define git_commit_summary GT_GIT_CALL(git_commit_summary)
#define git_commit_tree GT_GIT_CALL(git_commit_tree)
#define git_diff_find_options_init GT_GIT_CALL(git_diff_find_options_init)
#define git_diff_find_similar GT_GIT_CALL(git_diff_find_similar)
#define git_diff_free GT_GIT_CALL(git_diff_free)
#define git_diff_get_delta GT_GIT_CALL(git_diff_get_delta)
#define git_diff_num_deltas GT_GIT_CALL(git_diff_num_deltas)
#define git_diff_options_init GT_GIT_CALL(git_diff_options_init)
#define git_diff_tree_to_tree GT_GIT_CALL(git_diff_tree_to_tree)
#define git_diff_tree_to_workdir_with_index GT_GIT_CALL(git_diff_tree_to_workdir_with_index)
#define git_error_clear GT_GIT_CALL(git_error_clear)
#define git_error_last GT_GIT_CALL(git_error_last)
#define git_error_set_str GT_GIT_CALL(git_error_set_str)
#define git_libgit2_init gt_git_init
#define git_libgit2_opts GT_GIT_CALL(git_libgit2_opts)
#define git_libgit2_shutdown gt_git_shutdown
#define git_libgit2_version GT_GIT_CALL(git_libgit2_version)
#define git_object_free GT_GIT_CALL(git_object_free)
#define git_object_id GT_GIT_CALL(git_object_id)
#define git_object_lookup GT_GIT_CALL(git_object_lookup)
#define git_object_peel GT_GIT_CALL(git_object_peel)
#define git_odb_exists GT_GIT_CALL(git_odb_exists)
#define git_odb_free GT_GIT_CALL(git_odb_free)
#define git_odb_hash GT_GIT_CALL(git_odb_hash)
#define git_odb_hashfile GT_GIT_CALL(git_odb_hashfile)
#define git_oid_cpy GT_GIT_CALL(git_oid_cpy)
#define git_oid_equal GT_GIT_CALL(git_oid_equal)
#define git_oid_fromstr GT_GIT_CALL(git_oid_fromstr)
#define git_oid_is_zero GT_GIT_CALL(git_oid_is_zero)
#define git_oid_tostr GT_GIT_CALL(git_oid_tostr)
#define git_patch_free GT_GIT_CALL(git_patch_free)
#define git_patch_from_buffers GT_GIT_CALL(git_patch_from_buffers)
#define git_patch_to_buf GT_GIT_CALL(git_patch_to_buf)
#define git_pathspec_free GT_GIT_CALL(git_pathspec_free)
#define git_pathspec_matches_path GT_GIT_CALL(git_pathspec_matches_path)
#define git_pathspec_new GT_GIT_CALL(git_pathspec_new)
#define git_reference_dwim GT_GIT_CALL(git_reference_dwim)
#define git_reference_free GT_GIT_CALL(git_reference_free)
#define git_reference_resolve GT_GIT_CALL(git_reference_resolve)
#define git_reference_target GT_GIT_CALL(git_reference_target)
#define git_remote_free GT_GIT_CALL(git_remote_free)
#define git_remote_lookup GT_GIT_CALL(git_remote_lookup)
#define git_remote_url GT_GIT_CALL(git_remote_url)
#define git_repository_commondir GT_GIT_CALL(git_repository_commondir)
#define git_repository_free GT_GIT_CALL(git_repository_free)
#define git_repository_is_bare GT_GIT_CALL(git_repository_is_bare)
#define git_repository_odb GT_GIT_CALL(git_repository_odb)
#define git_repository_open_ext GT_GIT_CALL(git_repository_open_ext)
#define git_repository_workdir GT_GIT_CALL(git_repository_workdir)
#define git_revparse_single GT_GIT_CALL(git_revparse_single)
#define git_revwalk_free GT_GIT_CALL(git_revwalk_free)
#define git_revwalk_new GT_GIT_CALL(git_revwalk_new)
#define git_revwalk_next GT_GIT_CALL(git_revwalk_next)
#define git_revwalk_push GT_GIT_CALL(git_revwalk_push)
#define git_revwalk_push_glob GT_GIT_CALL(git_revwalk_push_glob)
#define git_revwalk_push_head GT_GIT_CALL(git_revwalk_push_head)
#define git_revwalk_simplify_first_parent GT_GIT_CALL(git_revwalk_simplify_first_parent)
#define git_revwalk_sorting GT_GIT_CALL(git_revwalk_sorting)
#define git_tree_entry_byindex GT_GIT_CALL(git_tree_entry_byindex)
#define git_tree_entry_byname GT_GIT_CALL(git_tree_entry_byname)
#define git_tree_entry_bypath GT_GIT_CALL(git_tree_entry_bypath)
#define git_tree_entry_filemode GT_GIT_CALL(git_tree_entry_filemode)
#define git_tree_entry_free GT_GIT_CALL(git_tree_entry_free)
#define git_tree_entry_id GT_GIT_CALL(git_tree_entry_id)
#define git_tree_entry_name GT_GIT_CALL(git_tree_entry_name)
#define git_tree_entry_type GT_GIT_CALL(git_tree_entry_type)
#define git_tree_entrycount GT_GIT_CALL(git_tree_entrycount)
#define git_tree_free GT_GIT_CALL(git_tree_free)
#define git_tree_id GT_GIT_CALL(git_tree_id)
#define git_tree_lookup GT_GIT_CALL(git_tree_lookup)
#define git_tree_owner GT_GIT_CALL(git_tree_owner)
#endif

#endif
