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

static int same(const git_tree_entry *a, const git_tree_entry *b)
{
	return git_tree_entry_filemode(a) == git_tree_entry_filemode(b) &&
	       git_oid_equal(git_tree_entry_id(a), git_tree_entry_id(b));
}

static void walk(found *f, git_tree *a, git_tree *b, const char *dir, unsigned depth)
{
	/* a's entries, each with b's of that name; then b's that a lacks */
	for (int side = 0; side < 2; side++) {
		git_tree *t = side ? b : a, *o = side ? a : b;
		for (size_t i = 0; t && i < git_tree_entrycount(t); i++) {
			const git_tree_entry *e = git_tree_entry_byindex(t, i);
			const char *nm = git_tree_entry_name(e);
			const git_tree_entry *x = o ? git_tree_entry_byname(o, nm) : NULL;
			if (x && (side || same(e, x)))
				continue; /* the same, or already seen from a */
			char *p = join(dir, nm);
			git_tree *ta = NULL, *tb = NULL;
			if (x && git_tree_entry_type(e) == GIT_OBJECT_TREE && git_tree_entry_type(x) == GIT_OBJECT_TREE &&
			    depth < 64 && !git_tree_lookup(&ta, f->repo, git_tree_entry_id(e)) &&
			    !git_tree_lookup(&tb, f->repo, git_tree_entry_id(x))) {
				walk(f, ta, tb, p, depth + 1);
			} else {
				all_files(f, e, p, depth);
				if (x)
					all_files(f, x, p, depth);
			}
			git_tree_free(ta);
			git_tree_free(tb);
			free(p);
		}
	}
}

static int by_path(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

size_t gt_changed_files(git_repository *repo, git_tree *a, git_tree *b, char ***out)
{
	found f = {repo, NULL, 0, 0};
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
	return k;
}
