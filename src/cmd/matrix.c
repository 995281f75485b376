/*
 * matrix.c (cmd): `servelint matrix PATH...`: N entries side by side, such
 * as every hardware variant of one model. Rows are the canonical keys whose
 * values differ (all of them with --all); the keys the same everywhere are
 * told once. Columns are named by the entries' paths less their common
 * leading folders. Exit: 0, 1 with --exit-code when any row differs,
 * 2 unreadable input, 3 usage.
 */
#include "cmd.h"
#include "options.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diff/diff.h"
#include "entry/entry.h"
#include "normalize/normalize.h"
#include "report/report.h"

static void usage(FILE *f)
{
	fputs("usage: servelint matrix [--format tty|markdown|csv|json] [--all] [--exit-code]\n"
	      "                        [--ignore KEY-GLOB]... [--only KEY-GLOB]... PATH...\n"
	      "\n"
	      "Entries side by side: one row per key whose values differ, one column per\n"
	      "entry; the keys the same in every entry are listed once below. A setting one\n"
	      "entry leaves to the engine's default shows as `V (default)` and equals V.\n"
	      "PATH: entry folders or files, whole catalogue pages (a column per entry,\n"
	      "named page:LINE), or REV:path from the git repository.\n"
	      "\n"
	      "  -f, --format FORMAT   tty (default), markdown, csv, json\n"
	      "  -a, --all             every key in the table, the same ones too\n"
	      "      --exit-code       exit 1 when any key differs\n"
	      "      --ignore GLOB     leave out keys matching GLOB (repeatable)\n"
	      "      --only GLOB       only keys matching GLOB (repeatable)\n"
	      "      --color WHEN      auto (default), always, never\n"
	      SL_PLAN_OPTS_USAGE,
	      f);
}

/* Column names: the paths less the folders all of them share. */
static char **column_names(char *const *paths, size_t n)
{
	size_t common = 0;
	if (n > 1) {
		for (size_t k = 0;; k++) {
			int stop = 0;
			for (size_t i = 0; i < n && !stop; i++)
				stop = !paths[i][k] || paths[i][k] != paths[0][k];
			if (stop)
				break;
			if (paths[0][k] == '/')
				common = k + 1;
		}
	}
	char **names = sl_calloc(n + 1, sizeof *names);
	for (size_t i = 0; i < n; i++) {
		const char *p = paths[i] + common;
		size_t len = strlen(p);
		while (len > 1 && p[len - 1] == '/')
			len--;
		names[i] = sl_strndup(*p ? p : paths[i], *p ? len : strlen(paths[i]));
	}
	return names;
}

int sl_cmd_matrix(int argc, char **argv)
{
	static const struct option opts[] = {
		{"format", required_argument, NULL, 'f'},
		{"all", no_argument, NULL, 'a'},
		{"exit-code", no_argument, NULL, 'x'},
		{"ignore", required_argument, NULL, 'i'},
		{"only", required_argument, NULL, 'O'},
		{"color", required_argument, NULL, 'C'},
		{"system", required_argument, NULL, 'Y'},
		{"model-config", required_argument, NULL, 'M'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *format = "tty";
	int all = 0, exit_code = 0, color = -1, c;
	sl_key_globs keys = {0};
	sl_plan_options plan = {0};
	optind = 1;
	while ((c = getopt_long(argc, argv, "f:ah", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (strcmp(optarg, "tty") && strcmp(optarg, "json") && strcmp(optarg, "markdown") &&
			    strcmp(optarg, "csv")) {
				fprintf(stderr, "servelint matrix: unknown format `%s` (tty, markdown, csv, json)\n",
					optarg);
				return 3;
			}
			format = optarg;
			break;
		case 'a': all = 1; break;
		case 'x': exit_code = 1; break;
		case 'i':
		case 'O':
			if (sl_key_globs_take(&keys, c, optarg, "matrix") < 0)
				return 3;
			break;
		case 'C':
			if ((color = sl_color_parse(optarg)) == -2) {
				fprintf(stderr, "servelint matrix: --color takes auto, always or never\n");
				return 3;
			}
			break;
		case 'Y':
		case 'M': sl_plan_opts_take(&plan, c, optarg); break;
		case 'h': usage(stdout); return SL_EXIT_OK;
		default: usage(stderr); return 3;
		}
	}
	if (argc - optind < 1) {
		fprintf(stderr, "servelint matrix: entries are needed\n");
		usage(stderr);
		return 3;
	}
	color = sl_color_resolve(color);
	if (sl_plan_opts_apply(&plan))
		return SL_EXIT_ERROR;
	sl_error err = {0};
	sl_grammars *gs = NULL;
	sl_entry **es = NULL;
	sl_model **ms = NULL;
	char **paths = NULL;
	size_t n = 0, cap = 0;
	int rc = SL_EXIT_OK;
	if (sl_normalize_grammars_load(&gs, &err))
		rc = SL_EXIT_ERROR;
	/* each PATH: an entry, REV:path, or a whole page (one column per entry) */
	for (int i = optind; i < argc && !rc; i++) {
		struct stat st;
		const char *a = argv[i];
		if (!strcmp(a, "-")) {
			fprintf(stderr, "servelint matrix: standard input is not an entry here\n");
			rc = 3;
			break;
		}
		sl_entry *e = NULL;
		sl_entry_input in;
		if (stat(a, &st) != 0 && strchr(a, ':')) {
			if (sl_entry_input_load_one(a, &e, &err)) {
				rc = SL_EXIT_ERROR;
				break;
			}
			SL_PUSH(es, n, cap, e);
		} else if (sl_entry_input_open(&in, a, &err)) {
			rc = SL_EXIT_ERROR;
			break;
		} else {
			int got;
			while (!rc && (got = sl_entry_input_next(&in, &e, &err)) != 0) {
				if (got < 0)
					rc = SL_EXIT_ERROR;
				else
					SL_PUSH(es, n, cap, e);
			}
			sl_entry_input_close(&in);
		}
	}
	/* a column per entry, and per variant of a script with undecided
	 * conditionals (its column named ENTRY#K) */
	size_t ncol = 0, mcap = 0, pcap = 0, vcap = 0;
	unsigned *vidx = NULL;
	for (size_t i = 0; i < n && !rc; i++) {
		sl_model **vms = NULL;
		size_t nv = 0;
		if (sl_entry_models(es[i], gs, NULL, 0, &vms, &nv, &err)) {
			rc = SL_EXIT_ERROR;
			break;
		}
		sl_grow((void **)&ms, &mcap, ncol + nv + 1, sizeof *ms);
		sl_grow((void **)&paths, &pcap, ncol + nv + 1, sizeof *paths);
		sl_grow((void **)&vidx, &vcap, ncol + nv + 1, sizeof *vidx);
		for (size_t k = 0; k < nv; k++, ncol++) {
			ms[ncol] = vms[k];
			paths[ncol] = es[i]->path;
			vidx[ncol] = nv > 1 ? (unsigned)k + 1 : 0;
		}
		free(vms);
	}
	if (!rc && ncol < 2) {
		fprintf(stderr, "servelint matrix: two entries or more are needed\n");
		rc = 3;
	}
	if (rc == SL_EXIT_ERROR) {
		sl_error_print(&err, "servelint");
		sl_error_clear(&err);
	}
	if (!rc) {
		sl_diff_opts o = sl_key_globs_opts(&keys);
		sl_matrix m;
		char **names = column_names(paths, ncol);
		for (size_t i = 0; i < ncol; i++)
			if (vidx[i]) {
				sl_buf b = {0};
				sl_buf_printf(&b, "%s#%u", names[i], vidx[i]);
				free(names[i]);
				names[i] = sl_buf_detach(&b);
			}
		sl_diff_matrix((const sl_model *const *)ms, ncol, &o, &m);
		if (sl_report_matrix(stdout, format, &m, names, all, color) || fflush(stdout))
			rc = SL_EXIT_ERROR;
		else if (exit_code)
			for (size_t r = 0; r < m.nrows && !rc; r++)
				if (m.rows[r].differs)
					rc = SL_EXIT_FINDINGS;
		for (size_t i = 0; i < ncol; i++)
			free(names[i]);
		free(names);
		sl_matrix_free(&m);
	}
	for (size_t i = 0; i < ncol; i++)
		sl_model_free(ms[i]);
	for (size_t i = 0; i < n; i++)
		sl_entry_free(es[i]);
	free(vidx);
	free(ms);
	free(es);
	free(paths);
	sl_normalize_grammars_free(gs);
	return rc;
}
