/*
 * init.c (cmd): `servelint init [DIR]`: a commented starter .servelint.yaml
 * in DIR (default the current folder), every setting shown and left
 * commented out, so the file changes nothing until it is edited and each
 * line, once uncommented, is valid as it stands (tests/init.sh). Never
 * overwrites: the file is written under a temporary name and linked into
 * place, which fails when the name exists, so a file that is there (or
 * appears meanwhile) is left as it is. `-o -` prints it instead.
 */
#include "cmd.h"
#include "options.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/util.h"

/* The keys are those entry/config.c validates (disable, severity, exclude,
 * entries); docs/servelint-check.md tells them. */
static const char starter[] =
	"# .servelint.yaml: servelint's settings for the files at and below this\n"
	"# folder (check and audit read the nearest one above their input;\n"
	"# `--config FILE` names another, `--no-config` reads none). Every line\n"
	"# below is commented out: uncomment what you need. An unknown key, a\n"
	"# value of the wrong type or a rule id that no rule has is an error at\n"
	"# its place, never a rule silently left on. Manual: servelint-check(1).\n"
	"\n"
	"# Rules turned off for the whole project (`servelint rules` lists them;\n"
	"# `# servelint disable=ID -- reason` above a command turns one off there).\n"
	"# disable: [SL1003]\n"
	"\n"
	"# A rule's level changed: style, info, warning or error.\n"
	"# severity: {SL1001: error, SL6003: info}\n"
	"\n"
	"# Paths left out of check and audit (globs, matched against each path\n"
	"# as check and audit find it from their arguments).\n"
	"# exclude: [\"drafts/*\", \"pages/*.txt\"]\n"
	"\n"
	"# Scripts that make one entry together when their names do not say so\n"
	"# (files relative to this file; docs/input.md, How files make entries).\n"
	"# entries:\n"
	"#   - name: qwen-pd\n"
	"#     files: [start_prefill.sh, start_decode.sh, engine.yaml]\n";

static void usage(FILE *f)
{
	fputs("usage: servelint init [-o FILE|-] [DIR]\n"
	      "\n"
	      "Writes a commented starter .servelint.yaml in DIR (default: the current\n"
	      "folder): every setting shown, commented out. Never overwrites a file.\n"
	      "\n"
	      "  -o, --output FILE   write it to FILE instead (`-`: standard output)\n"
	      "      --version       servelint's version\n"
	      "  -h, --help          this help\n"
	      "\n"
	      "Exit status: 0 written, 2 the file exists or cannot be written, 3 usage.\n",
	      f);
}

/* Writes the starter to path, refusing an existing name. 0, or -1 with
 * errno (EEXIST when the name is taken). */
static int write_new(const char *path)
{
	struct stat st;
	if (lstat(path, &st) == 0) {
		errno = EEXIST;
		return -1;
	}
	const char *sl = strrchr(path, '/');
	sl_buf tmp = {0};
	if (sl)
		sl_buf_add(&tmp, path, (size_t)(sl - path) + 1);
	sl_buf_puts(&tmp, ".servelint-init.XXXXXX");
	int fd = mkstemp(tmp.data);
	if (fd < 0) {
		sl_buf_free(&tmp);
		return -1;
	}
	size_t len = sizeof starter - 1;
	int bad = write(fd, starter, len) != (ssize_t)len || fchmod(fd, 0644);
	bad |= close(fd) != 0;
	/* link() fails with EEXIST when the name is taken: never a replacement */
	if (!bad && link(tmp.data, path) != 0)
		bad = 1;
	int saved = errno;
	unlink(tmp.data);
	sl_buf_free(&tmp);
	errno = saved;
	return bad ? -1 : 0;
}

int sl_cmd_init(int argc, char **argv)
{
	static const struct option opts[] = {
		SL_OPTS_COMMON,
		{"output", required_argument, NULL, 'o'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *out = NULL;
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case SL_OPT_VERSION: return sl_cmd_version();
		case 'h': usage(stdout); return SL_EXIT_OK;
		default: usage(stderr); return SL_EXIT_USAGE;
		}
	}
	if (argc - optind > 1 || (out && argc - optind == 1)) {
		fprintf(stderr, "servelint init: one DIR at most, and not with --output\n");
		usage(stderr);
		return SL_EXIT_USAGE;
	}
	if (out && sl_opt_is_stdout(out)) {
		fputs(starter, stdout);
		return fflush(stdout) || ferror(stdout) ? SL_EXIT_ERROR : SL_EXIT_OK;
	}
	sl_buf path = {0};
	if (out)
		sl_buf_puts(&path, out);
	else
		sl_buf_printf(&path, "%s/.servelint.yaml", optind < argc ? argv[optind] : ".");
	int rc = SL_EXIT_OK;
	if (write_new(path.data)) {
		if (errno == EEXIST)
			fprintf(stderr, "servelint init: %s exists: left as it is (remove it first to start again)\n",
				path.data);
		else
			fprintf(stderr, "servelint init: %s: %s\n", path.data, strerror(errno));
		rc = SL_EXIT_ERROR;
	} else {
		fprintf(stderr, "servelint init: wrote %s (every setting commented out)\n", path.data);
	}
	sl_buf_free(&path);
	return rc;
}
