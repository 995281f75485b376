/*
 * audit.c (cmd): `servelint audit PATH...`: a release catalogue checked as
 * a whole before it is published. Every entry is checked with every rule;
 * the catalogue rules (SL7xxx) then hold the entries against each other,
 * each entry by the summary of its model made as it was read (the models
 * are freed: memory grows with the entries' sources and findings only);
 * duplicates (SL7006) are found by their command's key. The report: a
 * summary, the matrix of models by systems, the findings; --html writes
 * the same as one self-contained page, with the pairwise diffs of one
 * model's entries (for it the models are kept).
 *
 * An entry's model (the LLM) and system come from the catalogue: a page's
 * model heading, the metadata line's System, or the metadata.yaml that
 * `servelint import` writes beside an entry; else the model its workers
 * load. Exit: 0 clean, 1 findings, 2 unreadable input or output, 3 usage.
 *
 * With -j N the PATHs are read and checked on N threads (util's
 * sl_jobs_run), each into a run of its own taken into the whole in input
 * order; the comparisons and the catalogue rules run after, on this
 * thread, so the report is byte for byte that of -j 1.
 */
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

/* One entry read. Its model is summarized as it is read (what the report
 * says of it, what the catalogue rules read, its command's key) and freed,
 * so that memory stays flat in the catalogue's size (every model kept:
 * 236 MB over 3,500 entries, 12 MB over 35); kept only for --html, whose
 * page shows each entry's services and the pairwise diffs, and for a
 * page's entries until their names are told apart. The entry's sources
 * go too once the places its findings and summary hold are moved into
 * copies of the lines they are on (keep_places); the entry itself stays,
 * for its path. */
/* What an entry holds while it is read, and after only when it is not
 * put aside (put_aside: the terminal's report, its places kept): then
 * freed, so that what stays per entry is its item, 56 bytes. */
typedef struct {
	sl_entry *entry;      /* owned */
	char *llm, *system;   /* sl_intern's once read (entries share them: not freed), until the entry
			       * is taken into the whole run (then its item's names) */
	uint64_t sum_at;      /* its catalogue summary put aside, in the store (its item's sum_len) */
	char *text;           /* its report's summary text (sl_report_audit_entry_text) until it is put
			       * in the store, with its catalogue summary after it when that is put
			       * aside at once (one place for both: the item holds one); owned */
	sl_model *model;      /* NULL: freed, or the entry did not normalize */
	char *name;           /* a page entry's label, as import names it; owned, may be NULL */
	sl_catalogue_summary *sum; /* owned, NULL when the entry did not normalize or it is put aside */
	char *cmd;            /* its command's key (sl_diff_command_print), until it is placed among the
			       * duplicates (then NULL); owned */
	json_t *cmdvals;      /* the key's values: kept while the entry is the first of its command */
	sl_source **kept;     /* the copies its places were moved into (keep_places), the first nown
			       * those of its script, metadata and files, in that order; owned */
	size_t nkept, nown;
	size_t ffirst, fend;  /* its findings in its run's, while its model is kept (a page's entry) */
	int aside;            /* its summary put aside (or it has none) and its sources dropped:
			       * the entry and this are freed once it is placed among the duplicates */
} extra;

typedef struct {
	extra *x;             /* owned; NULL once the entry is let go (its path is then in its
			       * summary's text, its catalogue summary right after that text) */
	uint64_t summary_at;  /* sl_report_audit_entry_text, in the run's store (summary_len bytes) */
	uint32_t summary_len;
	uint32_t sum_len;     /* its catalogue summary put aside (sl_catalogue_summary_freeze), its
			       * length; 0: not */
	uint32_t same_as;     /* the earlier entry it duplicates, or NONE */
	uint32_t group;       /* its model's index among the run's (settle), or NONE */
	uint32_t names;       /* its model's and system's names, an index in the whole run's */
	unsigned nfind[SL_SEV_ERROR + 1]; /* its findings by severity, the suppressed aside, when they are
					   * spooled (the run's spool) */
} item;

#define NONE UINT32_MAX

/* A run's items, in blocks of ITEMS (an array of every item, grown by
 * doubling, held twice its size while it was copied: 22 MB at 69,440
 * entries) */
enum { ITEMS = 1024 };

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

/* s (freed) as the copy every equal text shares, or NULL: a catalogue's
 * entries name a few models and systems, each read once per entry */
static char *interned(char *s)
{
	char *t = s ? (char *)sl_intern(s, strlen(s)) : NULL;
	free(s);
	return t;
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

/* What one run holds: the entries read, their findings, the pairs compared. */
typedef struct {
	item **blocks;          /* the items, ITEMS a block; owned */
	size_t n, nblocks, bcap_;
	sl_findings fs;
	sl_audit_pair *pairs;   /* --html only: the diffs its page shows */
	size_t npairs, paircap; /* npairs counts them all the same */
	int progress;           /* standard error is a terminal */
	int keep_models;        /* --html */
	sl_store *store;        /* the entries' summaries; the whole run's (not owned) */
	int whole;              /* the run of every path (not one path's, audit -j) */
	const sl_entry_config *cfg; /* the project's .servelint.yaml (maybe empty) */
	sl_model **extra;       /* the models of variants after the first, --html only (else freed) */
	size_t nextra, xcap;
	sl_source **heredocs;   /* the here-documents of the models freed (findings point into them) */
	size_t nheredocs, hcap;
	/* the entries placed among the duplicates so far (settle), in input
	 * order: each model key's index and number of entries (and of those
	 * read), and per model and command key the first entry of each
	 * distinct command */
	sl_strmap models, buckets;
	struct model_count { size_t n, read; } *of_model;
	size_t ngroups, gcap;
	struct bucket { size_t *v, n, cap; } *reps;
	size_t nbuckets, bcap;
	/* the terminal's report: each finding rendered once made and put
	 * aside (report's spool.c), not kept; the whole run's, NULL for the
	 * other formats and --html, which read the findings whole */
	sl_findings_spool *spool;
	int spooling, color;    /* this run's findings go to the spool, in these colours */
	sl_buf pending;         /* rendered, not yet taken by the spool (a path's run, audit -j) */
	int unread;             /* a summary put aside could not be read back */
	/* the distinct pairs of a model's and a system's names of the
	 * entries (sl_intern's: a pair's key is their addresses) */
	sl_strmap names_of;
	struct names { const char *llm, *system; } *names;
	size_t nnames, ncap;
	/* the paths less the folders all of them share (the report's names):
	 * the first path and the length of the part every path shares */
	char *path0;
	size_t shared;
} run;

/* item i of r */
static item *at(const run *r, size_t i)
{
	return &r->blocks[i / ITEMS][i % ITEMS];
}

/* it added to r's items (then r's) */
static item *push_item(run *r, const item *it)
{
	if (r->n % ITEMS == 0 && r->n / ITEMS == r->nblocks) {
		SL_PUSH(r->blocks, r->nblocks, r->bcap_, NULL);
		r->blocks[r->nblocks - 1] = sl_malloc(ITEMS * sizeof **r->blocks);
	}
	item *x = at(r, r->n++);
	*x = *it;
	return x;
}

/* The sources of every entry -> the first entry they belong to, so that
 * each finding finds its entry by one lookup (a scan of the entries per
 * finding was quadratic: a catalogue of duplicates has a finding each).
 * Not for the terminal's report, whose entries may be put aside. */
static void index_sources(sl_strmap *m, const run *r)
{
	for (size_t i = 0; i < r->n; i++) {
		const item *it = at(r, i);
		for (size_t k = 0; it->x && k < it->x->nown; k++)
			sl_strmap_put(m, (const char *)&it->x->kept[k], sizeof it->x->kept[k], i);
		const sl_entry *e = it->x ? it->x->entry : NULL;
		if (!e)
			continue;
		if (e->script)
			sl_strmap_put(m, (const char *)&e->script, sizeof e->script, i);
		if (e->metadata)
			sl_strmap_put(m, (const char *)&e->metadata, sizeof e->metadata, i);
		for (size_t k = 0; k < e->nfiles; k++)
			if (e->files[k])
				sl_strmap_put(m, (const char *)&e->files[k], sizeof e->files[k], i);
	}
}

/* Frees a model once read, keeping its here-documents (places point into them) */
static void release_model(run *r, sl_model *m)
{
	if (!m)
		return;
	for (size_t f = 0; f < m->nfiles; f++)
		SL_PUSH(r->heredocs, r->nheredocs, r->hcap, m->files[f]);
	m->nfiles = 0;
	sl_model_free(m);
}

/* Findings [first, n) rendered into the run's pending records and freed
 * (their sources may then go), each counted to entry e when it is one of
 * e's own files (as the report's index of sources would place it); e NULL:
 * an input that could not be read, whose findings are no entry's. The
 * whole run's pending records go to the spool at once. */
static void spool_findings(run *r, size_t first, const sl_entry *e, item *it)
{
	for (size_t i = first; i < r->fs.n; i++) {
		const sl_finding *f = &r->fs.v[i];
		sl_findings_spool_render(&r->pending, f, r->color);
		int own = 0;
		if (e && f->where.src) {
			own = f->where.src == e->script || f->where.src == e->metadata;
			for (size_t k = 0; k < e->nfiles && !own; k++)
				own = f->where.src == e->files[k];
		}
		if (own && !f->suppressed)
			it->nfind[f->severity]++;
	}
	/* freed as a findings of their own (sl_findings_free frees its array) */
	size_t n = r->fs.n - first;
	sl_findings rest = {sl_calloc(n + 1, sizeof *rest.v), n, n + 1};
	if (n)
		memcpy(rest.v, r->fs.v + first, n * sizeof *rest.v);
	sl_findings_free(&rest);
	r->fs.n = first;
	if (r->spool) {
		sl_findings_spool_take(r->spool, r->pending.data, r->pending.len);
		r->pending.len = 0;
	}
}

/* it's sources to be freed: sl_check_keep_places (12.9 of the 22.3 MB of
 * heap at the peak over 3,500 entries were the entries' sources). 0, or
 * -1 when they stay whole. Not for --html, whose page shows them. */
static int keep_places(item *it, sl_findings *fs, size_t first, size_t end)
{
	return sl_check_keep_places(it->x->entry, fs, first, end, it->x->sum, &it->x->kept, &it->x->nkept,
				    &it->x->nown);
}

/* Entry i (of the whole run, taken in input order) placed among the
 * duplicates: the first earlier entry of its model whose command is the
 * same after normalization. Entries are bucketed by their model and
 * command key (sl_diff_command_key: duplicates share one) and held only
 * against the first entry of each distinct command in their bucket, by
 * the values the key rounds (sl_diff_same_print: what sl_diff_models
 * would find the same, without the models). Linear in entries where
 * diffing every pair of one model was quadratic (13 s at 3,500 entries);
 * only the first entry of each command keeps anything. */
static void settle(run *r, size_t i)
{
	item *it = at(r, i);
	extra *x = it->x;
	size_t g = SIZE_MAX;
	if (x->llm) {
		char *k = sl_catalogue_model_key(x->llm);
		g = sl_strmap_put(&r->models, k, strlen(k), r->ngroups);
		free(k);
		if (g == r->ngroups) {
			struct model_count none = {0, 0};
			SL_PUSH(r->of_model, r->ngroups, r->gcap, none);
		}
		r->of_model[g].n++;
		r->of_model[g].read += x->cmd != NULL;
	}
	it->group = g == SIZE_MAX ? NONE : (uint32_t)g;
	if (x->cmd && g != SIZE_MAX) {
		sl_buf key = {0};
		sl_buf_printf(&key, "%zu;", g);
		sl_buf_puts(&key, x->cmd);
		size_t bk = sl_strmap_put(&r->buckets, key.data, key.len, r->nbuckets);
		sl_buf_free(&key);
		if (bk == r->nbuckets) {
			struct bucket none = {NULL, 0, 0};
			SL_PUSH(r->reps, r->nbuckets, r->bcap, none);
		}
		struct bucket *b = &r->reps[bk];
		for (size_t k = 0; k < b->n && it->same_as == NONE; k++)
			if (sl_diff_same_print(at(r, b->v[k])->x->cmdvals, x->cmdvals))
				it->same_as = (uint32_t)b->v[k];
		if (it->same_as == NONE)
			SL_PUSH(b->v, b->n, b->cap, i);
	}
	free(x->cmd);
	x->cmd = NULL;
	if (it->same_as != NONE || g == SIZE_MAX) {
		json_decref(x->cmdvals);
		x->cmdvals = NULL;
	}
}

/* Whether SRC is one of entry e's own files (its script, metadata or
 * files) */
static int entry_source(const sl_entry *e, const sl_source *src)
{
	int own = src && (src == e->script || src == e->metadata);
	for (size_t k = 0; src && k < e->nfiles && !own; k++)
		own = src == e->files[k];
	return own;
}

/* The terminal's report: metadata_command's findings of the entry just
 * summarized (the one catalogue rule that reads one entry alone) settled
 * and spooled now, as the catalogue's sink would settle them (its
 * comments, the config, counted to it when in its own files), so that
 * its summary holds no finding and can be put aside. Spooled among the
 * entries' findings, not after them: the spool's order ties only between
 * findings of one rule at one place, and these keep their entry order. */
static void settle_meta(run *r, item *it)
{
	size_t first = r->fs.n;
	sl_catalogue_summary_take_meta(it->x->sum, &r->fs);
	for (size_t f = first; f < r->fs.n; f++) {
		sl_finding *x = &r->fs.v[f];
		int own = entry_source(it->x->entry, x->where.src);
		if (own) {
			sl_findings one = {x, 1, 1};
			sl_check_suppress(it->x->entry, &one, 0);
			x->entry = it->x->entry->path;
		}
		sl_findings one = {x, 1, 1};
		sl_check_config_apply(r->cfg, &one, 0);
		if (own && !x->suppressed)
			it->nfind[x->severity]++;
	}
	if (r->fs.n > first)
		spool_findings(r, first, NULL, NULL);
}

/* The terminal's report: the entry's summary, its places kept in copies
 * of their lines, put aside in the store with the copies (read back by
 * the catalogue rules, one entry at a time), and freed: no summary stays
 * in memory per entry (issue 18). Left as it is when it cannot be. */
static void put_aside(run *r, item *it)
{
	extra *x = it->x;
	if (!r->spooling)
		return;
	if (x->sum) {
		sl_buf rec = {0};
		if (sl_catalogue_summary_freeze(x->sum, x->kept, x->nkept, x->nown, &rec) || !rec.len ||
		    rec.len > UINT32_MAX) {
			sl_buf_free(&rec);
			return;
		}
		/* with its report's text when that is not put yet: one place
		 * for both; a failure is told after reading (sl_store_error),
		 * as the texts' */
		uint64_t at;
		if (x->text) {
			sl_buf both = {0};
			sl_buf_add(&both, x->text, it->summary_len);
			sl_buf_add(&both, rec.data, rec.len);
			sl_store_put(r->store, both.data, both.len, &at);
			sl_buf_free(&both);
			it->summary_at = at;
			x->sum_at = at + it->summary_len;
			free(x->text);
			x->text = NULL;
		} else {
			sl_store_put(r->store, rec.data, rec.len, &x->sum_at);
		}
		it->sum_len = (uint32_t)rec.len;
		sl_buf_free(&rec);
		sl_catalogue_summary_free(x->sum);
		x->sum = NULL;
	}
	for (size_t k = 0; k < x->nkept; k++)
		sl_source_free(x->kept[k]);
	free(x->kept);
	x->kept = NULL;
	x->nkept = x->nown = 0;
	x->aside = 1;
}

/* Entry i, placed among the duplicates, freed but for its item when it
 * was put aside: its summary and its report's text are in the store,
 * and the first entry of a command keeps its values (settle) */
static void let_go(run *r, size_t i)
{
	item *it = at(r, i);
	extra *x = it->x;
	/* an entry whose summary was put aside apart from its text (a page's
	 * entry, named first) keeps its place in its extra */
	if (!x || !x->aside || x->cmdvals || x->model || x->name || x->sum || x->text ||
	    (it->sum_len && x->sum_at != it->summary_at + it->summary_len))
		return;
	sl_entry_free(x->entry);
	free(x);
	it->x = NULL;
}

/* What an entry keeps once read: its catalogue summary and command's key
 * (sl_catalogue_summarize, sl_diff_command_print), then (but for --html)
 * its places moved into copies of their lines and its sources, model and
 * its variants' models r->extra[x0, x1) freed. */
static void keep_entry(run *r, item *it, size_t x0, size_t x1, const sl_rules *rules)
{
	extra *x = it->x;
	sl_catalogue_summarize(rules, x->model, &x->sum);
	if (x->model)
		x->cmd = sl_diff_command_print(x->model, &x->cmdvals);
	if (r->keep_models)
		return;
	if (r->spooling)
		settle_meta(r, it);
	/* a page's entries keep theirs until named apart */
	int kept = !x->name && !keep_places(it, &r->fs, x->ffirst, x->fend);
	for (size_t k = x0; k < x1; k++) {
		if (kept)
			sl_model_free(r->extra[k]);
		else
			release_model(r, r->extra[k]);
		r->extra[k] = NULL;
	}
	if (!x->name) {
		if (kept)
			sl_model_free(x->model);
		else
			release_model(r, x->model);
		x->model = NULL;
	}
	if (kept) {
		sl_entry_drop_sources(x->entry);
		put_aside(r, it);
	}
}

/* Its report's text put in the store, when put_aside did not */
static void put_text(run *r, item *it)
{
	extra *x = it->x;
	if (!x->text)
		return;
	sl_store_put(r->store, x->text, it->summary_len, &it->summary_at);  /* a failure is told after reading */
	free(x->text);
	x->text = NULL;
}

/* Entry i taken into the whole run, in input order: its path's part
 * shared with the others noted (the report names entries by the rest),
 * placed among the duplicates, then freed but for its item when put aside */
static void taken(run *r, size_t i)
{
	item *it = at(r, i);
	const char *p = it->x->entry->path;
	if (!r->path0) {
		r->path0 = sl_strdup(p);
		r->shared = strlen(p);
	} else {
		size_t k = 0;
		while (k < r->shared && p[k] == r->path0[k])
			k++;
		r->shared = k;
	}
	/* its names' pair */
	const char *pair[2] = {it->x->llm, it->x->system};
	size_t k = sl_strmap_put(&r->names_of, (const char *)pair, sizeof pair, r->nnames);
	if (k == r->nnames) {
		struct names one = {pair[0], pair[1]};
		SL_PUSH(r->names, r->nnames, r->ncap, one);
	}
	it->names = (uint32_t)k;
	settle(r, i);
	let_go(r, i);
}

/* Whether PATH is a script found by searching a folder (a regular file
 * none of the arguments names). */
static int found_script(const char *path, char **args, int n)
{
	struct stat st;
	for (int i = 0; i < n; i++)
		if (!strcmp(args[i], path))
			return 0;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Reads and checks every entry of one PATH; 0, or -1 when one could not be
 * read (told on stderr; the others are read all the same). */
static int read_path(run *r, const char *path, const sl_grammars *gs, const sl_rules *rules, int found)
{
	sl_entry_input in;
	sl_error err = {0};
	int failed = 0, got = sl_entry_input_open(&in, path, &err) ? -1 : 1;
	sl_entry *entry;
	while (got != 0) {
		if (got < 0) {
			/* an entry that cannot be read is listed as such: SL0001 */
			size_t first = r->fs.n;
			if (!sl_check_unreadable(rules, path, &err, &r->fs))
				sl_error_print(&err, "servelint");
			sl_check_config_apply(r->cfg, &r->fs, first);
			if (r->spooling)
				spool_findings(r, first, NULL, NULL);
			sl_error_clear(&err);
			failed = 1;
			if (in.done)
				break;
			got = sl_entry_input_next(&in, &entry, &err);
			continue;
		}
		if ((got = sl_entry_input_next(&in, &entry, &err)) <= 0)
			continue;
		item it;
		memset(&it, 0, sizeof it);
		extra *x = it.x = sl_calloc(1, sizeof *it.x);
		x->entry = entry;
		/* every variant checked, as check does; the first stands for the
		 * entry in the matrix and the comparisons */
		size_t first = r->fs.n, xfirst = r->nextra;
		if (sl_check_entry(entry, gs, rules, NULL, r->cfg, &r->fs, &x->model, &r->extra, &r->nextra,
				   &r->xcap)) {
			/* a helper script found beside the entries is none */
			if (found && sl_check_drop_no_service(&r->fs, first)) {
				if (r->spooling)  /* what else it found: no entry's */
					spool_findings(r, first, NULL, NULL);
				sl_entry_free(entry);
				free(x);
				continue;
			}
			failed = 1;
		}
		if (r->spooling)
			spool_findings(r, first, entry, &it);
		const char *sys = metadata_system(x->model);
		x->system = sys ? sl_strdup(sys) : NULL;
		if (in.npe && in.next) {
			const sl_page_entry *pe = &in.pes[in.next - 1];
			x->llm = pe->model ? sl_strdup(pe->model) : NULL;
			if (!x->system && pe->heading)
				x->system = sl_strdup(pe->heading);
		} else {
			sidecar(in.path, &x->llm, &x->system);
		}
		if (!x->llm && sl_catalogue_model_of(x->model))
			x->llm = sl_strdup(sl_catalogue_model_of(x->model));
		x->llm = interned(x->llm);
		x->system = interned(x->system);
		/* a page's entry is named as import would name its folder, not page:LINE */
		if (in.npe && x->model)
			x->name = sl_entry_import_name(x->model, x->llm, x->system);
		/* what the report, the catalogue rules and the duplicates read of
		 * the model, so that it can go */
		x->text = sl_report_audit_entry_text(entry, x->model, x->llm, x->system);
		it.summary_len = (uint32_t)strlen(x->text);  /* an entry's files are at most 4 MB each */
		it.same_as = NONE;
		it.group = NONE;
		x->ffirst = first;
		x->fend = r->fs.n;
		keep_entry(r, &it, xfirst, r->nextra, rules);
		put_text(r, &it);
		if (!r->keep_models)
			r->nextra = xfirst;
		push_item(r, &it);
		if (r->whole)
			taken(r, r->n - 1);
		if (r->progress)
			fprintf(stderr, "\raudit: %zu entr%s read", r->n, r->n == 1 ? "y" : "ies");
	}
	sl_entry_input_close(&in);
	return failed ? -1 : 0;
}

/* audit -j N: the PATHs read on N threads, each into a run of its own,
 * then taken into the whole run in input order (as -j 1 reads them) */
typedef struct read_jobs {
	run *r;                 /* the whole run */
	char **paths;           /* owned: each freed once read */
	int *found;             /* each path: a script found by searching a folder */
	/* each path's entries, findings and variants' models, from its
	 * reading to its taking (at most sl_jobs_run's window of them at
	 * once): a run for every path made at the start was 400 bytes a path,
	 * 28 MB at 69,440 */
	run **each;
	int *failed;
	const sl_grammars *gs;
	const sl_rules *rules;
} read_jobs;

static void read_job(void *ud, size_t i)
{
	read_jobs *j = ud;
	run *p = sl_calloc(1, sizeof *p);
	p->cfg = j->r->cfg;
	p->keep_models = j->r->keep_models;
	p->store = j->r->store;
	p->spooling = j->r->spooling;
	p->color = j->r->color;
	j->failed[i] = read_path(p, j->paths[i], j->gs, j->rules, j->found[i]) != 0;
	j->each[i] = p;
}

static void read_job_done(void *ud, size_t i)
{
	read_jobs *j = ud;
	run *r = j->r, *p = j->each[i];
	for (size_t k = 0; k < p->n; k++) {
		item *it = at(p, k);
		it->x->ffirst += r->fs.n;  /* its findings' place among the whole run's */
		it->x->fend += r->fs.n;
		push_item(r, it);
		taken(r, r->n - 1);
		if (r->progress)
			fprintf(stderr, "\raudit: %zu entr%s read", r->n, r->n == 1 ? "y" : "ies");
	}
	sl_grow((void **)&r->fs.v, &r->fs.cap, r->fs.n + p->fs.n, sizeof *r->fs.v);
	if (p->fs.n)
		memcpy(r->fs.v + r->fs.n, p->fs.v, p->fs.n * sizeof *p->fs.v);
	r->fs.n += p->fs.n;
	for (size_t k = 0; k < p->nextra; k++)
		SL_PUSH(r->extra, r->nextra, r->xcap, p->extra[k]);
	for (size_t k = 0; k < p->nheredocs; k++)
		SL_PUSH(r->heredocs, r->nheredocs, r->hcap, p->heredocs[k]);
	if (r->spool)
		sl_findings_spool_take(r->spool, p->pending.data, p->pending.len);
	sl_buf_free(&p->pending);
	for (size_t b = 0; b < p->nblocks; b++)
		free(p->blocks[b]);
	free(p->blocks);
	free(p->fs.v);
	free(p->extra);
	free(p->heredocs);
	free(p);
	j->each[i] = NULL;
	free(j->paths[i]);  /* read: not needed until the end */
	j->paths[i] = NULL;
}

/* The pairwise diffs of the entries of each model of at most
 * SL_AUDIT_MAX_DIFF_ENTRIES entries (past it none is kept), in order:
 * made for --html only, whose page shows them; else only counted. */
static void compare(run *r)
{
	size_t n = r->n;
	if (!r->keep_models)
		for (size_t g = 0; g < r->ngroups; g++)
			if (r->of_model[g].n <= SL_AUDIT_MAX_DIFF_ENTRIES)
				r->npairs += r->of_model[g].read * (r->of_model[g].read - 1) / 2;
	sl_diff_opts none = {0};
	size_t **members = sl_calloc(r->ngroups + 1, sizeof *members), *nmembers = sl_calloc(r->ngroups + 1, sizeof *nmembers);
	for (size_t i = 0; i < n; i++) {
		const item *it = at(r, i);
		const extra *x = it->x;
		size_t g = it->group;
		if (g == NONE || !(it->sum_len || (x && x->sum)))
			continue;  /* none (the entry did not normalize) */
		if (r->keep_models && x->model && r->of_model[g].n <= SL_AUDIT_MAX_DIFF_ENTRIES) {
			/* every earlier entry of the model, in order: the pairs kept */
			for (size_t k = 0; k < nmembers[g]; k++) {
				size_t j = members[g][k];
				sl_audit_pair p = {j, i, {0}};
				sl_diff_models(at(r, j)->x->model, x->model, &none, &p.diff);
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
static int own_source(const item *it, const sl_source *src)
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
static void suppress_one(run *r, sl_finding *f, size_t i)
{
	const extra *x = i == SIZE_MAX ? NULL : at(r, i)->x;
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
	run *r = ud;
	for (size_t f = 0; f < out->n; f++) {
		size_t i = made_of[f] < r->n && (own[f] > 0 || (own[f] < 0 && own_source(at(r, made_of[f]),
											     out->v[f].where.src)))
				   ? made_of[f]
				   : SIZE_MAX;
		suppress_one(r, &out->v[f], i);
		sl_findings one = {&out->v[f], 1, 1};
		sl_check_config_apply(r->cfg, &one, 0);
		if (i != SIZE_MAX && !out->v[f].suppressed)
			at(r, i)->nfind[out->v[f].severity]++;
	}
	spool_findings(r, 0, NULL, NULL);
}

/* Entry i as the catalogue rules read it */
static void catalogue_entry(void *ud, size_t i, sl_catalogue_entry *out)
{
	const item *it = at(ud, i);
	const run *r = ud;
	const struct names *nm = &r->names[it->names];
	*out = (sl_catalogue_entry){it->x ? it->x->sum : NULL, nm->llm, nm->system,
				    it->same_as == NONE ? SIZE_MAX : it->same_as,
				    it->x ? it->x->sum_at : it->summary_at + it->summary_len, it->sum_len};
}

/* The catalogue rules; then every finding in file order (or spooled). */
static void check_catalogue(run *r, const sl_rules *rules)
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
	index_sources(&srcs, r);
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
static void release_catalogue(run *r)
{
	for (size_t i = 0; i < r->n; i++) {
		extra *x = at(r, i)->x;
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
static void report_entry(const run *r, size_t i, sl_audit_entry *out)
{
	const item *it = at(r, i);
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
static int report(run *r, const sl_rules *rules, const char *format, const char *html, int color,
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
		index_sources(&srcs, r);
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

static void run_free(run *r)
{
	for (size_t i = 0; r->pairs && i < r->npairs; i++)  /* --html's: else only counted */
		sl_diff_free(&r->pairs[i].diff);
	free(r->pairs);
	sl_findings_free(&r->fs);  /* before the entries its places point into */
	for (size_t i = 0; i < r->nextra; i++)
		sl_model_free(r->extra[i]);
	free(r->extra);
	for (size_t i = 0; i < r->n; i++) {
		item *it = at(r, i);
		extra *x = it->x;
		if (!x)
			continue;
		sl_entry_free(x->entry);
		free(x->text);
		free(x->name);
		sl_catalogue_summary_free(x->sum);
		free(x->cmd);
		json_decref(x->cmdvals);
		sl_model_free(x->model);
		for (size_t k = 0; k < x->nkept; k++)
			sl_source_free(x->kept[k]);
		free(x->kept);
		free(x);
	}
	for (size_t i = 0; i < r->nheredocs; i++)
		sl_source_free(r->heredocs[i]);
	free(r->heredocs);
	for (size_t b = 0; b < r->nbuckets; b++)
		free(r->reps[b].v);
	free(r->reps);
	free(r->of_model);
	sl_strmap_free(&r->models);
	sl_strmap_free(&r->buckets);
	for (size_t b = 0; b < r->nblocks; b++)
		free(r->blocks[b]);
	free(r->blocks);
	free(r->path0);
	free(r->names);
	sl_strmap_free(&r->names_of);
	sl_findings_spool_free(r->spool);
	sl_buf_free(&r->pending);
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
	char **paths = NULL;
	size_t np = 0, pcap = 0;
	for (int a = optind; a < argc; a++)
		sl_entry_input_discover(argv[a], &paths, &np, &pcap, 0);
	run r;
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
	read_jobs rj = {&r, NULL, NULL, NULL, NULL, gs, rules};
	size_t nchosen = 0, nfound = 0, ccap = 0, fcap = 0;
	for (size_t i = 0; i < np && !cfg_failed; i++) {
		if (sl_entry_config_excludes(&cfg, paths[i]))
			continue;
		int found = found_script(paths[i], argv + optind, argc - optind);
		if (jobs > 1) {
			SL_PUSH(rj.found, nfound, fcap, found);
			SL_PUSH(rj.paths, nchosen, ccap, paths[i]);  /* rj's now */
		} else {
			failed |= read_path(&r, paths[i], gs, rules, found) != 0;
			free(paths[i]);
		}
		paths[i] = NULL;
	}
	if (nchosen > 1)
		sl_normalize_grammars_share(gs);
	rj.each = sl_calloc(nchosen + 1, sizeof *rj.each);
	rj.failed = sl_calloc(nchosen + 1, sizeof *rj.failed);
	sl_jobs_run(nchosen, jobs, read_job, read_job_done, &rj);
	for (size_t i = 0; i < nchosen; i++)
		failed |= rj.failed[i];
	free(rj.each);
	free(rj.failed);
	free(rj.found);
	free(rj.paths);
	/* the paths excluded (the others are freed once read) */
	for (size_t i = 0; i < np; i++)
		free(paths[i]);
	free(paths);
	/* page entries of one name told apart as import does (an entry
	 * without a name is told apart from none: only the named are given) */
	size_t nnamed = 0;
	for (size_t i = 0; i < r.n; i++)
		nnamed += at(&r, i)->x && at(&r, i)->x->name;
	char **names = sl_calloc(nnamed + 1, sizeof *names);
	const sl_model **models = sl_calloc(nnamed + 1, sizeof *models);
	size_t *named = sl_calloc(nnamed + 1, sizeof *named);
	for (size_t i = 0, k = 0; i < r.n; i++)
		if (at(&r, i)->x && at(&r, i)->x->name) {
			named[k] = i;
			names[k] = at(&r, i)->x->name;
			models[k++] = at(&r, i)->x->model;
		}
	sl_entry_import_tell_apart(names, models, nnamed);
	for (size_t k = 0; k < nnamed; k++)
		at(&r, named[k])->x->name = names[k];
	for (size_t i = 0; i < r.n && !r.keep_models; i++) {
		item *it = at(&r, i);
		extra *x = it->x;
		if (!x || !x->model)
			continue;
		int kept = !keep_places(it, &r.fs, x->ffirst, x->fend);
		if (kept)
			sl_model_free(x->model);
		else
			release_model(&r, x->model);
		x->model = NULL;
		if (kept) {
			sl_entry_drop_sources(x->entry);
			put_aside(&r, it);
		}
	}
	free(names);
	free(models);
	free(named);
	if (!failed && !r.n) {
		fprintf(stderr, "servelint audit: no entries found under %s\n", argv[optind]);
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
	run_free(&r);
	sl_store_free(r.store);
	free(cfg_path);
	sl_entry_config_free(&cfg);
	sl_rules_free(rules);
	sl_normalize_grammars_free(gs);
	return rc;
}
