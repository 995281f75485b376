/*
 * treediff.c: the files two trees differ at, found by walking both side
 * by side and passing over every entry whose id and mode are the same at
 * both: an unchanged folder is one comparison, never read. libgit2's tree
 * diff reads every entry of both trees (113 M of the 301 M instructions of
 * `diff HEAD~1 HEAD` over 10,000 entries, bench/diff_revs.sh, where git's
 * whole `diff --stat` is 58.6 M); touched.c hands it these files as an
 * exact path list instead, so that it reads only the folders that hold
 * them, and its deltas (renames found among them) are those of the whole
 * diff.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
	git_repository *repo;
	char **v;
	size_t n, cap;
	int modified_only; /* every file found is a blob at both sides, of the same mode */
} found;

static char *join(const char *dir, const char *name)
{
	sl_buf p = {0};
	sl_buf_printf(&p, "%s%s%s", dir, *dir ? "/" : "", name);
	return sl_buf_detach(&p);
}

/* Every file under tree entry e (at path p): p itself when it is no tree. */
static void all_files(found *f, const git_tree_entry *e, const char *p, unsigned depth)
{
	git_tree *t = NULL;
	if (git_tree_entry_type(e) != GIT_OBJECT_TREE || depth >= 64 ||
	    git_tree_lookup(&t, f->repo, git_tree_entry_id(e))) {
		SL_PUSH(f->v, f->n, f->cap, sl_strdup(p));
		return;
	}
	for (size_t i = 0; i < git_tree_entrycount(t); i++) {
		const git_tree_entry *x = git_tree_entry_byindex(t, i);
		char *q = join(p, git_tree_entry_name(x));
		all_files(f, x, q, depth + 1);
		free(q);
	}
	git_tree_free(t);
}

/* Two entries in git's order of a tree's entries: by name, a folder's as
 * if it ended with '/'. */
static int entry_cmp(const git_tree_entry *a, const git_tree_entry *b)
{
	const char *x = git_tree_entry_name(a), *y = git_tree_entry_name(b);
	size_t lx = strlen(x), ly = strlen(y), n = lx < ly ? lx : ly;
	int c = memcmp(x, y, n);
	if (c)
		return c;
	int cx = lx > n ? (unsigned char)x[n] : git_tree_entry_type(a) == GIT_OBJECT_TREE ? '/' : 0;
	int cy = ly > n ? (unsigned char)y[n] : git_tree_entry_type(b) == GIT_OBJECT_TREE ? '/' : 0;
	return cx - cy;
}

/* Both trees' entries side by side, in their order (a merge: looking
 * each name up in the other tree was 81 M instructions over 100,000
 * entries). */
static void walk(found *f, git_tree *a, git_tree *b, const char *dir, unsigned depth)
{
	size_t na = git_tree_entrycount(a), nb = git_tree_entrycount(b), i = 0, j = 0;
	while (i < na || j < nb) {
		const git_tree_entry *x = i < na ? git_tree_entry_byindex(a, i) : NULL;
		const git_tree_entry *y = j < nb ? git_tree_entry_byindex(b, j) : NULL;
		int c = !x ? 1 : !y ? -1 : entry_cmp(x, y);
		i += c <= 0;
		j += c >= 0;
		if (!c && git_tree_entry_filemode(x) == git_tree_entry_filemode(y) &&
		    git_oid_equal(git_tree_entry_id(x), git_tree_entry_id(y)))
			continue; /* the same */
		char *p = join(dir, git_tree_entry_name(x && c <= 0 ? x : y));
		git_tree *ta = NULL, *tb = NULL;
		if (!c && git_tree_entry_type(x) == GIT_OBJECT_TREE && git_tree_entry_type(y) == GIT_OBJECT_TREE &&
		    depth < 64 && !git_tree_lookup(&ta, f->repo, git_tree_entry_id(x)) &&
		    !git_tree_lookup(&tb, f->repo, git_tree_entry_id(y))) {
			walk(f, ta, tb, p, depth + 1);
		} else if (!c && git_tree_entry_type(x) == GIT_OBJECT_BLOB && git_tree_entry_type(y) == GIT_OBJECT_BLOB &&
			   git_tree_entry_filemode(x) == git_tree_entry_filemode(y)) {
			SL_PUSH(f->v, f->n, f->cap, p); /* the same file, another blob */
			p = NULL;
		} else {
			f->modified_only = 0;
			if (c <= 0)
				all_files(f, x, p, depth);
			if (c >= 0)
				all_files(f, y, p, depth);
		}
		git_tree_free(ta);
		git_tree_free(tb);
		free(p);
	}
}

static int by_path(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

size_t gt_changed_files(git_repository *repo, git_tree *a, git_tree *b, char ***out, int *modified_only)
{
	found f = {repo, NULL, 0, 0, 1};
	walk(&f, a, b, "", 0);
	/* once each (a blob that became a folder of that name is found from
	 * both sides), in path order */
	if (f.n > 1)
		qsort(f.v, f.n, sizeof *f.v, by_path);
	size_t k = 0;
	for (size_t i = 0; i < f.n; i++) {
		if (k && !strcmp(f.v[k - 1], f.v[i]))
			free(f.v[i]);
		else
			f.v[k++] = f.v[i];
	}
	*out = f.v;
	*modified_only = f.modified_only;
	return k;
}
