/*
 * paths.c: paths from the current folder, as git takes them: the current
 * folder's place in the working tree, and a path given from it made the
 * path at a revision.
 */
#include "internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* The current folder's path inside the working tree, worked out once per
 * process: a run never moves, and every REV:path read (log: two per
 * commit) resolved both folders' real paths again, a system call per
 * component. Under a lock: the threads of check -j read entries at
 * revisions. */
static pthread_mutex_t prefix_lock = PTHREAD_MUTEX_INITIALIZER;
static int prefix_known;
static char *prefix_memo;

static void prefix_free(void)
{
	free(prefix_memo);
	prefix_memo = NULL;
}

static char *cwd_prefix(void)
{
	git_repository *repo = NULL;
	if (gt_repo_open(&repo) || git_repository_is_bare(repo) || !git_repository_workdir(repo))
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

/* The current folder's path inside the working tree ("cat/dsv41/", "" at
 * the top); NULL outside a repository or a working tree. Caller frees. */
char *gt_cwd_prefix(void)
{
	pthread_mutex_lock(&prefix_lock);
	if (!prefix_known) {
		prefix_memo = cwd_prefix();
		prefix_known = 1;
		atexit(prefix_free);
	}
	char *out = prefix_memo ? sl_strdup(prefix_memo) : NULL;
	pthread_mutex_unlock(&prefix_lock);
	return out;
}

/* PREFIX and PATH joined, `.` and `..` resolved ("" for the top). */
char *gt_join_norm(const char *prefix, const char *path)
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
	char *prefix = gt_cwd_prefix();
	if (!prefix)
		return sl_strdup(path);
	char *r = gt_join_norm(prefix, path);
	free(prefix);
	return r;
}
