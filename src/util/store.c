/*
 * store.c (util): texts put aside in a temporary file and read back by
 * their place (sl_store, util.h). audit keeps what its report says of each
 * entry (a summary made while the entry's model was there, 530 bytes of
 * JSON text each) until the report is written: 1.85 MB of 3,500 entries,
 * and growing with the catalogue, where memory should stay flat (issue
 * 18). Texts are gathered in a buffer and written in chunks; a text still
 * in the buffer is read from it. The file is made in $TMPDIR (else /tmp),
 * as mkstemp makes it, and unlinked at once: glibc's tmpfile() ignores
 * TMPDIR, so a full /tmp could not be avoided by naming another folder.
 */
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A chunk of the file: the writes are of this size, not one per text */
#define STORE_CHUNK (64u * 1024u)

struct sl_store {
	pthread_mutex_t mu;     /* texts are put from audit -j's threads */
	FILE *file;             /* unlinked once made: gone with the process */
	uint64_t written;       /* bytes in the file */
	char *buf;              /* bytes after them, not yet written */
	size_t nbuf;
	int err;                /* errno of the first failure, or 0 */
};

/* A new file in $TMPDIR (else /tmp), unlinked: NULL (errno) when none can be made */
static FILE *unlinked_file(void)
{
	const char *dir = getenv("TMPDIR");
	if (!dir || !*dir)
		dir = "/tmp";
	sl_buf p = {0};
	sl_buf_printf(&p, "%s/servelint-XXXXXX", dir);
	int fd = mkstemp(p.data);
	if (fd >= 0)
		(void)fcntl(fd, F_SETFD, FD_CLOEXEC);  /* not left to a process started later */
	if (fd < 0) {
		int e = errno;
		sl_buf_free(&p);
		errno = e;
		return NULL;
	}
	unlink(p.data);
	sl_buf_free(&p);
	FILE *f = fdopen(fd, "w+");
	if (!f) {
		int e = errno;
		close(fd);
		errno = e;
	}
	return f;
}

sl_store *sl_store_new(void)
{
	FILE *f = unlinked_file();
	if (!f)
		return NULL;
	sl_store *s = sl_calloc(1, sizeof *s);
	pthread_mutex_init(&s->mu, NULL);
	s->file = f;
	s->buf = sl_malloc(STORE_CHUNK);
	return s;
}

/* Writes the buffer to the file (under the lock); 0, or -1 (s->err) */
static int flush_buf(sl_store *s)
{
	size_t done = 0;
	while (done < s->nbuf && !s->err) {
		ssize_t k = pwrite(fileno(s->file), s->buf + done, s->nbuf - done, (off_t)(s->written + done));
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			s->err = k < 0 ? errno : ENOSPC;
		else
			done += (size_t)k;
	}
	s->written += done;
	s->nbuf = 0;
	return s->err ? -1 : 0;
}

int sl_store_put(sl_store *s, const char *text, size_t len, uint64_t *at)
{
	pthread_mutex_lock(&s->mu);
	*at = s->written + s->nbuf;
	for (size_t done = 0; done < len && !s->err;) {
		if (s->nbuf == STORE_CHUNK)
			flush_buf(s);
		size_t k = len - done < STORE_CHUNK - s->nbuf ? len - done : STORE_CHUNK - s->nbuf;
		memcpy(s->buf + s->nbuf, text + done, k);
		s->nbuf += k;
		done += k;
	}
	int rc = s->err ? -1 : 0;
	pthread_mutex_unlock(&s->mu);
	return rc;
}

char *sl_store_get(sl_store *s, uint64_t at, size_t len)
{
	char *t = sl_malloc(len + 1);
	pthread_mutex_lock(&s->mu);
	size_t done = 0;
	while (done < len && !s->err) {
		uint64_t p = at + done;
		if (p >= s->written) {  /* still in the buffer */
			size_t from = (size_t)(p - s->written);
			if (from + (len - done) > s->nbuf) {
				s->err = EINVAL;  /* no text was put there */
				break;
			}
			memcpy(t + done, s->buf + from, len - done);
			done = len;
			break;
		}
		size_t want = len - done;
		if (p + want > s->written)
			want = (size_t)(s->written - p);
		ssize_t k = pread(fileno(s->file), t + done, want, (off_t)p);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			s->err = k < 0 ? errno : EIO;
		else
			done += (size_t)k;
	}
	int bad = done < len;
	pthread_mutex_unlock(&s->mu);
	if (bad) {
		free(t);
		return NULL;
	}
	t[len] = 0;
	return t;
}

int sl_store_error(sl_store *s)
{
	pthread_mutex_lock(&s->mu);
	int e = s->err;
	pthread_mutex_unlock(&s->mu);
	return e;
}

void sl_store_free(sl_store *s)
{
	if (!s)
		return;
	fclose(s->file);
	free(s->buf);
	pthread_mutex_destroy(&s->mu);
	free(s);
}
