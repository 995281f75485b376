/*
 * diff.c (cmd): `servelint diff A B`: the semantic difference of two
 * entries. A and B: entry folders or files, `-` for standard input, or
 * REV:path read from the git repository with libgit2 (no checkout).
 * Exit: 0 equal (explicit defaults apart), 1 different with --exit-code,
 * 2 unreadable input, 3 usage.
 */
#include "cmd.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diff/diff.h"
#include "inputs.h"
#include "normalize/normalize.h"
#include "report/report.h"

static void usage(FILE *f)
{
	fputs("usage: servelint diff [--format tty|json|markdown] [--exit-code]\n"
	      "                      [--ignore KEY-GLOB]... [--only KEY-GLOB]... A B\n"
	      "\n"
	      "The semantic difference of two entries: services paired by role, each\n"
	      "difference as canonical key, old and new value and both places. Flag order,\n"
	      "aliases, `=` or space, wrapping, JSON member order and YAML style never show;\n"
	      "a default written out on one side only shows as an explicit default.\n"
	      "A and B: entry folders or files, - for standard input, or REV:path from the\n"
	      "git repository around the current directory (read without a checkout).\n"
	      "\n"
	      "  -f, --format FORMAT   tty (default), json, markdown (for a pull request)\n"
	      "      --exit-code       exit 1 when the entries differ\n"
	      "      --ignore GLOB     leave out keys matching GLOB (repeatable)\n"
	      "      --only GLOB       only keys matching GLOB (repeatable)\n"
	      "      --color WHEN      auto (default), always, never\n",
	      f);
}

int sl_cmd_diff(int argc, char **argv)
{
	static const struct option opts[] = {
		{"format", required_argument, NULL, 'f'},
		{"exit-code", no_argument, NULL, 'x'},
		{"ignore", required_argument, NULL, 'i'},
		{"only", required_argument, NULL, 'O'},
		{"color", required_argument, NULL, 'C'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *format = "tty";
	int exit_code = 0, color = -1, c;
	char *ignore[64], *only[64];
	size_t ni = 0, no = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "f:h", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (strcmp(optarg, "tty") && strcmp(optarg, "json") && strcmp(optarg, "markdown")) {
				fprintf(stderr, "servelint diff: unknown format `%s` (tty, json, markdown)\n", optarg);
				return 3;
			}
			format = optarg;
			break;
		case 'x': exit_code = 1; break;
		case 'i': if (ni < 64) ignore[ni++] = optarg; break;
		case 'O': if (no < 64) only[no++] = optarg; break;
		case 'C': color = !strcmp(optarg, "always") ? 1 : !strcmp(optarg, "never") ? 0 : -1; break;
		case 'h': usage(stdout); return SL_EXIT_OK;
		default: usage(stderr); return 3;
		}
	}
	if (argc - optind != 2) {
		fprintf(stderr, "servelint diff: two entries are needed\n");
		usage(stderr);
		return 3;
	}
	if (color < 0)
		color = isatty(STDOUT_FILENO) && !getenv("NO_COLOR");
	const char *na = argv[optind], *nb = argv[optind + 1];
	if (!strcmp(na, "-") && !strcmp(nb, "-")) {
		fprintf(stderr, "servelint diff: only one side can be standard input\n");
		return 3;
	}
	sl_error err = {0};
	sl_grammars *gs = NULL;
	sl_entry *ea = NULL, *eb = NULL;
	sl_model *ma = NULL, *mb = NULL;
	int rc = SL_EXIT_OK;
	if (sl_normalize_grammars_load(&gs, &err) || sl_input_load_one(na, &ea, &err) || sl_normalize_entry(ea, gs, &ma, &err) ||
	    sl_input_load_one(nb, &eb, &err) || sl_normalize_entry(eb, gs, &mb, &err)) {
		sl_error_print(&err, "servelint");
		sl_error_clear(&err);
		rc = SL_EXIT_ERROR;
	} else {
		sl_diff_opts o = {ignore, ni, only, no};
		sl_diff d;
		sl_diff_models(ma, mb, &o, &d);
		if (sl_report_diff(stdout, format, &d, na, nb, color) || fflush(stdout))
			rc = SL_EXIT_ERROR;
		else if (exit_code && !sl_diff_equal(&d))
			rc = SL_EXIT_FINDINGS;
		sl_diff_free(&d);
	}
	sl_model_free(ma);
	sl_model_free(mb);
	sl_entry_free(ea);
	sl_entry_free(eb);
	sl_normalize_grammars_free(gs);
	return rc;
}
