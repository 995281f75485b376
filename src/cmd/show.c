/*
 * show.c (cmd): `servelint show PATH...`: the normalized model of entries.
 *
 * All entries are read and normalized before anything is written, so an
 * input error never leaves half a report on stdout.
 */
#define _GNU_SOURCE  /* fopencookie: a FILE that appends to our own buffer */
#include "cmd.h"
#include "options.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "normalize/normalize.h"
#include "report/report.h"
#include "entry/entry.h"

/* The tty report is rendered into memory first: nothing reaches stdout
 * unless every entry succeeded. glibc's open_memstream zero-fills each
 * growth, and a temporary file waits on the disk; a cookie FILE over an
 * sl_buf does neither. */
static ssize_t buf_write(void *cookie, const char *data, size_t n)
{
	sl_buf_add(cookie, data, n);
	return (ssize_t)n;
}

static int json_to_buf(const char *data, size_t n, void *b)
{
	sl_buf_add(b, data, n);
	return 0;
}

static FILE *buf_stream(sl_buf *b)
{
	cookie_io_functions_t io = {NULL, buf_write, NULL, NULL};
	FILE *f = fopencookie(b, "w", io);
	if (f)
		setvbuf(f, NULL, _IOFBF, 1 << 16);
	return f;
}

static void usage(FILE *f)
{
	fputs("usage: servelint show [--format tty|json] [--color auto|always|never] [--set NAME=VALUE]...\n"
	      "                      [--variant N] [--system TEXT] [--model-config FILE] PATH...\n"
	      "\n"
	      "Prints the normalized model of each entry (an entry folder, a launch script,\n"
	      "an entry in catalogue form, or a whole published catalogue page):\n"
	      "services, roles, replicas, GPUs, env and canonical settings, each value with\n"
	      "the file:line:col it came from; then the memory and shape plan when the model\n"
	      "and the accelerator are known (docs/memory-plan.md).\n"
	      "\n"
	      "  -f, --format FORMAT   tty (default) or json\n"
	      "      --color WHEN      auto (default: a terminal without NO_COLOR), always, never\n"
	      "      --set NAME=VALUE  a value for a variable the script reads but leaves unknown\n"
	      "                        (listed under `inputs`); repeatable. A condition it\n"
	      "                        decides picks its branch.\n"
	      "      --variant N       only the N-th variant: a script whose if/case depends on\n"
	      "                        something unknown has one per alternative (default: all)\n"
	      SL_PLAN_OPTS_USAGE
	      "  -h, --help            this help\n"
	      "\n"
	      "Exit status: 0 on success, 2 when an input cannot be read or parsed.\n",
	      f);
}

int sl_cmd_show(int argc, char **argv)
{
	static const struct option opts[] = {
		{"format", required_argument, NULL, 'f'},
		{"color", required_argument, NULL, 'C'},
		{"set", required_argument, NULL, 's'},
		{"variant", required_argument, NULL, 'V'},
		{"system", required_argument, NULL, 'Y'},
		{"model-config", required_argument, NULL, 'M'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int json = 0, color = -1, c;
	sl_plan_options plan = {0};
	static sl_binds binds;
	unsigned variant = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "f:h", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (!strcmp(optarg, "json"))
				json = 1;
			else if (!strcmp(optarg, "tty"))
				json = 0;
			else {
				fprintf(stderr, "servelint show: unknown format `%s` (tty, json)\n", optarg);
				return SL_EXIT_ERROR;
			}
			break;
		case 'C':
			if (!strcmp(optarg, "always"))
				color = 1;
			else if (!strcmp(optarg, "never"))
				color = 0;
			else if (!strcmp(optarg, "auto"))
				color = -1;
			else {
				fprintf(stderr, "servelint show: --color takes auto, always or never\n");
				return SL_EXIT_ERROR;
			}
			break;
		case 's':
			if (sl_binds_take(&binds, optarg, "show")) {
				sl_binds_free(&binds);
				return SL_EXIT_ERROR;
			}
			break;
		case 'V': {
			char *end;
			unsigned long v = strtoul(optarg, &end, 10);
			if (*end || v == 0 || v > SL_MAX_VARIANTS) {
				fprintf(stderr, "servelint show: --variant takes a number from 1 to %d\n",
					SL_MAX_VARIANTS);
				sl_binds_free(&binds);
				return SL_EXIT_ERROR;
			}
			variant = (unsigned)v;
			break;
		}
		case 'Y':
		case 'M':
			sl_plan_opts_take(&plan, c, optarg);
			break;
		case 'h':
			sl_binds_free(&binds);
			usage(stdout);
			return SL_EXIT_OK;
		default:
			sl_binds_free(&binds);
			usage(stderr);
			return SL_EXIT_ERROR;
		}
	}
	if (optind >= argc) {
		sl_binds_free(&binds);
		fprintf(stderr, "servelint show: no entry given\n");
		usage(stderr);
		return SL_EXIT_ERROR;
	}
	color = sl_color_resolve(color);
	if (sl_plan_opts_apply(&plan)) {
		sl_binds_free(&binds);
		return SL_EXIT_ERROR;
	}

	sl_error err = {0};
	sl_grammars *gs;
	if (sl_normalize_grammars_load(&gs, &err)) {
		sl_error_print(&err, "servelint");
		sl_error_clear(&err);
		return SL_EXIT_ERROR;
	}
	/* Each entry is rendered as soon as it is normalized (to a memory
	 * buffer, or a JSON value) and its model freed, so memory stays flat
	 * over large catalogues; nothing reaches stdout unless all succeeded. */
	size_t n = (size_t)(argc - optind);
	json_t *arr = json_array();
	sl_buf text = {0};
	FILE *mem = json ? NULL : buf_stream(&text);
	int failed = !json && !mem;
	size_t shown = 0;
	for (size_t i = 0; i < n; i++) {
		sl_entry_input in;
		if (sl_entry_input_open(&in, argv[optind + (int)i], &err)) {
			sl_error_print(&err, "servelint");
			sl_error_clear(&err);
			failed = 1;
			continue;
		}
		sl_entry *entry;
		int got;
		while ((got = sl_entry_input_next(&in, &entry, &err)) != 0) {
			/* one model per variant of the script's undecided if/case */
			sl_model **models = NULL;
			size_t nm = 0;
			if (got < 0 || sl_entry_models(entry, gs, &binds, variant, &models, &nm, &err)) {
				sl_error_print(&err, "servelint");
				sl_error_clear(&err);
				failed = 1;
			}
			for (size_t k = 0; k < nm; k++) {
				if (!failed && json) {
					json_array_append_new(arr, sl_report_model_json(models[k]));
				} else if (!failed) {
					if ((shown && fputc('\n', mem) == EOF) ||
					    sl_report_model_tty(mem, models[k], color)) {
						perror("servelint: rendering");
						failed = 1;
					}
				}
				shown++;
				sl_model_free(models[k]);
			}
			free(models);
			sl_entry_free(entry);
		}
		sl_entry_input_close(&in);
	}
	if (mem && fclose(mem)) {
		perror("servelint: rendering");
		failed = 1;
	}
	int rc = failed ? SL_EXIT_ERROR : SL_EXIT_OK;
	if (!failed) {
		if (json) {
			/* dumped into memory, then written at once: json_dumpf
			 * writes token by token through stdio */
			json_t *doc = json_pack("{s:O}", "entries", arr);
			if (json_dump_callback(doc, json_to_buf, &text,
					       JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15)))
				rc = SL_EXIT_ERROR;
			sl_buf_putc(&text, '\n');
			if (rc == SL_EXIT_OK && fwrite(text.data, 1, text.len, stdout) != text.len)
				rc = SL_EXIT_ERROR;
			json_decref(doc);
		} else if (text.len && fwrite(text.data, 1, text.len, stdout) != text.len) {
			rc = SL_EXIT_ERROR;
		}
		if (fflush(stdout)) {
			perror("servelint: writing output");
			rc = SL_EXIT_ERROR;
		}
	}
	json_decref(arr);
	sl_buf_free(&text);
	sl_normalize_grammars_free(gs);
	sl_binds_free(&binds);
	return rc;
}
