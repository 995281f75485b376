/*
 * logs.c: the log file of each process and the tail of one that failed.
 */
#include "internal.h"

#include <sys/stat.h>

/* The last lines of a log: only its end is read (a crashing engine may
 * have written gigabytes). */
char *rn_tail_of(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return NULL;
	struct stat st;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return NULL;
	}
	size_t want = 64u * 1024u;
	off_t from = st.st_size > (off_t)want ? st.st_size - (off_t)want : 0;
	char *text = sl_malloc(want + 1);
	size_t len = 0;
	ssize_t k;
	while (len < want && (k = pread(fd, text + len, want - len, from + (off_t)len)) > 0)
		len += (size_t)k;
	close(fd);
	text[len] = '\0';
	size_t lines = 0, i = len;
	if (i && text[i - 1] == '\n')
		i--;
	while (i > 0 && lines < TAIL_LINES)
		if (text[--i] == '\n')
			lines++;
	if (i && text[i] == '\n')
		i++;
	char *t = sl_strndup(text + i, len - i);
	free(text);
	return t;
}

char *rn_log_path(const char *dir, const char *name, int cycle)
{
	sl_buf b = {0};
	sl_buf_printf(&b, "%s/", dir);
	for (const char *p = name; *p; p++)
		sl_buf_putc(&b, *p == '#' ? '-' : *p == '/' ? '_' : *p);
	if (cycle > 0)
		sl_buf_printf(&b, ".%d", cycle);
	sl_buf_puts(&b, ".log");
	return sl_buf_detach(&b);
}
