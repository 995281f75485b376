/*
 * audit.c (cmd): `servelint audit PATH...`: a release catalogue checked as
 * a whole before it is published. Every entry is checked with every rule;
 * the catalogue rules (SL7xxx) then hold the entries against each other;
 * entries of one model are compared pairwise (the diffs the HTML report
 * shows on request, and the duplicates SL7006 reports). The report: a
 * summary, the matrix of models by systems, the findings; --html writes
 * the same as one self-contained page.
 *
 * An entry's model (the LLM) and system come from the catalogue: a page's
 * model heading, the metadata line's System, or the metadata.yaml that
 * `servelint import` writes beside an entry; else the model its workers
 * load. Exit: 0 clean, 1 findings, 2 unreadable input or output, 3 usage.
 */
#include "cmd.h"
#include "options.h"

#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check/check.h"
#include "diff/diff.h"
#include "inputs.h"
#include "normalize/normalize.h"
#include "parse/parse.h"
#include "report/report.h"

static void usage(FILE *f)
{
	fputs("usage: servelint audit [--format tty|json|markdown|sarif] [--html FILE] [--color WHEN] PATH...\n"
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
	      "      --color WHEN      auto (default), always, never\n"
	      "  -h, --help            this help\n"
	      "\n"
	      "Progress goes to standard error when it is a terminal.\n"
	      "Exit status: 0 clean, 1 findings, 2 unreadable input or unwritable output, 3 usage.\n",
	      f);
}

typedef struct {
	sl_entry *entry;
	sl_model *model;
	char *llm, *system;   /* owned */
} item;

/* model: and system: of the metadata.yaml beside an entry folder's script */
static void sidecar(const char *path, char **llm, char **system)
{
	struct stat st;
	if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
		return;
	sl_buf p = {0};
	sl_buf_printf(&p, "%s/metadata.yaml", path);
	sl_source *src = NULL;
	sl_yaml_doc *doc = NULL;
	sl_error err = {0};
	if (stat(p.data, &st) == 0 && !sl_source_load(p.data, &src, &err) && !sl_yaml_load(src, &doc, &err) &&
	    doc->root && doc->root->kind == SL_YAML_MAP) {
		const sl_yaml_node *m = sl_yaml_get(doc->root, "model"), *s = sl_yaml_get(doc->root, "system");
		if (m && m->kind == SL_YAML_SCALAR && !*llm)
			*llm = sl_strdup(m->value);
		if (s && s->kind == SL_YAML_SCALAR && !*system)
			*system = sl_strdup(s->value);
	}
	sl_error_clear(&err);  /* a sidecar that does not read says nothing */
	sl_yaml_free(doc);
	sl_source_free(src);
	sl_buf_free(&p);
}

static const char *metadata_system(const sl_model *m)
{
	for (size_t i = 0; m && i < m->nclaims; i++)
		if (!strcmp(m->claims[i].key, "system") && !strcmp(m->claims[i].from, "metadata") &&
		    json_is_string(m->claims[i].value))
			return json_string_value(m->claims[i].value);
	return NULL;
}

static int in_entry(const sl_entry *e, const sl_source *src)
{
	if (!src)
		return 0;
	if (e->script == src || e->metadata == src)
		return 1;
	for (size_t i = 0; i < e->nfiles; i++)
		if (e->files[i] == src)
			return 1;
	return 0;
}

/* writes the page through a temporary name: whole or absent */
static int write_html(const char *file, const sl_audit *a)
{
	sl_buf tmp = {0};
	sl_buf_printf(&tmp, "%s.tmp", file);
	FILE *f = fopen(tmp.data, "w");
	int rc = f ? sl_report_audit_html(f, a) : -1;
	if (f && fclose(f))
		rc = -1;
	if (!rc && rename(tmp.data, file))
		rc = -1;
	if (rc) {
		perror(file);
		remove(tmp.data);
	}
	sl_buf_free(&tmp);
	return rc;
}

int sl_cmd_audit(int argc, char **argv)
{
	static const struct option opts[] = {
		{"format", required_argument, NULL, 'f'},
		{"html", required_argument, NULL, 'H'},
		{"color", required_argument, NULL, 'C'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *format = "tty", *html = NULL;
	int color = -1, c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "f:h", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (strcmp(optarg, "tty") && strcmp(optarg, "json") && strcmp(optarg, "markdown") &&
			    strcmp(optarg, "sarif")) {
				fprintf(stderr, "servelint audit: unknown format `%s` (tty, json, markdown, sarif)\n",
					optarg);
				return 3;
			}
			format = optarg;
			break;
		case 'H': html = optarg; break;
		case 'C':
			if ((color = sl_color_parse(optarg)) == -2) {
				fprintf(stderr, "servelint audit: --color takes auto, always or never\n");
				return 3;
			}
			break;
		case 'h': usage(stdout); return SL_EXIT_OK;
		default: usage(stderr); return 3;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "servelint audit: no catalogue given\n");
		usage(stderr);
		return 3;
	}
	if (html && !*html) {
		fprintf(stderr, "servelint audit: --html needs a file name\n");
		return 3;
	}
	color = sl_color_resolve(color);
	sl_error err = {0};
	sl_grammars *gs = NULL;
	sl_rules *rules = NULL;
	if (sl_normalize_grammars_load(&gs, &err) || sl_rules_load(&rules, &err)) {
		sl_error_print(&err, "servelint");
		sl_error_clear(&err);
		sl_normalize_grammars_free(gs);
		return SL_EXIT_ERROR;
	}
	char **paths = NULL;
	size_t np = 0, pcap = 0;
	for (int a = optind; a < argc; a++)
		sl_input_discover(argv[a], &paths, &np, &pcap, 0);
	int progress = isatty(STDERR_FILENO);
	item *items = NULL;
	size_t n = 0, icap = 0;
	sl_findings fs = {0};
	int failed = 0;
	for (size_t i = 0; i < np; i++) {
		sl_input in;
		if (sl_input_open(&in, paths[i], &err)) {
			sl_error_print(&err, "servelint");
			sl_error_clear(&err);
			failed = 1;
			continue;
		}
		sl_entry *entry;
		int got;
		while ((got = sl_input_next(&in, &entry, &err)) != 0) {
			if (got < 0) {
				sl_error_print(&err, "servelint");
				sl_error_clear(&err);
				failed = 1;
				continue;
			}
			item it = {entry, NULL, NULL, NULL};
			size_t first = fs.n;
			if (sl_normalize_entry(entry, gs, &it.model, &err)) {
				/* invalid JSON in a flag is a finding; other errors are input errors */
				if (!sl_check_input_error(rules, entry, &err, &fs)) {
					sl_error_print(&err, "servelint");
					failed = 1;
				}
				sl_error_clear(&err);
			} else {
				sl_check_model(rules, it.model, NULL, &fs);
			}
			sl_check_suppress(entry, &fs, first);
			if (in.npe && in.next) {
				const sl_page_entry *pe = &in.pes[in.next - 1];
				it.llm = pe->model ? sl_strdup(pe->model) : NULL;
				const char *sys = metadata_system(it.model);
				it.system = sys ? sl_strdup(sys) : pe->heading ? sl_strdup(pe->heading) : NULL;
			} else {
				const char *sys = metadata_system(it.model);
				it.system = sys ? sl_strdup(sys) : NULL;
				sidecar(paths[i], &it.llm, &it.system);
			}
			if (!it.llm && sl_catalogue_model_of(it.model))
				it.llm = sl_strdup(sl_catalogue_model_of(it.model));
			SL_PUSH(items, n, icap, it);
			if (progress)
				fprintf(stderr, "\raudit: %zu entries read", n);
		}
		sl_input_close(&in);
	}
	if (!failed && !n) {
		fprintf(stderr, "servelint audit: no entries found under %s\n", argv[optind]);
		failed = 1;
	}
	/* entries of one model, compared pairwise */
	sl_catalogue_entry *ce = sl_calloc(n + 1, sizeof *ce);
	sl_audit_entry *ae = sl_calloc(n + 1, sizeof *ae);
	char **keys = sl_calloc(n + 1, sizeof *keys);
	sl_audit_pair *pairs = NULL;
	size_t npairs = 0, paircap = 0;
	sl_diff_opts none = {0};
	size_t *of_model = sl_calloc(n + 1, sizeof *of_model);  /* entries of each one's model */
	for (size_t i = 0; i < n; i++) {
		keys[i] = items[i].llm ? sl_catalogue_model_key(items[i].llm) : NULL;
		for (size_t j = 0; j < n && keys[i]; j++)
			of_model[i] += j < i ? keys[j] && !strcmp(keys[i], keys[j]) : j == i;
	}
	for (size_t i = 0; i < n; i++)  /* the count at the last entry of a model holds for all of it */
		for (size_t j = i + 1; j < n && keys[i]; j++)
			if (keys[j] && !strcmp(keys[i], keys[j]))
				of_model[i] = of_model[j];
	/* duplicates share their topology: past the cap, only such pairs are diffed */
	char **topo = sl_calloc(n + 1, sizeof *topo);
	for (size_t i = 0; i < n && !failed; i++)
		topo[i] = items[i].model ? sl_diff_topology(items[i].model) : NULL;
	for (size_t i = 0; i < n && !failed; i++) {
		ce[i] = (sl_catalogue_entry){items[i].model, items[i].llm, items[i].system, SIZE_MAX};
		ae[i] = (sl_audit_entry){items[i].entry, items[i].model, items[i].llm, items[i].system};
		for (size_t j = 0; j < i && items[i].model; j++) {
			if (!keys[i] || !keys[j] || strcmp(keys[i], keys[j]) || !items[j].model)
				continue;
			if (of_model[i] > SL_AUDIT_MAX_DIFF_ENTRIES && strcmp(topo[i], topo[j]))
				continue;
			sl_audit_pair p = {j, i, {0}};
			sl_diff_models(items[j].model, items[i].model, &none, &p.diff);
			if (ce[i].same_as == SIZE_MAX && sl_diff_same_command(&p.diff))
				ce[i].same_as = j;
			if (of_model[i] <= SL_AUDIT_MAX_DIFF_ENTRIES)
				SL_PUSH(pairs, npairs, paircap, p);
			else
				sl_diff_free(&p.diff);  /* told for duplicates only */
		}
		if (progress)
			fprintf(stderr, "\raudit: %zu of %zu entries compared", i + 1, n);
	}
	if (progress && n)
		fputs("\r\033[K", stderr);
	int rc = failed ? SL_EXIT_ERROR : SL_EXIT_OK;
	if (!failed) {
		size_t first = fs.n;
		sl_check_catalogue(rules, ce, n, NULL, &fs);
		/* `# servelint disable=SL7001` in the entry a finding is at; one
		 * finding at a time, so a disable-file of one entry spares the others */
		for (size_t f = first; f < fs.n; f++)
			for (size_t i = 0; i < n; i++)
				if (in_entry(items[i].entry, fs.v[f].where.src)) {
					sl_findings one = {&fs.v[f], 1, 1};
					sl_check_suppress(items[i].entry, &one, 0);
					break;
				}
		sl_findings_sort(&fs, 0);
		size_t *fe = sl_calloc(fs.n + 1, sizeof *fe);
		for (size_t f = 0; f < fs.n; f++) {
			fe[f] = SIZE_MAX;
			for (size_t i = 0; i < n && fe[f] == SIZE_MAX; i++)
				if (in_entry(items[i].entry, fs.v[f].where.src))
					fe[f] = i;
		}
		sl_audit a = {ae, n, rules, &fs, fe, pairs, npairs};
		for (size_t f = 0; f < fs.n; f++)
			if (!fs.v[f].suppressed)
				rc = SL_EXIT_FINDINGS;
		int wrc;
		if (!strcmp(format, "sarif"))
			wrc = sl_report_findings(stdout, SL_FMT_SARIF, rules, &fs, SL_SEV_STYLE, 0);
		else
			wrc = sl_report_audit(stdout, format, &a, color);
		if (wrc || fflush(stdout))
			rc = SL_EXIT_ERROR;
		if (html && write_html(html, &a))
			rc = SL_EXIT_ERROR;
		free(fe);
	}
	for (size_t i = 0; i < npairs; i++)
		sl_diff_free(&pairs[i].diff);
	free(pairs);
	sl_findings_free(&fs);
	for (size_t i = 0; i < n; i++) {
		free(keys[i]);
		free(items[i].llm);
		free(items[i].system);
		sl_model_free(items[i].model);
		sl_entry_free(items[i].entry);
	}
	for (size_t i = 0; i < n; i++)
		free(topo[i]);
	free(topo);
	free(keys);
	free(of_model);
	free(ce);
	free(ae);
	free(items);
	for (size_t i = 0; i < np; i++)
		free(paths[i]);
	free(paths);
	sl_rules_free(rules);
	sl_normalize_grammars_free(gs);
	return rc;
}
