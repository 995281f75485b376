/*
 * history.c: the commits that reach a revision (log), and a revision as
 * review's machine formats name it (its commit id, the repository's URI).
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

int sl_git_log(const char *rev, sl_commit **out, size_t *nout, sl_error *err)
{
	*out = NULL;
	*nout = 0;
	git_repository *repo = NULL;
	git_revwalk *walk = NULL;
	git_object *obj = NULL;
	size_t cap = 0;
	int rc = 0;
	if (gt_repo_open(&repo)) {
		rc = gt_not_a_repo(err, ".");
		goto done;
	}
	if (gt_revparse(&obj, repo, rev)) {
		rc = gt_fail(err, rev, "unknown revision");
		goto done;
	}
	git_object *peeled = NULL;
	if (git_object_peel(&peeled, obj, GIT_OBJECT_COMMIT) || git_revwalk_new(&walk, repo) ||
	    git_revwalk_sorting(walk, GIT_SORT_TOPOLOGICAL | GIT_SORT_TIME) ||
	    git_revwalk_push(walk, git_object_id(peeled))) {
		git_object_free(peeled);
		rc = gt_fail(err, rev, "cannot walk the history");
		goto done;
	}
	git_object_free(peeled);
	/* first parents only, as `git log --first-parent`: a merge's changes are
	 * told by the commits that made them */
	git_revwalk_simplify_first_parent(walk);
	git_oid id;
	while (!git_revwalk_next(&id, walk)) {
		git_commit *c = NULL;
		if (git_commit_lookup(&c, repo, &id))
			continue;
		sl_commit k;
		memset(&k, 0, sizeof k);
		char hex[GIT_OID_HEXSZ + 1];
		git_oid_tostr(hex, sizeof hex, &id);
		k.id = sl_strdup(hex);
		if (git_commit_parentcount(c)) {
			git_oid_tostr(hex, sizeof hex, git_commit_parent_id(c, 0));
			k.parent = sl_strdup(hex);
		}
		const git_signature *a = git_commit_author(c);
		k.author = sl_strdup(a && a->name ? a->name : "");
		k.time = a ? (long long)a->when.time : 0;
		k.tz_minutes = a ? a->when.offset : 0;
		k.subject = sl_strdup(git_commit_summary(c) ? git_commit_summary(c) : "");
		SL_PUSH(*out, *nout, cap, k);
		git_commit_free(c);
	}
done:
	git_revwalk_free(walk);
	git_object_free(obj);
	return rc;
}

void sl_commits_free(sl_commit *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].id);
		free(v[i].parent);
		free(v[i].author);
		free(v[i].subject);
	}
	free(v);
}

/* ---- a revision as review's machine formats name it ------------------------ */

int sl_git_commit_id(const char *rev, char out[SL_GIT_ID_SIZE])
{
	git_repository *repo = NULL;
	git_object *obj = NULL, *c = NULL;
	int rc = -1;
	if (!gt_repo_open(&repo) && !gt_revparse(&obj, repo, rev) && !git_object_peel(&c, obj, GIT_OBJECT_COMMIT)) {
		git_oid_tostr(out, SL_GIT_ID_SIZE, git_object_id(c));
		rc = 0;
	}
	git_object_free(c);
	git_object_free(obj);
	git_error_clear();
	return rc;
}

char *sl_git_repository_uri(void)
{
	git_repository *repo = NULL;
	git_remote *origin = NULL;
	char *out = NULL;
	if (gt_repo_open(&repo))
		return NULL;
	if (!git_remote_lookup(&origin, repo, "origin") && git_remote_url(origin) && *git_remote_url(origin))
		out = sl_strdup(git_remote_url(origin));
	git_remote_free(origin);
	if (!out && git_repository_workdir(repo)) {
		char *top = realpath(git_repository_workdir(repo), NULL);
		if (top) {
			sl_buf b = {0};
			sl_buf_printf(&b, "file://%s/", top);
			out = sl_buf_detach(&b);
			free(top);
		}
	}
	git_error_clear();
	return out;
}
