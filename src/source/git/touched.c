/*
 * touched.c: the entries touched between two revisions (or a revision and
 * the working tree): the changed paths of git's diff mapped to the entries
 * they belong to, and the entries whose scripts source a changed file
 * (sourced.c); and what each entry's name is at a revision. Between two
 * trees, libgit2 diffs only the files they differ at (treediff.c).
 */
#include "internal.h"

#include <dirent.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int entry_file(const char *path)
{
	const char *b = strrchr(path, '/');
	b = b ? b + 1 : path;
	size_t n = strlen(b);
	return (n > 3 && !strcmp(b + n - 3, ".sh")) || (n > 5 && !strcmp(b + n - 5, ".yaml")) ||
	       (n > 4 && !strcmp(b + n - 4, ".yml")) || !strcmp(b, "metadata.txt");
}

static int is_yaml(const char *path)
{
	return sl_ends_with(path, ".yaml") || sl_ends_with(path, ".yml");
}

/* The entry a file belongs to: its folder; a script at the top is its own. */
static char *entry_of(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? sl_strndup(path, (size_t)(s - path)) : sl_strdup(path);
}

/* The entries the file at path belongs to in tree t: in a folder of
 * several scripts and no launch.sh, each group holding it (named by its
 * first script); else the folder, as entry_of. */
static void entries_of(git_repository *repo, git_tree *t, const char *path, char ***out, size_t *n)
{
	size_t cap = 0;
	const char *b;
	char *dir = gt_split_path(path, &b);
	tree_folder f;
	if (t && !gt_tree_folder_read(repo, t, dir, &f)) {
		for (size_t k = 0; k < f.ng; k++)
			for (size_t q = 0; q < f.gs[k].n; q++)
				if (!strcmp(f.gs[k].names[q], b)) {
					sl_buf p = {0};
					sl_buf_printf(&p, "%s%s%s", dir, *dir ? "/" : "", f.gs[k].names[0]);
					SL_PUSH(*out, *n, cap, sl_buf_detach(&p));
					break;
				}
		gt_tree_folder_free(&f);
		/* a removed or added script is its own entry at the side it is missing from */
		if (!*n && sl_ends_with(b, ".sh"))
			SL_PUSH(*out, *n, cap, sl_strdup(path));
	} else {
		SL_PUSH(*out, *n, cap, entry_of(path));
	}
	free(dir);
}

/* Does the tree hold an entry at DIR: a script in the folder, or DIR a script? */
static int has_entry(git_tree *t, const char *dir)
{
	git_tree_entry *te = NULL;
	if (!t || git_tree_entry_bypath(&te, t, dir))
		return 0;
	int ok = git_tree_entry_type(te) == GIT_OBJECT_BLOB;
	if (!ok && git_tree_entry_type(te) == GIT_OBJECT_TREE) {
		git_tree *sub = NULL;
		if (!git_tree_lookup(&sub, git_tree_owner(t), git_tree_entry_id(te))) {
			for (size_t i = 0; i < git_tree_entrycount(sub) && !ok; i++) {
				const char *n = git_tree_entry_name(git_tree_entry_byindex(sub, i));
				size_t l = strlen(n);
				ok = l > 3 && !strcmp(n + l - 3, ".sh");
			}
			git_tree_free(sub);
		}
	}
	git_tree_entry_free(te);
	return ok;
}

/* Does the working tree hold an entry at DIR (a script in the folder, or
 * DIR a script)? */
static int has_entry_on_disk(git_repository *repo, const char *dir)
{
	sl_buf p = {0};
	sl_buf_printf(&p, "%s%s", git_repository_workdir(repo), dir);
	struct stat st;
	int ok = 0;
	if (stat(p.data, &st) == 0 && S_ISREG(st.st_mode)) {
		ok = 1;
	} else if (stat(p.data, &st) == 0 && S_ISDIR(st.st_mode)) {
		DIR *d = opendir(p.data);
		struct dirent *de;
		while (d && !ok && (de = readdir(d)))
			ok = de->d_name[0] != '.' && sl_ends_with(de->d_name, ".sh");
		if (d)
			closedir(d);
	}
	sl_buf_free(&p);
	return ok;
}

char *sl_git_workdir(void)
{
	git_repository *repo = NULL;
	if (gt_repo_open(&repo) || git_repository_is_bare(repo) || !git_repository_workdir(repo))
		return NULL;
	return sl_strdup(git_repository_workdir(repo));
}

static int tree_at(git_repository *repo, const char *rev, git_tree **out, sl_error *err)
{
	return gt_rev_tree(repo, rev, out) ? gt_fail(err, rev, "unknown revision") : 0;
}

char *sl_git_entry_name(const char *rev, const char *path)
{
	git_repository *repo = NULL;
	git_tree *t = NULL;
	char *name = NULL;
	tree_folder f;
	const sl_group *g;
	if (!gt_repo_open(&repo) && !gt_rev_tree(repo, rev, &t) && (g = gt_tree_group(repo, t, path, &f)) != NULL) {
		const char *sl = strrchr(path, '/');
		sl_buf p = {0};
		if (sl)
			sl_buf_add(&p, path, (size_t)(sl - path) + 1);
		sl_buf_puts(&p, g->names[0]);
		name = sl_buf_detach(&p);
		gt_tree_folder_free(&f);
	}
	git_tree_free(t);
	return name ? name : sl_strdup(path);
}

int sl_git_many_scripts(const char *rev, const char *folder)
{
	git_repository *repo = NULL;
	git_tree *t = NULL;
	tree_folder f;
	int many = !gt_repo_open(&repo) && !gt_rev_tree(repo, rev, &t) && !gt_tree_folder_read(repo, t, folder, &f);
	if (many)
		gt_tree_folder_free(&f);
	git_tree_free(t);
	return many;
}

int sl_git_is_revision(const char *spec)
{
	git_repository *repo = NULL;
	git_object *obj = NULL;
	int ok = !gt_repo_open(&repo) && !gt_revparse(&obj, repo, spec);
	git_object_free(obj);
	return ok;
}

/* Whether path is one of the pathspecs or under one (as git matches a
 * folder's); no pathspec matches everything. */
static int in_specs(char *const *specs, size_t n, const char *path)
{
	if (!n)
		return 1;
	for (size_t i = 0; i < n; i++) {
		size_t k = strlen(specs[i]);
		while (k && specs[i][k - 1] == '/')
			k--;
		if (!k || (k == 1 && specs[i][0] == '.') ||
		    (!strncmp(path, specs[i], k) && (path[k] == '\0' || path[k] == '/')))
			return 1;
	}
	return 0;
}

/* The files (of n) that the pathspecs match as git's diff matches them
 * (all of them when there is none): *out the caller's, its strings
 * files'; 0, or SL_ERR_INPUT with err. */
static int under_specs(char **files, size_t n, char *const *specs, size_t nspec, char ***out, size_t *nout,
		       const char *rev, sl_error *err)
{
	*out = sl_calloc(n + 1, sizeof **out);
	*nout = 0;
	git_pathspec *ps = NULL;
	git_strarray sa = {(char **)specs, nspec};
	if (nspec && git_pathspec_new(&ps, &sa))
		return gt_fail(err, rev, "cannot compare the revisions"); /* as the diff said it */
	for (size_t i = 0; i < n; i++)
		if (!nspec || git_pathspec_matches_path(ps, GIT_PATHSPEC_DEFAULT, files[i]))
			(*out)[(*nout)++] = files[i];
	git_pathspec_free(ps);
	return 0;
}

/* The entries found so far, by old and by new path: each delta and each
 * sourcer asks whether its entry is there (a scan of the list was 1.3 M
 * string comparisons over 100,000 entries with 1,000 touched). */
typedef struct {
	sl_strmap old, new;
} seen;

static int seen_has(const seen *s, const char *old, const char *new)
{
	return sl_strmap_get(&s->old, old, strlen(old)) != SIZE_MAX ||
	       sl_strmap_get(&s->new, new, strlen(new)) != SIZE_MAX;
}

static void push(sl_touched **out, size_t *nout, size_t *cap, seen *s, sl_touched t)
{
	sl_strmap_put(&s->old, t.old_path, strlen(t.old_path), *nout);
	sl_strmap_put(&s->new, t.new_path, strlen(t.new_path), *nout);
	SL_PUSH(*out, *nout, *cap, t);
}

/* The *.sh paths a diff changes (either side of each delta), pushed once. */
static void changed_scripts(git_diff *diff, char ***v, size_t *n, size_t *cap)
{
	for (size_t i = 0; i < git_diff_num_deltas(diff); i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);
		const char *ps[2] = {d->old_file.path, d->new_file.path};
		for (int s = 0; s < 2; s++) {
			int have = !ps[s] || !sl_ends_with(ps[s], ".sh");
			for (size_t k = 0; k < *n && !have; k++)
				have = !strcmp((*v)[k], ps[s]);
			if (!have)
				SL_PUSH(*v, *n, *cap, sl_strdup(ps[s]));
		}
	}
}

/* The entries whose scripts source a file the revisions change, though
 * their own files are the same (benchmarks/x.sh sourcing
 * ../benchmark_lib.sh, only the library changed): added to *out as
 * touched, those under the pathspecs only. A script reads the same at both
 * sides when it did not change, so the tree it is found in is either. */
static void touched_by_sourced(git_repository *repo, git_tree *t1, git_tree *t2, git_diff *diff, char *const *specs,
			       size_t nspec, const git_diff_options *o, const char *rev2, char *const *files,
			       size_t nfiles, sl_touched **out, size_t *nout, size_t *cap, seen *sn)
{
	git_diff *all = NULL;
	char **changed = NULL;
	size_t nch = 0, chcap = 0;
	if (!git_tree_entrycount(t1))
		return; /* from nothing: every entry is added by its own files */
	/* two trees: every file they differ at is known (files), under the
	 * pathspecs or not */
	for (size_t i = 0; t2 && i < nfiles; i++)
		if (sl_ends_with(files[i], ".sh"))
			SL_PUSH(changed, nch, chcap, sl_strdup(files[i]));
	/* a library outside the pathspecs changes what is under them: its
	 * change is looked for in the whole diff */
	if (!t2 && nspec) {
		git_diff_options wide = *o;
		wide.pathspec.strings = NULL;
		wide.pathspec.count = 0;
		if (t2 ? git_diff_tree_to_tree(&all, repo, t1, t2, &wide)
		       : git_diff_tree_to_workdir_with_index(&all, repo, t1, &wide)) {
			git_error_clear();
			return;
		}
	}
	if (!t2 && (all || diff))
		changed_scripts(all ? all : diff, &changed, &nch, &chcap);
	git_diff_free(all);
	char **src = NULL;
	size_t ns = nch ? gt_sourcers(repo, t2 ? t2 : t1, changed, nch, &src) : 0;
	for (size_t i = 0; i < ns; i++) {
		char **es = NULL;
		size_t ne = 0;
		if (in_specs(specs, nspec, src[i]))
			entries_of(repo, t2 ? t2 : t1, src[i], &es, &ne);
		for (size_t q = 0; q < ne; q++) {
			if (!seen_has(sn, es[q], es[q])) {
				sl_touched t = {sl_strdup(es[q]), sl_strdup(es[q]), has_entry(t1, es[q]),
						rev2 ? has_entry(t2, es[q]) : has_entry_on_disk(repo, es[q])};
				push(out, nout, cap, sn, t);
			}
			free(es[q]);
		}
		free(es);
		free(src[i]);
	}
	free(src);
	for (size_t i = 0; i < nch; i++)
		free(changed[i]);
	free(changed);
}

int sl_git_touched(const char *rev1, const char *rev2, char *const *pathspec, size_t npath, sl_touched **out,
		   size_t *nout, sl_error *err)
{
	*out = NULL;
	*nout = 0;
	git_repository *repo = NULL;
	git_tree *t1 = NULL, *t2 = NULL;
	git_diff *diff = NULL;
	size_t cap = 0, nspec = 0, scap = 0, nfiles = 0, nunder = 0;
	char **specs = NULL, **files = NULL, **under = NULL;
	seen sn = {{0}, {0}};
	int rc = 0;
	if (gt_repo_open(&repo)) {
		rc = gt_not_a_repo(err, ".");
		goto done;
	}
	if ((rc = tree_at(repo, rev1, &t1, err)) || (rev2 && (rc = tree_at(repo, rev2, &t2, err))))
		goto done;
	if (!rev2 && (git_repository_is_bare(repo) || !git_repository_workdir(repo))) {
		sl_error_set(err, rev1, 0, 0, "the repository has no working tree to compare with");
		rc = SL_ERR_INPUT;
		goto done;
	}
	/* a script of a folder of many names its group: all of its files */
	for (size_t i = 0; i < npath; i++) {
		SL_PUSH(specs, nspec, scap, sl_strdup(pathspec[i]));
		git_tree *ts[2] = {t1, t2};
		for (int side = 0; side < 2; side++) {
			if (!ts[side])
				continue; /* the working tree: its groups are not looked at */
			tree_folder f;
			const sl_group *g = gt_tree_group(repo, ts[side], pathspec[i], &f);
			if (!g)
				continue;
			const char *sl = strrchr(pathspec[i], '/');
			for (size_t q = 0; q < g->n; q++) {
				sl_buf p = {0};
				if (sl)
					sl_buf_add(&p, pathspec[i], (size_t)(sl - pathspec[i]) + 1);
				sl_buf_puts(&p, g->names[q]);
				SL_PUSH(specs, nspec, scap, sl_buf_detach(&p));
			}
			gt_tree_folder_free(&f);
		}
	}
	git_diff_options o;
	git_diff_options_init(&o, GIT_DIFF_OPTIONS_VERSION);
	o.pathspec.strings = specs;
	o.pathspec.count = nspec;
	git_diff_find_options fo;
	git_diff_find_options_init(&fo, GIT_DIFF_FIND_OPTIONS_VERSION);
	fo.flags = GIT_DIFF_FIND_RENAMES;
	/* two trees: libgit2 diffs the files they differ at (treediff.c),
	 * those the pathspecs match, named exactly */
	int modified_only = 0;
	if (rev2) {
		nfiles = gt_changed_files(repo, t1, t2, &files, &modified_only);
		if ((rc = under_specs(files, nfiles, specs, nspec, &under, &nunder, rev2, err)))
			goto done;
		o.pathspec.strings = under;
		o.pathspec.count = nunder;
		o.flags |= GIT_DIFF_DISABLE_PATHSPEC_MATCH;
	}
	/* no REV2: the working tree (with the index), as `git diff REV`.
	 * Files that are only modified need no diff: nothing is added or
	 * removed to be a rename, so its deltas would be those files, in
	 * that order, modified (libgit2's diff was 12% of `diff HEAD~1 HEAD`
	 * over 100,000 entries) */
	if ((!rev2 || (nunder && !modified_only)) &&
	    ((rev2 ? git_diff_tree_to_tree(&diff, repo, t1, t2, &o)
		   : git_diff_tree_to_workdir_with_index(&diff, repo, t1, &o)) ||
	     git_diff_find_similar(diff, &fo))) {
		rc = gt_fail(err, rev2 ? rev2 : rev1, "cannot compare the revisions");
		goto done;
	}
	size_t ndeltas = diff ? git_diff_num_deltas(diff) : modified_only ? nunder : 0;
	for (size_t i = 0; i < ndeltas; i++) {
		const git_diff_delta *d = diff ? git_diff_get_delta(diff, i) : NULL;
		const char *op = d ? d->old_file.path : under[i], *np = d ? d->new_file.path : under[i];
		git_delta_t status = d ? d->status : GIT_DELTA_MODIFIED;
		if (!entry_file(op) && !entry_file(np))
			continue;
		char **os = NULL, **ns = NULL;
		size_t no = 0, nn = 0;
		entries_of(repo, t1, op, &os, &no);
		/* the working tree: named as the entries are at REV */
		entries_of(repo, t2 ? t2 : t1, np, &ns, &nn);
		/* pairs: the same entry at both sides; else one to one (a rename) */
		for (size_t a = 0; a < nn || a < no; a++) {
			char *od = NULL, *nd = NULL;
			if (no == 1 && nn == 1) {
				if (a)
					break;
				/* a file added (removed) has no entry at the side it is
				 * missing from: it is named by the other side's, so
				 * that two scripts added to a folder of many are two */
				od = sl_strdup(status == GIT_DELTA_ADDED ? ns[0] : os[0]);
				nd = sl_strdup(status == GIT_DELTA_DELETED ? os[0] : ns[0]);
			} else if (a < nn) {
				nd = sl_strdup(ns[a]);
				od = sl_strdup(ns[a]);
			} else {
				int paired = 0;
				for (size_t q = 0; q < nn && !paired; q++)
					paired = !strcmp(ns[q], os[a]);
				if (paired)
					continue;
				od = sl_strdup(os[a]);
				nd = sl_strdup(os[a]);
			}
			if (seen_has(&sn, od, nd)) {
				free(od);
				free(nd);
				continue;
			}
			sl_touched t = {od, nd, has_entry(t1, od), rev2 ? has_entry(t2, nd) : has_entry_on_disk(repo, nd)};
			if (!t.in_old && !t.in_new && status == GIT_DELTA_MODIFIED && is_yaml(np) &&
			    !sl_ends_with(np, "/metadata.yaml") && strcmp(np, "metadata.yaml")) {
				/* a YAML file changed in a folder with no entry: the
				 * file is compared alone (the entry stage reads an
				 * engine config so; anything else has no service) */
				free(od);
				free(nd);
				t = (sl_touched){sl_strdup(op), sl_strdup(np), 1, 1};
			}
			push(out, nout, &cap, &sn, t);
		}
		for (size_t q = 0; q < no; q++)
			free(os[q]);
		for (size_t q = 0; q < nn; q++)
			free(ns[q]);
		free(os);
		free(ns);
	}
	touched_by_sourced(repo, t1, t2, diff, specs, nspec, &o, rev2, files, nfiles, out, nout, &cap, &sn);
done:
	sl_strmap_free(&sn.old);
	sl_strmap_free(&sn.new);
	for (size_t i = 0; i < nspec; i++)
		free(specs[i]);
	free(specs);
	for (size_t i = 0; i < nfiles; i++)
		free(files[i]);
	free(files);
	free(under); /* its strings are files' */
	git_diff_free(diff);
	git_tree_free(t1);
	git_tree_free(t2);
	return rc;
}

void sl_touched_free(sl_touched *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].old_path);
		free(v[i].new_path);
	}
	free(v);
}
