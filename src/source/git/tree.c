/*
 * tree.c: a folder of a tree at a revision: its group files read (names,
 * texts, blob ids) and the group a script of it belongs to, decided as on
 * disk (group.c).
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

int gt_is_binary(const git_blob *b)
{
	return git_blob_is_binary(b);
}

static int group_file(const git_tree_entry *e)
{
	const char *nm = git_tree_entry_name(e);
	return git_tree_entry_type(e) == GIT_OBJECT_BLOB && nm[0] != '.' &&
	       (sl_source_is_group_file(nm) || !strcmp(nm, "launch.sh"));
}

/* Whether the group files of tree `from` are few enough and several
 * scripts (no launch.sh), as gt_tree_folder_read wants them: told by
 * their names, before any blob is read (an entry folder, the usual case,
 * is not: reading its files for nothing was 33 M of the 234 M
 * instructions of `diff HEAD~1 HEAD` over 10,000 entries). */
static int many_scripts(const git_tree *from)
{
	size_t m = git_tree_entrycount(from), n = 0, cap = 0;
	const char **names = NULL;
	for (size_t i = 0; i < m; i++) {
		const git_tree_entry *e = git_tree_entry_byindex(from, i);
		if (group_file(e))
			SL_PUSH(names, n, cap, git_tree_entry_name(e));
	}
	int many = n <= SL_MAX_ENTRY_FILES * 16 && sl_source_many_scripts((char *const *)names, n);
	free(names);
	return many;
}

/* The group files (*.sh, *.yaml, *.yml) of folder `dir` ("" for the top)
 * of tree t: names, texts and blob ids, in name order (git's). Returns 0,
 * or -1 when there is no such folder, or (groups set) when its files are
 * not several scripts (many_scripts). */
static int folder_files(git_repository *repo, git_tree *t, const char *dir, int groups, char ***names, char ***texts,
			size_t **lens, git_oid **ids, size_t *n)
{
	*names = NULL;
	*texts = NULL;
	*lens = NULL;
	*ids = NULL;
	*n = 0;
	git_tree *sub = NULL;
	if (*dir) {
		git_tree_entry *te = NULL;
		if (git_tree_entry_bypath(&te, t, dir))
			return -1;
		int ok = git_tree_entry_type(te) == GIT_OBJECT_TREE && !git_tree_lookup(&sub, repo, git_tree_entry_id(te));
		git_tree_entry_free(te);
		if (!ok)
			return -1;
	}
	const git_tree *from = sub ? sub : t;
	if (groups && !many_scripts(from)) {
		git_tree_free(sub);
		return -1;
	}
	size_t m = git_tree_entrycount(from), cap = 0, tcap = 0, lcap = 0, icap = 0, k = 0;
	for (size_t i = 0; i < m; i++) {
		const git_tree_entry *e = git_tree_entry_byindex(from, i);
		const char *nm = git_tree_entry_name(e);
		if (!group_file(e))
			continue;
		git_blob *b = NULL;
		char *text;
		size_t len = 0;
		if (gt_blob_lookup(&b, repo, git_tree_entry_id(e)) || gt_is_binary(b) ||
		    git_blob_rawsize(b) > SL_MAX_FILE_BYTES) {
			text = sl_strdup("");
		} else {
			len = (size_t)git_blob_rawsize(b);
			text = sl_strndup(git_blob_rawcontent(b), len);
		}
		git_blob_free(b);
		git_oid id;
		git_oid_cpy(&id, git_tree_entry_id(e));
		size_t k1 = k, k2 = k, k3 = k;
		SL_PUSH(*names, k, cap, sl_strdup(nm));
		SL_PUSH(*texts, k1, tcap, text);
		SL_PUSH(*lens, k2, lcap, len);
		SL_PUSH(*ids, k3, icap, id);
	}
	*n = k;
	git_tree_free(sub);
	return 0;
}

static void folder_free(char **names, char **texts, size_t *lens, git_oid *ids, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(names[i]);
		free(texts[i]);
	}
	free(names);
	free(texts);
	free(lens);
	free(ids);
}

/* The folder part of a path ("" at the top) and its base name. */
char *gt_split_path(const char *path, const char **base)
{
	const char *s = strrchr(path, '/');
	*base = s ? s + 1 : path;
	return s ? sl_strndup(path, (size_t)(s - path)) : sl_strdup("");
}

void gt_tree_folder_free(tree_folder *f)
{
	folder_free(f->names, f->texts, f->lens, f->ids, f->n);
	sl_source_groups_free(f->gs, f->ng);
	memset(f, 0, sizeof *f);
}

int gt_tree_folder_read(git_repository *repo, git_tree *t, const char *dir, tree_folder *f)
{
	memset(f, 0, sizeof *f);
	if (folder_files(repo, t, dir, 1, &f->names, &f->texts, &f->lens, &f->ids, &f->n))
		return -1;
	/* as on disk: a folder of more files than that is not read as groups */
	if (f->n > SL_MAX_ENTRY_FILES * 16 || !sl_source_many_scripts(f->names, f->n)) {
		gt_tree_folder_free(f);
		return -1;
	}
	sl_source_groups(f->names, f->texts, f->lens, f->n, &f->gs, &f->ng);
	return 0;
}

/* The group of the script at path in tree t, when its folder holds
 * several scripts and no launch.sh and the script is not alone in it (*f
 * then the caller's, tree_folder_free); else NULL. */
const sl_group *gt_tree_group(git_repository *repo, git_tree *t, const char *path, tree_folder *f)
{
	const char *b;
	char *dir = gt_split_path(path, &b);
	const sl_group *g = NULL;
	if (sl_ends_with(b, ".sh") && !gt_tree_folder_read(repo, t, dir, f)) {
		g = sl_source_group_of(f->gs, f->ng, b);
		if (!g || g->n < 2) {
			gt_tree_folder_free(f);
			g = NULL;
		}
	}
	free(dir);
	return g;
}

void gt_offer_siblings(git_repository *repo, git_tree *t, const char *path, sl_source *script)
{
	const char *base;
	char *dir = gt_split_path(path, &base);
	char **names, **texts;
	size_t *lens, n;
	git_oid *ids;
	if (!folder_files(repo, t, dir, 0, &names, &texts, &lens, &ids, &n)) {
		script->offered = 1;
		for (size_t i = 0; i < n; i++)
			if (sl_ends_with(names[i], ".sh") && strcmp(names[i], base))
				sl_source_offer(script, names[i], texts[i], lens[i]);
		folder_free(names, texts, lens, ids, n);
	}
	free(dir);
}

/* The text of the blob at path of tree t (a file that is text, within the
 * size limit): 0 with *text (the caller's) and, if id is not NULL, its id;
 * else -1. */
int gt_blob_text(git_repository *repo, git_tree *t, const char *path, git_oid *id, char **text, size_t *len)
{
	git_tree_entry *te = NULL;
	if (git_tree_entry_bypath(&te, t, path))
		return -1;
	git_blob *b = NULL;
	int rc = -1;
	if (git_tree_entry_type(te) == GIT_OBJECT_BLOB && !gt_blob_lookup(&b, repo, git_tree_entry_id(te)) &&
	    !gt_is_binary(b) && git_blob_rawsize(b) <= SL_MAX_FILE_BYTES) {
		if (id)
			git_oid_cpy(id, git_tree_entry_id(te));
		*len = (size_t)git_blob_rawsize(b);
		*text = sl_strndup(git_blob_rawcontent(b), *len);
		rc = 0;
	}
	git_blob_free(b);
	git_tree_entry_free(te);
	return rc;
}

int gt_blob_id(git_tree *t, const char *path, git_oid *id)
{
	git_tree_entry *te = NULL;
	if (git_tree_entry_bypath(&te, t, path))
		return -1;
	int rc = git_tree_entry_type(te) == GIT_OBJECT_BLOB ? 0 : -1;
	if (!rc)
		git_oid_cpy(id, git_tree_entry_id(te));
	git_tree_entry_free(te);
	return rc;
}
