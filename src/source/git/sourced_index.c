/*
 * sourced_index.c: what each script blob sources, and which trees hold
 * no script that sources anything, kept per repository across runs in
 * <common git dir>/servelint/sourced-index (gt_index_*; sourced.c asks and
 * tells it). The search for the scripts that source a changed file
 * (sourced.c's gt_sourcers) scans every script of the tree: over 10,000
 * entries of distinct blobs that was 10,000 blob reads, 735 M of the 1,320 M
 * instructions of `diff HEAD~1 HEAD` (bench/diff_revs.sh), the reading
 * (inflate, delta), not the scan. What a blob names is a pure function of
 * its content, so of its id, and of the scanner; that a tree holds no
 * script naming anything is one of its id too. So a record, once written,
 * is never stale: only a new scanner (the versions in the header), another
 * libgit2 (its binary test is in the records) or another object format
 * makes the file foreign, and a foreign, truncated or corrupt file (magic,
 * versions, length, checksum, order and bounds of the records checked) is
 * ignored whole: the blobs are read, as with no file. A blob or tree the
 * file does not know (a new script, a script changed to source a library)
 * is read and added, so a warm index never answers for content it has not
 * seen.
 *
 * Written once at exit when the run learned something, atomically (a
 * temporary file beside it, renamed over it), into a folder owned by the
 * user and not a symbolic link; any failure to read or write it is silent
 * and costs only the reading it would have saved. SERVELINT_NO_INDEX (set,
 * not empty) neither reads nor writes it. Bounded: past GT_INDEX_MAX
 * records, only what this run used or learned is kept.
 *
 * The file, little-endian:
 *   header (48 bytes): "SLSRCIDX", u32 format, u16 scanner version
 *     (SL_SOURCED_PATHS_VERSION), u16 walk version (GT_SOURCED_WALK_VERSION),
 *     u32 object id size, u32 libgit2 version, u32 SL_MAX_FILE_BYTES,
 *     u32 blob records, u32 tree records, u32 pool bytes, u64 file length;
 *   blob records (28 bytes each, by id, strictly ascending): id, u8 text
 *     (0 not text, 1 text, 2 not tested), u8 0, u16 paths, u32 offset of
 *     the first path in the pool;
 *   tree records (the id alone, strictly ascending): trees whose scripts
 *     name nothing to source;
 *   pool: the paths, each NUL-terminated, a record's in a row;
 *   u64 checksum of everything before it.
 */
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define IX_MAGIC "SLSRCIDX"
#define IX_FORMAT 1u
#define IX_HEAD 48u
#define IX_BLOB 28u
#define IX_TREE ((size_t)GIT_OID_RAWSZ)
#define IX_POOL_MAX (16u << 20)

typedef struct {
	git_oid id;
	int text; /* 1, 0, -1 not tested */
	char **paths; /* owned */
	size_t n;
} fresh_blob;

static pthread_mutex_t ix_lock = PTHREAD_MUTEX_INITIALIZER;
static int ix_state; /* 0 not opened, 1 open, -1 off (disabled or no folder) */
static git_repository *ix_repo; /* the repository it serves (borrowed) */
static char *ix_dir; /* <common dir>/servelint, owned */
static unsigned char *ix_buf; /* the file read, owned; NULL when none or ignored */
static const unsigned char *ix_blobs, *ix_trees, *ix_pool;
static size_t ix_nblobs, ix_ntrees, ix_npool;
static unsigned char *ix_used_blobs, *ix_used_trees; /* asked this run, per record */
static fresh_blob *fresh;
static size_t nfresh, fresh_cap;
static git_oid *fresh_trees;
static size_t nfresh_trees, fresh_trees_cap;

/* ---- the bytes of the file ------------------------------------------------------ */

static uint32_t get32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get64(const unsigned char *p)
{
	return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32;
}

static void put32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static void put64(unsigned char *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

/* A checksum against truncation and damage (not against a forger: who can
 * write the git folder can write its objects): 8 bytes a step, about one
 * instruction a byte, where SHA-1 would cost tens over 100,000 records. */
static uint64_t checksum(const unsigned char *p, size_t n)
{
	uint64_t h = 0x736c7372636964ull ^ n;
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		uint64_t w;
		memcpy(&w, p + i, 8);
		h = (h ^ w) * 0x9e3779b97f4a7c15ull;
		h ^= h >> 31;
	}
	for (; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h ^ (h >> 29);
}

static uint32_t ix_git_version; /* libgit2's, read at opening (exit may follow its shutdown) */

static uint32_t libgit2_version(void)
{
	int major = 0, minor = 0, rev = 0;
	git_libgit2_version(&major, &minor, &rev);
	return (uint32_t)(major & 0xff) << 16 | (uint32_t)(minor & 0xff) << 8 | (uint32_t)(rev & 0xff);
}

static void header(unsigned char *h, size_t nb, size_t nt, size_t npool, uint64_t len)
{
	memcpy(h, IX_MAGIC, 8);
	put32(h + 8, IX_FORMAT);
	put32(h + 12, (uint32_t)SL_SOURCED_PATHS_VERSION | (uint32_t)GT_SOURCED_WALK_VERSION << 16);
	put32(h + 16, GIT_OID_RAWSZ);
	put32(h + 20, ix_git_version);
	put32(h + 24, SL_MAX_FILE_BYTES);
	put32(h + 28, (uint32_t)nb);
	put32(h + 32, (uint32_t)nt);
	put32(h + 36, (uint32_t)npool);
	put64(h + 40, len);
}

/* The file's buffer taken as the index when everything in it holds; else
 * 0 and the caller ignores it. */
static int accept(unsigned char *buf, size_t len)
{
	unsigned char want[IX_HEAD];
	if (len < IX_HEAD + 8)
		return 0;
	size_t nb = get32(buf + 28), nt = get32(buf + 32), npool = get32(buf + 36);
	if (nb > GT_INDEX_MAX || nt > GT_INDEX_MAX || npool > IX_POOL_MAX ||
	    len != IX_HEAD + nb * IX_BLOB + nt * IX_TREE + npool + 8)
		return 0;
	header(want, nb, nt, npool, len);
	if (memcmp(buf, want, IX_HEAD) || get64(buf + len - 8) != checksum(buf, len - 8))
		return 0;
	const unsigned char *b = buf + IX_HEAD, *t = b + nb * IX_BLOB, *pool = t + nt * IX_TREE;
	if (npool && pool[npool - 1] != '\0')
		return 0;
	for (size_t i = 0; i < nb; i++) {
		const unsigned char *r = b + i * IX_BLOB;
		size_t np = (size_t)r[22] | (size_t)r[23] << 8, off = get32(r + 24);
		if ((i && memcmp(r - IX_BLOB, r, GIT_OID_RAWSZ) >= 0) || r[20] > 2 || r[21] || off > npool)
			return 0;
		/* every path inside the pool (the last byte is a NUL) */
		for (size_t k = 0; k < np; k++) {
			if (off >= npool)
				return 0;
			off += strlen((const char *)pool + off) + 1;
		}
	}
	for (size_t i = 1; i < nt; i++)
		if (memcmp(t + (i - 1) * IX_TREE, t + i * IX_TREE, GIT_OID_RAWSZ) >= 0)
			return 0;
	ix_buf = buf;
	ix_blobs = b;
	ix_trees = t;
	ix_pool = pool;
	ix_nblobs = nb;
	ix_ntrees = nt;
	ix_npool = npool;
	ix_used_blobs = sl_calloc(nb + 1, 1);
	ix_used_trees = sl_calloc(nt + 1, 1);
	return 1;
}

static void read_file(void)
{
	sl_buf p = {0};
	sl_buf_printf(&p, "%s/sourced-index", ix_dir);
	int fd = open(p.data, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	sl_buf_free(&p);
	struct stat st;
	if (fd < 0)
		return;
	size_t max = IX_HEAD + 2 * (size_t)GT_INDEX_MAX * IX_BLOB + IX_POOL_MAX + 8;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size > 0 && (uint64_t)st.st_size <= max) {
		size_t len = (size_t)st.st_size, got = 0;
		unsigned char *buf = sl_malloc(len);
		while (got < len) {
			ssize_t r = read(fd, buf + got, len - got);
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0)
				break;
			got += (size_t)r;
		}
		if (got != len || !accept(buf, len))
			free(buf);
	}
	close(fd);
}

/* ---- writing it back ------------------------------------------------------------- */

/* The order of n ids (at base, stride bytes apart) by id, in order[]
 * (the caller's, n of them): a radix sort of their first 8 bytes, then
 * runs of equal first bytes put in order by the whole id and, of one id,
 * by tie (lesser first). Ids are uniform, so those runs are of one id;
 * qsort of 10,000 fresh records was 16.7 M instructions, most of the
 * writing. */
static void sort_ids(const unsigned char *base, size_t stride, size_t n, int (*tie)(size_t, size_t),
		     uint32_t *order)
{
	typedef struct {
		uint64_t key;
		uint32_t at;
	} keyed;
	keyed *a = sl_calloc(n + 1, sizeof *a), *b = sl_calloc(n + 1, sizeof *b);
	for (size_t i = 0; i < n; i++) {
		const unsigned char *id = base + i * stride;
		uint64_t k = 0;
		for (int j = 0; j < 8; j++)
			k = k << 8 | id[j];
		a[i] = (keyed){k, (uint32_t)i};
	}
	for (int shift = 0; shift < 64; shift += 8) {
		size_t count[257] = {0};
		for (size_t i = 0; i < n; i++)
			count[((a[i].key >> shift) & 0xff) + 1]++;
		for (int d = 0; d < 256; d++)
			count[d + 1] += count[d];
		for (size_t i = 0; i < n; i++)
			b[count[(a[i].key >> shift) & 0xff]++] = a[i];
		keyed *t = a;
		a = b;
		b = t;
	}
	for (size_t i = 0; i < n; i++)
		order[i] = a[i].at;
	/* insertion within runs of one key */
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && a[j - 1].key == a[j].key; j--) {
			int c = memcmp(base + order[j - 1] * stride, base + order[j] * stride, GIT_OID_RAWSZ);
			if (c < 0 || (c == 0 && (!tie || tie(order[j - 1], order[j]) <= 0)))
				break;
			uint32_t t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
			keyed kt = a[j];
			a[j] = a[j - 1];
			a[j - 1] = kt;
		}
	free(a);
	free(b);
}

/* Of two fresh records of one blob, the tested first. */
static int tested_first(size_t x, size_t y)
{
	return (fresh[y].text >= 0) - (fresh[x].text >= 0);
}

/* One blob record and its paths appended. */
static void emit_blob(sl_buf *recs, sl_buf *pool, const unsigned char *id, int text, char *const *paths, size_t n)
{
	unsigned char r[IX_BLOB] = {0};
	memcpy(r, id, GIT_OID_RAWSZ);
	r[20] = (unsigned char)(text < 0 ? 2 : text);
	r[22] = (unsigned char)(n & 0xff);
	r[23] = (unsigned char)(n >> 8);
	put32(r + 24, (uint32_t)pool->len);
	sl_buf_add(recs, (const char *)r, IX_BLOB);
	for (size_t k = 0; k < n; k++)
		sl_buf_add(pool, paths[k], strlen(paths[k]) + 1);
}

/* The paths of loaded record r (pointers into the pool, *n of them; the
 * array the caller's). */
static const char **record_paths(const unsigned char *r, size_t *n)
{
	*n = (size_t)r[22] | (size_t)r[23] << 8;
	const char **v = sl_calloc(*n + 1, sizeof *v);
	size_t off = get32(r + 24);
	for (size_t k = 0; k < *n; k++) {
		v[k] = (const char *)ix_pool + off;
		off += strlen(v[k]) + 1;
	}
	return v;
}

/* The loaded records and this run's merged by id, each id once (a fresh
 * record of an id the file holds untested replaces it); all the loaded
 * ones, or when that passes the bound only those this run asked for. */
static void merge(sl_buf *recs, sl_buf *pool, sl_buf *trees, size_t *nb, size_t *nt)
{
	int all = ix_nblobs + nfresh <= GT_INDEX_MAX && ix_ntrees + nfresh_trees <= GT_INDEX_MAX;
	uint32_t *ob = sl_calloc(nfresh + 1, sizeof *ob), *ot = sl_calloc(nfresh_trees + 1, sizeof *ot);
	if (nfresh)
		sort_ids(fresh[0].id.id, sizeof *fresh, nfresh, tested_first, ob);
	if (nfresh_trees)
		sort_ids(fresh_trees[0].id, sizeof *fresh_trees, nfresh_trees, NULL, ot);
#define FB(k) (&fresh[ob[k]])
#define FT(k) (&fresh_trees[ot[k]])
	size_t i = 0, j = 0;
	*nb = *nt = 0;
	while (i < ix_nblobs || j < nfresh) {
		const unsigned char *r = i < ix_nblobs ? ix_blobs + i * IX_BLOB : NULL;
		int c = !r ? 1 : j == nfresh ? -1 : memcmp(r, FB(j)->id.id, GIT_OID_RAWSZ);
		if (c <= 0 && (c < 0 ? all || ix_used_blobs[i] : r[20] != 2 && FB(j)->text < 0)) {
			size_t n;
			const char **v = record_paths(r, &n);
			emit_blob(recs, pool, r, r[20] == 2 ? -1 : r[20], (char *const *)v, n);
			++*nb;
			free(v);
		} else if (c >= 0) {
			emit_blob(recs, pool, FB(j)->id.id, FB(j)->text, FB(j)->paths, FB(j)->n);
			++*nb;
		}
		i += c <= 0;
		if (c >= 0) {
			const git_oid *id = &FB(j)->id;
			while (j < nfresh && !memcmp(FB(j)->id.id, id->id, GIT_OID_RAWSZ))
				j++;
		}
	}
	i = j = 0;
	while (i < ix_ntrees || j < nfresh_trees) {
		const unsigned char *r = i < ix_ntrees ? ix_trees + i * IX_TREE : NULL;
		int c = !r ? 1 : j == nfresh_trees ? -1 : memcmp(r, FT(j)->id, GIT_OID_RAWSZ);
		const unsigned char *id = c < 0 ? r : FT(j)->id;
		if (c >= 0 || all || ix_used_trees[i]) {
			sl_buf_add(trees, (const char *)id, IX_TREE);
			++*nt;
		}
		i += c <= 0;
		if (c >= 0) {
			size_t k = j;
			while (j < nfresh_trees && !memcmp(FT(j)->id, FT(k)->id, GIT_OID_RAWSZ))
				j++;
		}
	}
#undef FB
#undef FT
	free(ob);
	free(ot);
}

static int write_all(int fd, const void *p, size_t n)
{
	const char *c = p;
	while (n) {
		ssize_t w = write(fd, c, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		c += w;
		n -= (size_t)w;
	}
	return 0;
}

/* The folder, made when missing, used only when it is a folder of this
 * user's (not a symbolic link planted to have the file written elsewhere). */
static int own_folder(void)
{
	struct stat st;
	if (mkdir(ix_dir, 0777) && errno != EEXIST)
		return -1;
	return lstat(ix_dir, &st) || !S_ISDIR(st.st_mode) || st.st_uid != geteuid() ? -1 : 0;
}

/* Written through mkstemp beside it and renamed over it, not by
 * sl_write_file_atomic: that one follows a link to the file it names (a
 * user's --output), and nothing here may be written where a link points. */
static void save(void)
{
	if (ix_state != 1 || (!nfresh && !nfresh_trees) || own_folder())
		return;
	sl_buf recs = {0}, pool = {0}, trees = {0}, tmp = {0}, dst = {0};
	size_t nb, nt;
	merge(&recs, &pool, &trees, &nb, &nt);
	if (nb <= GT_INDEX_MAX && nt <= GT_INDEX_MAX && pool.len <= IX_POOL_MAX) {
		size_t len = IX_HEAD + recs.len + trees.len + pool.len + 8;
		unsigned char *out = sl_malloc(len), *p = out;
		header(p, nb, nt, pool.len, len);
		p += IX_HEAD;
		const sl_buf *parts[] = {&recs, &trees, &pool};
		for (int k = 0; k < 3; k++)
			if (parts[k]->len) {
				memcpy(p, parts[k]->data, parts[k]->len);
				p += parts[k]->len;
			}
		put64(p, checksum(out, len - 8));
		sl_buf_printf(&tmp, "%s/sourced-index.XXXXXX", ix_dir);
		sl_buf_printf(&dst, "%s/sourced-index", ix_dir);
		int fd = mkstemp(tmp.data);
		if (fd >= 0) {
			int ok = !fchmod(fd, 0644) && !write_all(fd, out, len);
			ok = !close(fd) && ok;
			if (!ok || rename(tmp.data, dst.data))
				unlink(tmp.data);
		}
		free(out);
	}
	sl_buf_free(&recs);
	sl_buf_free(&pool);
	sl_buf_free(&trees);
	sl_buf_free(&tmp);
	sl_buf_free(&dst);
}

static void ix_close(void)
{
	save();
	for (size_t i = 0; i < nfresh; i++) {
		for (size_t k = 0; k < fresh[i].n; k++)
			free(fresh[i].paths[k]);
		free(fresh[i].paths);
	}
	free(fresh);
	free(fresh_trees);
	free(ix_buf);
	free(ix_used_blobs);
	free(ix_used_trees);
	free(ix_dir);
	fresh = NULL;
	fresh_trees = NULL;
	ix_buf = ix_used_blobs = ix_used_trees = NULL;
	ix_dir = NULL;
	nfresh = nfresh_trees = ix_nblobs = ix_ntrees = 0;
	ix_state = -1; /* nothing after exit opens it again */
}

/* ---- asked and told ---------------------------------------------------------------- */

/* Under the lock: whether the index serves repo, opened on first use. */
static int open_for(git_repository *repo)
{
	if (!ix_state) {
		const char *off = getenv("SERVELINT_NO_INDEX");
		const char *common = git_repository_commondir(repo);
		ix_state = -1;
		if ((!off || !*off) && common && *common) {
			sl_buf d = {0};
			sl_buf_printf(&d, "%s%sservelint", common, common[strlen(common) - 1] == '/' ? "" : "/");
			ix_dir = sl_buf_detach(&d);
			ix_git_version = libgit2_version();
			ix_repo = repo;
			ix_state = 1;
			read_file();
			atexit(ix_close);
		}
	}
	return ix_state == 1 && repo == ix_repo;
}

static const unsigned char *find(const unsigned char *base, size_t n, size_t size, const git_oid *id, size_t *at)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = memcmp(base + mid * size, id->id, GIT_OID_RAWSZ);
		if (!c) {
			*at = mid;
			return base + mid * size;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

int gt_index_blob(git_repository *repo, const git_oid *id, int *text, char ***paths, size_t *n)
{
	*paths = NULL;
	*n = 0;
	pthread_mutex_lock(&ix_lock);
	size_t at;
	const unsigned char *r = open_for(repo) && ix_buf ? find(ix_blobs, ix_nblobs, IX_BLOB, id, &at) : NULL;
	if (r) {
		ix_used_blobs[at] = 1;
		*text = r[20] == 2 ? -1 : r[20];
		const char **v = record_paths(r, n);
		*paths = sl_calloc(*n + 1, sizeof **paths);
		for (size_t k = 0; k < *n; k++)
			(*paths)[k] = sl_strdup(v[k]);
		free(v);
	}
	pthread_mutex_unlock(&ix_lock);
	return r != NULL;
}

void gt_index_put_blob(git_repository *repo, const git_oid *id, int text, char *const *paths, size_t n)
{
	pthread_mutex_lock(&ix_lock);
	if (open_for(repo) && n <= 0xffff && nfresh < GT_INDEX_MAX) {
		fresh_blob f = {*id, text, sl_calloc(n + 1, sizeof(char *)), n};
		for (size_t k = 0; k < n; k++)
			f.paths[k] = sl_strdup(paths[k]);
		SL_PUSH(fresh, nfresh, fresh_cap, f);
	}
	pthread_mutex_unlock(&ix_lock);
}

int gt_index_quiet_tree(git_repository *repo, const git_oid *id)
{
	pthread_mutex_lock(&ix_lock);
	size_t at;
	const unsigned char *r = open_for(repo) && ix_buf ? find(ix_trees, ix_ntrees, IX_TREE, id, &at) : NULL;
	if (r)
		ix_used_trees[at] = 1;
	pthread_mutex_unlock(&ix_lock);
	return r != NULL;
}

void gt_index_put_quiet_tree(git_repository *repo, const git_oid *id)
{
	pthread_mutex_lock(&ix_lock);
	if (open_for(repo) && nfresh_trees < GT_INDEX_MAX)
		SL_PUSH(fresh_trees, nfresh_trees, fresh_trees_cap, *id);
	pthread_mutex_unlock(&ix_lock);
}
