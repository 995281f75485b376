/*
 * check.c (cmd): `servelint check PATH...` (`servelint rules` is rules.c).
 *
 * Each PATH's findings are written as its results are handed back, in
 * input order (check_out.c), then freed with the sources they point into:
 * memory stays flat in the input's size (issue 18). With --fix they are
 * kept to the end: the reports are of what the fixes leave. Findings print
 * in file order. With -j N the PATHs are checked on N threads (util's
 * sl_jobs_start) and their results taken in input order, so that the
 * output is byte for byte that of -j 1, which checks them in turn on this
 * thread. An entry that cannot be read is a finding
 * (SL0001) and the others are still checked; the reports are always
 * written. Exit: 0 clean, 1 findings at or above the
 * failure threshold (an advisory rule's, SL0004's, only under a threshold
 * given on the command line), 2 an input could not be read or parsed, 3 usage.
 */
#define _GNU_SOURCE
#include "cmd.h"
#include "options.h"
#include "check_out.h"

#include <stdint.h>
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
	      "                       [--failure-threshold LEVEL] [--fix[=RULE,...]] [--color WHEN]\n"
	      "                       [-j N] [--quiet] PATH...\n"
	      "\n"
	      "Checks entries (folders, launch scripts, catalogue-form files; a folder that is\n"
	      "not an entry is searched for them) against every rule in rules/ and reports\n"
	      "findings with their exact places. `# servelint disable=ID -- reason` above a\n"
	      "command, or `# servelint disable-file=ID`, suppresses findings; .servelint.yaml\n"
	      "holds `disable: [IDs]`, `severity: {ID: level}` and `exclude: [globs]`.\n"
	      "\n"
	      "  -f, --format FORMAT         tty (default), gcc (file:line:col: level: msg [ID]), json,\n"
	      "                              sarif (2.1.0), github (workflow annotations), checkstyle,\n"
	      "                              diff (the fixes as a unified diff, for git apply)\n"
	      "  -o, --output FILE           write the --format before it to FILE (repeatable pairs;\n"
	      "                              - is standard output)\n"
	      "  -S, --severity LEVEL        report findings at or above: style (default), info,\n"
	      "                              warning, error\n"
	      "      --failure-threshold L   exit 1 when a finding is at or above L (default style;\n"
	      "                              advisory findings, SL0004, only when it is given)\n"
	      "      --fix[=RULE,...]        apply the fixes (of these rules only) in place, each file\n"
	      "                              whole or not at all; the reports show what is left\n"
	      "      --fix-rules RULE,...    only these rules' fixes (for --format diff and --fix)\n"
	      "      --color WHEN            auto (default), always, never\n"
	      "      --config FILE           settings (default: the nearest .servelint.yaml upward)\n"
	      "      --no-config             no .servelint.yaml\n"
	      "      --include GLOB          only entries whose path matches (repeatable); a glob\n"
	      "                              is matched against the path below the PATH given\n"
	      "      --exclude GLOB          leave out entries whose path matches (repeatable)\n"
	      "      --set NAME=VALUE        a value for a variable the script leaves unknown (repeatable)\n"
	      SL_PLAN_OPTS_USAGE
	      "  -j, --jobs N                read entries on N threads (default: the cores available);\n"
	      "                              the output is the same for any N\n"
	      "  -q, --quiet                 print nothing on standard output: the exit status only\n"
	      "      --version               servelint's version\n"
	      "  -h, --help                  this help\n"
	      "\n"
	      "PATH - is standard input.\n"
	      "Exit status: 0 clean, 1 findings, 2 unreadable or unparsable input, 3 usage.\n"
	      "`servelint rules` lists the rules; `servelint rules ID` explains one.\n",
	      f);
}

/* Whether PATH is a script found by searching a folder: a regular file
 * that is none of the command line's arguments. Such a script in which
 * nothing starts a service is a helper, not an entry. */
static int found_script(const char *path, char **args, int n)
{
	struct stat st;
	for (int i = 0; i < n; i++)
		if (!strcmp(args[i], path))
			return 0;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* An entry that could not be read: a finding of SL0001 at the place
 * reading stopped (told on stderr when the rule is missing). */
static void unreadable(const sl_rules *rules, const char *path, sl_error *err, const sl_entry_config *cfg,
		       sl_findings *fs)
{
	size_t first = fs->n;
	if (!sl_check_unreadable(rules, path, err, fs))
		sl_error_print(err, "servelint");
	sl_check_config_apply(cfg, fs, first);
	sl_error_clear(err);
}

/* ---- the entries of one PATH checked ------------------------------------------------ */

/* What the entries of one PATH leave for the reports. Findings point into
 * the sources of their entry (and into the here-documents its models own),
 * which are kept until the findings are written; every model is freed once
 * its entry is checked, and an entry without findings at once, so that
 * memory stays flat in the input's size (2 GB over 100 MB of scripts when
 * every model was kept). The findings are written once the PATH's results
 * are handed back, a few PATHs later at most (sl_jobs' window), and then
 * freed with the sources. Only with --fix are they kept to the end: an
 * entry with findings of which none has a fix then keeps only copies of
 * the lines they point to (sl_check_keep_places; copies made for every
 * entry grew the table of interned lines) and its path, for the findings'
 * entry name; one with a fix keeps its sources whole (fixes read them). */
typedef struct checked {
	sl_findings fs;
	sl_entry **entries;    /* those with findings */
	sl_source **heredocs;  /* the here-documents of their models */
	sl_source **kept;      /* the lines kept of their sources (sl_check_keep_places) */
	size_t ne, ecap, nheredocs, hcap, nkept, kcap;
	int failed;            /* an entry could not be read */
	size_t read;           /* entries read, less the helper scripts left out */
	char *said;            /* why the first helper left out is none (owned) */
} checked;

static void checked_free(checked *c)
{
	free(c->said);
	c->said = NULL;
	sl_findings_free(&c->fs);
	for (size_t i = 0; i < c->ne; i++)
		sl_entry_free(c->entries[i]);
	for (size_t i = 0; i < c->nheredocs; i++)
		sl_source_free(c->heredocs[i]);
	for (size_t i = 0; i < c->nkept; i++)
		sl_source_free(c->kept[i]);
	free(c->entries);
	free(c->heredocs);
	free(c->kept);
}

/* What every PATH is checked with: shared, read only, by every thread;
 * and what the PATHs' results, handed back in input order on the calling
 * thread, are written to or counted in. */
typedef struct check_ctx {
	const sl_grammars *gs;
	const sl_rules *rules;
	const sl_binds *binds;
	const sl_entry_config *cfg;
	char **args;           /* the PATH arguments */
	int nargs;
	int fixing;            /* fixes are made (--fix, --format diff): they read the sources */
	/* the reports, written as each PATH's findings are handed back; NULL
	 * with --fix, whose reports are of what is left once the fixes are
	 * made: every finding is kept for them in all. Set before the threads
	 * start, read only by them. */
	sl_check_outs *outs;
	/* what is kept to the end: with --fix every finding, else those with
	 * a fix when --format diff is given (and the sources they read) */
	checked *all;
	/* of the findings written: whether one fails the run (the exit
	 * status 1), and the entries that could not be read (SL0001) */
	sl_severity min, fail;
	int fail_given, fails;
	size_t unread;
	size_t entries;        /* entries read (checked.read), results taken so far */
	char *said;            /* the first checked.said (owned) */
} check_ctx;

/* Whether one of findings [first, n) has a fix, which reads its entry's
 * sources. */
static int has_fix(const sl_findings *fs, size_t first)
{
	for (size_t i = first; i < fs->n; i++)
		if (fs->v[i].fix && fs->v[i].nedits)
			return 1;
	return 0;
}

/* Checks every entry PATH holds into *into; an entry that cannot be read
 * is a finding (SL0001) and the others are checked all the same. Runs on
 * any thread (check -j): it touches only *into. */
static void check_path(const check_ctx *x, const char *path, checked *into)
{
	sl_error err = {0};
	sl_model **extra = NULL; /* models of the variants after the first */
	size_t nextra = 0, xcap = 0;
	sl_entry_input in;
	sl_entry *entry;
	int got = sl_entry_input_open(&in, path, &err) ? -1 : 1;
	if (got < 0) {
		unreadable(x->rules, path, &err, x->cfg, &into->fs);
		into->read++;
	}
	while (got > 0 && (got = sl_entry_input_next(&in, &entry, &err)) != 0) {
		if (got < 0) {
			unreadable(x->rules, path, &err, x->cfg, &into->fs);
			into->read++;
			got = 1;
			into->failed = 1;
			continue;
		}
		sl_model *model = NULL;
		size_t first = into->fs.n, xfirst = nextra;
		int helper = 0;
		if (sl_check_entry(entry, x->gs, x->rules, x->binds, x->cfg, &into->fs, &model, &extra, &nextra, &xcap) &&
		    !(helper = found_script(path, x->args, x->nargs) &&
			       sl_check_drop_no_service(&into->fs, first, into->said ? NULL : &into->said)))
			into->failed = 1;
		into->read += !helper;
		/* the places of its findings moved into copies of their lines:
		 * then its sources and here-documents go */
		sl_source **kept = NULL;
		size_t nkept = 0, nown;
		int whole = into->fs.n > first && (x->outs || (x->fixing && has_fix(&into->fs, first)) ||
						   sl_check_keep_places(entry, &into->fs, first, into->fs.n, NULL, &kept,
									&nkept, &nown));
		for (size_t k = xfirst; k <= nextra; k++) {
			sl_model *m = k < nextra ? extra[k] : model;
			for (size_t f = 0; m && whole && f < m->nfiles; f++)
				SL_PUSH(into->heredocs, into->nheredocs, into->hcap, m->files[f]);
			if (m && whole)
				m->nfiles = 0;  /* the here-documents are kept */
			sl_model_free(m);
		}
		nextra = xfirst;
		for (size_t k = 0; k < nkept; k++)
			SL_PUSH(into->kept, into->nkept, into->kcap, kept[k]);
		free(kept);
		if (into->fs.n == first) {
			sl_entry_free(entry);
		} else {
			if (!whole)
				sl_entry_drop_sources(entry);
			SL_PUSH(into->entries, into->ne, into->ecap, entry);
		}
	}
	into->failed |= got < 0;
	sl_entry_input_close(&in);
	free(extra);
}

/* check -j N: one PATH on a thread of its own, its results kept with it */
typedef struct check_item {
	char *path;  /* owned: discovery's */
	checked res;
} check_item;

static void check_job(void *ud, void *item)
{
	check_item *it = item;
	check_path(ud, it->path, &it->res);
}

/* What the written findings say for the exit status: one at or above
 * --severity and the failure threshold (an advisory rule's, SL0004's: what
 * was not checked, only under a threshold the user gave) fails the run;
 * the entries that could not be read are told when no report is on
 * standard output. */
static void tally(check_ctx *x, const sl_findings *fs)
{
	for (size_t i = 0; i < fs->n; i++) {
		const sl_finding *f = &fs->v[i];
		if (f->severity >= x->min && f->severity >= x->fail && !f->suppressed &&
		    (x->fail_given || !sl_rule_advisory(f->rule)))
			x->fails = 1;
		x->unread += !strcmp(sl_rule_id(f->rule), "SL0001");
	}
}

/* c's findings and what they point into moved to the end of *all */
static void keep_all(checked *all, checked *c)
{
	sl_findings_move(&c->fs, &all->fs);
	for (size_t k = 0; k < c->ne; k++)
		SL_PUSH(all->entries, all->ne, all->ecap, c->entries[k]);
	for (size_t k = 0; k < c->nheredocs; k++)
		SL_PUSH(all->heredocs, all->nheredocs, all->hcap, c->heredocs[k]);
	for (size_t k = 0; k < c->nkept; k++)
		SL_PUSH(all->kept, all->nkept, all->kcap, c->kept[k]);
	all->failed |= c->failed;
	free(c->entries);
	free(c->heredocs);
	free(c->kept);
}

/* ... and its results, handed back in input order, after those of the
 * PATHs before it: as one thread would have left them. Written into the
 * reports, then freed: only --fix keeps every finding (its reports are of
 * what is left after the fixes), and --format diff those with a fix (the
 * fixes are made once every finding is in: two entries may fix one
 * file), with their entries' sources. */
static void check_job_done(void *ud, void *item)
{
	check_ctx *x = ud;
	check_item *it = item;
	checked *c = &it->res;
	x->entries += c->read;
	if (!x->said)
		x->said = c->said;
	else
		free(c->said);
	c->said = NULL;
	if (!x->outs) {
		keep_all(x->all, c);
	} else {
		sl_check_outs_next(x->outs, &c->fs);
		tally(x, &c->fs);
		x->all->failed |= c->failed;
		if (x->fixing && has_fix(&c->fs, 0)) {
			/* only the findings with a fix: the others are written */
			size_t k = 0;
			sl_findings rest = {0};
			for (size_t i = 0; i < c->fs.n; i++) {
				sl_finding *f = &c->fs.v[i];
				if (f->fix && f->nedits)
					c->fs.v[k++] = *f;
				else
					SL_PUSH(rest.v, rest.n, rest.cap, *f);
			}
			c->fs.n = k;
			sl_findings_free(&rest);
			keep_all(x->all, c);
		} else {
			checked_free(c);
		}
	}
	free(it->path);
	free(it);
}

/* The threads share the grammars (more than one PATH is checked). */
static void check_jobs_start(void *ud)
{
	check_ctx *x = ud;
	sl_normalize_grammars_share((sl_grammars *)x->gs);
}

/* What discovery finds, as it finds it: checked unless --exclude,
 * --include or the config's exclude globs leave it out (its path then
 * freed: no path is kept past its results). Discovery is no serial step
 * before the threads of -j start (issue 18): they check the first entries
 * while the rest are found. */
typedef struct chooser {
	check_ctx *x;
	sl_jobs *jobs;
	const char *root;
	size_t n;              /* entries found */
	size_t queued;         /* of them, those not left out by a glob: read */
	const char *const *excludes, *const *includes;
	size_t nex, nin;
	int *ex_hit, *in_hit;
} chooser;

static void found_entry(void *ud, char *path)
{
	chooser *c = ud;
	c->n++;
	if (!c->jobs) {
		free(path);  /* the config is bad: entries only counted */
		return;
	}
	int skip = sl_entry_config_excludes(c->x->cfg, path);
	for (size_t k = 0; k < c->nex; k++)
		if (sl_opt_path_glob(c->excludes[k], path, c->root))
			skip = c->ex_hit[k] = 1;
	int included = c->nin == 0;
	for (size_t k = 0; k < c->nin; k++)
		if (sl_opt_path_glob(c->includes[k], path, c->root))
			included = c->in_hit[k] = 1;
	if (skip || !included) {
		free(path);
		return;
	}
	check_item *it = sl_calloc(1, sizeof *it);
	it->path = path;
	c->queued++;
	sl_jobs_add(c->jobs, it);
}

/* ---- inputs ------------------------------------------------------------------------ */

int sl_cmd_check(int argc, char **argv)
{
	static const struct option opts[] = {
		SL_OPTS_COMMON,
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
		{"fix", optional_argument, NULL, 'F'},
		{"fix-rules", required_argument, NULL, 'R'},
		{"jobs", required_argument, NULL, 'j'},
		{"quiet", no_argument, NULL, 'q'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int color = -1, c, no_config = 0, quiet = 0, fail_given = 0;
	sl_plan_options plan = {0};
	const char *config_file = NULL;
	const char *excludes[64], *includes[64];
	size_t nex = 0, nin = 0;
	sl_severity min = SL_SEV_STYLE, fail = SL_SEV_STYLE;
	sl_check_output outs[16];
	size_t nouts = 0;
	int fix = 0;
	char *fix_rules[64];
	size_t nfix_rules = 0;
	static sl_binds binds;   /* static: reachable on every early return */
	unsigned jobs = sl_jobs_available();
	optind = 1;
	while ((c = getopt_long(argc, argv, "f:o:S:j:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (nouts == 16) {
				fprintf(stderr, "servelint check: at most 16 --format at once\n");
				return 3;
			}
			outs[nouts].diff = !strcmp(optarg, "diff");
			outs[nouts].fmt = SL_FMT_TTY;
			if (!outs[nouts].diff && sl_format_parse(optarg, &outs[nouts].fmt)) {
				fprintf(stderr, "servelint check: unknown format `%s` "
						"(tty, gcc, json, sarif, github, checkstyle, diff)\n", optarg);
				return SL_EXIT_USAGE;
			}
			outs[nouts++].file = NULL;
			break;
		case 'o':
			/* --output names the file of the --format before it */
			if (!nouts) {
				outs[nouts].fmt = SL_FMT_TTY;
				outs[nouts].diff = 0;
				outs[nouts++].file = NULL;
			}
			outs[nouts - 1].file = optarg;
			break;
		case 'S':
		case 'T':
			if (sl_severity_parse(optarg, c == 'S' ? &min : &fail)) {
				fprintf(stderr, "servelint check: unknown severity `%s` (style, info, warning, error)\n",
					optarg);
				return SL_EXIT_USAGE;
			}
			fail_given |= c == 'T';
			break;
		case 'C':
			if (sl_opt_color("check", optarg, &color))
				return SL_EXIT_USAGE;
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
				return SL_EXIT_USAGE;
			break;
		case 'Y':
		case 'M':
			sl_plan_opts_take(&plan, c, optarg);
			break;
		case 'F':
		case 'R':
			fix |= c == 'F';
			/* RULE,RULE: checked against the rules once they are loaded */
			if (optarg) {
				char *save = NULL;
				for (char *t = strtok_r(optarg, ",", &save); t; t = strtok_r(NULL, ",", &save))
					if (nfix_rules < 64)
						fix_rules[nfix_rules++] = t;
			}
			break;
		case 'j':
			if (sl_opt_jobs("check", optarg, &jobs))
				return SL_EXIT_USAGE;
			break;
		case 'q': quiet = 1; break;
		case SL_OPT_VERSION: return sl_cmd_version();
		case 'h':
			usage(stdout);
			return SL_EXIT_OK;
		default:
			usage(stderr);
			return SL_EXIT_USAGE;
		}
	}
	if (!nouts) {
		outs[0].fmt = SL_FMT_TTY;
		outs[0].diff = 0;
		outs[0].file = NULL;
		nouts = 1;
	}
	if (optind >= argc) {
		fprintf(stderr, "servelint check: no entry given\n");
		usage(stderr);
		return SL_EXIT_USAGE;
	}
	if (sl_opt_stdin_once(argc, argv, optind, "check"))
		return SL_EXIT_USAGE;
	/* the same report asked twice is written once */
	size_t kept = 0;
	for (size_t o = 0; o < nouts; o++) {
		int dup = 0;
		const char *f = sl_opt_is_stdout(outs[o].file) ? NULL : outs[o].file;
		for (size_t k = 0; k < kept && !dup; k++) {
			const char *g = sl_opt_is_stdout(outs[k].file) ? NULL : outs[k].file;
			dup = outs[k].fmt == outs[o].fmt && outs[k].diff == outs[o].diff && (f && g ? !strcmp(f, g) : f == g);
		}
		if (!dup)
			outs[kept++] = outs[o];
	}
	nouts = kept;
	for (size_t o = 0; o < nouts; o++)
		if (outs[o].file && sl_opt_output_ok("check", "--output", outs[o].file))
			return SL_EXIT_ERROR;
	if (quiet && sl_opt_quiet())
		return SL_EXIT_ERROR;
	color = sl_color_resolve(color);
	if (sl_plan_opts_apply(&plan))
		return SL_EXIT_ERROR;
	sl_grammars *gs = NULL;
	sl_rules *rules = NULL;
	if (sl_check_load_rules(&gs, &rules))
		return SL_EXIT_ERROR;
	for (size_t k = 0; k < nfix_rules; k++) {
		const sl_rule *r = sl_rules_find(rules, fix_rules[k]);
		if (!r || !sl_rule_fix(r)) {
			fprintf(stderr, "servelint check: --fix: %s `%s` (`servelint rules` lists them)\n",
				r ? "no fix is made by rule" : "no rule", fix_rules[k]);
			sl_rules_free(rules);
			sl_normalize_grammars_free(gs);
			return SL_EXIT_USAGE;
		}
	}
	/* inputs: entries, or folders searched for them; minus --exclude and
	 * the config's exclude globs */
	int in_hit[64] = {0}, ex_hit[64] = {0};
	/* the config before the entries are found, so that they are checked
	 * as they are found; its error is told after (none found is the error
	 * then, and nothing else) */
	char *cfg_path = no_config ? NULL : config_file ? sl_strdup(config_file) : sl_entry_config_find(argv[optind]);
	sl_entry_config cfg;
	sl_error cfg_err = {0};
	int cfg_failed = sl_entry_config_load(cfg_path, &cfg, &cfg_err) || sl_check_config_validate(rules, &cfg, &cfg_err);
	checked all = {0};
	int diffs = 0;
	for (size_t o = 0; o < nouts; o++)
		diffs |= outs[o].diff;
	check_ctx x = {gs, rules, &binds, &cfg, argv + optind, argc - optind, fix || diffs, NULL, &all,
		       min, fail, fail_given, 0, 0, 0, NULL};
	/* the reports written as the entries are handed back; with --fix at
	 * the end, of what is left */
	if (!fix && !cfg_failed)
		x.outs = sl_check_outs_open(outs, nouts, rules, min, color);
	/* the entries checked as found, on -j threads (one: each in turn on
	 * this one), their results taken in input order */
	chooser ch = {&x, NULL, NULL, 0, 0, excludes, includes, nex, nin, ex_hit, in_hit};
	if (!cfg_failed)
		ch.jobs = sl_jobs_start(jobs, check_job, check_job_done, check_jobs_start, &x);
	for (int a = optind; a < argc; a++) {
		ch.root = argv[a];
		sl_entry_input_discover_each(argv[a], found_entry, &ch);
	}
	if (ch.jobs)
		sl_jobs_finish(ch.jobs);
	/* every script found a helper (nothing in it starts a service, as
	 * vLLM recipes' scripts/hf-info.sh): none found, as audit says, not
	 * a clean run of nothing */
	if (!ch.n || (ch.queued && !x.entries)) {
		if (x.said)
			fprintf(stderr, "%s\n", x.said);
		free(x.said);
		fprintf(stderr, "servelint check: no entries found under %s%s\n", argv[optind],
			ch.n ? " (the files found start no service)" : "");
		sl_check_outs_drop(x.outs);
		sl_error_clear(&cfg_err);
		sl_entry_config_free(&cfg);
		free(cfg_path);
		sl_rules_free(rules);
		sl_normalize_grammars_free(gs);
		return SL_EXIT_ERROR;
	}
	int failed = 0;
	if (cfg_failed) {
		sl_error_print(&cfg_err, "servelint");
		sl_error_clear(&cfg_err);
		failed = 1;
	}
	failed |= all.failed;
	sl_findings fs = all.fs;
	for (size_t k = 0; k < nin; k++)
		if (!in_hit[k])
			sl_opt_warn_unmatched("check", "--include", includes[k], "entry");
	for (size_t k = 0; k < nex; k++)
		if (!ex_hit[k])
			sl_opt_warn_unmatched("check", "--exclude", excludes[k], "entry");
	int rc = failed ? SL_EXIT_ERROR : SL_EXIT_OK;
	sl_fixes fixes = {0};
	if (!cfg_failed && (fix || diffs)) {
		if (sl_fix_collect(&fs, min, fix_rules, nfix_rules, stderr, &fixes))
			failed = 1, rc = SL_EXIT_ERROR;
		if (fix && sl_fix_apply(&fixes, &fs, stderr))
			failed = 1, rc = SL_EXIT_ERROR;
		if (fix && !quiet) {
			size_t done = 0, files = 0;
			for (size_t i = 0; i < fs.n; i++)
				done += fs.v[i].fixed;
			for (size_t i = 0; i < fixes.n; i++)
				files += fixes.v[i].nfixed > 0;
			fprintf(stderr, "servelint check: fixed %zu finding%s in %zu file%s\n", done, done == 1 ? "" : "s",
				files, files == 1 ? "" : "s");
		}
	}
	if (fix && !cfg_failed) {
		/* after --fix, the reports are of what is left */
		sl_findings left = {0};
		left.v = sl_calloc(fs.n + 1, sizeof *left.v);
		for (size_t i = 0; i < fs.n; i++)
			if (!fs.v[i].fixed)
				left.v[left.n++] = fs.v[i];
		x.outs = sl_check_outs_open(outs, nouts, rules, min, color);
		sl_check_outs_next(x.outs, &left);
		tally(&x, &left);
		free(left.v);  /* borrowed findings: fs owns them */
	}
	if (!cfg_failed) {
		if (!failed && x.fails)
			rc = SL_EXIT_FINDINGS;
		if (sl_check_outs_close(x.outs, &fixes))
			rc = SL_EXIT_ERROR;
		if (fflush(stdout))
			rc = SL_EXIT_ERROR;
		/* every report went to a file: the exit status 2 is told */
		size_t to_stdout = 0;
		for (size_t o = 0; o < nouts; o++)
			to_stdout += !outs[o].file;
		if (x.unread && !to_stdout)
			fprintf(stderr, "servelint check: %zu entr%s could not be read (SL0001 in the reports)\n", x.unread,
				x.unread == 1 ? "y" : "ies");
	}
	sl_fixes_free(&fixes);
	all.fs = fs;
	checked_free(&all);
	free(cfg_path);
	sl_entry_config_free(&cfg);
	sl_rules_free(rules);
	sl_normalize_grammars_free(gs);
	free(x.said);
	return rc;
}
