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

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- what a blob's letter names, per blob id ---------------------------------- */

/* A revision walk reads the same scripts at many commits (log of 1,000
 * commits: 1,000 lookups of an entry of 501 versions, and the scripts by a
 * changed file each commit): each blob is read, tested and scanned once
 * (the reading, binary test and scan were 390 M of the 2,018 M
 * instructions of such a log). Under a lock: the threads of check -j may
 * read entries at revisions. */
typedef struct {
	int text;       /* a text file within the size limit: followed; -1 not
			 * known yet (it names nothing, and was asked only that) */
	char **paths;   /* what sl_source_sourced_paths found in it; owned */
	size_t n;
} scan_memo;

static pthread_mutex_t scans_lock = PTHREAD_MUTEX_INITIALIZER;
static sl_strmap scans_by_id;
static scan_memo *scans;
static size_t nscans, scans_cap;

static void scans_free(void)
{
	for (size_t i = 0; i < nscans; i++) {
		for (size_t k = 0; k < scans[i].n; k++)
			free(scans[i].paths[k]);
		free(scans[i].paths);
	}
	free(scans);
	scans = NULL;
	nscans = scans_cap = 0;
	sl_strmap_free(&scans_by_id);
}

static char **paths_copy(char *const *v, size_t n)
{
	char **c = sl_calloc(n + 1, sizeof *c);
	for (size_t i = 0; i < n; i++)
		c[i] = sl_strdup(v[i]);
	return c;
}

/* What blob id names (ok: 1 text, 0 not, -1 not tested), remembered for
 * the process; scan's return for it. */
static int remember(const git_oid *id, int ok, char *const *paths, size_t n)
{
	pthread_mutex_lock(&scans_lock);
	size_t i = sl_strmap_get(&scans_by_id, (const char *)id->id, GIT_OID_RAWSZ);
	if (i == SIZE_MAX) {
		if (!nscans)
			atexit(scans_free);
		scan_memo m = {ok, paths_copy(paths, n), n};
		sl_strmap_put(&scans_by_id, (const char *)id->id, GIT_OID_RAWSZ, nscans);
		SL_PUSH(scans, nscans, scans_cap, m);
	} else if (scans[i].text < 0) {
		scans[i].text = ok; /* tested now */
	}
	pthread_mutex_unlock(&scans_lock);
	return ok ? 0 : -1;
}

/* The paths that the letter of blob id names (*paths and each the
 * caller's, *n of them); text, when not NULL, is the blob's (len bytes),
 * else it is read. -1 when the blob is no text file within the limit
 * (then it names nothing). With paths_only, a blob that names nothing
 * returns 0 untested: the walk of every script of a tree (gt_sourcers)
 * needs only what each names, and libgit2's binary test of each was 6%
 * of `diff REV REV`'s instructions over 10,000 entries of distinct blobs.
 * A blob read here is told to the index kept across runs, and one it
 * knows is not read (sourced_index.c); one given by its text is neither
 * asked nor told (its text, not the blob's test, made the answer). A
 * blob that cannot be read names nothing, is not remembered, and sets
 * *unread when unread is not NULL. */
static int scan(git_repository *repo, const git_oid *id, const char *text, size_t len, int paths_only, char ***paths,
		size_t *n, int *unread)
{
	*paths = NULL;
	*n = 0;
	pthread_mutex_lock(&scans_lock);
	size_t i = sl_strmap_get(&scans_by_id, (const char *)id->id, GIT_OID_RAWSZ);
	if (i != SIZE_MAX && (scans[i].text >= 0 || paths_only)) {
		int ok = scans[i].text;
		*paths = paths_copy(scans[i].paths, scans[i].n);
		*n = scans[i].n;
		pthread_mutex_unlock(&scans_lock);
		return ok ? 0 : -1;
	}
	pthread_mutex_unlock(&scans_lock);
	int known;
	if (!text && gt_index_blob(repo, id, &known, paths, n)) {
		/* remembered as if read: the rest of the run goes as it would */
		if (known >= 0 || paths_only)
			return remember(id, known, *paths, *n);
		for (size_t k = 0; k < *n; k++) /* known untested, and the test is asked */
			free((*paths)[k]);
		free(*paths);
		*paths = NULL;
		*n = 0;
	}
	git_blob *b = NULL;
	int ok = 1;
	if (!text) {
		if (gt_blob_lookup(&b, repo, id)) {
			if (unread)
				*unread = 1;
			return -1;
		}
		text = git_blob_rawcontent(b);
		len = (size_t)git_blob_rawsize(b);
	}
	*n = sl_source_sourced_paths(text, len, paths);
	/* what names something, or is asked, is tested: a binary file or one
	 * past the limit is not followed, and names nothing */
	if (b && (*n || !paths_only)) {
		ok = !gt_is_binary(b) && git_blob_rawsize(b) <= SL_MAX_FILE_BYTES;
		if (!ok) {
			for (size_t k = 0; k < *n; k++)
				free((*paths)[k]);
			free(*paths);
			*paths = NULL;
			*n = 0;
		}
	} else if (b) {
		ok = -1;
	}
	if (b)
		gt_index_put_blob(repo, id, ok, *paths, *n);
	git_blob_free(b);
	return remember(id, ok, *paths, *n);
}

/* ---- the walk ------------------------------------------------------------------ */

size_t gt_sourced_files(git_repository *repo, git_tree *t, const char *path, const git_oid *id, const char *text,
			size_t len, const sl_source *offered, gt_sourced **out)
{
	*out = NULL;
	size_t n = 0, cap = 0;
	size_t pre = offered ? offered->noffers : 0;
	const char *base;
	char *dir = gt_split_path(path, &base);
	/* the texts scanned in turn: the script's, the files offered before
	 * (pre of them, named from the script's folder), then each found */
	for (size_t scanned = 0, first = 1; first || scanned < pre + n; first = 0) {
		char **paths = NULL;
		size_t np = 0;
		int got;
		if (first)
			got = id ? scan(repo, id, text, len, 0, &paths, &np, NULL) : (np = sl_source_sourced_paths(text, len, &paths), 0);
		else if (scanned < pre)
			got = (np = sl_source_sourced_paths(offered->offers[scanned].text, offered->offers[scanned].len,
							    &paths), 0);
		else
			got = scan(repo, &(*out)[scanned - pre].id, (*out)[scanned - pre].text, (*out)[scanned - pre].len, 0,
				   &paths, &np, NULL);
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
		for (size_t i = 0; got == 0 && i < np; i++) {
			char *key = sl_source_join(from, paths[i]);
			char *full = sl_source_join(dir, key);
			int have = 0;
			for (size_t j = 0; j < pre && !have; j++)
				have = !strcmp(offered->offers[j].name, key);
			for (size_t j = 0; j < n && !have; j++)
				have = !strcmp((*out)[j].full, full);
			gt_sourced s = {key, full, {{0}}, NULL, 0};
			/* inside the tree only, and at most as many as a script may
			 * source; its text read only for the offers (the ids need
			 * the blob's id, and what it names, which scan remembers) */
			if (!have && strcmp(full, "..") && strncmp(full, "../", 3) && n < SL_MAX_ENTRY_FILES &&
			    (offered ? !gt_blob_text(repo, t, full, &s.id, &s.text, &s.len) : !gt_blob_id(t, full, &s.id))) {
				char **sub;
				size_t ns;
				/* a file that is no text is not followed */
				int ok = offered || !scan(repo, &s.id, NULL, 0, 0, &sub, &ns, NULL);
				if (!offered) {
					for (size_t k = 0; k < ns; k++)
						free(sub[k]);
					free(sub);
				}
				if (ok) {
					SL_PUSH(*out, n, cap, s);
					key = full = NULL;
				}
			}
			free(key);
			free(full);
		}
		for (size_t i = 0; i < np; i++)
			free(paths[i]);
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

/* The shell stage's offers at a revision: what the walk finds from the
 * script and its siblings offered before (tree.c's gt_offer_siblings). */
void gt_offer_sourced(git_repository *repo, git_tree *t, const char *path, sl_source *script)
{
	script->offered = 1;
	gt_sourced *v;
	size_t n = gt_sourced_files(repo, t, path, NULL, script->text, script->len, script, &v);
	for (size_t i = 0; i < n; i++)
		sl_source_offer(script, v[i].key, v[i].text, v[i].len);
	gt_sourced_free(v, n);
}

void gt_sourced_ids(git_repository *repo, git_tree *t, const char *path, const git_oid *id, const char *text,
		    size_t len, const char *inside, sl_buf *b)
{
	gt_sourced *v;
	size_t n = gt_sourced_files(repo, t, path, id, text, len, NULL, &v), k = strlen(inside);
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
	int unread; /* a blob could not be read: what is quiet is not remembered */
} sourcers;

static int changed_path(const sourcers *x, const char *p)
{
	for (size_t i = 0; i < x->nchanged; i++)
		if (!strcmp(x->changed[i], p))
			return 1;
	return 0;
}

/* The trees whose scripts (every *.sh under them) name no file to
 * source, by id: whatever the changed files, none of them is a sourcer,
 * so a tree met again (the same folder at another place, at another
 * commit of a log) is passed over unread. Under the scans' lock. A set
 * of ids by open addressing, an id's first bytes its hash (ids are
 * uniform): asked of every folder of the tree (10,000 over 10,000
 * entries), the string map's hash of the 20 bytes was 2.1 M of `review
 * HEAD~1 HEAD`'s 98.3 M instructions. The all-zero id marks a free slot
 * (no object has it). */
static git_oid *quiet;
static size_t nquiet, quiet_cap;

static void quiet_free(void)
{
	free(quiet);
	quiet = NULL;
	nquiet = quiet_cap = 0;
}

/* (by hand: libgit2's are calls through the lazy loader's table) */
static int oid_zero(const git_oid *id)
{
	static const unsigned char zero[GIT_OID_RAWSZ];
	return !memcmp(id->id, zero, GIT_OID_RAWSZ);
}

static int oid_same(const git_oid *a, const git_oid *b)
{
	return !memcmp(a->id, b->id, GIT_OID_RAWSZ);
}

static size_t quiet_slot(const git_oid *id)
{
	uint64_t h;
	memcpy(&h, id->id, sizeof h);
	size_t k = (size_t)h & (quiet_cap - 1);
	while (!oid_zero(&quiet[k]) && !oid_same(&quiet[k], id))
		k = (k + 1) & (quiet_cap - 1);
	return k;
}

/* Known quiet in this run, or by the index kept across runs. */
static int is_quiet(git_repository *repo, const git_oid *id)
{
	pthread_mutex_lock(&scans_lock);
	int q = quiet_cap && oid_same(&quiet[quiet_slot(id)], id);
	pthread_mutex_unlock(&scans_lock);
	return q || gt_index_quiet_tree(repo, id);
}


/* Under the scans' lock. */
static void quiet_put(const git_oid *id)
{
	if (2 * (nquiet + 1) > quiet_cap) {
		git_oid *old = quiet;
		size_t n = quiet_cap;
		quiet_cap = n ? 2 * n : 64;
		quiet = sl_calloc(quiet_cap, sizeof *quiet);
		for (size_t i = 0; i < n; i++)
			if (!oid_zero(&old[i]))
				quiet[quiet_slot(&old[i])] = old[i];
		if (!old)
			atexit(quiet_free);
		free(old);
	}
	size_t k = quiet_slot(id);
	if (oid_zero(&quiet[k])) {
		quiet[k] = *id;
		nquiet++;
	}
}

/* Tree id found quiet, every script below it read: remembered for the
 * run and told to the index. */
static void remember_quiet(git_repository *repo, const git_oid *id)
{
	pthread_mutex_lock(&scans_lock);
	quiet_put(id);
	pthread_mutex_unlock(&scans_lock);
	gt_index_put_quiet_tree(repo, id);
}

/* Every *.sh of tree `sub` (at `dir` of the top tree) and its folders.
 * Returns whether none of them names a file to source. */
static int walk(sourcers *x, git_tree *sub, const char *dir, unsigned depth)
{
	int quiet = 1;
	for (size_t i = 0; i < git_tree_entrycount(sub); i++) {
		const git_tree_entry *e = git_tree_entry_byindex(sub, i);
		const char *nm = git_tree_entry_name(e);
		int tree = git_tree_entry_type(e) == GIT_OBJECT_TREE;
		if (tree && depth < 32) {
			if (is_quiet(x->repo, git_tree_entry_id(e)))
				continue;
			git_tree *t = NULL;
			sl_buf p = {0};
			sl_buf_printf(&p, "%s%s%s", dir, *dir ? "/" : "", nm);
			int unread = x->unread;
			x->unread = 0;
			if (!git_tree_lookup(&t, x->repo, git_tree_entry_id(e)) && walk(x, t, p.data, depth + 1)) {
				/* quiet for this walk either way; remembered only when
				 * every script was read (a blob missing from a partial
				 * clone names nothing here, but might once fetched) */
				if (!x->unread)
					remember_quiet(x->repo, git_tree_entry_id(e));
			} else {
				quiet = 0;
			}
			x->unread |= unread;
			git_tree_free(t);
			sl_buf_free(&p);
		} else if (tree) {
			quiet = 0; /* not walked: not known */
		} else if (git_tree_entry_type(e) == GIT_OBJECT_BLOB && sl_ends_with(nm, ".sh") && nm[0] != '.') {
			/* a script that names nothing sources nothing */
			char **names;
			size_t nn;
			scan(x->repo, git_tree_entry_id(e), NULL, 0, 1, &names, &nn, &x->unread);
			for (size_t k = 0; k < nn; k++)
				free(names[k]);
			free(names);
			if (!nn)
				continue;
			quiet = 0;
			sl_buf p = {0};
			sl_buf_printf(&p, "%s%s%s", dir, *dir ? "/" : "", nm);
			gt_sourced *v;
			size_t n = gt_sourced_files(x->repo, x->top, p.data, git_tree_entry_id(e), NULL, 0, NULL, &v);
			int hit = 0;
			for (size_t k = 0; k < n && !hit; k++)
				hit = changed_path(x, v[k].full);
			gt_sourced_free(v, n);
			if (hit && !changed_path(x, p.data))
				SL_PUSH(*x->out, *x->nout, x->cap, sl_strdup(p.data));
			sl_buf_free(&p);
		}
	}
	return quiet;
}

size_t gt_sourcers(git_repository *repo, git_tree *t, char *const *changed, size_t nchanged, char ***out)
{
	*out = NULL;
	size_t nout = 0;
	sourcers x = {repo, t, changed, nchanged, out, &nout, 0, 0};
	/* Every script of the tree, not only those below each changed file's
	 * folder: a script sources a library of a sibling branch as often as
	 * one above it (recipes/x/launch.sh: source ../../common/lib.sh), and
	 * a walk of the folders below missed it, so that a change of the
	 * library alone read as no entry touched. What each blob sources is
	 * remembered per blob id (gt_sourced_files), so each script's text is
	 * scanned once per process, and kept across runs with the trees that
	 * hold no script naming anything (sourced_index.c): a tree met before
	 * is not walked, a script met before not read. */
	if (nchanged && !is_quiet(repo, git_tree_id(t)) && walk(&x, t, "", 0) && !x.unread)
		remember_quiet(repo, git_tree_id(t));
	return nout;
}
