/*
 * check.c (cmd): `servelint check PATH...` (`servelint rules` is rules.c).
 *
 * Every entry is read, normalized and checked before anything is printed;
 * findings print in file order. Exit: 0 clean, 1 findings at or above the
 * failure threshold, 2 an input could not be read or parsed, 3 usage.
 */
#define _GNU_SOURCE
#include "cmd.h"
#include "options.h"

#include <stdint.h>
#include <fnmatch.h>
#include <getopt.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check/check.h"
#include "normalize/normalize.h"
#include "parse/parse.h"
#include "report/report.h"
#include "entry/entry.h"

static void usage(FILE *f)
{
	fputs("usage: servelint check [--format FORMAT [--output FILE]]... [--severity LEVEL]\n"
	      "                       [--failure-threshold LEVEL] [--color WHEN] PATH...\n"
	      "\n"
	      "Checks entries (folders, launch scripts, catalogue-form files; a folder that is\n"
	      "not an entry is searched for them) against every rule in rules/ and reports\n"
	      "findings with their exact places. `# servelint disable=ID -- reason` above a\n"
	      "command, or `# servelint disable-file=ID`, suppresses findings; .servelint.yaml\n"
	      "holds `disable: [IDs]`, `severity: {ID: level}` and `exclude: [globs]`.\n"
	      "\n"
	      "  -f, --format FORMAT         tty (default), gcc (file:line:col: level: msg [ID]), json,\n"
	      "                              sarif (2.1.0), github (workflow annotations), checkstyle\n"
	      "  -o, --output FILE           write the --format before it to FILE (repeatable pairs)\n"
	      "  -S, --severity LEVEL        report findings at or above: style (default), info,\n"
	      "                              warning, error\n"
	      "      --failure-threshold L   exit 1 when a finding is at or above L (default style)\n"
	      "      --color WHEN            auto (default), always, never\n"
	      "      --config FILE           settings (default: the nearest .servelint.yaml upward)\n"
	      "      --no-config             no .servelint.yaml\n"
	      "      --include GLOB          only entries whose path matches (repeatable)\n"
	      "      --exclude GLOB          leave out entries whose path matches (repeatable)\n"
	      "      --set NAME=VALUE        a value for a variable the script leaves unknown (repeatable)\n"
	      SL_PLAN_OPTS_USAGE
	      "  -h, --help                  this help\n"
	      "\n"
	      "Exit status: 0 clean, 1 findings, 2 unreadable or unparsable input, 3 usage.\n"
	      "`servelint rules` lists the rules; `servelint rules ID` explains one.\n",
	      f);
}

typedef struct {
	sl_format fmt;
	const char *file;   /* NULL: stdout */
} output;

/* Writes one report to a file through a temporary name, so a report is
 * either whole or absent. */
static int write_output(const output *o, const sl_rules *rules, const sl_findings *fs, sl_severity min,
			int color)
{
	if (!o->file)
		return sl_report_findings(stdout, o->fmt, rules, fs, min, color);
	sl_buf tmp = {0};
	sl_buf_printf(&tmp, "%s.tmp", o->file);
	FILE *f = fopen(tmp.data, "w");
	int rc = f ? sl_report_findings(f, o->fmt, rules, fs, min, 0) : -1;
	if (f && fclose(f))
		rc = -1;
	if (!rc && rename(tmp.data, o->file))
		rc = -1;
	if (rc) {
		perror(o->file);
		remove(tmp.data);
	}
	sl_buf_free(&tmp);
	return rc;
}

/* ---- inputs ------------------------------------------------------------------------ */

int sl_cmd_check(int argc, char **argv)
{
	static const struct option opts[] = {
		{"format", required_argument, NULL, 'f'},
		{"output", required_argument, NULL, 'o'},
		{"severity", required_argument, NULL, 'S'},
		{"failure-threshold", required_argument, NULL, 'T'},
		{"color", required_argument, NULL, 'C'},
		{"config", required_argument, NULL, 'c'},
		{"no-config", no_argument, NULL, 'N'},
		{"exclude", required_argument, NULL, 'x'},
		{"include", required_argument, NULL, 'i'},
		{"set", required_argument, NULL, 's'},
		{"system", required_argument, NULL, 'Y'},
		{"model-config", required_argument, NULL, 'M'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int color = -1, c, no_config = 0;
	sl_plan_options plan = {0};
	const char *config_file = NULL;
	const char *excludes[64], *includes[64];
	size_t nex = 0, nin = 0;
	sl_severity min = SL_SEV_STYLE, fail = SL_SEV_STYLE;
	output outs[16];
	size_t nouts = 0;
	static sl_binds binds;   /* static: reachable on every early return */
	sl_model **extra = NULL; /* models of the variants after the first */
	size_t nextra = 0, xcap = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "f:o:S:h", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (nouts == 16 || sl_format_parse(optarg, &outs[nouts].fmt)) {
				fprintf(stderr, "servelint check: unknown format `%s` "
						"(tty, gcc, json, sarif, github, checkstyle)\n", optarg);
				return 3;
			}
			outs[nouts++].file = NULL;
			break;
		case 'o':
			/* --output names the file of the --format before it */
			if (!nouts) {
				outs[nouts].fmt = SL_FMT_TTY;
				outs[nouts++].file = NULL;
			}
			outs[nouts - 1].file = optarg;
			break;
		case 'S':
		case 'T':
			if (sl_severity_parse(optarg, c == 'S' ? &min : &fail)) {
				fprintf(stderr, "servelint check: unknown severity `%s`\n", optarg);
				return 3;
			}
			break;
		case 'C':
			color = !strcmp(optarg, "always") ? 1 : !strcmp(optarg, "never") ? 0 : -1;
			break;
		case 'c':
			config_file = optarg;
			break;
		case 'N':
			no_config = 1;
			break;
		case 'x':
			if (nex < 64)
				excludes[nex++] = optarg;
			break;
		case 'i':
			if (nin < 64)
				includes[nin++] = optarg;
			break;
		case 's':
			if (sl_binds_take(&binds, optarg, "check"))
				return 3;
			break;
		case 'Y':
		case 'M':
			sl_plan_opts_take(&plan, c, optarg);
			break;
		case 'h':
			usage(stdout);
			return SL_EXIT_OK;
		default:
			usage(stderr);
			return 3;
		}
	}
	if (!nouts) {
		outs[0].fmt = SL_FMT_TTY;
		outs[0].file = NULL;
		nouts = 1;
	}
	if (optind >= argc) {
		fprintf(stderr, "servelint check: no entry given\n");
		usage(stderr);
		return 3;
	}
	color = sl_color_resolve(color);
	if (sl_plan_opts_apply(&plan))
		return SL_EXIT_ERROR;
	sl_error err = {0};
	sl_grammars *gs = NULL;
	sl_rules *rules = NULL;
	if (sl_check_load_rules(&gs, &rules))
		return SL_EXIT_ERROR;
	/* inputs: entries, or folders searched for them; minus --exclude and
	 * the config's exclude globs */
	char **paths = NULL;
	size_t n = 0, pcap = 0;
	for (int a = optind; a < argc; a++)
		sl_entry_input_discover(argv[a], &paths, &n, &pcap, 0);
	if (!n) {
		fprintf(stderr, "servelint check: no entries found under %s\n", argv[optind]);
		sl_rules_free(rules);
		sl_normalize_grammars_free(gs);
		free(paths);
		return SL_EXIT_ERROR;
	}
	char *cfg_path = no_config ? NULL : config_file ? sl_strdup(config_file) : sl_entry_config_find(argv[optind]);
	sl_entry_config cfg;
	int failed = 0;
	if (sl_entry_config_load(cfg_path, &cfg, &err)) {
		sl_error_print(&err, "servelint");
		sl_error_clear(&err);
		failed = 1;
	}
	/* models are kept until the reports are written: findings point into them */
	sl_entry **entries = NULL;
	sl_model **models = NULL;
	size_t ne = 0, ecap = 0, mcap = 0;
	sl_findings fs = {0};
	for (size_t i = 0; i < n && !failed; i++) {
		const char *path = paths[i];
		int skip = sl_entry_config_excludes(&cfg, path);
		for (size_t k = 0; k < nex && !skip; k++)
			skip = !fnmatch(excludes[k], path, 0);
		int included = nin == 0;
		for (size_t k = 0; k < nin && !included; k++)
			included = !fnmatch(includes[k], path, 0);
		if (skip || !included)
			continue;
		sl_entry_input in;
		if (sl_entry_input_open_told(&in, path, &failed))
			continue;
		sl_entry *entry;
		while (sl_entry_input_next_told(&in, &entry, &failed)) {
			sl_model *model = NULL;
			if (sl_check_entry(entry, gs, rules, &binds, &cfg, &fs, &model, &extra, &nextra, &xcap))
				failed = 1;
			SL_PUSH(entries, ne, ecap, entry);
			size_t nm = ne - 1;
			SL_PUSH(models, nm, mcap, model);
		}
		sl_entry_input_close(&in);
	}
	int rc = failed ? SL_EXIT_ERROR : SL_EXIT_OK;
	if (!failed) {
		for (size_t i = 0; i < fs.n; i++)
			if (fs.v[i].severity >= min && fs.v[i].severity >= fail && !fs.v[i].suppressed)
				rc = SL_EXIT_FINDINGS;
		for (size_t o = 0; o < nouts; o++)
			if (write_output(&outs[o], rules, &fs, min, color))
				rc = SL_EXIT_ERROR;
		if (fflush(stdout))
			rc = SL_EXIT_ERROR;
	}
	sl_findings_free(&fs);
	for (size_t i = 0; i < ne; i++) {
		sl_model_free(models[i]);
		sl_entry_free(entries[i]);
	}
	free(models);
	for (size_t i = 0; i < nextra; i++)
		sl_model_free(extra[i]);
	free(extra);
	free(entries);
	for (size_t i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
	free(cfg_path);
	sl_entry_config_free(&cfg);
	sl_rules_free(rules);
	sl_normalize_grammars_free(gs);
	return rc;
}
