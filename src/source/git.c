/*
 * git.c: entries read from a git repository at a revision, with libgit2:
 * REV:path names a folder (an entry: its blobs) or a file (a script or an
 * entry in catalogue form). Nothing is checked out and no git process runs.
 */
#include "source.h"

#include <dirent.h>
#include <git2.h>
#include <stdio.h>
#include <sys/stat.h>
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

static int repo_open(git_repository **out)
{
	if (!the_repo) {
		git_libgit2_init();
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

static int gfail(sl_error *err, const char *spec, const char *what)
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
static int revparse(git_object **out, git_repository *repo, const char *rev)
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
 * shutdown, and what is left of it is about its own initialisation). */
static int not_a_repo(sl_error *err, const char *spec)
{
	sl_error_set(err, spec, 0, 0, "not in a git repository (none in the current folder or above it)");
	return SL_ERR_INPUT;
}

/* ---- paths from the current folder ------------------------------------------- */

/* The current folder's path inside the working tree ("cat/dsv41/", "" at
 * the top); NULL outside a repository or a working tree. Caller frees. */
static char *cwd_prefix(void)
{
	git_repository *repo = NULL;
	if (repo_open(&repo) || git_repository_is_bare(repo) || !git_repository_workdir(repo))
		return NULL;
	char *top = realpath(git_repository_workdir(repo), NULL), *cwd = realpath(".", NULL);
	char *out = NULL;
	size_t n = top ? strlen(top) : 0;
	if (top && cwd && !strncmp(cwd, top, n) && (cwd[n] == '/' || !cwd[n])) {
		sl_buf b = {0};
		sl_buf_puts(&b, cwd[n] ? cwd + n + 1 : "");
		if (b.len)
			sl_buf_putc(&b, '/');
		out = b.data ? sl_buf_detach(&b) : sl_strdup("");
	}
	free(top);
	free(cwd);
	return out;
}

/* PREFIX and PATH joined, `.` and `..` resolved ("" for the top). */
static char *join_norm(const char *prefix, const char *path)
{
	sl_buf in = {0}, out = {0};
	sl_buf_printf(&in, "%s%s", prefix, path);
	char *save = NULL;
	char **parts = NULL;
	size_t n = 0, cap = 0;
	for (char *t = strtok_r(in.data, "/", &save); t; t = strtok_r(NULL, "/", &save)) {
		if (!strcmp(t, "."))
			continue;
		if (!strcmp(t, "..")) {
			if (n)
				n--;
			continue;
		}
		SL_PUSH(parts, n, cap, t);
	}
	for (size_t i = 0; i < n; i++)
		sl_buf_printf(&out, "%s%s", i ? "/" : "", parts[i]);
	free(parts);
	char *r = out.data ? sl_buf_detach(&out) : sl_strdup("");
	sl_buf_free(&in);
	return r;
}

char *sl_git_path_from_cwd(const char *path)
{
	if (*path == '/')
		return sl_strdup(path);
	char *prefix = cwd_prefix();
	if (!prefix)
		return sl_strdup(path);
	char *r = join_norm(prefix, path);
	free(prefix);
	return r;
}

static int is_binary(const git_blob *b)
{
	return git_blob_is_binary(b);
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
static int rev_tree(git_repository *repo, const char *rev, git_tree **out)
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
		rc = revparse(&obj, repo, rev);
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
	if (repo_open(repo)) {
		rc = not_a_repo(err, spec);
		goto out;
	}
	if (rev_tree(*repo, *rev, &tree)) {
		rc = gfail(err, spec, "unknown revision");
		goto out;
	}
	/* as git: REV:path is from the top, REV:./path and REV:../path from
	 * the current folder; a path not at the top but there from the
	 * current folder is taken from it too. A trailing slash names the
	 * same folder. */
	char *prefix = cwd_prefix();
	int rel = !strncmp(path, "./", 2) || !strncmp(path, "../", 3) || !strcmp(path, ".") || !strcmp(path, "..");
	char *p = join_norm(rel && prefix ? prefix : "", path);
	int found = git_tree_entry_bypath(te, tree, p);
	if (found && !rel && prefix && *prefix) {
		char *q = join_norm(prefix, path);
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

/* The group files (*.sh, *.yaml, *.yml) of folder `dir` ("" for the top)
 * of tree t: names, texts and blob ids, in name order (git's). Returns 0,
 * or -1 when there is no such folder. */
static int folder_files(git_repository *repo, git_tree *t, const char *dir, char ***names, char ***texts,
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
	size_t m = git_tree_entrycount(from), cap = 0, tcap = 0, lcap = 0, icap = 0, k = 0;
	for (size_t i = 0; i < m; i++) {
		const git_tree_entry *e = git_tree_entry_byindex(from, i);
		const char *nm = git_tree_entry_name(e);
		if (git_tree_entry_type(e) != GIT_OBJECT_BLOB || nm[0] == '.' ||
		    (!sl_source_is_group_file(nm) && strcmp(nm, "launch.sh")))
			continue;
		git_blob *b = NULL;
		char *text;
		size_t len = 0;
		if (git_blob_lookup(&b, repo, git_tree_entry_id(e)) || is_binary(b) ||
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
static char *split_path(const char *path, const char **base)
{
	const char *s = strrchr(path, '/');
	*base = s ? s + 1 : path;
	return s ? sl_strndup(path, (size_t)(s - path)) : sl_strdup("");
}

/* A folder of a tree that holds several scripts and no launch.sh: its
 * group files and their groups. */
typedef struct {
	char **names, **texts;
	size_t *lens;
	git_oid *ids;
	size_t n;
	sl_group *gs;
	size_t ng;
} tree_folder;

static void tree_folder_free(tree_folder *f)
{
	folder_free(f->names, f->texts, f->lens, f->ids, f->n);
	sl_source_groups_free(f->gs, f->ng);
	memset(f, 0, sizeof *f);
}

static int tree_folder_read(git_repository *repo, git_tree *t, const char *dir, tree_folder *f)
{
	memset(f, 0, sizeof *f);
	if (folder_files(repo, t, dir, &f->names, &f->texts, &f->lens, &f->ids, &f->n))
		return -1;
	/* as on disk: a folder of more files than that is not read as groups */
	if (f->n > SL_MAX_ENTRY_FILES * 16 || !sl_source_many_scripts(f->names, f->n)) {
		tree_folder_free(f);
		return -1;
	}
	sl_source_groups(f->names, f->texts, f->lens, f->n, &f->gs, &f->ng);
	return 0;
}

/* The group of the script at path in tree t, when its folder holds
 * several scripts and no launch.sh and the script is not alone in it (*f
 * then the caller's, tree_folder_free); else NULL. */
static const sl_group *tree_group(git_repository *repo, git_tree *t, const char *path, tree_folder *f)
{
	const char *b;
	char *dir = split_path(path, &b);
	const sl_group *g = NULL;
	if (sl_ends_with(b, ".sh") && !tree_folder_read(repo, t, dir, f)) {
		g = sl_source_group_of(f->gs, f->ng, b);
		if (!g || g->n < 2) {
			tree_folder_free(f);
			g = NULL;
		}
	}
	free(dir);
	return g;
}

int sl_git_object_id(const char *spec, char out[SL_GIT_ID_SIZE], sl_error *err)
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
	if (rc == SL_OK && git_tree_entry_type(te) == GIT_OBJECT_BLOB && !rev_tree(repo, rev, &t) &&
	    (g = tree_group(repo, t, strchr(spec, ':') + 1, &f)) != NULL) {
		/* a script with the files it names (or its siblings): the id of them all */
		sl_buf b = {0};
		for (size_t q = 0; q < g->n; q++)
			for (size_t i = 0; i < f.n; i++)
				if (!strcmp(f.names[i], g->names[q])) {
					char hex[GIT_OID_HEXSZ + 1];
					git_oid_tostr(hex, sizeof hex, &f.ids[i]);
					sl_buf_printf(&b, "%s %s\n", hex, f.names[i]);
				}
		git_oid id;
		if (!git_odb_hash(&id, b.data, b.len, GIT_OBJECT_BLOB))
			git_oid_tostr(out, SL_GIT_ID_SIZE, &id);
		sl_buf_free(&b);
		tree_folder_free(&f);
	}
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
	if (git_tree_entry_type(te) == GIT_OBJECT_BLOB && !rev_tree(repo, rev, &top) &&
	    (g = tree_group(repo, top, path, &f)) != NULL) {
		/* a script of a folder of many, with the files of its group */
		const char *b = strrchr(path, '/');
		sl_buf prefix = {0};
		sl_buf_printf(&prefix, "%s:", rev);
		if (b)
			sl_buf_add(&prefix, path, (size_t)(b - path) + 1);
		rc = sl_entry_from_group_texts(spec, prefix.data, f.names, f.texts, f.lens, f.n, g, b ? b + 1 : path,
					       out, err);
		sl_buf_free(&prefix);
		tree_folder_free(&f);
		git_tree_free(top);
		goto out;
	}
	git_tree_free(top);
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
	free(rev);
	return rc;
}

/* ---- entries touched between two revisions -------------------------------- */

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
	char *dir = split_path(path, &b);
	tree_folder f;
	if (t && !tree_folder_read(repo, t, dir, &f)) {
		for (size_t k = 0; k < f.ng; k++)
			for (size_t q = 0; q < f.gs[k].n; q++)
				if (!strcmp(f.gs[k].names[q], b)) {
					sl_buf p = {0};
					sl_buf_printf(&p, "%s%s%s", dir, *dir ? "/" : "", f.gs[k].names[0]);
					SL_PUSH(*out, *n, cap, sl_buf_detach(&p));
					break;
				}
		tree_folder_free(&f);
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
	if (repo_open(&repo) || git_repository_is_bare(repo) || !git_repository_workdir(repo))
		return NULL;
	return sl_strdup(git_repository_workdir(repo));
}

static int tree_at(git_repository *repo, const char *rev, git_tree **out, sl_error *err)
{
	return rev_tree(repo, rev, out) ? gfail(err, rev, "unknown revision") : 0;
}

char *sl_git_entry_name(const char *rev, const char *path)
{
	git_repository *repo = NULL;
	git_tree *t = NULL;
	char *name = NULL;
	tree_folder f;
	const sl_group *g;
	if (!repo_open(&repo) && !rev_tree(repo, rev, &t) && (g = tree_group(repo, t, path, &f)) != NULL) {
		const char *sl = strrchr(path, '/');
		sl_buf p = {0};
		if (sl)
			sl_buf_add(&p, path, (size_t)(sl - path) + 1);
		sl_buf_puts(&p, g->names[0]);
		name = sl_buf_detach(&p);
		tree_folder_free(&f);
	}
	git_tree_free(t);
	return name ? name : sl_strdup(path);
}

int sl_git_is_revision(const char *spec)
{
	git_repository *repo = NULL;
	git_object *obj = NULL;
	int ok = !repo_open(&repo) && !revparse(&obj, repo, spec);
	git_object_free(obj);
	return ok;
}

int sl_git_touched(const char *rev1, const char *rev2, char *const *pathspec, size_t npath, sl_touched **out,
		   size_t *nout, sl_error *err)
{
	*out = NULL;
	*nout = 0;
	git_repository *repo = NULL;
	git_tree *t1 = NULL, *t2 = NULL;
	git_diff *diff = NULL;
	size_t cap = 0, nspec = 0, scap = 0;
	char **specs = NULL;
	int rc = 0;
	if (repo_open(&repo)) {
		rc = not_a_repo(err, ".");
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
			const sl_group *g = tree_group(repo, ts[side], pathspec[i], &f);
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
			tree_folder_free(&f);
		}
	}
	git_diff_options o;
	git_diff_options_init(&o, GIT_DIFF_OPTIONS_VERSION);
	o.pathspec.strings = specs;
	o.pathspec.count = nspec;
	git_diff_find_options fo;
	git_diff_find_options_init(&fo, GIT_DIFF_FIND_OPTIONS_VERSION);
	fo.flags = GIT_DIFF_FIND_RENAMES;
	/* no REV2: the working tree (with the index), as `git diff REV` */
	if ((rev2 ? git_diff_tree_to_tree(&diff, repo, t1, t2, &o)
		  : git_diff_tree_to_workdir_with_index(&diff, repo, t1, &o)) ||
	    git_diff_find_similar(diff, &fo)) {
		rc = gfail(err, rev2 ? rev2 : rev1, "cannot compare the revisions");
		goto done;
	}
	for (size_t i = 0; i < git_diff_num_deltas(diff); i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);
		const char *op = d->old_file.path, *np = d->new_file.path;
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
				od = sl_strdup(os[0]);
				nd = sl_strdup(ns[0]);
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
			size_t k = 0;
			for (; k < *nout; k++)
				if (!strcmp((*out)[k].old_path, od) || !strcmp((*out)[k].new_path, nd))
					break;
			if (k < *nout) {
				free(od);
				free(nd);
				continue;
			}
			sl_touched t = {od, nd, has_entry(t1, od), rev2 ? has_entry(t2, nd) : has_entry_on_disk(repo, nd)};
			if (!t.in_old && !t.in_new && d->status == GIT_DELTA_MODIFIED && is_yaml(np) &&
			    !sl_ends_with(np, "/metadata.yaml") && strcmp(np, "metadata.yaml")) {
				/* a YAML file changed in a folder with no entry: the
				 * file is compared alone (the entry stage reads an
				 * engine config so; anything else has no service) */
				free(od);
				free(nd);
				t = (sl_touched){sl_strdup(op), sl_strdup(np), 1, 1};
			}
			SL_PUSH(*out, *nout, cap, t);
		}
		for (size_t q = 0; q < no; q++)
			free(os[q]);
		for (size_t q = 0; q < nn; q++)
			free(ns[q]);
		free(os);
		free(ns);
	}
done:
	for (size_t i = 0; i < nspec; i++)
		free(specs[i]);
	free(specs);
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

/* ---- history ----------------------------------------------------------- */

int sl_git_log(const char *rev, sl_commit **out, size_t *nout, sl_error *err)
{
	*out = NULL;
	*nout = 0;
	git_repository *repo = NULL;
	git_revwalk *walk = NULL;
	git_object *obj = NULL;
	size_t cap = 0;
	int rc = 0;
	if (repo_open(&repo)) {
		rc = not_a_repo(err, ".");
		goto done;
	}
	if (revparse(&obj, repo, rev)) {
		rc = gfail(err, rev, "unknown revision");
		goto done;
	}
	git_object *peeled = NULL;
	if (git_object_peel(&peeled, obj, GIT_OBJECT_COMMIT) || git_revwalk_new(&walk, repo) ||
	    git_revwalk_sorting(walk, GIT_SORT_TOPOLOGICAL | GIT_SORT_TIME) ||
	    git_revwalk_push(walk, git_object_id(peeled))) {
		git_object_free(peeled);
		rc = gfail(err, rev, "cannot walk the history");
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
	if (!repo_open(&repo) && !revparse(&obj, repo, rev) && !git_object_peel(&c, obj, GIT_OBJECT_COMMIT)) {
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
	if (repo_open(&repo))
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

/* ---- where a blob was: the revision of a file git's diff driver gets -------- */

int sl_git_find_blob(const char *path, const char *hex, char out[SL_GIT_ID_SIZE])
{
	git_repository *repo = NULL;
	git_revwalk *walk = NULL;
	git_oid want, id;
	int found = 0;
	if (strlen(hex) != GIT_OID_HEXSZ || git_oid_fromstr(&want, hex) || git_oid_is_zero(&want) ||
	    repo_open(&repo) || git_revwalk_new(&walk, repo))
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
	git_libgit2_init();
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
	git_libgit2_init();
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
