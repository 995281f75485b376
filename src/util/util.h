/*
 * util.h: the small pieces every stage shares: checked allocation, a growable
 * byte buffer, the error record that carries a file, line and column, and
 * work on several threads with results in input order, and the fix-up of
 * the built-in tables' images.
 *
 * Ownership: every function that returns a pointer says who frees it. Buffers
 * own their bytes; sl_buf_free() releases them.
 */
#ifndef SL_UTIL_H
#define SL_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>

/* Error codes returned by every public sl_ function (0 is success). */
enum {
	SL_OK = 0,
	SL_ERR_IO = -1,      /* a file could not be read */
	SL_ERR_INPUT = -2,   /* input is not what it should be (syntax, encoding, limits) */
	SL_ERR_USAGE = -3,   /* the caller asked for something impossible */
};

/* Aborts the process on allocation failure: there is no sane recovery in a
 * command-line analyzer, and a clean message beats a NULL dereference. */
void *sl_malloc(size_t n);
void *sl_calloc(size_t n, size_t size);
void *sl_realloc(void *p, size_t n);
char *sl_strdup(const char *s);
char *sl_strndup(const char *s, size_t n);

/* Texts put aside in a temporary file (store.c: in $TMPDIR, else /tmp, unlinked) and
 * read back by their place, so that memory does not grow with their
 * number (audit's entry summaries). Texts may be put and read from several
 * threads. */
typedef struct sl_store sl_store;
/* A new store (the caller's: sl_store_free), or NULL (errno) when no
 * temporary file can be made. */
sl_store *sl_store_new(void);
/* Appends len bytes of text; their place in *at. 0, or -1 when they could
 * not be written (a full disk: sl_store_error's errno, which stays). */
int sl_store_put(sl_store *s, const char *text, size_t len, uint64_t *at);
/* The len bytes put at `at`, NUL-terminated (the caller frees), or NULL
 * when they cannot be read (sl_store_error). */
char *sl_store_get(sl_store *s, uint64_t at, size_t len);
/* errno of the store's first failure to write or read, or 0. */
int sl_store_error(sl_store *s);
void sl_store_free(sl_store *s);

/* The one copy of the len bytes at s (NUL-terminated) that every equal
 * text shares (intern.c); never freed (the process's), safe from several
 * threads. */
const char *sl_intern(const char *s, size_t len);

/* Grows *arr (of *cap elements of size elem) so that it holds at least need. */
void sl_grow(void **arr, size_t *cap, size_t need, size_t elem);
#define SL_PUSH(arr, n, cap, val) do { \
	sl_grow((void **)&(arr), &(cap), (n) + 1, sizeof(*(arr))); \
	(arr)[(n)++] = (val); } while (0)

typedef struct {
	char *data;   /* always NUL-terminated when data != NULL */
	size_t len;
	size_t cap;
} sl_buf;

void sl_buf_add(sl_buf *b, const char *s, size_t n);
void sl_buf_puts(sl_buf *b, const char *s);
void sl_buf_putc(sl_buf *b, char c);
void sl_buf_printf(sl_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Returns the bytes (caller frees) and resets the buffer. Never NULL. */
char *sl_buf_detach(sl_buf *b);
void sl_buf_free(sl_buf *b);

/*
 * One diagnostic: where and what. `file` may be NULL for errors that have no
 * place (usage errors). line and col are 1-based; 0 means unknown.
 */
typedef struct {
	char *file;
	unsigned line, col;
	char *msg;
} sl_error;

void sl_error_set(sl_error *e, const char *file, unsigned line, unsigned col,
		  const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* Formats `file:line:col: message` (the GNU convention editors understand),
 * to sl_diag(). */
void sl_error_print(const sl_error *e, const char *prog);
/* Where this thread's diagnostics go: stderr, or inside sl_jobs_run's work
 * the item's own stream (written out in input order); sl_diag_to(NULL)
 * sets stderr again. */
FILE *sl_diag(void);
void sl_diag_to(FILE *f);
void sl_error_clear(sl_error *e);

/* Small string helpers. */
int sl_starts_with(const char *s, const char *prefix);
int sl_ends_with(const char *s, const char *suffix);
/* Parses a base-10 integer that spans the whole string. */
int sl_parse_int(const char *s, long long *out);
/* -1, 0, 1 over the numeric parts of two dotted versions (0.10.1 > 0.8.5);
 * where they agree, a pre-release comes before its release (1.3.0rc3 <
 * 1.3.0rc24 < 1.3.0 = 1.3, PEP 440's order); anything else that follows
 * the numbers (post1) is not compared, and a version with fewer numbers
 * stands for all that start with them (0.10 = 0.10.1): equal there. */
int sl_version_cmp(const char *a, const char *b);
int sl_parse_double(const char *s, double *out);
/* Reads a whole file (at most max bytes). Returns SL_OK, SL_ERR_IO or SL_ERR_INPUT (too big). */
int sl_read_file(const char *path, size_t max, char **out, size_t *len, sl_error *err);
/* The names of DIR's entries that end with SUFFIX, in name order (strcmp):
 * the order the files built in are loaded in, so that a folder named by
 * SERVELINT_GRAMMARS, _RULES or _FACTS loads as they do. Returns 0 with
 * *names (each name and the array owned by the caller) and *n, or -1 when
 * DIR cannot be opened. */
int sl_dir_names(const char *dir, const char *suffix, char ***names, size_t *n);

/* Writes n bytes of text from the input to a terminal-bound stream with
 * its control characters made visible: C0 (but tab), DEL and the C1
 * range (U+0080-U+009F) as \xHH or \u00HH, a backslash as it is. No
 * escape sequence of the input reaches a terminal. */
void sl_fput_visible(FILE *out, const char *s, size_t n);
/* The same for a NUL-terminated string; NULL writes nothing. */
void sl_fputs_visible(FILE *out, const char *s);

/* Puts servelint's standard output behind a filter that makes every
 * control character visible as sl_fput_visible does, and lets the SGR
 * colour sequences of --color pass (visible.c). main() calls it first. */
void sl_stdout_visible(void);

/* Writes a file that a user named (a report, an export): write(f, ud)
 * produces its bytes and returns 0. A regular file (or one that is not
 * there yet) gets them through a fresh temporary file in its folder
 * (mkstemp: created exclusively, never through a link) renamed over it, so
 * it is whole or unchanged; a link to a regular file replaces the file it
 * names and stays a link. Anything else (a device, a FIFO, /dev/stdout) is
 * written directly, never replaced. Returns 0, or -1 with errno set. */
int sl_write_file_atomic(const char *path, int (*write)(FILE *f, void *ud), void *ud);

/* A map from strings to indices (strmap.c), for the lookups a catalogue
 * makes per entry: open addressing over FNV-1a. The map owns copies of
 * its keys; a key may hold NUL bytes (the length says). */
/* FNV-1a of s[0..len): the hash of strmap.c's and intern.c's tables. */
uint64_t sl_hash_bytes(const char *s, size_t len);
typedef struct sl_strmap {
	char **keys;      /* owned; NULL: a free slot */
	size_t *lens, *vals;
	size_t cap, n;
} sl_strmap;

/* The value of KEY, or SIZE_MAX when it is not there. */
size_t sl_strmap_get(const sl_strmap *m, const char *key, size_t len);
/* Sets KEY to VAL unless it is there; returns the value it then has. */
size_t sl_strmap_put(sl_strmap *m, const char *key, size_t len, size_t val);
void sl_strmap_free(sl_strmap *m);

/* ---- work on several threads (jobs.c) ----------------------------------- */

/* The cores this process may run on (sched_getaffinity), at least 1: the
 * default of -j. */
unsigned sl_jobs_available(void);
/* Runs work(ud, i) for every i in [0, n) on up to `threads` threads, and
 * done(ud, i) on the calling thread for each i in input order, as soon as
 * work(ud, i) and every item before it have returned (done takes what
 * work made: the results are the caller's, per item, in ud). work must
 * touch only its own item's results and what no other thread changes.
 * What work writes to sl_diag() is written to stderr just before done(ud,
 * i). With threads <= 1, n <= 1, or when no thread can be started, work
 * and done run in turn on the calling thread: no thread is started. */
void sl_jobs_run(size_t n, unsigned threads, void (*work)(void *ud, size_t i), void (*done)(void *ud, size_t i),
		 void *ud);

/* The same for items found as the work goes on (check -j: the entries
 * discovered while the first are checked, issue 18): sl_jobs_start, then
 * sl_jobs_add for each item in input order, then sl_jobs_finish, which
 * returns once every done(ud, item) has run. work(ud, item) runs on the
 * threads, done(ud, item) on the calling thread in input order (inside
 * sl_jobs_add as items finish, and in sl_jobs_finish). The threads start
 * at the second item, start(ud) (may be NULL) just before: one item
 * alone, or threads <= 1, runs on the calling thread in sl_jobs_add or
 * sl_jobs_finish, as sl_jobs_run does. */
typedef struct sl_jobs sl_jobs;
sl_jobs *sl_jobs_start(unsigned threads, void (*work)(void *ud, void *item), void (*done)(void *ud, void *item),
		       void (*start)(void *ud), void *ud);
void sl_jobs_add(sl_jobs *j, void *item);
void sl_jobs_finish(sl_jobs *j);
/* ---- records of bytes (bytes.c) --------------------------------------------
 *
 * What is put aside in a store (sl_store) and read back by the same process:
 * numbers in the machine's order, strings with their length. A reader never
 * reads past its end: a record cut short or not what was written sets bad. */
void sl_buf_put_u32(sl_buf *b, uint32_t v);
/* s (NULL too, read back as NULL) with its length */
void sl_buf_put_str(sl_buf *b, const char *s);
typedef struct {
	const char *p, *end;  /* not owned: the record read */
	int bad;              /* a read past the end, or a length that does not fit */
} sl_reader;
uint32_t sl_read_u32(sl_reader *r);
/* The next string: a pointer into the record (its length in *len when len
 * is not NULL; NUL-terminated only when the record is), NULL for a NULL
 * string or when bad. Strings are written with their NUL, so that one read
 * from a NUL-terminated record is one. */
const char *sl_read_str(sl_reader *r, size_t *len);
/* n bytes at the reader, taken: NULL when fewer are left (bad) */
const char *sl_read_bytes(sl_reader *r, size_t n);

/* ---- the built-in tables' images (image.c) ------------------------------ */

/* Makes the pointers of a built-in table's image addresses (img's words that
 * fix lists, offsets into img; pool_fix's, offsets into pool), as
 * cmake/data_image.h writes them; called once per image, before any read. */
void sl_image_fix(uint64_t *img, size_t nimg, const uint64_t *pool, const uint64_t *fix, size_t nfix,
		  const uint64_t *pool_fix, size_t npool_fix);

#endif
