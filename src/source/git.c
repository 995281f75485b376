/*
 * git.c: entries read from a git repository at a revision, with libgit2:
 * REV:path names a folder (an entry: its blobs) or a file (a script or an
 * entry in catalogue form). Nothing is checked out and no git process runs.
 */
#include "source.h"

#include <git2.h>
#include <stdlib.h>
#include <string.h>

static int gfail(sl_error *err, const char *spec, const char *what)
{
	const git_error *ge = git_error_last();
	sl_error_set(err, spec, 0, 0, "%s%s%s", what, ge && ge->message ? ": " : "",
		     ge && ge->message ? ge->message : "");
	return SL_ERR_INPUT;
}

static int is_binary(const git_blob *b)
{
	return git_blob_is_binary(b);
}

int sl_entry_from_git(const char *spec, sl_entry **out, sl_error *err)
{
	*out = NULL;
	const char *colon = strchr(spec, ':');
	if (!colon || colon == spec) {
		sl_error_set(err, spec, 0, 0, "expected REV:path");
		return SL_ERR_USAGE;
	}
	char *rev = sl_strndup(spec, (size_t)(colon - spec));
	const char *path = colon + 1;
	git_libgit2_init();
	git_repository *repo = NULL;
	git_object *obj = NULL;
	git_commit *commit = NULL;
	git_tree *tree = NULL;
	git_tree_entry *te = NULL;
	int rc = SL_OK;
	if (git_repository_open_ext(&repo, ".", 0, NULL)) {
		rc = gfail(err, spec, "not in a git repository");
		goto out;
	}
	if (git_revparse_single(&obj, repo, rev) ||
	    git_object_peel((git_object **)&commit, obj, GIT_OBJECT_COMMIT)) {
		rc = gfail(err, spec, "unknown revision");
		goto out;
	}
	if (git_commit_tree(&tree, commit)) {
		rc = gfail(err, spec, "cannot read the revision's tree");
		goto out;
	}
	/* a path with a trailing slash names the same folder */
	char *p = sl_strdup(path);
	size_t pl = strlen(p);
	while (pl > 1 && p[pl - 1] == '/')
		p[--pl] = '\0';
	int found = git_tree_entry_bypath(&te, tree, p);
	free(p);
	if (found) {
		sl_error_set(err, spec, 0, 0, "path not found at %s", rev);
		rc = SL_ERR_INPUT;
		goto out;
	}
	if (git_tree_entry_type(te) == GIT_OBJECT_BLOB) {
		git_blob *b = NULL;
		if (git_blob_lookup(&b, repo, git_tree_entry_id(te))) {
			rc = gfail(err, spec, "cannot read blob");
			goto out;
		}
		if (is_binary(b)) {
			sl_error_set(err, spec, 0, 0, "binary file at %s", rev);
			rc = SL_ERR_INPUT;
		} else {
			rc = sl_entry_from_memory(spec, git_blob_rawcontent(b), (size_t)git_blob_rawsize(b), 0, out,
						  err);
		}
		git_blob_free(b);
		goto out;
	}
	/* a folder: its blobs are the entry's files */
	git_tree *sub = NULL;
	if (git_tree_lookup(&sub, repo, git_tree_entry_id(te))) {
		rc = gfail(err, spec, "cannot read folder");
		goto out;
	}
	size_t n = git_tree_entrycount(sub), k = 0;
	char **names = sl_calloc(n + 1, sizeof *names), **texts = sl_calloc(n + 1, sizeof *texts);
	size_t *lens = sl_calloc(n + 1, sizeof *lens);
	for (size_t i = 0; i < n && rc == SL_OK; i++) {
		const git_tree_entry *e = git_tree_entry_byindex(sub, i);
		if (git_tree_entry_type(e) != GIT_OBJECT_BLOB)
			continue;
		git_blob *b = NULL;
		if (git_blob_lookup(&b, repo, git_tree_entry_id(e))) {
			rc = gfail(err, spec, "cannot read blob");
			break;
		}
		if (is_binary(b)) {
			sl_error_set(err, spec, 0, 0, "binary file %s at %s", git_tree_entry_name(e), rev);
			rc = SL_ERR_INPUT;
		} else {
			names[k] = sl_strdup(git_tree_entry_name(e));
			texts[k] = sl_strndup(git_blob_rawcontent(b), (size_t)git_blob_rawsize(b));
			lens[k] = (size_t)git_blob_rawsize(b);
			k++;
		}
		git_blob_free(b);
	}
	if (rc == SL_OK) {
		sl_buf disp = {0};
		sl_buf_printf(&disp, "%s:%s%s", rev, path, sl_ends_with(path, "/") ? "" : "/");
		rc = sl_entry_from_files(spec, disp.data, names, texts, lens, k, out, err);
		sl_buf_free(&disp);
	}
	for (size_t i = 0; i < k; i++) {
		free(names[i]);
		free(texts[i]);
	}
	free(names);
	free(texts);
	free(lens);
	git_tree_free(sub);
out:
	git_tree_entry_free(te);
	git_tree_free(tree);
	git_commit_free(commit);
	git_object_free(obj);
	git_repository_free(repo);
	git_libgit2_shutdown();
	free(rev);
	return rc;
}
