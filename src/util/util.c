/* util.c: allocation, buffers, errors and file reading shared by all stages. */
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

static void oom(void)
{
	fputs("servelint: out of memory\n", stderr);
	abort();
}

void *sl_malloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		oom();
	return p;
}

void *sl_calloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		oom();
	return p;
}

void *sl_realloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom();
	return p;
}

char *sl_strdup(const char *s)
{
	return sl_strndup(s, strlen(s));
}

char *sl_strndup(const char *s, size_t n)
{
	char *p = sl_malloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

void sl_grow(void **arr, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return;
	size_t c = *cap ? *cap : 4;
	while (c < need)
		c *= 2;
	*arr = sl_realloc(*arr, c * elem);
	*cap = c;
}

void sl_buf_add(sl_buf *b, const char *s, size_t n)
{
	sl_grow((void **)&b->data, &b->cap, b->len + n + 1, 1);
	if (n)
		memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = '\0';
}

void sl_buf_puts(sl_buf *b, const char *s)
{
	sl_buf_add(b, s, strlen(s));
}

void sl_buf_putc(sl_buf *b, char c)
{
	sl_buf_add(b, &c, 1);
}

void sl_buf_printf(sl_buf *b, const char *fmt, ...)
{
	/* formatted once into a stack buffer, and again only when the text is
	 * longer: measuring first formatted everything twice (6,000 calls
	 * from one flag's JSON members, 12 M instructions, in a check of 350
	 * entries) */
	char tmp[256];
	va_list ap;
	/* a format of plain text, %s and %u alone (most: "%s.%s" of a key's
	 * path, a JSON member's flag and raw text, "line %u" of a place)
	 * appended without vsnprintf, which cost ~1,000 instructions a call */
	const char *f = fmt;
	while (*f && (*f != '%' || f[1] == 's' || f[1] == 'u'))
		f += *f == '%' ? 2 : 1;
	if (!*f) {
		va_start(ap, fmt);
		for (f = fmt; *f;) {
			const char *lit = f;
			while (*f && *f != '%')
				f++;
			if (f > lit) {
				sl_grow((void **)&b->data, &b->cap, b->len + (size_t)(f - lit) + 1, 1);
				memcpy(b->data + b->len, lit, (size_t)(f - lit));
				b->len += (size_t)(f - lit);
			}
			if (*f) {
				char num[16];
				const char *a;
				if (f[1] == 'u') {
					unsigned u = va_arg(ap, unsigned);
					char *e = num + sizeof num, *d = e;
					*--d = '\0';
					do
						*--d = (char)('0' + u % 10);
					while (u /= 10);
					a = d;
				} else {
					a = va_arg(ap, const char *);
				}
				if (!a)
					a = "(null)";  /* as glibc's printf writes it */
				size_t al = strlen(a);
				sl_grow((void **)&b->data, &b->cap, b->len + al + 1, 1);
				memcpy(b->data + b->len, a, al);
				b->len += al;
				f += 2;
			}
		}
		va_end(ap);
		sl_grow((void **)&b->data, &b->cap, b->len + 1, 1);
		b->data[b->len] = '\0';
		return;
	}
	va_start(ap, fmt);
	int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	sl_grow((void **)&b->data, &b->cap, b->len + (size_t)n + 1, 1);
	if ((size_t)n < sizeof tmp) {
		memcpy(b->data + b->len, tmp, (size_t)n + 1);
		b->len += (size_t)n;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

char *sl_buf_detach(sl_buf *b)
{
	char *p = b->data ? b->data : sl_strdup("");
	b->data = NULL;
	b->len = b->cap = 0;
	return p;
}

void sl_buf_free(sl_buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

void sl_error_set(sl_error *e, const char *file, unsigned line, unsigned col,
		  const char *fmt, ...)
{
	if (!e)
		return;
	sl_error_clear(e);
	e->file = file ? sl_strdup(file) : NULL;
	e->line = line;
	e->col = col;
	sl_buf b = {0};
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n >= 0) {
		sl_grow((void **)&b.data, &b.cap, (size_t)n + 1, 1);
		va_start(ap, fmt);
		vsnprintf(b.data, (size_t)n + 1, fmt, ap);
		va_end(ap);
		b.len = (size_t)n;
	}
	e->msg = sl_buf_detach(&b);
}

/* This thread's stream of diagnostics, set by sl_jobs_run; NULL: stderr. */
static _Thread_local FILE *diag_stream;

FILE *sl_diag(void)
{
	return diag_stream ? diag_stream : stderr;
}

void sl_diag_to(FILE *f)
{
	diag_stream = f;
}

void sl_error_print(const sl_error *e, const char *prog)
{
	/* a message quotes the input: its control characters go out visible;
	 * inside a job, to the job's stream (written out in input order) */
	FILE *f = sl_diag();
	sl_fputs_visible(f, e->file ? e->file : prog);
	if (e->file && e->line)
		fprintf(f, ":%u:%u", e->line, e->col ? e->col : 1);
	fputs(": ", f);
	sl_fputs_visible(f, e->msg ? e->msg : "error");
	fputc('\n', f);
}

void sl_error_clear(sl_error *e)
{
	free(e->file);
	free(e->msg);
	e->file = e->msg = NULL;
	e->line = e->col = 0;
}

int sl_starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

int sl_ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && memcmp(s + a - b, suffix, b) == 0;
}

/* A pre-release tail after the numbers (`rc3`, `.0rc3`, `dev1`, `a2`, `b1`:
 * PEP 440's, before the release they lead to): 1 with its number, else 0
 * (nothing, `.post1`, anything else: not compared). Zero components before
 * it are skipped, so that 1.3 and 1.3.0 lead to 1.3.0rc3 alike. */
static int pre_release(const char *t, long *n)
{
	while (t[0] == '.' && t[1] == '0' && (t[2] == '.' || isalpha((unsigned char)t[2])))
		t += 2;
	if (*t == '.' || *t == '-')
		t++;
	static const char *tags[] = {"rc", "dev", "alpha", "beta", "a", "b"};
	for (size_t i = 0; i < sizeof tags / sizeof *tags; i++) {
		size_t k = strlen(tags[i]);
		if (!strncmp(t, tags[i], k) && (isdigit((unsigned char)t[k]) || !t[k])) {
			*n = strtol(t + k, NULL, 10);
			return 1;
		}
	}
	return 0;
}

/* strtol(s, end, 10) for the form versions take, a run of digits, read
 * without strtol's locale, space and sign handling (sl_version_cmp made
 * 314,000 strtol calls, 37 M instructions, in a check of 350 entries);
 * anything else, or a run long enough to overflow, goes to strtol. */
static long version_number(const char *s, char **end)
{
	long v = 0;
	const char *p = s;
	while (p - s < 18 && *p >= '0' && *p <= '9')
		v = v * 10 + (*p++ - '0');
	if (p == s || p - s >= 18)
		return strtol(s, end, 10);
	*end = (char *)p;
	return v;
}

int sl_version_cmp(const char *a, const char *b)
{
	while (*a && *b) {
		char *ea, *eb;
		long x = version_number(a, &ea), y = version_number(b, &eb);
		if (ea == a || eb == b)
			return 0;
		if (x != y)
			return x < y ? -1 : 1;
		if (*ea != '.' || *eb != '.') {
			a = ea;
			b = eb;
			break;
		}
		a = ea + 1;
		b = eb + 1;
	}
	/* the numbers agree as far as both go: a release candidate comes
	 * before its release (1.3.0rc3 < 1.3.0rc24 < 1.3.0 = 1.3); a version
	 * that goes on with more numbers (1.3 against 1.3.1) stays equal, as
	 * `vLLM 0.10` is any 0.10.x */
	long na = 0, nb = 0;
	int pa = pre_release(a, &na), pb = pre_release(b, &nb);
	if (pa != pb)
		return pa ? -1 : 1;
	if (pa && na != nb)
		return na < nb ? -1 : 1;
	return 0;
}

int sl_parse_int(const char *s, long long *out)
{
	if (!*s)
		return -1;
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

int sl_parse_double(const char *s, double *out)
{
	if (!*s)
		return -1;
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

int sl_read_file(const char *path, size_t max, char **out, size_t *len, sl_error *err)
{
	/* O_NONBLOCK: a FIFO nobody writes must not block the open; only a
	 * regular file is read (a FIFO, a device or a socket could block or
	 * never end) */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		sl_error_set(err, path, 0, 0, "cannot open: %s", strerror(errno));
		return SL_ERR_IO;
	}
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		int dir = S_ISDIR(st.st_mode);
		const char *what = S_ISFIFO(st.st_mode) ? "a FIFO" : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device"
				   : S_ISSOCK(st.st_mode) ? "a socket" : "something other than a file";
		close(fd);
		if (dir)
			sl_error_set(err, path, 0, 0, "is a directory");
		else
			sl_error_set(err, path, 0, 0, "is %s; servelint reads only regular files", what);
		return SL_ERR_IO;
	}
	/* Read straight into one buffer, sized from fstat, with read(2) on
	 * the descriptor: stdio's fdopen cost an fcntl and two more fstats
	 * per file (issue 18), and its 4 KiB reads split anything larger.
	 * Never more than max + 1 bytes. */
	sl_buf b = {0};
	size_t size = (size_t)st.st_size;
	size_t step = size < max ? size + 2 : 65536;
	/* the first buffer of exactly that size: sl_grow's next power of two
	 * left a third of each file's buffer unused on average, and audit
	 * keeps every entry's files (2.5 MB of its 9.2 MB of scripts and
	 * metadata at 3,500 entries, bench/memory.sh) */
	b.data = sl_realloc(NULL, step);
	b.cap = step;
	int bad = 0;
	for (;;) {
		sl_grow((void **)&b.data, &b.cap, b.len + step, 1);
		size_t room = b.cap - b.len - 1;
		ssize_t r = read(fd, b.data + b.len, room);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			bad = 1;
			break;
		}
		b.len += (size_t)r;
		b.data[b.len] = '\0';
		if (b.len > max) {
			close(fd);
			sl_buf_free(&b);
			sl_error_set(err, path, 0, 0,
				     "file is larger than the limit of %zu bytes", max);
			return SL_ERR_INPUT;
		}
		/* the end: nothing more, or a short read once the size fstat
		 * gave is in (a file that grew since is read on; a size of 0,
		 * as /proc gives, is read to the end) */
		if (r == 0 || ((size_t)r < room && size && b.len >= size))
			break;
	}
	close(fd);
	if (bad) {
		sl_buf_free(&b);
		sl_error_set(err, path, 0, 0, "read error");
		return SL_ERR_IO;
	}
	*len = b.len;
	/* a pipe's or a grown file's buffer, cut to what it holds */
	if (b.cap - b.len > 64) {
		b.data = sl_realloc(b.data, b.len + 1);
		b.cap = b.len + 1;
	}
	*out = sl_buf_detach(&b);
	return SL_OK;
}

/* Writes through f, then closes it: 0 when every byte went out. */
static int write_through(FILE *f, int (*write)(FILE *f, void *ud), void *ud)
{
	int rc = write(f, ud) ? -1 : 0;
	int e = errno;
	if (fflush(f) || ferror(f)) {
		rc = -1;
		e = errno ? errno : EIO;
	}
	if (fclose(f) && !rc) {
		rc = -1;
		e = errno;
	}
	if (rc)
		errno = e ? e : EIO;
	return rc;
}

int sl_write_file_atomic(const char *path, int (*write)(FILE *f, void *ud), void *ud)
{
	struct stat st;
	int exists = stat(path, &st) == 0;
	if (exists && !S_ISREG(st.st_mode)) {
		if (S_ISDIR(st.st_mode)) {
			errno = EISDIR;
			return -1;
		}
		/* a device, a FIFO, a terminal: written as it is. A FIFO nobody
		 * reads is an error (ENXIO), not a wait for ever; once open, the
		 * writes block as they would in a shell's `>` */
		int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
		int fl = fd < 0 ? -1 : fcntl(fd, F_GETFL);
		if (fl >= 0)
			fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
		FILE *f = fd < 0 ? NULL : fdopen(fd, "w");
		if (!f) {
			if (fd >= 0)
				close(fd);
			return -1;
		}
		return write_through(f, write, ud);
	}
	/* a link to a regular file: the file it names is replaced */
	char *target = NULL;
	struct stat lst;
	if (exists && lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode))
		target = realpath(path, NULL);
	const char *t = target ? target : path;
	const char *slash = strrchr(t, '/');
	sl_buf tmp = {0};
	if (slash)
		sl_buf_printf(&tmp, "%.*s/.%s.XXXXXX", (int)(slash - t), t, slash + 1);
	else
		sl_buf_printf(&tmp, ".%s.XXXXXX", t);
	int fd = mkstemp(tmp.data);
	if (fd < 0) {
		int e = errno;
		sl_buf_free(&tmp);
		free(target);
		errno = e;
		return -1;
	}
	/* the mode a new file would get, or the one it had */
	mode_t um = umask(0);
	umask(um);
	int rc = fchmod(fd, exists ? st.st_mode & 07777 : 0666 & ~um);
	FILE *f = rc ? NULL : fdopen(fd, "w");
	if (!f) {
		int e = errno;
		close(fd);
		unlink(tmp.data);
		sl_buf_free(&tmp);
		free(target);
		errno = e;
		return -1;
	}
	rc = write_through(f, write, ud);
	if (!rc && rename(tmp.data, t))
		rc = -1;
	if (rc) {
		int e = errno;
		unlink(tmp.data);
		errno = e;
	}
	sl_buf_free(&tmp);
	free(target);
	return rc;
}

void sl_fput_visible(FILE *out, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t run = 0; /* plain bytes not yet written */
	for (size_t i = 0; i < n; i++) {
		int c0 = (p[i] < 0x20 && p[i] != '\t') || p[i] == 0x7f;
		int c1 = p[i] == 0xc2 && i + 1 < n && p[i + 1] >= 0x80 && p[i + 1] <= 0x9f;
		if (!c0 && !c1)
			continue;
		fwrite(s + run, 1, i - run, out);
		if (c0) {
			fprintf(out, "\\x%02x", p[i]);
		} else {
			fprintf(out, "\\u%04x", p[i + 1]);
			i++;
		}
		run = i + 1;
	}
	fwrite(s + run, 1, n - run, out);
}

void sl_fputs_visible(FILE *out, const char *s)
{
	if (s)
		sl_fput_visible(out, s, strlen(s));
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int sl_dir_names(const char *dir, const char *suffix, char ***names, size_t *n)
{
	*names = NULL;
	*n = 0;
	DIR *d = opendir(dir);
	if (!d)
		return -1;
	size_t cap = 0;
	struct dirent *de;
	while ((de = readdir(d)))
		if (sl_ends_with(de->d_name, suffix))
			SL_PUSH(*names, *n, cap, sl_strdup(de->d_name));
	closedir(d);
	if (*n)
		qsort(*names, *n, sizeof **names, cmp_name);
	return 0;
}
