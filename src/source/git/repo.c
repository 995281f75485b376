/*
 * repo.c: the repository around the current directory, opened once per
 * process, libgit2's failures told, and revision names resolved (each
 * name's tree remembered for the process).
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The repository around the current directory, opened once per process:
 * diff REV REV, log and review read hundreds of entries from it, and
 * opening it each time was most of their time (bench/diff_revs.sh). */
static git_repository *the_repo;

static void repo_close(void)
{
	git_repository_free(the_repo);
	the_repo = NULL;
	git_libgit2_shutdown();
}

/* libgit2's message of a failure to open, kept: git_libgit2_shutdown()
 * clears it (and git_error_last() then says libgit2 is not initialized) */
static char open_error[512];

int gt_repo_open(git_repository **out)
{
	if (!the_repo) {
		if (git_libgit2_init() < 0) {
			snprintf(open_error, sizeof open_error, "%s", gt_git_error());
			return -1;
		}
		/* libgit2 hashes every object it reads again to check its id
		 * (git does not): 29% of `diff REV REV`'s instructions over
		 * 10,000 entries of distinct blobs (bench/diff_revs.sh). A
		 * read-only analyzer trusts the object store as git does. */
		git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
		/* libgit2 keeps no tree over 4 KB in its object cache: the top
		 * tree of 100,000 entries (1,000 folders, 37 KB) was read and
		 * parsed again for every entry looked up at a revision */
		git_libgit2_opts(GIT_OPT_SET_CACHE_OBJECT_LIMIT, GIT_OBJECT_TREE, (size_t)(4 << 20));
		if (git_repository_open_ext(&the_repo, ".", 0, NULL)) {
			const git_error *ge = git_error_last();
			snprintf(open_error, sizeof open_error, "%s", ge && ge->message ? ge->message : "");
			the_repo = NULL;
			git_libgit2_shutdown();
			return -1;
		}
		atexit(repo_close);
	}
	*out = the_repo;
	return 0;
}

int gt_fail(sl_error *err, const char *spec, const char *what)
{
	const char *msg = NULL;
	if (!the_repo && *open_error)
		msg = open_error;
	else if (the_repo) {
		const git_error *ge = git_error_last();
		msg = ge && ge->message ? ge->message : NULL;
	}
	sl_error_set(err, spec, 0, 0, "%s%s%s", what, msg && *msg ? ": " : "", msg && *msg ? msg : "");
	return SL_ERR_INPUT;
}

/* git_revparse_single, but a name whose reference points at an object
 * that is not there (a HEAD naming a missing commit) fails here, before
 * libgit2 1.5 would leak the reference on that error path. */
int gt_revparse(git_object **out, git_repository *repo, const char *rev)
{
	size_t n = strcspn(rev, "~^:@");
	if (n && n < 256) {
		char name[256];
		memcpy(name, rev, n);
		name[n] = '\0';
		git_reference *ref = NULL, *res = NULL;
		if (!git_reference_dwim(&ref, repo, name)) {
			int bad = git_reference_resolve(&res, ref) != 0;
			git_odb *odb = NULL;
			if (!bad && !git_repository_odb(&odb, repo)) {
				bad = !git_odb_exists(odb, git_reference_target(res));
				git_odb_free(odb);
			}
			git_reference_free(res);
			git_reference_free(ref);
			if (bad) {
				git_error_set_str(GIT_ERROR_REFERENCE, "the reference names an object that does not exist");
				return -1;
			}
		}
	}
	return git_revparse_single(out, repo, rev);
}

/* No repository: said in our words (libgit2's last error is gone with its
 * shutdown, and what is left of it is about its own initialisation); or
 * that libgit2 could not be loaded. */
int gt_not_a_repo(sl_error *err, const char *spec)
{
	if (*gt_git_error()) { /* not that there is none: libgit2 could not be loaded to look */
		sl_error_set(err, spec, 0, 0, "%s", gt_git_error());
		return SL_ERR_INPUT;
	}
	sl_error_set(err, spec, 0, 0, "not in a git repository (none in the current folder or above it)");
	return SL_ERR_INPUT;
}

/* The trees of the revisions asked for lately. Commands name the same few
 * revisions for every entry (diff REV REV) or commit (log), and resolving
 * a name (a short id, HEAD~2) stats the refs folders each time: in `log`
 * over a thousand commits that was its largest cost. A run never moves a
 * ref, so a name keeps its tree for the process. */
#define TREE_MEMO 16
static struct {
	char *rev;
	git_oid tree;
} memo[TREE_MEMO];
static unsigned memo_next;

static void memo_free(void)
{
	for (unsigned i = 0; i < TREE_MEMO; i++) {
		free(memo[i].rev);
		memo[i].rev = NULL;
	}
}

/* The tree of revision REV (*out the caller's), or -1 with libgit2's error. */
int gt_rev_tree(git_repository *repo, const char *rev, git_tree **out)
{
	for (unsigned i = 0; i < TREE_MEMO; i++)
		if (memo[i].rev && !strcmp(memo[i].rev, rev))
			return git_tree_lookup(out, repo, &memo[i].tree);
	git_object *obj = NULL;
	git_oid id;
	int rc;
	/* a full id names its object, as in git; the refs are not read */
	if (strlen(rev) == GIT_OID_HEXSZ && !git_oid_fromstr(&id, rev))
		rc = git_object_lookup(&obj, repo, &id, GIT_OBJECT_ANY);
	else
		rc = gt_revparse(&obj, repo, rev);
	rc = rc || git_object_peel((git_object **)out, obj, GIT_OBJECT_TREE) ? -1 : 0;
	git_object_free(obj);
	if (rc)
		return rc;
	if (!memo_next && !memo[0].rev)
		atexit(memo_free);
	unsigned k = memo_next++ % TREE_MEMO;
	free(memo[k].rev);
	memo[k].rev = sl_strdup(rev);
	git_oid_cpy(&memo[k].tree, git_tree_id(*out));
	return 0;
}
