/* fuzz.h: what the libFuzzer targets of tests/fuzz/ share.
 *
 * Each target drives servelint the way a user does: the input is written as
 * files into a scratch folder of its own (under $TMPDIR, one per process) and
 * the subcommands run on them through their sl_cmd_* entry points, with their
 * real options, so that a fuzzed input reaches every reader, normalizer,
 * checker and report that the command line reaches. Standard output goes to
 * /dev/null; standard error is left to libFuzzer (run.sh passes
 * -close_fd_mask=2 so servelint's own messages do not flood the log, while
 * libFuzzer's and the sanitizers' reports still show). */
#ifndef SL_FUZZ_H
#define SL_FUZZ_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/cmd.h"

/* The scratch folder of this process, made once. */
static char fz_root[512];

static inline void fz_die(const char *what)
{
	perror(what);
	abort();
}

static inline void fz_setup(void)
{
	if (fz_root[0])
		return;
	const char *tmp = getenv("TMPDIR");
	snprintf(fz_root, sizeof fz_root, "%s/servelint-fuzz-%ld", tmp && *tmp ? tmp : "/tmp", (long)getpid());
	if (mkdir(fz_root, 0700) && errno != EEXIST)
		fz_die(fz_root);
	int null = open("/dev/null", O_WRONLY);
	if (null < 0 || dup2(null, 1) < 0)
		fz_die("/dev/null");
	close(null);
}

/* fz_path: fz_root/REL in a static buffer (one of four, round robin). */
static inline const char *fz_path(const char *rel)
{
	static char buf[4][1024];
	static unsigned k;
	char *b = buf[k++ % 4];
	snprintf(b, sizeof buf[0], "%s/%s", fz_root, rel);
	return b;
}

static inline void fz_mkdirs(const char *rel)
{
	char p[1024];
	snprintf(p, sizeof p, "%s/%s", fz_root, rel);
	for (char *s = p + strlen(fz_root) + 1; *s; s++)
		if (*s == '/') {
			*s = 0;
			mkdir(p, 0700);
			*s = '/';
		}
	mkdir(p, 0700);
}

/* fz_write: REL (under the scratch folder) holds LEN bytes of DATA. */
static inline void fz_write(const char *rel, const void *data, size_t len)
{
	const char *p = fz_path(rel);
	FILE *f = fopen(p, "wb");
	if (!f)
		fz_die(p);
	if (len && fwrite(data, 1, len, f) != len)
		fz_die(p);
	if (fclose(f))
		fz_die(p);
}

static inline void fz_write_str(const char *rel, const char *s)
{
	fz_write(rel, s, strlen(s));
}

/* fz_rm_rf: remove an absolute path and everything below it (no symlink is
 * followed: a link is removed as a link). */
static inline void fz_rm_rf(const char *path)
{
	struct stat st;
	if (lstat(path, &st))
		return;
	if (S_ISDIR(st.st_mode)) {
		DIR *d = opendir(path);
		if (d) {
			struct dirent *e;
			while ((e = readdir(d))) {
				if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
					continue;
				char sub[4096];
				snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
				fz_rm_rf(sub);
			}
			closedir(d);
		}
		rmdir(path);
	} else {
		unlink(path);
	}
}

/* fz_run: a subcommand with the NULL-terminated arguments that follow its
 * name, as main() would call it. Returns its exit status. */
static inline int fz_run(int (*fn)(int, char **), const char *name, ...)
{
	char *argv[64];
	int argc = 0;
	argv[argc++] = (char *)name;
	va_list ap;
	va_start(ap, name);
	const char *a;
	while ((a = va_arg(ap, const char *)) && argc < 63)
		argv[argc++] = (char *)a;
	va_end(ap);
	argv[argc] = NULL;
	int rc = fn(argc, argv);
	fflush(stdout);
	fflush(stderr);
	return rc;
}

/* fz_split: the input's parts between separator lines "#####" (at most MAX),
 * each part's start and length in STARTS/LENS. Returns how many. */
static inline size_t fz_split(const uint8_t *data, size_t size, const uint8_t **starts, size_t *lens, size_t max)
{
	static const char sep[] = "\n#####\n";
	size_t n = 0, from = 0;
	for (size_t i = 0; i + sizeof sep - 1 <= size && n + 1 < max; i++)
		if (!memcmp(data + i, sep, sizeof sep - 1)) {
			starts[n] = data + from;
			lens[n++] = i + 1 - from;
			from = i + sizeof sep - 1;
			i = from - 1;
		}
	starts[n] = data + from;
	lens[n++] = size - from;
	return n;
}

#endif
