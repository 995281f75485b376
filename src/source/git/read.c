/*
 * read.c: entries read from a git repository at a revision: REV:path names
 * a folder (an entry: its blobs) or a file (a script, an entry in catalogue
 * form, or a script of a grouped folder); and the object id that names
 * what an entry is at a revision.
 */
#include "internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Resolves SPEC (REV:path) to the tree entry at that revision: *rev is the
 * REV part (caller frees), *te the caller's (git_tree_entry_free). */
static int resolve(const char *spec, git_repository **repo, char **rev, git_tree_entry **te, sl_error *err)
{
	*rev = NULL;
	*te = NULL;
	const char *colon = strchr(spec, ':');
	if (!colon || colon == spec) {
		sl_error_set(err, spec, 0, 0, "expected REV:path");
		return SL_ERR_USAGE;
	}
	*rev = sl_strndup(spec, (size_t)(colon - spec));
	const char *path = colon + 1;
	git_tree *tree = NULL;
	int rc = SL_OK;
	if (gt_repo_open(repo)) {
		rc = gt_not_a_repo(err, spec);
		goto out;
	}
	if (gt_rev_tree(*repo, *rev, &tree)) {
		rc = gt_fail(err, spec, "unknown revision");
		goto out;
	}
	/* as git: REV:path is from the top, REV:./path and REV:../path from
	 * the current folder; a path not at the top but there from the
	 * current folder is taken from it too. A trailing slash names the
	 * same folder. */
	char *prefix = gt_cwd_prefix();
	int rel = !strncmp(path, "./", 2) || !strncmp(path, "../", 3) || !strcmp(path, ".") || !strcmp(path, "..");
	char *p = gt_join_norm(rel && prefix ? prefix : "", path);
	int found = git_tree_entry_bypath(te, tree, p);
	if (found && !rel && prefix && *prefix) {
		char *q = gt_join_norm(prefix, path);
		if (!(found = git_tree_entry_bypath(te, tree, q))) {
			free(p);
			p = q;
		} else {
			free(q);
		}
	}
	free(p);
	free(prefix);
	if (found) {
		*te = NULL;
		sl_error_set(err, spec, 0, 0, "path not found at %s", *rev);
		rc = SL_ERR_INPUT;
	}
out:
	git_tree_free(tree);
	return rc;
}

/* The scripts (*.sh) directly in folder te of repo, each with its path
 * (dir/name), passed to gt_sourced_ids by blob id: what the folder's
 * scripts source from outside it. */
static void folder_sourced(git_repository *repo, git_tree *top, const git_tree_entry *te, const char *dir, sl_buf *b)
{
	git_tree *sub = NULL;
	if (git_tree_lookup(&sub, repo, git_tree_entry_id(te)))
		return;
	for (size_t i = 0; i < git_tree_entrycount(sub); i++) {
		const git_tree_entry *e = git_tree_entry_byindex(sub, i);
		const char *nm = git_tree_entry_name(e);
		if (git_tree_entry_type(e) == GIT_OBJECT_BLOB && sl_ends_with(nm, ".sh") && nm[0] != '.') {
			sl_buf p = {0};
			sl_buf_printf(&p, "%s/%s", dir, nm);
			gt_sourced_ids(repo, top, p.data, git_tree_entry_id(e), NULL, 0, dir, b);
			sl_buf_free(&p);
		}
	}
	git_tree_free(sub);
}

/* The ids worked out last, by spec: a revision walk asks the same one
 * again soon (log asks an entry's id at each commit and its parent, so
 * each commit's twice, then the diff of a commit that touched it asks
 * both again: 3,000 ids over 1,000 commits, 127 M of its 1,080 M
 * instructions, for 1,001 distinct). A spec names one object for the
 * process's life (its revision is resolved once, gt_rev_tree; the
 * current folder is worked out once, gt_cwd_prefix). A few, not every
 * one: a diff of 100,000 entries asks each once. Under a lock (check
 * -j's threads read entries at revisions). */
#define RECENT_IDS 8
static pthread_mutex_t ids_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
	char *spec;
	char id[SL_GIT_ID_SIZE];
} recent_ids[RECENT_IDS];
static unsigned next_id;

static void recent_ids_free(void)
{
	for (unsigned i = 0; i < RECENT_IDS; i++) {
		free(recent_ids[i].spec);
		recent_ids[i].spec = NULL;
	}
}

static int recent_id(const char *spec, char out[SL_GIT_ID_SIZE])
{
	pthread_mutex_lock(&ids_lock);
	for (unsigned i = 0; i < RECENT_IDS; i++)
		if (recent_ids[i].spec && !strcmp(recent_ids[i].spec, spec)) {
			memcpy(out, recent_ids[i].id, SL_GIT_ID_SIZE);
			pthread_mutex_unlock(&ids_lock);
			return 1;
		}
	pthread_mutex_unlock(&ids_lock);
	return 0;
}

static void remember_id(const char *spec, const char id[SL_GIT_ID_SIZE])
{
	pthread_mutex_lock(&ids_lock);
	if (!next_id)
		atexit(recent_ids_free);
	unsigned k = next_id++ % RECENT_IDS;
	free(recent_ids[k].spec);
	recent_ids[k].spec = sl_strdup(spec);
	memcpy(recent_ids[k].id, id, SL_GIT_ID_SIZE);
	pthread_mutex_unlock(&ids_lock);
}

static int object_id(const char *spec, char out[SL_GIT_ID_SIZE], sl_error *err);

int sl_git_object_id(const char *spec, char out[SL_GIT_ID_SIZE], sl_error *err)
{
	if (recent_id(spec, out))
		return SL_OK;
	int rc = object_id(spec, out, err);
	if (rc == SL_OK)
		remember_id(spec, out);
	return rc;
}

static int object_id(const char *spec, char out[SL_GIT_ID_SIZE], sl_error *err)
{
	git_repository *repo = NULL;
	git_tree_entry *te = NULL;
	char *rev = NULL;
	int rc = resolve(spec, &repo, &rev, &te, err);
	if (rc == SL_OK)
		git_oid_tostr(out, SL_GIT_ID_SIZE, git_tree_entry_id(te));
	git_tree *t = NULL;
	tree_folder f;
	const sl_group *g;
	const char *path = rc == SL_OK ? strchr(spec, ':') + 1 : NULL;
	sl_buf b = {0};      /* what the id is of, when more than the object */
	sl_buf extra = {0};  /* the files its scripts source from outside it */
	if (rc == SL_OK && !gt_rev_tree(repo, rev, &t)) {
		if (git_tree_entry_type(te) == GIT_OBJECT_BLOB && (g = gt_tree_group(repo, t, path, &f)) != NULL) {
			/* a script with the files it names (or its siblings): the id of them all */
			const char *base;
			char *dir = gt_split_path(path, &base);
			for (size_t q = 0; q < g->n; q++)
				for (size_t i = 0; i < f.n; i++)
					if (!strcmp(f.names[i], g->names[q])) {
						char hex[GIT_OID_HEXSZ + 1];
						git_oid_tostr(hex, sizeof hex, &f.ids[i]);
						sl_buf_printf(&b, "%s %s\n", hex, f.names[i]);
						sl_buf p = {0};
						sl_buf_printf(&p, "%s%s%s", dir, *dir ? "/" : "", f.names[i]);
						if (sl_ends_with(f.names[i], ".sh"))
							/* an empty text stands for a blob that is no
							 * text too: read again, by id */
							gt_sourced_ids(repo, t, p.data, &f.ids[i],
								       f.lens[i] ? f.texts[i] : NULL, f.lens[i], "",
								       &extra);
						sl_buf_free(&p);
					}
			free(dir);
			gt_tree_folder_free(&f);
		} else if (git_tree_entry_type(te) == GIT_OBJECT_BLOB && sl_ends_with(path, ".sh")) {
			gt_sourced_ids(repo, t, path, git_tree_entry_id(te), NULL, 0, "", &extra);
		} else if (git_tree_entry_type(te) == GIT_OBJECT_TREE) {
			char *dir = gt_join_norm("", path);
			if (*dir) /* the top's id covers every file */
				folder_sourced(repo, t, te, dir, &extra);
			free(dir);
		}
	}
	/* a file sourced from outside the entry (../benchmark_lib.sh) is part
	 * of it: a change of that file alone is a change of the entry */
	if (extra.len) {
		if (!b.len)
			sl_buf_printf(&b, "%s\n", out);
		sl_buf_add(&b, extra.data, extra.len);
	}
	if (b.len) {
		git_oid id;
		if (!git_odb_hash(&id, b.data, b.len, GIT_OBJECT_BLOB))
			git_oid_tostr(out, SL_GIT_ID_SIZE, &id);
	}
	sl_buf_free(&b);
	sl_buf_free(&extra);
	git_tree_free(t);
	git_tree_entry_free(te);
	free(rev);
	return rc;
}

int sl_entry_from_git(const char *spec, sl_entry **out, sl_error *err)
{
	*out = NULL;
	git_repository *repo = NULL;
	git_tree_entry *te = NULL;
	char *rev = NULL;
	int rc = resolve(spec, &repo, &rev, &te, err);
	if (rc)
		goto out;
	const char *path = strchr(spec, ':') + 1;
	git_tree *top = NULL;
	tree_folder f;
	const sl_group *g;
	if (git_tree_entry_type(te) == GIT_OBJECT_BLOB && !gt_rev_tree(repo, rev, &top) &&
	    (g = gt_tree_group(repo, top, path, &f)) != NULL) {
		/* a script of a folder of many, with the files of its group */
		const char *b = strrchr(path, '/');
		sl_buf prefix = {0};
		sl_buf_printf(&prefix, "%s:", rev);
		if (b)
			sl_buf_add(&prefix, path, (size_t)(b - path) + 1);
		rc = sl_entry_from_group_texts(spec, prefix.data, f.names, f.texts, f.lens, f.n, g, b ? b + 1 : path,
					       out, err);
		if (rc == SL_OK)
			gt_offer_sourced(repo, top, path, (*out)->script);
		sl_buf_free(&prefix);
		gt_tree_folder_free(&f);
		git_tree_free(top);
		goto out;
	}
	git_tree_free(top);
	if (git_tree_entry_type(te) == GIT_OBJECT_BLOB) {
		git_blob *b = NULL;
		if (gt_blob_lookup(&b, repo, git_tree_entry_id(te))) {
			rc = gt_fail(err, spec, "cannot read blob");
			goto out;
		}
		if (gt_is_binary(b)) {
			sl_error_set(err, spec, 0, 0, "binary file at %s", rev);
			rc = SL_ERR_INPUT;
		} else {
			rc = sl_entry_from_memory(spec, git_blob_rawcontent(b), (size_t)git_blob_rawsize(b), 0, out,
						  err);
			if (rc == SL_OK && (*out)->script && !gt_rev_tree(repo, rev, &top)) {
				gt_offer_siblings(repo, top, path, (*out)->script);
				gt_offer_sourced(repo, top, path, (*out)->script);
				git_tree_free(top);
			}
		}
		git_blob_free(b);
		goto out;
	}
	/* a folder: its blobs are the entry's files */
	git_tree *sub = NULL;
	if (git_tree_lookup(&sub, repo, git_tree_entry_id(te))) {
		rc = gt_fail(err, spec, "cannot read folder");
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
		if (gt_blob_lookup(&b, repo, git_tree_entry_id(e))) {
			rc = gt_fail(err, spec, "cannot read blob");
			break;
		}
		if (gt_is_binary(b)) {
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
		git_tree *t = NULL;
		if (rc == SL_OK && !gt_rev_tree(repo, rev, &t)) {
			char *sp = sl_source_join(path, (*out)->script->name);
			gt_offer_sourced(repo, t, sp, (*out)->script);
			free(sp);
		}
		git_tree_free(t);
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
	free(rev);
	return rc;
}
