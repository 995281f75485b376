/*
 * options.c (cmd): the command-line contract every subcommand shares, and
 * the options several share, parsed one way (see options.h). It stays in the command layer rather than in a stage
 * because it is option parsing only: turning argv strings into the values
 * the stages take (a colour choice, diff key filters, --set bindings), and
 * no stage reads argv. What was not option parsing (loading the grammars
 * and rules together) is now the check stage's sl_check_load_rules.
 */
#include "cmd.h"
#include "options.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int sl_cmd_version(void)
{
	printf("servelint %s\n", SL_VERSION);
	return fflush(stdout) ? 2 : 0;
}

int sl_color_parse(const char *when)
{
	return !strcmp(when, "always") ? 1 : !strcmp(when, "never") ? 0 : !strcmp(when, "auto") ? -1 : -2;
}

int sl_opt_color(const char *cmd, const char *when, int *color)
{
	int c = sl_color_parse(when);
	if (c == -2) {
		fprintf(stderr, "servelint %s: --color takes auto, always or never, not `%s`\n", cmd, when);
		return -1;
	}
	*color = c;
	return 0;
}

int sl_color_resolve(int color)
{
	if (color >= 0)
		return color;
	const char *no = getenv("NO_COLOR"), *term = getenv("TERM");
	return isatty(STDOUT_FILENO) && !(no && *no) && !(term && !strcmp(term, "dumb"));
}

int sl_opt_stdin_once(int argc, char **argv, int first, const char *cmd)
{
	int seen = 0;
	for (int i = first; i < argc; i++)
		if (!strcmp(argv[i], "-") && seen++) {
			fprintf(stderr, "servelint %s: standard input (-) can be read only once\n", cmd);
			return -1;
		}
	return 0;
}

int sl_opt_is_stdout(const char *file)
{
	return file && !strcmp(file, "-");
}

int sl_opt_output_ok(const char *cmd, const char *opt, const char *file)
{
	if (sl_opt_is_stdout(file))
		return 0;
	if (!file || !*file) {
		fprintf(stderr, "servelint %s: %s needs a file name (- for standard output)\n", cmd, opt);
		return -1;
	}
	struct stat st;
	if (stat(file, &st) == 0 && S_ISDIR(st.st_mode)) {
		fprintf(stderr, "servelint %s: %s %s: is a folder\n", cmd, opt, file);
		return -1;
	}
	/* the folder it goes into: there, and writable */
	const char *sl = strrchr(file, '/');
	char *dir = sl ? sl_strndup(file, sl == file ? 1 : (size_t)(sl - file)) : sl_strdup(".");
	int rc = 0;
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "servelint %s: %s %s: no folder %s\n", cmd, opt, file, dir);
		rc = -1;
	} else if (access(dir, W_OK | X_OK) != 0) {
		fprintf(stderr, "servelint %s: %s %s: %s\n", cmd, opt, file, strerror(errno));
		rc = -1;
	}
	free(dir);
	return rc;
}

int sl_opt_jobs(const char *cmd, const char *arg, unsigned *jobs)
{
	long long v;
	if (sl_parse_int(arg, &v) || v < 1 || v > SL_MAX_JOBS) {
		fprintf(stderr, "servelint %s: -j takes a number of threads from 1 to %d, not `%s`\n", cmd, SL_MAX_JOBS,
			arg);
		return -1;
	}
	*jobs = (unsigned)v;
	return 0;
}

int sl_opt_quiet(void)
{
	fflush(stdout);
	int fd = open("/dev/null", O_WRONLY);
	if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0) {
		perror("servelint: --quiet");
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

void sl_opt_warn_unmatched(const char *cmd, const char *opt, const char *glob, const char *what)
{
	fprintf(stderr, "servelint %s: warning: %s '%s' matched no %s\n", cmd, opt, glob, what);
}

int sl_key_globs_take(sl_key_globs *k, int c, char *glob, const char *cmd)
{
	if (c != 'i' && c != 'O')
		return 0;
	size_t *n = c == 'i' ? &k->ni : &k->no;
	if (*n == SL_MAX_KEY_GLOBS) {
		fprintf(stderr, "servelint %s: more than %d --%s globs\n", cmd, SL_MAX_KEY_GLOBS,
			c == 'i' ? "ignore" : "only");
		return -1;
	}
	(c == 'i' ? k->ignore : k->only)[(*n)++] = glob;
	return 1;
}

sl_diff_opts sl_key_globs_opts(const sl_key_globs *k)
{
	sl_diff_opts o = {k->ignore, k->ni, k->only, k->no};
	return o;
}

int sl_opt_path_glob(const char *glob, const char *path, const char *root)
{
	if (!fnmatch(glob, path, 0))
		return 1;
	const char *rel = path;
	size_t n = strlen(root);
	while (n > 1 && root[n - 1] == '/')
		n--;
	if (!strncmp(path, root, n) && path[n] == '/')
		rel = path + n + 1;
	else if (!strcmp(root, ".") || !strcmp(root, "./"))
		rel = path;
	while (rel[0] == '.' && rel[1] == '/')
		rel += 2;
	return !fnmatch(glob, rel, 0);
}

/* Whether glob matches a key the diff of ms could name. */
static int matches_key(const char *glob, const sl_model *const *ms, size_t n)
{
	static const char *const fixed[] = {"service", "engine", "version", "replicas", "gpus", "topology"};
	for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
		if (!fnmatch(glob, fixed[i], 0))
			return 1;
	for (size_t m = 0; m < n; m++) {
		const sl_model *md = ms[m];
		if (!md)
			continue;
		for (size_t i = 0; i < md->nservices; i++) {
			const sl_service *s = &md->services[i];
			for (size_t k = 0; k < s->nsettings; k++)
				if (!fnmatch(glob, s->settings[k].key, 0))
					return 1;
			for (size_t k = 0; k < s->nenv; k++) {
				sl_buf b = {0};
				sl_buf_printf(&b, "env %s", s->env[k].name);
				int hit = !fnmatch(glob, b.data, 0);
				sl_buf_free(&b);
				if (hit)
					return 1;
			}
		}
		for (size_t i = 0; i < md->nclaims; i++) {
			const sl_claim *k = &md->claims[i];
			sl_buf b = {0};
			sl_buf_printf(&b, "claim %s%s%s (%s)", k->key, k->role ? " " : "", k->role ? k->role : "",
				      k->from);
			int hit = !fnmatch(glob, k->key, 0) || !fnmatch(glob, b.data, 0);
			sl_buf_free(&b);
			if (hit)
				return 1;
		}
	}
	return 0;
}

void sl_key_globs_mark(const sl_key_globs *k, const sl_model *const *ms, size_t n, unsigned char *seen)
{
	for (size_t i = 0; i < k->ni; i++)
		seen[i] |= matches_key(k->ignore[i], ms, n);
	for (size_t i = 0; i < k->no; i++)
		seen[k->ni + i] |= matches_key(k->only[i], ms, n);
}

void sl_key_globs_warn_seen(const sl_key_globs *k, const unsigned char *seen, const char *cmd)
{
	for (size_t i = 0; i < k->ni; i++)
		if (!seen[i])
			sl_opt_warn_unmatched(cmd, "--ignore", k->ignore[i], "key");
	for (size_t i = 0; i < k->no; i++)
		if (!seen[k->ni + i])
			sl_opt_warn_unmatched(cmd, "--only", k->only[i], "key");
}

void sl_key_globs_warn(const sl_key_globs *k, const sl_model *const *ms, size_t n, const char *cmd)
{
	unsigned char seen[2 * SL_MAX_KEY_GLOBS] = {0};
	sl_key_globs_mark(k, ms, n, seen);
	sl_key_globs_warn_seen(k, seen, cmd);
}

int sl_binds_take(sl_binds *b, const char *arg, const char *cmd)
{
	const char *eq = strchr(arg, '=');
	size_t n = eq ? (size_t)(eq - arg) : 0;
	/* a shell name, or a positional parameter's number (the script's $1) */
	int digits = n > 0;
	for (size_t i = 0; i < n && digits; i++)
		digits = isdigit((unsigned char)arg[i]) != 0;
	int ok = n > 0 && (digits || !isdigit((unsigned char)arg[0]));
	for (size_t i = 0; i < n && ok && !digits; i++)
		ok = isalnum((unsigned char)arg[i]) || arg[i] == '_';
	if (!ok) {
		fprintf(stderr, "servelint %s: --set takes NAME=VALUE with NAME a shell variable name or a number, not `%s`\n",
			cmd, arg);
		return -1;
	}
	size_t cap = b->n;
	sl_grow((void **)&b->names, &cap, b->n + 1, sizeof *b->names);
	cap = b->n;
	sl_grow((void **)&b->values, &cap, b->n + 1, sizeof *b->values);
	b->names[b->n] = sl_strndup(arg, n);
	b->values[b->n] = sl_strdup(eq + 1);
	b->n++;
	return 0;
}

void sl_binds_free(sl_binds *b)
{
	for (size_t i = 0; i < b->n; i++) {
		free(b->names[i]);
		free(b->values[i]);
	}
	free(b->names);
	free(b->values);
	memset(b, 0, sizeof *b);
}

int sl_plan_opts_take(sl_plan_options *o, int c, char *arg)
{
	if (c == 'Y')
		o->system = arg;
	else if (c == 'M')
		o->model_config = arg;
	else
		return 0;
	return 1;
}

int sl_plan_opts_apply(const sl_plan_options *o)
{
	sl_error err = {0};
	if (sl_plan_set_options(o, &err)) {
		sl_error_print(&err, "servelint");
		sl_error_clear(&err);
		return -1;
	}
	return 0;
}
