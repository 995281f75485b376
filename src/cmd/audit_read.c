/*
 * audit_read.c (cmd): `servelint audit`'s reading of a catalogue (audit.h):
 * each entry read, checked and summarized (its report's text, its
 * catalogue summary, its command's key), its findings rendered and
 * spooled for the terminal's report, then, that report's summary and
 * text put in the store and its sources let go, what stays of it is an
 * item of 56 bytes (issue 18: audit's peak memory flat in the
 * catalogue's size); entries placed among the duplicates as they are
 * taken in input order; audit -j's paths read on threads.
 */
#include "audit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "diff/diff.h"
#include "normalize/normalize.h"
#include "parse/parse.h"

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


/* item i of r */
sl_audit_item *sl_audit_at(const sl_audit_run *r, size_t i)
{
	return &r->blocks[i / SL_AUDIT_ITEMS][i % SL_AUDIT_ITEMS];
}

/* it added to r's items (then r's) */
/* What an item holds freed (not the item) */
static void free_item(sl_audit_item *it)
{
	sl_audit_extra *x = it->x;
	if (!x)
		return;
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
	it->x = NULL;
}

/* it added to r's items (then r's); NULL, r->too_many set and nothing
 * taken, when r holds SL_AUDIT_MAX_ENTRIES already */
static sl_audit_item *push_item(sl_audit_run *r, const sl_audit_item *it)
{
	if (r->n >= SL_AUDIT_MAX_ENTRIES) {
		r->too_many = 1;
		return NULL;
	}
	if (r->n % SL_AUDIT_ITEMS == 0 && r->n / SL_AUDIT_ITEMS == r->nblocks) {
		SL_PUSH(r->blocks, r->nblocks, r->blockcap, NULL);
		r->blocks[r->nblocks - 1] = sl_malloc(SL_AUDIT_ITEMS * sizeof **r->blocks);
	}
	sl_audit_item *x = sl_audit_at(r, r->n++);
	*x = *it;
	return x;
}

/* The sources of every entry -> the first entry they belong to, so that
 * each finding finds its entry by one lookup (a scan of the entries per
 * finding was quadratic: a catalogue of duplicates has a finding each).
 * Not for the terminal's report, whose entries may be put aside. */
void sl_audit_index_sources(sl_strmap *m, const sl_audit_run *r)
{
	for (size_t i = 0; i < r->n; i++) {
		const sl_audit_item *it = sl_audit_at(r, i);
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
void sl_audit_release_model(sl_audit_run *r, sl_model *m)
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
void sl_audit_spool_findings(sl_audit_run *r, size_t first, const sl_entry *e, sl_audit_item *it)
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
int sl_audit_keep_places(sl_audit_item *it, sl_findings *fs, size_t first, size_t end)
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
static void settle(sl_audit_run *r, size_t i)
{
	sl_audit_item *it = sl_audit_at(r, i);
	sl_audit_extra *x = it->x;
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
	it->group = g == SIZE_MAX ? SL_AUDIT_NONE : (uint32_t)g;
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
		for (size_t k = 0; k < b->n && it->same_as == SL_AUDIT_NONE; k++)
			if (sl_diff_same_print(sl_audit_at(r, b->v[k])->x->cmdvals, x->cmdvals))
				it->same_as = (uint32_t)b->v[k];
		if (it->same_as == SL_AUDIT_NONE)
			SL_PUSH(b->v, b->n, b->cap, i);
	}
	free(x->cmd);
	x->cmd = NULL;
	if (it->same_as != SL_AUDIT_NONE || g == SIZE_MAX) {
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
static void settle_meta(sl_audit_run *r, sl_audit_item *it)
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
		sl_audit_spool_findings(r, first, NULL, NULL);
}

/* The terminal's report: the entry's summary, its places kept in copies
 * of their lines, put aside in the store with the copies (read back by
 * the catalogue rules, one entry at a time), and freed: no summary stays
 * in memory per entry (issue 18). Left as it is when it cannot be. */
void sl_audit_put_aside(sl_audit_run *r, sl_audit_item *it)
{
	sl_audit_extra *x = it->x;
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
static void let_go(sl_audit_run *r, size_t i)
{
	sl_audit_item *it = sl_audit_at(r, i);
	sl_audit_extra *x = it->x;
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
static void keep_entry(sl_audit_run *r, sl_audit_item *it, size_t x0, size_t x1, const sl_rules *rules)
{
	sl_audit_extra *x = it->x;
	sl_catalogue_summarize(rules, x->model, &x->sum);
	if (x->model)
		x->cmd = sl_diff_command_print(x->model, &x->cmdvals);
	if (r->keep_models)
		return;
	if (r->spooling)
		settle_meta(r, it);
	/* a page's entries keep theirs until named apart */
	int kept = !x->name && !sl_audit_keep_places(it, &r->fs, x->ffirst, x->fend);
	for (size_t k = x0; k < x1; k++) {
		if (kept)
			sl_model_free(r->extra[k]);
		else
			sl_audit_release_model(r, r->extra[k]);
		r->extra[k] = NULL;
	}
	if (!x->name) {
		if (kept)
			sl_model_free(x->model);
		else
			sl_audit_release_model(r, x->model);
		x->model = NULL;
	}
	if (kept) {
		sl_entry_drop_sources(x->entry);
		sl_audit_put_aside(r, it);
	}
}

/* Its report's text put in the store, when sl_audit_put_aside did not */
static void put_text(sl_audit_run *r, sl_audit_item *it)
{
	sl_audit_extra *x = it->x;
	if (!x->text)
		return;
	sl_store_put(r->store, x->text, it->summary_len, &it->summary_at);  /* a failure is told after reading */
	free(x->text);
	x->text = NULL;
}

/* Entry i taken into the whole run, in input order: its path's part
 * shared with the others noted (the report names entries by the rest),
 * placed among the duplicates, then freed but for its item when put aside */
static void taken(sl_audit_run *r, size_t i)
{
	sl_audit_item *it = sl_audit_at(r, i);
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
int sl_audit_found_script(const char *path, char **args, int n)
{
	struct stat st;
	for (int i = 0; i < n; i++)
		if (!strcmp(args[i], path))
			return 0;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Reads and checks every entry of one PATH; 0, or -1 when one could not be
 * read (told on stderr; the others are read all the same). */
int sl_audit_read_path(sl_audit_run *r, const char *path, const sl_grammars *gs, const sl_rules *rules, int found)
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
				sl_audit_spool_findings(r, first, NULL, NULL);
			sl_error_clear(&err);
			failed = 1;
			if (in.done)
				break;
			got = sl_entry_input_next(&in, &entry, &err);
			continue;
		}
		if ((got = sl_entry_input_next(&in, &entry, &err)) <= 0)
			continue;
		sl_audit_item it;
		memset(&it, 0, sizeof it);
		sl_audit_extra *x = it.x = sl_calloc(1, sizeof *it.x);
		x->entry = entry;
		/* every variant checked, as check does; the first stands for the
		 * entry in the matrix and the comparisons */
		size_t first = r->fs.n, xfirst = r->nextra;
		if (sl_check_entry(entry, gs, rules, NULL, r->cfg, &r->fs, &x->model, &r->extra, &r->nextra,
				   &r->xcap)) {
			/* a helper script found beside the entries is none */
			if (found && sl_check_drop_no_service(&r->fs, first, NULL)) {
				if (r->spooling)  /* what else it found: no entry's */
					sl_audit_spool_findings(r, first, NULL, NULL);
				sl_entry_free(entry);
				free(x);
				continue;
			}
			failed = 1;
		}
		if (r->spooling)
			sl_audit_spool_findings(r, first, entry, &it);
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
		it.same_as = SL_AUDIT_NONE;
		it.group = SL_AUDIT_NONE;
		x->ffirst = first;
		x->fend = r->fs.n;
		keep_entry(r, &it, xfirst, r->nextra, rules);
		put_text(r, &it);
		if (!r->keep_models)
			r->nextra = xfirst;
		if (!push_item(r, &it)) {
			free_item(&it);  /* past the limit: no report is written */
			failed = 1;
			continue;
		}
		if (r->whole)
			taken(r, r->n - 1);
		if (r->progress)
			fprintf(stderr, "\raudit: %zu entr%s read", r->n, r->n == 1 ? "y" : "ies");
	}
	sl_entry_input_close(&in);
	return failed ? -1 : 0;
}


void sl_audit_read_jobs_start(void *ud)
{
	sl_audit_jobs *j = ud;
	sl_normalize_grammars_share((sl_grammars *)j->gs);
}

void sl_audit_read_job(void *ud, void *item)
{
	sl_audit_jobs *j = ud;
	sl_audit_job *one = item;
	sl_audit_run *p = sl_calloc(1, sizeof *p);
	p->cfg = j->r->cfg;
	p->keep_models = j->r->keep_models;
	p->store = j->r->store;
	p->spooling = j->r->spooling;
	p->color = j->r->color;
	one->failed = sl_audit_read_path(p, one->path, j->gs, j->rules, one->found) != 0;
	one->each = p;
}

void sl_audit_read_job_done(void *ud, void *item)
{
	sl_audit_jobs *j = ud;
	sl_audit_job *one = item;
	sl_audit_run *r = j->r, *p = one->each;
	for (size_t k = 0; k < p->n; k++) {
		sl_audit_item *it = sl_audit_at(p, k);
		it->x->ffirst += r->fs.n;  /* its findings' place among the whole run's */
		it->x->fend += r->fs.n;
		if (!push_item(r, it)) {
			free_item(it);  /* past the limit: no report is written */
			one->failed = 1;
			continue;
		}
		taken(r, r->n - 1);
		if (r->progress)
			fprintf(stderr, "\raudit: %zu entr%s read", r->n, r->n == 1 ? "y" : "ies");
	}
	sl_findings_move(&p->fs, &r->fs);
	for (size_t k = 0; k < p->nextra; k++)
		SL_PUSH(r->extra, r->nextra, r->xcap, p->extra[k]);
	for (size_t k = 0; k < p->nheredocs; k++)
		SL_PUSH(r->heredocs, r->nheredocs, r->hcap, p->heredocs[k]);
	if (r->spool)
		sl_findings_spool_take(r->spool, p->pending.data, p->pending.len);
	sl_buf_free(&p->pending);
	r->too_many |= p->too_many;
	for (size_t b = 0; b < p->nblocks; b++)
		free(p->blocks[b]);
	free(p->blocks);
	free(p->extra);
	free(p->heredocs);
	free(p);
	j->failed |= one->failed;
	free(one->path);
	free(one);
}

void sl_audit_run_free(sl_audit_run *r)
{
	for (size_t i = 0; r->pairs && i < r->npairs; i++)  /* --html's: else only counted */
		sl_diff_free(&r->pairs[i].diff);
	free(r->pairs);
	sl_findings_free(&r->fs);  /* before the entries its places point into */
	for (size_t i = 0; i < r->nextra; i++)
		sl_model_free(r->extra[i]);
	free(r->extra);
	for (size_t i = 0; i < r->n; i++)
		free_item(sl_audit_at(r, i));
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
