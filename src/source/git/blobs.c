/*
 * blobs.c: where a blob was (the revision of a file git's diff driver
 * gets), a file's blob id, and a plain line diff, the fallback when a side
 * is not an entry.
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- where a blob was: the revision of a file git's diff driver gets -------- */

int sl_git_find_blob(const char *path, const char *hex, char out[SL_GIT_ID_SIZE])
{
	git_repository *repo = NULL;
	git_revwalk *walk = NULL;
	git_oid want, id;
	int found = 0;
	if (strlen(hex) != GIT_OID_HEXSZ || git_oid_fromstr(&want, hex) || git_oid_is_zero(&want) ||
	    gt_repo_open(&repo) || git_revwalk_new(&walk, repo))
		goto done;
	/* every commit reachable from HEAD and the refs, newest first */
	git_revwalk_sorting(walk, GIT_SORT_TIME);
	git_revwalk_push_head(walk);
	git_revwalk_push_glob(walk, "refs/*");
	for (unsigned n = 0; !found && n < 5000 && !git_revwalk_next(&id, walk); n++) {
		git_commit *c = NULL;
		git_tree *t = NULL;
		git_tree_entry *te = NULL;
		if (!git_commit_lookup(&c, repo, &id) && !git_commit_tree(&t, c) &&
		    !git_tree_entry_bypath(&te, t, path) && git_oid_equal(git_tree_entry_id(te), &want)) {
			git_oid_tostr(out, SL_GIT_ID_SIZE, &id);
			found = 1;
		}
		git_tree_entry_free(te);
		git_tree_free(t);
		git_commit_free(c);
	}
done:
	git_revwalk_free(walk);
	git_error_clear();
	return found;
}

int sl_git_hash_file(const char *file, char out[SL_GIT_ID_SIZE])
{
	git_oid id;
	if (git_libgit2_init() < 0)
		return -1;
	int rc = git_odb_hashfile(&id, file, GIT_OBJECT_BLOB);
	if (!rc)
		git_oid_tostr(out, SL_GIT_ID_SIZE, &id);
	git_error_clear();
	git_libgit2_shutdown();
	return rc ? -1 : 0;
}

/* ---- a plain line diff (the fallback when a side is not an entry) ---------- */

int sl_git_line_diff(const char *a, size_t alen, const char *aname, const char *b, size_t blen, const char *bname,
		     char **out)
{
	*out = NULL;
	if (git_libgit2_init() < 0)
		return -1;
	git_patch *p = NULL;
	git_buf buf = {0};
	int rc = -1;
	if (!git_patch_from_buffers(&p, a, alen, aname, b, blen, bname, NULL) && !git_patch_to_buf(&buf, p)) {
		*out = sl_strndup(buf.ptr ? buf.ptr : "", buf.size);
		rc = 0;
	}
	git_buf_dispose(&buf);
	git_patch_free(p);
	git_libgit2_shutdown();
	return rc;
}
