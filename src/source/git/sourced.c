/*
 * sourced.c: the files a script of a tree sources, found by the letter
 * (sl_source_sourced_paths): a fixed relative *.sh path from the script's
 * folder, and the files those source in turn, inside the tree. One walk
 * serves the shell stage (gt_offer_sourced offers what it finds, the
 * script's siblings scanned too) and a revision walk, which needs them twice:
 * an entry's object id covers the files it sources from outside its own
 * files (benchmarks/x.sh sourcing ../benchmark_lib.sh), so that a change of
 * the library alone is a change of the entry (read.c); and a commit that
 * changes a sourced file touches every entry whose scripts source it
 * (touched.c). Only what the letter names is followed, so a file the shell
 * stage would not read is followed for nothing (it changes no model) and
 * never missed for a change it would read.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

size_t gt_sourced_files(git_repository *repo, git_tree *t, const char *path, const char *text, size_t len,
			const sl_source *offered, gt_sourced **out)
{
	*out = NULL;
	size_t n = 0, cap = 0;
	size_t pre = offered ? offered->noffers : 0;
	const char *base;
	char *dir = gt_split_path(path, &base);
	/* the texts scanned in turn: the script's, the files offered before
	 * (pre of them, named from the script's folder), then each found */
	for (size_t scanned = 0, first = 1; first || scanned < pre + n; first = 0) {
		const char *tx = first ? text : scanned < pre ? offered->offers[scanned].text : (*out)[scanned - pre].text;
		size_t tl = first ? len : scanned < pre ? offered->offers[scanned].len : (*out)[scanned - pre].len;
		/* the folder, from the script's, of the file scanned ("" for the script) */
		char *from = sl_strdup(first ? "" : scanned < pre ? offered->offers[scanned].name
								  : (*out)[scanned - pre].key);
		if (!first)
			scanned++;
		char *slash = strrchr(from, '/');
		if (slash)
			slash[1] = '\0';
		else
			from[0] = '\0';
		char **paths;
		size_t np = sl_source_sourced_paths(tx, tl, &paths);
		for (size_t i = 0; i < np; i++) {
			char *key = sl_source_join(from, paths[i]);
			char *full = sl_source_join(dir, key);
			int have = 0;
			for (size_t j = 0; j < pre && !have; j++)
				have = !strcmp(offered->offers[j].name, key);
			for (size_t j = 0; j < n && !have; j++)
				have = !strcmp((*out)[j].full, full);
			gt_sourced s = {key, full, {{0}}, NULL, 0};
			/* inside the tree only, and at most as many as a script may source */
			if (!have && strcmp(full, "..") && strncmp(full, "../", 3) && n < SL_MAX_ENTRY_FILES &&
			    !gt_blob_text(repo, t, full, &s.id, &s.text, &s.len)) {
				SL_PUSH(*out, n, cap, s);
				key = full = NULL;
			}
			free(key);
			free(full);
			free(paths[i]);
		}
		free(paths);
		free(from);
	}
	free(dir);
	return n;
}

void gt_sourced_free(gt_sourced *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].key);
		free(v[i].full);
		free(v[i].text);
	}
	free(v);
}

void gt_sourced_ids(git_repository *repo, git_tree *t, const char *path, const char *text, size_t len,
		    const char *inside, sl_buf *b)
{
	gt_sourced *v;
	size_t n = gt_sourced_files(repo, t, path, text, len, NULL, &v), k = strlen(inside);
	for (size_t i = 0; i < n; i++) {
		if (k && !strncmp(v[i].full, inside, k) && v[i].full[k] == '/')
			continue; /* the entry's own file: its folder's id covers it */
		if (!strcmp(v[i].full, path))
			continue; /* the script itself (sourcing itself): its id is there */
		char hex[GIT_OID_HEXSZ + 1];
		git_oid_tostr(hex, sizeof hex, &v[i].id);
		sl_buf_printf(b, "%s %s\n", hex, v[i].full);
	}
	gt_sourced_free(v, n);
}

/* ---- the scripts that source a changed file ---------------------------------- */

typedef struct sourcers {
	git_repository *repo;
	git_tree *top;
	char *const *changed;
	size_t nchanged;
	char ***out;
	size_t *nout, cap;
} sourcers;

static int changed_path(const sourcers *x, const char *p)
{
	for (size_t i = 0; i < x->nchanged; i++)
		if (!strcmp(x->changed[i], p))
			return 1;
	return 0;
}

/* Every *.sh of tree `sub` (at `dir` of the top tree) and its folders. */
static void walk(sourcers *x, git_tree *sub, const char *dir, unsigned depth)
{
	for (size_t i = 0; i < git_tree_entrycount(sub); i++) {
		const git_tree_entry *e = git_tree_entry_byindex(sub, i);
		const char *nm = git_tree_entry_name(e);
		sl_buf p = {0};
		sl_buf_printf(&p, "%s%s%s", dir, *dir ? "/" : "", nm);
		if (git_tree_entry_type(e) == GIT_OBJECT_TREE && depth < 32) {
			git_tree *t = NULL;
			if (!git_tree_lookup(&t, x->repo, git_tree_entry_id(e)))
				walk(x, t, p.data, depth + 1);
			git_tree_free(t);
		} else if (git_tree_entry_type(e) == GIT_OBJECT_BLOB && sl_ends_with(nm, ".sh") && nm[0] != '.') {
			git_blob *b = NULL;
			if (!git_blob_lookup(&b, x->repo, git_tree_entry_id(e)) && !gt_is_binary(b) &&
			    git_blob_rawsize(b) <= SL_MAX_FILE_BYTES) {
				gt_sourced *v;
				size_t n = gt_sourced_files(x->repo, x->top, p.data, git_blob_rawcontent(b),
							    (size_t)git_blob_rawsize(b), NULL, &v);
				int hit = 0;
				for (size_t k = 0; k < n && !hit; k++)
					hit = changed_path(x, v[k].full);
				gt_sourced_free(v, n);
				if (hit && !changed_path(x, p.data))
					SL_PUSH(*x->out, *x->nout, x->cap, sl_strdup(p.data));
			}
			git_blob_free(b);
		}
		sl_buf_free(&p);
	}
}

size_t gt_sourcers(git_repository *repo, git_tree *t, char *const *changed, size_t nchanged, char ***out)
{
	*out = NULL;
	size_t nout = 0;
	sourcers x = {repo, t, changed, nchanged, out, &nout, 0};
	/* a script sources a file of its own folder or of one above it: the
	 * scripts to read are below each changed file's folder, each folder
	 * once (one whose parent is read already is not read again) */
	char **dirs = NULL;
	size_t nd = 0, dcap = 0;
	for (size_t i = 0; i < nchanged; i++) {
		const char *b;
		SL_PUSH(dirs, nd, dcap, gt_split_path(changed[i], &b));
	}
	for (size_t i = 0; i < nd; i++) {
		int covered = 0;
		for (size_t j = 0; j < nd && !covered; j++) {
			size_t k = strlen(dirs[j]);
			if (j == i || (!strcmp(dirs[i], dirs[j]) && j > i))
				continue;
			covered = !strcmp(dirs[i], dirs[j]) || !k || (!strncmp(dirs[i], dirs[j], k) && dirs[i][k] == '/');
		}
		if (covered)
			continue;
		git_tree *sub = NULL;
		git_tree_entry *te = NULL;
		if (!*dirs[i]) {
			walk(&x, t, "", 0);
		} else if (!git_tree_entry_bypath(&te, t, dirs[i]) && git_tree_entry_type(te) == GIT_OBJECT_TREE &&
			   !git_tree_lookup(&sub, repo, git_tree_entry_id(te))) {
			walk(&x, sub, dirs[i], 0);
		}
		git_tree_free(sub);
		git_tree_entry_free(te);
	}
	for (size_t i = 0; i < nd; i++)
		free(dirs[i]);
	free(dirs);
	return nout;
}
