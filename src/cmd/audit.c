/*
 * audit.c (cmd): `servelint audit PATH...`: a release catalogue checked as
 * a whole before it is published. Every entry is checked with every rule;
 * the catalogue rules (SL7xxx) then hold the entries against each other,
 * each entry by the summary of its model made as it was read (the models
 * are freed; for the terminal's report the summaries and the entries'
 * texts go to a temporary file, and an entry leaves an item of 56 bytes:
 * audit_read.c); duplicates (SL7006) are found by their command's key,
 * the catalogue's findings spooled as they come. The report: a
 * summary, the matrix of models by systems, the findings; --html writes
 * the same as one self-contained page, with the pairwise diffs of one
 * model's entries (for it the models are kept).
 *
 * An entry's model (the LLM) and system come from the catalogue: a page's
 * model heading, the metadata line's System, or the metadata.yaml that
 * `servelint import` writes beside an entry; else the model its workers
 * load. Exit: 0 clean, 1 findings, 2 unreadable input or output, 3 usage.
 *
 * With -j N the PATHs are read and checked on N threads as they are
 * found (util's sl_jobs_start), each into a run of its own taken into the
 * whole in input order; the comparisons and the catalogue rules run after, on this
 * thread, so the report is byte for byte that of -j 1.
 */
#include "audit.h"
#include "cmd.h"
#include "options.h"

#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check/check.h"
#include "diff/diff.h"
#include "entry/entry.h"
#include "normalize/normalize.h"
#include "parse/parse.h"
#include "report/report.h"

static void usage(FILE *f)
{
	fputs("usage: servelint audit [--format tty|json|markdown|sarif] [--html FILE] [--color WHEN]\n"
	      "                       [-j N] [--quiet] PATH...\n"
	      "\n"
	      "Audits a catalogue before it is published: every entry checked with every rule,\n"
	      "the entries held against each other (SL7xxx: one model's tokenizer mode, parsers,\n"
	      "revision and served name; duplicates; metadata against the command; one engine\n"
	      "build named two ways), and the catalogue as a matrix of models by systems.\n"
	      "PATH: catalogue folders (searched for entries), entry folders or files, or whole\n"
	      "published pages (read on the fly).\n"
	      "\n"
	      "  -f, --format FORMAT   tty (default), json, markdown, sarif (findings only)\n"
	      "      --html FILE       also write the report as one self-contained HTML page\n"
	      "                        (- writes it to standard output instead of the report)\n"
	      "      --color WHEN      auto (default), always, never\n"
	      "      --config FILE     settings (default: the nearest .servelint.yaml upward)\n"
	      "      --no-config       no .servelint.yaml\n"
	      SL_PLAN_OPTS_USAGE
	      "  -j, --jobs N          read entries on N threads (default: the cores available);\n"
	      "                        the output is the same for any N\n"
	      "  -q, --quiet           print nothing on standard output (--html is still written)\n"
	      "      --version         servelint's version\n"
	      "  -h, --help            this help\n"
	      "\n"
	      "PATH - is standard input. Progress goes to standard error when it is a terminal.\n"
	      "Exit status: 0 clean, 1 findings, 2 unreadable input or unwritable output, 3 usage.\n",
	      f);
}

/* the entry SRC belongs to, or SIZE_MAX */
static size_t entry_of(const sl_strmap *m, const sl_source *src)
{
	return src ? sl_strmap_get(m, (const char *)&src, sizeof src) : SIZE_MAX;
}

static int write_page(FILE *f, void *ud)
{
	return sl_report_audit_html(f, ud);
}

/* writes the page whole or not at all (sl_write_file_atomic) */
static int write_html(const char *file, const sl_audit *a)
{
	int rc = sl_write_file_atomic(file, write_page, (void *)a);
	if (rc)
		perror(file);
	return rc;
}

/* The pairwise diffs of the entries of each model of at most
 * SL_AUDIT_MAX_DIFF_ENTRIES entries (past it none is kept), in order:
 * made for --html only, whose page shows them; else only counted. */
static void compare(sl_audit_run *r)
{
	size_t n = r->n;
	if (!r->keep_models)
		for (size_t g = 0; g < r->ngroups; g++)
			if (r->of_model[g].n <= SL_AUDIT_MAX_DIFF_ENTRIES)
				r->npairs += r->of_model[g].read * (r->of_model[g].read - 1) / 2;
	sl_diff_opts none = {0};
	size_t **members = sl_calloc(r->ngroups + 1, sizeof *members), *nmembers = sl_calloc(r->ngroups + 1, sizeof *nmembers);
	for (size_t i = 0; i < n; i++) {
		const sl_audit_item *it = sl_audit_at(r, i);
		const sl_audit_extra *x = it->x;
		size_t g = it->group;
		if (g == SL_AUDIT_NONE || !(it->sum_len || (x && x->sum)))
			continue;  /* none (the entry did not normalize) */
		if (r->keep_models && x->model && r->of_model[g].n <= SL_AUDIT_MAX_DIFF_ENTRIES) {
			/* every earlier entry of the model, in order: the pairs kept */
			for (size_t k = 0; k < nmembers[g]; k++) {
				size_t j = members[g][k];
				sl_audit_pair p = {j, i, {0}};
				sl_diff_models(sl_audit_at(r, j)->x->model, x->model, &none, &p.diff);
				SL_PUSH(r->pairs, r->npairs, r->paircap, p);
			}
			if (!nmembers[g])
				members[g] = sl_calloc(r->of_model[g].n + 1, sizeof **members);
			members[g][nmembers[g]++] = i;
		}
		if (r->progress)
			fprintf(stderr, "\raudit: %zu of %zu entr%s compared", i + 1, n, n == 1 ? "y" : "ies");
	}
	if (r->progress && n)
		fputs("\r\033[K", stderr);
	for (size_t g = 0; g < r->ngroups; g++)
		free(members[g]);
	free(members);
	free(nmembers);
}

/* The catalogue rules, suppressed by their entry's comments (one finding
 * at a time, so a disable-file of one entry spares the others' findings);
 * then every finding in file order. */
/* Whether SRC is one of entry it's own files (its script, metadata or
 * files, or their kept copies): the report's index of sources (the first
 * entry holding SRC; no source is two entries') would place a finding
 * there in it */
static int own_source(const sl_audit_item *it, const sl_source *src)
{
	const sl_entry *e = it->x ? it->x->entry : NULL;
	if (!src || !e)
		return 0;
	for (size_t k = 0; it->x && k < it->x->nown; k++)
		if (it->x->kept[k] == src)
			return 1;
	if (src == e->script || src == e->metadata)
		return 1;
	for (size_t k = 0; k < e->nfiles; k++)
		if (src == e->files[k])
			return 1;
	return 0;
}

/* Finding f of the catalogue, of entry i (SIZE_MAX: none), suppressed by
 * that entry's comments (one finding at a time, so a disable-file of one
 * entry spares the others' findings) */
static void suppress_one(sl_audit_run *r, sl_finding *f, size_t i)
{
	const sl_audit_extra *x = i == SIZE_MAX ? NULL : sl_audit_at(r, i)->x;
	const sl_entry *e = x ? x->entry : NULL;
	if (!e)
		return;  /* none, or put aside: no comment of its suppresses (its sources went) */
	sl_findings one = {f, 1, 1};
	sl_check_suppress(e, &one, 0);
	f->entry = e->path;
}

/* sl_check_catalogue_each's sink: the findings settled (their entry's
 * comments, the config), counted to their entries and spooled, in the
 * order they come, after every finding of the entries (as
 * sl_findings_sort's last key puts them). The entry of each is the one
 * whose summary made it when its place is in that entry's files: what
 * the index of every entry's sources gave, without that index (140 bytes
 * an entry at 100 MB). */
static void spool_catalogue(void *ud, sl_findings *out, const size_t *made_of, const signed char *own)
{
	sl_audit_run *r = ud;
	for (size_t f = 0; f < out->n; f++) {
		size_t i = made_of[f] < r->n && (own[f] > 0 || (own[f] < 0 && own_source(sl_audit_at(r, made_of[f]),
											     out->v[f].where.src)))
				   ? made_of[f]
				   : SIZE_MAX;
		suppress_one(r, &out->v[f], i);
		sl_findings one = {&out->v[f], 1, 1};
		sl_check_config_apply(r->cfg, &one, 0);
		if (i != SIZE_MAX && !out->v[f].suppressed)
			sl_audit_at(r, i)->nfind[out->v[f].severity]++;
	}
	sl_audit_spool_findings(r, 0, NULL, NULL);
}

/* Entry i as the catalogue rules read it */
static void catalogue_entry(void *ud, size_t i, sl_catalogue_entry *out)
{
	const sl_audit_item *it = sl_audit_at(ud, i);
	const sl_audit_run *r = ud;
	const struct names *nm = &r->names[it->names];
	*out = (sl_catalogue_entry){it->x ? it->x->sum : NULL, nm->llm, nm->system,
				    it->same_as == SL_AUDIT_NONE ? SIZE_MAX : it->same_as,
				    it->x ? it->x->sum_at : it->summary_at + it->summary_len, it->sum_len};
}

/* The catalogue rules; then every finding in file order (or spooled). */
static void check_catalogue(sl_audit_run *r, const sl_rules *rules)
{
	if (r->spool) {  /* the entries' findings are spooled already */
		if (sl_check_catalogue_each(rules, catalogue_entry, r, r->n, r->store, &r->fs, spool_catalogue, r))
			r->unread = 1;
		return;
	}
	size_t first = r->fs.n;
	sl_catalogue_entry *ce = sl_calloc(r->n + 1, sizeof *ce);
	for (size_t i = 0; i < r->n; i++)
		catalogue_entry(r, i, &ce[i]);
	if (sl_check_catalogue(rules, ce, r->n, NULL, &r->fs))
		r->unread = 1;
	free(ce);
	sl_strmap srcs = {0};
	sl_audit_index_sources(&srcs, r);
	for (size_t f = first; f < r->fs.n; f++)
		suppress_one(r, &r->fs.v[f], entry_of(&srcs, r->fs.v[f].where.src));
	sl_strmap_free(&srcs);
	sl_check_config_apply(r->cfg, &r->fs, first);
	sl_findings_sort(&r->fs, 0);
}

/* What only the catalogue rules read, freed once they ran and their
 * findings are spooled (rendered: none points into a source any more),
 * before the report is made: each entry's summary and the copies of the
 * lines it pointed at, the models' here-documents, the duplicates'
 * buckets. The report reads the entries' paths, names and summaries'
 * texts (in the store). */
static void release_catalogue(sl_audit_run *r)
{
	for (size_t i = 0; i < r->n; i++) {
		sl_audit_extra *x = sl_audit_at(r, i)->x;
		if (!x)
			continue;
		sl_catalogue_summary_free(x->sum);
		x->sum = NULL;
		json_decref(x->cmdvals);
		x->cmdvals = NULL;
		for (size_t k = 0; k < x->nkept; k++)
			sl_source_free(x->kept[k]);
		free(x->kept);
		x->kept = NULL;
		x->nkept = x->nown = 0;
	}
	for (size_t i = 0; i < r->nheredocs; i++)
		sl_source_free(r->heredocs[i]);
	free(r->heredocs);
	r->heredocs = NULL;
	r->nheredocs = r->hcap = 0;
	for (size_t b = 0; b < r->nbuckets; b++)
		free(r->reps[b].v);
	free(r->reps);
	r->reps = NULL;
	r->nbuckets = r->bcap = 0;
	sl_strmap_free(&r->models);
	sl_strmap_free(&r->buckets);
}

/* Entry i as the report reads it */
static void report_entry(const sl_audit_run *r, size_t i, sl_audit_entry *out)
{
	const sl_audit_item *it = sl_audit_at(r, i);
	const struct names *nm = &r->names[it->names];
	*out = (sl_audit_entry){it->x ? it->x->entry : NULL, it->x ? it->x->model : NULL, nm->llm, nm->system,
				it->x ? it->x->name : NULL, it->summary_at, it->summary_len, {0}};
	memcpy(out->nfind, it->nfind, sizeof out->nfind);
}

static void report_entry_at(const void *ud, size_t i, sl_audit_entry *out)
{
	report_entry(ud, i, out);
}

/* Writes the report (and the page); the exit status. */
static int report(sl_audit_run *r, const sl_rules *rules, const char *format, const char *html, int color,
		  char *const *inputs, size_t ninputs)
{
	int rc = SL_EXIT_OK;
	/* the terminal's report reads each entry as it goes (report_entry):
	 * an array of every entry was 72 bytes an entry at the report's peak */
	sl_audit_entry *ae = NULL;
	if (!r->spool) {
		ae = sl_calloc(r->n + 1, sizeof *ae);
		for (size_t i = 0; i < r->n; i++)
			report_entry(r, i, &ae[i]);
	}
	size_t *fe = sl_calloc(r->fs.n + 1, sizeof *fe);
	sl_strmap srcs = {0};
	if (r->fs.n)  /* none when they are spooled */
		sl_audit_index_sources(&srcs, r);
	for (size_t f = 0; f < r->fs.n; f++) {
		fe[f] = entry_of(&srcs, r->fs.v[f].where.src);
		/* an advisory rule's finding (SL0004: what was not checked) is told, not failed */
		if (!r->fs.v[f].suppressed && !sl_rule_advisory(r->fs.v[f].rule))
			rc = SL_EXIT_FINDINGS;
	}
	sl_strmap_free(&srcs);  /* before the report is made: the peak */
	if (r->spool && sl_findings_spool_tally(r->spool)->failing)
		rc = SL_EXIT_FINDINGS;
	/* the folders every path starts with: up to the last / of the part
	 * they share */
	size_t common = 0;
	for (size_t k = 0; r->path0 && k < r->shared; k++)
		if (r->path0[k] == '/')
			common = k + 1;
	sl_audit a = {ae, report_entry_at, r, common, r->n, rules, &r->fs, fe,
		      r->keep_models ? r->pairs : NULL, r->npairs, inputs, ninputs, r->store, r->spool};
	int wrc = 0;
	if (sl_opt_is_stdout(html))
		; /* the page takes standard output */
	else if (!strcmp(format, "sarif"))
		wrc = sl_report_findings(stdout, SL_FMT_SARIF, rules, &r->fs, SL_SEV_STYLE, 0);
	else
		wrc = sl_report_audit(stdout, format, &a, color);
	if (wrc || fflush(stdout))
		rc = SL_EXIT_ERROR;
	if (sl_opt_is_stdout(html) && (sl_report_audit_html(stdout, &a) || fflush(stdout)))
		rc = SL_EXIT_ERROR;
	else if (html && !sl_opt_is_stdout(html) && write_html(html, &a))
		rc = SL_EXIT_ERROR;
	free(fe);
	free(ae);
	return rc;
}

/* What discovery finds, as it finds it: read unless the config's
 * exclude globs leave it out, in turn (-j 1) or added to the jobs (-j N),
 * so that no list of every path is held (issue 18) and the threads start
 * on the first entries while the rest are found */
typedef struct {
	sl_audit_run *r;
	const sl_entry_config *cfg;  /* NULL: the config is bad, nothing is read */
	sl_jobs *jobs;               /* NULL: -j 1 */
	const sl_grammars *gs;
	const sl_rules *rules;
	char **args;                 /* the PATHs given */
	int nargs;
	int failed;                  /* -j 1: a path could not be read */
} finder;

static void found_path(void *ud, char *path)
{
	finder *fd = ud;
	if (!fd->cfg || sl_entry_config_excludes(fd->cfg, path)) {
		free(path);
		return;
	}
	int found = sl_audit_found_script(path, fd->args, fd->nargs);
	if (fd->jobs) {
		sl_audit_job *one = sl_calloc(1, sizeof *one);
		one->path = path;
		one->found = found;
		sl_jobs_add(fd->jobs, one);
		return;
	}
	fd->failed |= sl_audit_read_path(fd->r, path, fd->gs, fd->rules, found) != 0;
	free(path);
}

int sl_cmd_audit(int argc, char **argv)
{
	static const struct option opts[] = {
		SL_OPTS_COMMON,
		{"format", required_argument, NULL, 'f'},
		{"html", required_argument, NULL, 'H'},
		{"quiet", no_argument, NULL, 'q'},
		{"color", required_argument, NULL, 'C'},
		{"config", required_argument, NULL, 'c'},
		{"no-config", no_argument, NULL, 'N'},
		{"system", required_argument, NULL, 'Y'},
		{"model-config", required_argument, NULL, 'M'},
		{"jobs", required_argument, NULL, 'j'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *format = "tty", *html = NULL, *config_file = NULL;
	int color = -1, c, no_config = 0, quiet = 0;
	unsigned jobs = sl_jobs_available();
	sl_plan_options plan = {0};
	optind = 1;
	while ((c = getopt_long(argc, argv, "f:j:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (strcmp(optarg, "tty") && strcmp(optarg, "json") && strcmp(optarg, "markdown") &&
			    strcmp(optarg, "sarif")) {
				fprintf(stderr, "servelint audit: unknown format `%s` (tty, json, markdown, sarif)\n",
					optarg);
				return SL_EXIT_USAGE;
			}
			format = optarg;
			break;
		case 'H': html = optarg; break;
		case 'q': quiet = 1; break;
		case 'c': config_file = optarg; break;
		case 'N': no_config = 1; break;
		case 'C':
			if (sl_opt_color("audit", optarg, &color))
				return SL_EXIT_USAGE;
			break;
		case 'Y':
		case 'M': sl_plan_opts_take(&plan, c, optarg); break;
		case 'j':
			if (sl_opt_jobs("audit", optarg, &jobs))
				return SL_EXIT_USAGE;
			break;
		case SL_OPT_VERSION: return sl_cmd_version();
		case 'h': usage(stdout); return SL_EXIT_OK;
		default: usage(stderr); return SL_EXIT_USAGE;
		}
	}
	if (optind >= argc || sl_opt_stdin_once(argc, argv, optind, "audit")) {
		if (optind >= argc)
			fprintf(stderr, "servelint audit: no catalogue given\n");
		usage(stderr);
		return SL_EXIT_USAGE;
	}
	if (html && !*html) {
		fprintf(stderr, "servelint audit: --html needs a file name\n");
		return SL_EXIT_USAGE;
	}
	/* a page that cannot be written is known before anything is printed */
	if (html && sl_opt_output_ok("audit", "--html", html))
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
	/* the project's settings, as check reads them */
	char *cfg_path = no_config ? NULL : config_file ? sl_strdup(config_file) : sl_entry_config_find(argv[optind]);
	sl_entry_config cfg;
	sl_error err = {0};
	int failed = 0;
	if (sl_entry_config_load(cfg_path, &cfg, &err) || sl_check_config_validate(rules, &cfg, &err)) {
		sl_error_print(&err, "servelint");
		sl_error_clear(&err);
		failed = 1;
	}
	sl_audit_run r;
	memset(&r, 0, sizeof r);
	r.progress = isatty(STDERR_FILENO) && !quiet;
	r.cfg = &cfg;
	r.whole = 1;
	r.keep_models = html != NULL;
	/* the entries' summaries wait for the report in a temporary file */
	if (!failed && !(r.store = sl_store_new())) {
		fprintf(stderr, "servelint audit: cannot make a temporary file: %s\n", strerror(errno));
		failed = 1;
	}
	/* the terminal's report writes each finding as it is made */
	r.spooling = !html && !strcmp(format, "tty");
	r.color = color;
	if (r.spooling && r.store)
		r.spool = sl_findings_spool_new(r.store, rules);
	/* every path is read even when one cannot be (each told on stderr);
	 * in turn (-j 1), or on several threads and taken in input order */
	int cfg_failed = failed;
	sl_audit_jobs rj = {&r, gs, rules, 0};
	finder fd = {&r, cfg_failed ? NULL : &cfg, NULL, gs, rules, argv + optind, argc - optind, 0};
	if (!cfg_failed && jobs > 1)
		fd.jobs = sl_jobs_start(jobs, sl_audit_read_job, sl_audit_read_job_done, sl_audit_read_jobs_start, &rj);
	for (int a = optind; a < argc; a++)
		sl_entry_input_discover_each(argv[a], found_path, &fd);
	if (fd.jobs)
		sl_jobs_finish(fd.jobs);
	failed |= fd.failed | rj.failed;
	/* page entries of one name told apart as import does (an entry
	 * without a name is told apart from none: only the named are given) */
	size_t nnamed = 0;
	for (size_t i = 0; i < r.n; i++)
		nnamed += sl_audit_at(&r, i)->x && sl_audit_at(&r, i)->x->name;
	char **names = sl_calloc(nnamed + 1, sizeof *names);
	const sl_model **models = sl_calloc(nnamed + 1, sizeof *models);
	size_t *named = sl_calloc(nnamed + 1, sizeof *named);
	for (size_t i = 0, k = 0; i < r.n; i++)
		if (sl_audit_at(&r, i)->x && sl_audit_at(&r, i)->x->name) {
			named[k] = i;
			names[k] = sl_audit_at(&r, i)->x->name;
			models[k++] = sl_audit_at(&r, i)->x->model;
		}
	sl_entry_import_tell_apart(names, models, nnamed);
	for (size_t k = 0; k < nnamed; k++)
		sl_audit_at(&r, named[k])->x->name = names[k];
	for (size_t i = 0; i < r.n && !r.keep_models; i++) {
		sl_audit_item *it = sl_audit_at(&r, i);
		sl_audit_extra *x = it->x;
		if (!x || !x->model)
			continue;
		int kept = !sl_audit_keep_places(it, &r.fs, x->ffirst, x->fend);
		if (kept)
			sl_model_free(x->model);
		else
			sl_audit_release_model(&r, x->model);
		x->model = NULL;
		if (kept) {
			sl_entry_drop_sources(x->entry);
			sl_audit_put_aside(&r, it);
		}
	}
	free(names);
	free(models);
	free(named);
	if (!failed && !r.n) {
		fprintf(stderr, "servelint audit: no entries found under %s\n", argv[optind]);
		failed = cfg_failed = 1;
	}
	if (!cfg_failed && r.too_many) {
		fprintf(stderr, "servelint audit: more than %u entries: the catalogue is past audit's limit\n",
			SL_AUDIT_MAX_ENTRIES);
		failed = cfg_failed = 1;
	}
	/* a summary that could not be put aside (a full disk): no report at all */
	if (!cfg_failed && sl_store_error(r.store)) {
		fprintf(stderr, "servelint audit: cannot write a temporary file: %s\n", strerror(sl_store_error(r.store)));
		failed = cfg_failed = 1;
	}
	/* an entry that cannot be read is a finding (SL0001) and the report
	 * is written all the same; the exit is then 2 */
	int rc = SL_EXIT_ERROR;
	if (!cfg_failed) {
		compare(&r);
		check_catalogue(&r, rules);
		if (r.spool)
			release_catalogue(&r);
		/* the findings' runs written before any of the report is: a
		 * full disk is no report at all */
		if (r.unread) {
			fprintf(stderr, "servelint audit: cannot read a temporary file: %s\n",
				strerror(sl_store_error(r.store) ? sl_store_error(r.store) : EIO));
		} else if (r.spool && sl_findings_spool_finish(r.spool)) {
			fprintf(stderr, "servelint audit: cannot write a temporary file: %s\n",
				strerror(sl_store_error(r.store) ? sl_store_error(r.store) : EIO));
		} else {
			rc = report(&r, rules, format, html, color, argv + optind, (size_t)(argc - optind));
			if (sl_store_error(r.store)) {
				fprintf(stderr, "servelint audit: cannot read a temporary file: %s\n",
					strerror(sl_store_error(r.store)));
				rc = SL_EXIT_ERROR;
			}
			if (failed)
				rc = SL_EXIT_ERROR;
		}
	} else if (r.progress && r.n) {
		fputs("\r\033[K", stderr);
	}
	sl_audit_run_free(&r);
	sl_store_free(r.store);
	free(cfg_path);
	sl_entry_config_free(&cfg);
	sl_rules_free(rules);
	sl_normalize_grammars_free(gs);
	return rc;
}
