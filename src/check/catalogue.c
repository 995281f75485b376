/*
 * catalogue.c: the checks that hold a catalogue's entries against each
 * other (rules SL7xxx): entries of one model that disagree where they
 * should not (equal_across_entries), duplicates, metadata that contradicts
 * the command, and one engine build whose version is named two ways.
 *
 * Entries of one model are those whose names give one key
 * (sl_catalogue_model_key); a setting is compared between entries of one
 * engine (vLLM's parser names are not SGLang's) unless the rule says
 * across_engines. The entry the others outvote is the one reported.
 *
 * The rules read each entry's summary (catalogue_summary.c), in memory or
 * put aside in audit's store, in passes over the entries: what they hold
 * is per group of entries and per distinct value or build, never per
 * entry, so that a catalogue's summaries need not all be in memory at
 * once (issue 18: audit's peak memory flat in the catalogue's size).
 *
 * Uses rules.c (the rules to run, sl_rules_at) and findings.c (its
 * findings' related places, and their order); the names of its C checks
 * are known to rules.c, which loads the rule files that name them.
 */
#include "catalogue_summary.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

char *sl_catalogue_model_key(const char *name)
{
	char *h = sl_strdup(name);
	char *par = strrchr(h, '(');
	if (par && par > h)
		*par = '\0';
	const char *p = strrchr(h, '/');
	p = p ? p + 1 : h;
	sl_buf b = {0};
	int dash = 0;
	for (; *p; p++) {
		unsigned char c = (unsigned char)*p;
		if (isalnum(c) || c == '.') {
			if (dash && b.len)
				sl_buf_putc(&b, '-');
			dash = 0;
			sl_buf_putc(&b, (char)tolower(c));
		} else {
			dash = 1;
		}
	}
	free(h);
	return sl_buf_detach(&b);
}

/* Equal as the engines read them: numbers as numbers, a list of one and its item. */
static int same(json_t *a, json_t *b)
{
	if (json_is_array(a) && json_array_size(a) == 1)
		a = json_array_get(a, 0);
	if (json_is_array(b) && json_array_size(b) == 1)
		b = json_array_get(b, 0);
	if (json_is_number(a) && json_is_number(b))
		return fabs(json_number_value(a) - json_number_value(b)) < 1e-9;
	if (json_is_string(a) && json_is_string(b)) {
		/* commit hashes (revisions): one may be the other's prefix */
		const char *x = json_string_value(a), *y = json_string_value(b);
		size_t lx = strlen(x), ly = strlen(y);
		if (lx >= 7 && ly >= 7 && strspn(x, "0123456789abcdef") == lx && strspn(y, "0123456789abcdef") == ly)
			return !strncmp(x, y, lx < ly ? lx : ly);
	}
	return json_equal(a, b);
}

static char *vtext(json_t *v)
{
	if (json_is_array(v) && json_array_size(v) == 1)
		v = json_array_get(v, 0);
	if (json_is_string(v))
		return sl_strdup(json_string_value(v));
	char *d = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY | JSON_REAL_PRECISION(15));
	return d ? d : sl_strdup("?");
}

/* The entries and where their summaries are (book_open) */
typedef struct {
	const sl_catalogue_entry *v;  /* or NULL: each told by fn */
	sl_catalogue_entry_fn *fn;
	void *ud;
	size_t n;
	sl_store *st;  /* the summaries put aside; not owned, may be NULL */
	int bad;       /* one could not be read back */
} book;

static sl_catalogue_entry book_entry(const book *b, size_t i)
{
	sl_catalogue_entry e;
	if (b->v)
		return b->v[i];
	b->fn(b->ud, i, &e);
	return e;
}

static int has_sum(const sl_catalogue_entry *e)
{
	return e->sum || e->len;
}

/* Entry i's summary: its own, or read back from the store (with the
 * copies of its places' lines when places is set) into *hold, the
 * caller's (book_close); NULL when it has none or cannot be read. */
static const sl_catalogue_summary *book_open(book *b, size_t i, int places, sl_catalogue_summary **hold)
{
	sl_catalogue_entry e = book_entry(b, i);
	*hold = NULL;
	if (e.sum || !e.len)
		return e.sum;
	char *rec = b->st ? sl_store_get(b->st, e.at, e.len) : NULL;
	*hold = rec ? sl_catalogue_summary_thaw(rec, e.len, places) : NULL;
	if (!*hold)
		b->bad = 1;
	return *hold;
}

static void book_close(sl_catalogue_summary **hold)
{
	sl_catalogue_summary_free(*hold);
	*hold = NULL;
}

/* Where a rule's findings go: out, handed to sink (when there is one)
 * between entries once it holds SPILL of them, so that a catalogue's
 * findings need not all be held (one duplicate finding per entry of a
 * catalogue of copies); at once when their places are in summaries read
 * back (eager), which are freed after */
typedef struct {
	sl_findings *out;
	sl_catalogue_sink *sink;  /* NULL: they stay in out */
	void *ud;
	int eager;
	size_t *who;              /* with a sink: the entry whose summary made each finding of out */
	signed char *own;         /* and whether its place is in that entry's own files (-1: not known) */
	size_t nwho, whocap, owncap;
} outlet;

enum { SPILL = 64 };

/* the finding just added to o->out was made of entry e's summary s */
static void made(outlet *o, size_t e, const sl_catalogue_summary *s)
{
	if (!o->sink)
		return;
	size_t n = o->nwho;
	SL_PUSH(o->who, o->nwho, o->whocap, e);
	SL_PUSH(o->own, n, o->owncap, (signed char)sl_catalogue_summary_owns(s, o->out->v[o->out->n - 1].where.src));
}

static void spill(outlet *o)
{
	if (o->sink && o->out->n && (o->out->n >= SPILL || o->eager)) {
		o->sink(o->ud, o->out, o->who, o->own);
		o->nwho = 0;
	}
}

static const char *path_of(const sl_catalogue_summary *s)
{
	return s && s->path ? s->path : "?";
}

/* ---- equal_across_entries --------------------------------------------------- */

/* Each name's model key, made once: a catalogue's entries name a few
 * models (a key made per entry and key slot was 20 bytes an entry at
 * audit's peak) */
typedef struct {
	sl_strmap of;     /* name -> index in keys */
	char **keys;      /* owned */
	size_t n, cap;
} model_keys;

static const char *model_key_of(model_keys *t, const sl_catalogue_entry *e, const sl_catalogue_summary *s)
{
	const char *name = e->llm ? e->llm : s->model_of;
	if (!name)
		return NULL;
	size_t i = sl_strmap_put(&t->of, name, strlen(name), t->n);
	if (i == t->n)
		SL_PUSH(t->keys, t->n, t->cap, sl_catalogue_model_key(name));
	return t->keys[i];
}

static void model_keys_free(model_keys *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->keys[i]);
	free(t->keys);
	sl_strmap_free(&t->of);
}

/* One key slot's votes: per group (model, and engine unless
 * across_engines) its size and each distinct written value (its compact
 * JSON) with its first entry and count. Members of one written value
 * count alike, so the votes are counted per distinct value, not per pair
 * of entries (linear in entries, where a catalogue of 3,500 entries of one
 * model made 12 M comparisons per key), and nothing is held per entry. */
typedef struct {
	size_t group, first, count;
	json_t *value;          /* the first's (a reference) */
} distinct;

typedef struct {
	size_t size;
	size_t best, best_n;    /* the entry whose value most of the group has (the first, on a tie), and how many */
	json_t *best_value;     /* not owned: a distinct's */
} group;

typedef struct {
	const sl_rule *r;
	const char *key;
	sl_strmap groups, values;
	group *g;
	size_t ng, gcap;
	distinct *d;
	size_t nd, dcap;
	int differs;            /* some member of a group of two or more differs from its best */
} votes;

/* the group key of st in model mk's group (the buffer's, the caller frees) */
static void group_key(const votes *vt, const char *mk, const given *st, sl_buf *k)
{
	sl_buf_puts(k, mk);
	if (!vt->r->across_engines) {
		sl_buf_putc(k, '\0');
		sl_buf_puts(k, st->engine);
	}
}

static void vote(votes *vt, size_t e, const char *mk, const given *st)
{
	sl_buf k = {0};
	group_key(vt, mk, st, &k);
	size_t g = sl_strmap_put(&vt->groups, k.data, k.len, vt->ng);
	if (g == vt->ng) {
		group none = {0, 0, 0, NULL};
		SL_PUSH(vt->g, vt->ng, vt->gcap, none);
	}
	vt->g[g].size++;
	char *text = json_dumps(st->value, JSON_COMPACT | JSON_ENCODE_ANY | JSON_SORT_KEYS);
	sl_buf_free(&k);
	sl_buf_printf(&k, "%zu;%s", g, text ? text : "");
	free(text);
	size_t d = sl_strmap_put(&vt->values, k.data, k.len, vt->nd);
	if (d == vt->nd) {
		distinct x = {g, e, 0, json_incref(st->value)};
		SL_PUSH(vt->d, vt->nd, vt->dcap, x);
	}
	vt->d[d].count++;
	sl_buf_free(&k);
}

/* each group's best: each distinct value's votes are the members whose
 * value is the same as the engines read it (8 and 8.0, a commit and its
 * prefix); values in order of their first member, the first wins a tie */
static void count_votes(votes *vt)
{
	size_t *start = sl_calloc(vt->ng + 2, sizeof *start), *order = sl_calloc(vt->nd + 1, sizeof *order);
	for (size_t a = 0; a < vt->nd; a++)
		start[vt->d[a].group + 2]++;
	for (size_t g = 0; g < vt->ng; g++)
		start[g + 2] += start[g + 1];
	for (size_t a = 0; a < vt->nd; a++)
		order[start[vt->d[a].group + 1]++] = a;
	for (size_t g = 0; g < vt->ng; g++) {
		group *gr = &vt->g[g];
		for (size_t x = start[g]; x < start[g + 1]; x++) {
			size_t a = order[x], k = 0;
			for (size_t y = start[g]; y < start[g + 1]; y++)
				if (same(vt->d[order[y]].value, vt->d[a].value))
					k += vt->d[order[y]].count;
			if (k > gr->best_n) {
				gr->best_n = k;
				gr->best = vt->d[a].first;
				gr->best_value = vt->d[a].value;
			}
		}
		for (size_t x = start[g]; x < start[g + 1] && gr->size >= 2; x++)
			vt->differs |= !same(vt->d[order[x]].value, gr->best_value);
	}
	free(start);
	free(order);
}

static void votes_free(votes *vt)
{
	for (size_t a = 0; a < vt->nd; a++)
		json_decref(vt->d[a].value);
	free(vt->d);
	free(vt->g);
	sl_strmap_free(&vt->groups);
	sl_strmap_free(&vt->values);
}

/* The findings of one key slot: each member of a group of two or more
 * whose value is not its group's best's */
static void key_findings(book *b, votes *vt, size_t slot, model_keys *mks, outlet *o)
{
	sl_catalogue_summary *hold = NULL, *whole = NULL, *best_hold = NULL;
	size_t best_at = SIZE_MAX;
	const sl_catalogue_summary *best = NULL;
	for (size_t i = 0; i < b->n; i++) {
		const sl_catalogue_summary *s = book_open(b, i, 0, &hold);
		const given *st = s && slot < s->nkeys ? s->keys[slot] : NULL;
		sl_catalogue_entry e = book_entry(b, i);
		const char *mk = st ? model_key_of(mks, &e, s) : NULL;
		if (!mk) {
			book_close(&hold);
			continue;
		}
		sl_buf k = {0};
		group_key(vt, mk, st, &k);
		size_t g = sl_strmap_get(&vt->groups, k.data, k.len);
		sl_buf_free(&k);
		const group *gr = g < vt->ng ? &vt->g[g] : NULL;
		if (!gr || gr->size < 2 || same(st->value, gr->best_value)) {
			book_close(&hold);
			continue;
		}
		/* a finding: the places of this entry and of the best */
		if (hold) {
			book_close(&hold);
			s = book_open(b, i, 1, &whole);
			st = s && slot < s->nkeys ? s->keys[slot] : NULL;
		}
		if (best_at != gr->best) {
			book_close(&best_hold);
			best = book_open(b, gr->best, 1, &best_hold);
			best_at = gr->best;
		}
		const given *bst = best && slot < best->nkeys ? best->keys[slot] : NULL;
		if (!st || !bst) {
			book_close(&whole);
			continue;  /* not read back: b->bad tells */
		}
		char *mine = vtext(st->value), *theirs = vtext(bst->value);
		const char *name = e.llm ? e.llm : mk;
		sl_buf m = {0};
		sl_buf_printf(&m, "%s: %s = %s here, but %zu of the %zu %s%sentries of %s have %s (as %s)",
			      vt->r->summary, vt->key, mine, gr->best_n, gr->size,
			      vt->r->across_engines ? "" : st->engine, vt->r->across_engines ? "" : " ", name, theirs,
			      path_of(best));
		sl_finding *f = sl_catalogue_add(o->out, vt->r, &st->origin, &m);
		if (st->raw) {
			/* a claim: the span is its words */
			free(f->where.raw);
			f->where.raw = sl_strdup(st->raw);
		}
		sl_finding_related(f, &bst->origin, "another entry of the model");
		made(o, i, s);
		free(mine);
		free(theirs);
		spill(o);
		book_close(&whole);
	}
	book_close(&best_hold);
}

/* The votes of every key slot of the equal_across_entries rules run
 * (only, or all), in one pass over the entries: vt[slot] (the caller's:
 * votes_free each; a slot of a rule not run has no rule) */
static votes *all_votes(const sl_rules *rs, book *b, const sl_rule *only, model_keys *mks, size_t *nslots)
{
	size_t n = 0;
	for (size_t i = 0; i < sl_rules_count(rs); i++)
		if (sl_rules_at(rs, i)->catalogue && sl_rules_at(rs, i)->kind == K_ENTRIES)
			n += sl_rules_at(rs, i)->nkeys;
	votes *vt = sl_calloc(n + 1, sizeof *vt);
	size_t slot = 0;  /* as sl_catalogue_summarize counts the keys */
	for (size_t i = 0; i < sl_rules_count(rs); i++) {
		const sl_rule *r = sl_rules_at(rs, i);
		if (!r->catalogue || r->kind != K_ENTRIES)
			continue;
		for (size_t k = 0; k < r->nkeys; k++, slot++)
			if (!only || r == only) {
				vt[slot].r = r;
				vt[slot].key = r->keys[k];
			}
	}
	for (size_t i = 0; i < b->n && n; i++) {
		sl_catalogue_summary *hold;
		const sl_catalogue_summary *s = book_open(b, i, 0, &hold);
		sl_catalogue_entry e = book_entry(b, i);
		for (size_t k = 0; s && k < n; k++) {
			const given *st = vt[k].r && k < s->nkeys ? s->keys[k] : NULL;
			const char *mk = st ? model_key_of(mks, &e, s) : NULL;
			if (mk)
				vote(&vt[k], i, mk, st);
		}
		book_close(&hold);
	}
	*nslots = n;
	return vt;
}

/* Every key slot of one equal_across_entries rule (its votes counted): a
 * pass for the findings of each slot where a member differs from its
 * group (none in a catalogue that agrees), the slots in turn */
static void check_entries(book *b, const sl_rule *r, votes *vt, size_t slot0, model_keys *mks, outlet *o)
{
	for (size_t k = 0; k < r->nkeys; k++) {
		count_votes(&vt[slot0 + k]);
		if (vt[slot0 + k].differs)
			key_findings(b, &vt[slot0 + k], slot0 + k, mks, o);
	}
}

/* ---- duplicates ------------------------------------------------------------- */

static void c_duplicates(const sl_rule *r, book *b, outlet *o)
{
	for (size_t i = 0; i < b->n; i++) {
		sl_catalogue_entry ei = book_entry(b, i);
		size_t j = ei.same_as;
		if (j >= i || !has_sum(&ei))
			continue;
		sl_catalogue_entry ej = book_entry(b, j);
		if (!has_sum(&ej))
			continue;
		sl_catalogue_summary *hi = NULL, *hj = NULL;
		const sl_catalogue_summary *si = book_open(b, i, 1, &hi), *sj = si ? book_open(b, j, 1, &hj) : NULL;
		if (!si || !sj) {
			book_close(&hi);
			book_close(&hj);
			continue;
		}
		const sl_origin *a = &si->command, *c = &sj->command;
		if (a->src && c->src) {
			sl_buf m = {0};
			sl_buf_printf(&m, "%s: this entry runs what %s runs (the same after normalization)", r->summary,
				      path_of(sj));
			sl_finding *f = sl_catalogue_add(o->out, r, a, &m);
			sl_finding_related(f, c, "the earlier entry");
			made(o, i, si);
			spill(o);
		}
		book_close(&hi);
		book_close(&hj);
	}
}

/* ---- one build, one version name ---------------------------------------------- */

/* one commit: a hash is a prefix of the other */
static int same_commit(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	return !strncmp(a, b, la < lb ? la : lb);
}

/* Each distinct build (engine, version, image, commit: their words are
 * shared, so equal words are one pointer) with the first entry that runs
 * it: whether an entry's build is named two ways depends on its build
 * only, so its first match is the earliest entry of a matching build */
typedef struct {
	const char *engine, *version, *image, *commit;  /* shared (sl_intern) */
	size_t first;
} one_build;

static void c_version_names(const sl_rule *r, book *b, outlet *o)
{
	one_build *bs = NULL;
	size_t nb = 0, cap = 0;
	sl_strmap known = {0};
	for (size_t i = 0; i < b->n; i++) {
		sl_catalogue_summary *hold;
		const sl_catalogue_summary *s = book_open(b, i, 0, &hold);
		if (!s || !s->build) {
			book_close(&hold);
			continue;
		}
		const build *bi = s->build;
		const char *key[4] = {bi->engine, bi->version, bi->image, bi->commit};
		size_t at = sl_strmap_put(&known, (const char *)key, sizeof key, nb);
		size_t j = SIZE_MAX;  /* the earliest match, among the builds before */
		for (size_t k = 0; k < nb; k++) {
			const one_build *bj = &bs[k];
			if (strcmp(bi->engine, bj->engine) || !strcmp(bi->version, bj->version))
				continue;
			int img = bi->image && bj->image && !strcmp(bi->image, bj->image);
			int com = bi->commit && bj->commit && same_commit(bi->commit, bj->commit);
			if ((img || com) && (j == SIZE_MAX || bj->first < bs[j].first))
				j = k;
		}
		if (at == nb) {
			one_build x = {bi->engine, bi->version, bi->image, bi->commit, i};
			SL_PUSH(bs, nb, cap, x);
		}
		if (j == SIZE_MAX) {
			book_close(&hold);
			continue;
		}
		const one_build *bj = &bs[j];
		int img = bi->image && bj->image && !strcmp(bi->image, bj->image);
		/* with the places of both */
		sl_catalogue_summary *hi = NULL, *hj = NULL;
		const sl_catalogue_summary *si = hold ? book_open(b, i, 1, &hi) : s;
		book_close(&hold);
		const sl_catalogue_summary *sj = book_open(b, bj->first, 1, &hj);
		if (si && sj && si->build && sj->build) {
			/* the full name (with its +g<hash>) is the one to keep: the
			 * other entry is told; else the later one */
			const sl_catalogue_summary *x = si, *y = sj;
			size_t xe = i;
			if (x->build->commit && !y->build->commit) {
				x = sj;
				y = si;
				xe = bj->first;
			}
			sl_buf m = {0};
			sl_buf_printf(&m, "%s: %s here, %s in %s, which runs the same %s %s", r->summary, x->build->version,
				      y->build->version, path_of(y), img ? "image" : "commit",
				      img ? si->build->image : si->build->commit);
			sl_finding *f = sl_catalogue_add(o->out, r, &x->build->at, &m);
			sl_finding_related(f, &y->build->at, "the other entry's version");
			made(o, xe, x);
			spill(o);
		}
		book_close(&hi);
		book_close(&hj);
	}
	sl_strmap_free(&known);
	free(bs);
}

/* ---- metadata against the command ---------------------------------------------- */

static void finding_copy(sl_findings *out, const sl_finding *f)
{
	sl_finding c;
	memset(&c, 0, sizeof c);
	c.rule = f->rule;
	c.severity = f->severity;
	c.message = sl_strdup(f->message);
	sl_origin_copy(&c.where, &f->where);
	SL_PUSH(out->v, out->n, out->cap, c);
	for (size_t k = 0; k < f->nrelated; k++)
		sl_finding_related(&out->v[out->n - 1], &f->related[k], f->related_msg[k]);
}

/* metadata_command's findings, made as each entry was summarized (a
 * summary put aside holds none: audit took them as it read the entry) */
static void c_metadata_kept(const sl_rule *r, book *b, outlet *o)
{
	for (size_t e = 0; e < b->n; e++) {
		const sl_catalogue_summary *s = book_entry(b, e).sum;
		for (size_t f = 0; s && f < s->meta.n; f++)
			if (s->meta.v[f].rule == r) {
				finding_copy(o->out, &s->meta.v[f]);
				made(o, e, s);
			}
		spill(o);
	}
}

static void run_rules(const sl_rules *rs, book *b, const sl_rule *only, outlet *out)
{
	/* the votes of every equal_across_entries rule in one pass over the
	 * entries (one read of each summary, not one per rule) */
	model_keys mks = {0};
	size_t nslots;
	votes *vt = all_votes(rs, b, only, &mks, &nslots);
	size_t slot = 0;  /* slot: as sl_catalogue_summarize counts the keys */
	for (size_t i = 0; i < sl_rules_count(rs); i++) {
		const sl_rule *r = sl_rules_at(rs, i);
		if (!r->catalogue)
			continue;
		if (r->kind == K_ENTRIES) {
			if (!only || r == only)
				check_entries(b, r, vt, slot, &mks, out);
			slot += r->nkeys;
		} else if (only && r != only)
			continue;
		else if (!strcmp(r->cname, "duplicate_entries"))
			c_duplicates(r, b, out);
		else if (!strcmp(r->cname, "metadata_command"))
			c_metadata_kept(r, b, out);
		else if (!strcmp(r->cname, "engine_version_names"))
			c_version_names(r, b, out);
	}
	for (size_t k = 0; k < nslots; k++)
		votes_free(&vt[k]);
	free(vt);
	model_keys_free(&mks);
}

int sl_check_catalogue(const sl_rules *rs, const sl_catalogue_entry *v, size_t n, const sl_rule *only,
		       sl_findings *out)
{
	size_t first = out->n;
	book b = {v, NULL, NULL, n, NULL, 0};
	outlet o = {out, NULL, NULL, 0, NULL, NULL, 0, 0, 0};
	run_rules(rs, &b, only, &o);
	sl_findings_sort(out, first);
	return b.bad ? -1 : SL_OK;
}

int sl_check_catalogue_each(const sl_rules *rs, sl_catalogue_entry_fn *fn, void *fud, size_t n, sl_store *st,
			    sl_findings *out, sl_catalogue_sink *sink, void *ud)
{
	book b = {NULL, fn, fud, n, st, 0};
	outlet o = {out, sink, ud, st != NULL, NULL, NULL, 0, 0, 0};
	run_rules(rs, &b, NULL, &o);
	if (out->n)
		sink(ud, out, o.who, o.own);
	free(o.who);
	free(o.own);
	return b.bad ? -1 : SL_OK;
}
