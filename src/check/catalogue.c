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
 * Uses rules.c (the rules to run, sl_rules_at) and findings.c (its
 * findings' related places, and their order); the names of its C checks
 * are known to rules.c, which loads the rule files that name them.
 */
#include "findings.h"

#include <ctype.h>
#include <math.h>
#include <pthread.h>
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

static int is_worker(const char *role)
{
	return !strcmp(role, "prefill") || !strcmp(role, "decode") || !strcmp(role, "aggregated");
}

static int usable(const sl_setting *st)
{
	return st && !(st->flags & (SL_SET_SYMBOLIC | SL_SET_PLACEHOLDER));
}

const char *sl_catalogue_model_of(const sl_model *m)
{
	for (size_t i = 0; m && i < m->nservices; i++) {
		const sl_setting *st = sl_service_get(&m->services[i], "model");
		if (is_worker(m->services[i].role) && usable(st) && json_is_string(st->value)) {
			const char *v = json_string_value(st->value);
			/* "org/name" is a model; "/models/x" and "<model-path>" are places */
			if (*v && *v != '/' && *v != '<' && *v != '.')
				return v;
		}
	}
	return NULL;
}

/* The engine an entry's setting belongs to: vLLM under Dynamo is vLLM. */
static const char *family(const char *engine)
{
	return sl_starts_with(engine, "dynamo-") ? engine + 7 : engine;
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

static sl_finding *add(sl_findings *out, const sl_rule *r, const sl_origin *where, sl_buf *msg)
{
	sl_finding f;
	memset(&f, 0, sizeof f);
	f.rule = r;
	f.severity = r->severity;
	/* its own size, not the buffer's: a catalogue of duplicates has a
	 * finding each (0.9 MB of 3,467 messages' buffers, massif) */
	f.message = sl_strndup(msg->data ? msg->data : "", msg->len);
	sl_buf_free(msg);
	sl_origin_copy(&f.where, where);
	SL_PUSH(out->v, out->n, out->cap, f);
	return &out->v[out->n - 1];
}

/* Where a rule's findings go: out, handed to sink (when there is one)
 * between entries once it holds SPILL of them, so that a catalogue's
 * findings need not all be held (one duplicate finding per entry of a
 * catalogue of copies) */
typedef struct {
	sl_findings *out;
	sl_catalogue_sink *sink;  /* NULL: they stay in out */
	void *ud;
	size_t *who;              /* with a sink: the entry whose summary made each finding of out */
	size_t nwho, whocap;
} outlet;

enum { SPILL = 64 };

/* the finding just added to o->out was made of entry e's summary */
static void made(outlet *o, size_t e)
{
	if (o->sink)
		SL_PUSH(o->who, o->nwho, o->whocap, e);
}

static void spill(outlet *o)
{
	if (o->sink && o->out->n >= SPILL) {
		o->sink(o->ud, o->out, o->who);
		o->nwho = 0;
	}
}

/* ---- what the rules read of one entry ------------------------------------- */

/* A summary's words, one copy of each distinct text (sl_intern: never
 * freed): a summary is kept for every entry of a catalogue until its rules
 * run, and the entries repeat one another's settings, engines, versions
 * and spellings */
static char *shared(const char *s)
{
	return s ? (char *)sl_intern(s, strlen(s)) : NULL;
}

/* s (freed) as shared's */
static char *shared_of(char *s)
{
	char *t = shared(s);
	free(s);
	return t;
}

/* The one copy of each distinct value (by its JSON text, every digit of a
 * number) the summaries hold, a reference each: values repeat across a
 * catalogue's entries as their words do, and they are only read. The
 * table's references last the process's life; summaries are made on
 * audit -j's threads (jansson's reference counts are atomic). */
static pthread_mutex_t values_mu = PTHREAD_MUTEX_INITIALIZER;
static sl_strmap values_seen;
static json_t **values_v;
static size_t values_n, values_cap;

static json_t *shared_value(json_t *v)
{
	char *t = v ? json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17))
		    : NULL;
	if (!t)
		return json_deep_copy(v);
	pthread_mutex_lock(&values_mu);
	size_t i = sl_strmap_put(&values_seen, t, strlen(t), values_n);
	if (i == values_n)
		SL_PUSH(values_v, values_n, values_cap, json_deep_copy(v));
	json_t *s = json_incref(values_v[i]);
	pthread_mutex_unlock(&values_mu);
	free(t);
	return s;
}

/* a copy of from whose spelling is shared's */
static void origin_shared(sl_origin *o, const sl_origin *from)
{
	o->src = from->src;
	o->off = from->off;
	o->raw = shared(from->raw);
}

/* a value an entry gives a key: a setting's, else a claim's */
typedef struct {
	json_t *value;     /* shared_value's: a reference, never changed; owned */
	sl_origin origin;  /* a copy, its raw shared's */
	char *raw;         /* the claim's words, or NULL; shared's */
	char *engine;      /* its service's engine family; shared's */
} given;

/* the first worker with a version: the build it runs */
typedef struct {
	char *engine;      /* family; shared's */
	char *version;     /* shared's */
	char *image;       /* docker image without its digest, or NULL; shared's */
	char *commit;      /* the +g<hash> of the version, or NULL; shared's */
	sl_origin at;      /* its version's place, else its command's; its raw shared's */
} build;

struct sl_catalogue_summary {
	const char *path;     /* the entry's path, or NULL: not owned (the entry outlives its summary:
			       * a copy each was 3% of audit's peak) */
	char *model_of;       /* sl_catalogue_model_of, or NULL; shared (sl_intern) */
	given **keys;         /* each K_ENTRIES rule's keys, in the rules' order: NULL when unset */
	size_t nkeys;
	sl_origin command;    /* the first command's place (src NULL: none); its raw shared */
	build *build;         /* or NULL */
	sl_findings meta;     /* metadata_command's findings, the one rule that reads one entry alone */
};

static const char *path_of(const sl_catalogue_entry *e)
{
	return e->sum && e->sum->path ? e->sum->path : "?";
}

/* ---- equal_across_entries --------------------------------------------------- */

typedef struct {
	size_t entry;
	const given *st;
	const char *model;  /* model key; the check's table's (keys) */
} seen;

/* The first worker's setting of KEY in an entry, with a value the text
 * fixes; else what its comments or metadata claim of KEY: a copy, or NULL. */
static given *setting_of(const sl_model *m, const char *key)
{
	const char *first = NULL;
	for (size_t i = 0; i < m->nservices; i++) {
		const sl_service *s = &m->services[i];
		const sl_setting *st = sl_service_get(s, key);
		if (!is_worker(s->role) && strcmp(s->role, "frontend"))
			continue;
		first = first ? first : family(s->engine);
		if (usable(st)) {
			given *g = sl_calloc(1, sizeof *g);
			g->value = shared_value(st->value);
			origin_shared(&g->origin, &st->origin);
			g->engine = shared(family(s->engine));
			return g;
		}
	}
	for (size_t i = 0; first && i < m->nclaims; i++)
		if (!strcmp(m->claims[i].key, key) && !m->claims[i].role) {
			given *g = sl_calloc(1, sizeof *g);
			g->value = shared_value(m->claims[i].value);
			origin_shared(&g->origin, &m->claims[i].origin);
			g->raw = shared(m->claims[i].text);
			g->engine = shared(first);
			return g;
		}
	return NULL;
}

/* Each name's model key, made once: a catalogue's entries name a few
 * models (a key made per entry and key slot was 20 bytes an entry at
 * audit's peak) */
typedef struct {
	sl_strmap of;     /* name -> index in keys */
	char **keys;      /* owned */
	size_t n, cap;
} model_keys;

static const char *model_key_of(model_keys *t, const sl_catalogue_entry *e)
{
	const char *name = e->llm ? e->llm : e->sum->model_of;
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

/* slot: the key's place among every K_ENTRIES rule's keys (summary's keys) */
static void check_entries_key(const sl_rule *r, const char *key, size_t slot, const sl_catalogue_entry *v,
			      size_t n, outlet *o)
{
	sl_findings *out = o->out;
	seen *s = NULL;
	size_t ns = 0, cap = 0;
	model_keys mks = {0};
	for (size_t i = 0; i < n; i++) {
		const given *st = v[i].sum && slot < v[i].sum->nkeys ? v[i].sum->keys[slot] : NULL;
		const char *mk = st ? model_key_of(&mks, &v[i]) : NULL;
		if (!mk)
			continue;
		seen x = {i, st, mk};
		SL_PUSH(s, ns, cap, x);
	}
	/* per group (model, and engine unless across_engines): its size, and
	 * the value most of it has (the first, on a tie). Members of one
	 * written value (its compact JSON) count alike, so the votes are
	 * counted per distinct value, not per pair of entries: linear in
	 * entries, where a catalogue of 3,500 entries of one model made 12 M
	 * comparisons per key. */
	size_t *best_of = sl_calloc(ns + 1, sizeof *best_of), *best_n_of = sl_calloc(ns + 1, sizeof *best_n_of);
	size_t *group_of = sl_calloc(ns + 1, sizeof *group_of);
	size_t *gid = sl_calloc(ns + 1, sizeof *gid), *gsize = sl_calloc(ns + 1, sizeof *gsize);
	size_t *vid = sl_calloc(ns + 1, sizeof *vid);     /* each one's distinct value within its group */
	size_t *vfirst = sl_calloc(ns + 1, sizeof *vfirst), *vcount = sl_calloc(ns + 1, sizeof *vcount);
	size_t *vgroup = sl_calloc(ns + 1, sizeof *vgroup), nv = 0;
	sl_strmap groups = {0}, values = {0};
	for (size_t i = 0; i < ns; i++) {
		sl_buf k = {0};
		sl_buf_puts(&k, s[i].model);
		if (!r->across_engines) {
			sl_buf_putc(&k, '\0');
			sl_buf_puts(&k, s[i].st->engine);
		}
		gid[i] = sl_strmap_put(&groups, k.data, k.len, groups.n);
		gsize[gid[i]]++;
		char *text = json_dumps(s[i].st->value, JSON_COMPACT | JSON_ENCODE_ANY | JSON_SORT_KEYS);
		sl_buf_free(&k);
		sl_buf_printf(&k, "%zu;%s", gid[i], text ? text : "");
		free(text);
		vid[i] = sl_strmap_put(&values, k.data, k.len, nv);
		if (vid[i] == nv) {
			vfirst[nv] = i;
			vgroup[nv++] = gid[i];
		}
		vcount[vid[i]]++;
		sl_buf_free(&k);
	}
	/* each distinct value's votes: the members whose value is the same
	 * as the engines read it (8 and 8.0, a commit and its prefix) */
	size_t *gbest = sl_calloc(groups.n + 1, sizeof *gbest);
	size_t *gbest_n = sl_calloc(groups.n + 1, sizeof *gbest_n);
	size_t **gvals = sl_calloc(groups.n + 1, sizeof *gvals), *ngvals = sl_calloc(groups.n + 1, sizeof *ngvals);
	for (size_t a = 0; a < nv; a++) {
		size_t g = vgroup[a];
		if (!ngvals[g])
			gvals[g] = sl_calloc(nv + 1, sizeof **gvals);
		gvals[g][ngvals[g]++] = a;
	}
	for (size_t g = 0; g < groups.n; g++)
		for (size_t x = 0; x < ngvals[g]; x++) {
			size_t a = gvals[g][x], k = 0;
			for (size_t y = 0; y < ngvals[g]; y++)
				if (same(s[vfirst[gvals[g][y]]].st->value, s[vfirst[a]].st->value))
					k += vcount[gvals[g][y]];
			/* values in order of their first member: the first wins a tie */
			if (k > gbest_n[g]) {
				gbest_n[g] = k;
				gbest[g] = vfirst[a];
			}
		}
	for (size_t i = 0; i < ns; i++) {
		group_of[i] = gsize[gid[i]];
		best_of[i] = gbest[gid[i]];
		best_n_of[i] = gbest_n[gid[i]];
	}
	for (size_t g = 0; g < groups.n; g++)
		free(gvals[g]);
	free(gvals);
	free(ngvals);
	free(gbest);
	free(gbest_n);
	free(gid);
	free(gsize);
	free(vid);
	free(vfirst);
	free(vcount);
	free(vgroup);
	sl_strmap_free(&groups);
	sl_strmap_free(&values);
	for (size_t i = 0; i < ns; i++) {
		size_t best = best_of[i], best_n = best_n_of[i], group = group_of[i];
		if (group < 2 || same(s[i].st->value, s[best].st->value))
			continue;
		char *mine = vtext(s[i].st->value), *theirs = vtext(s[best].st->value);
		const char *name = v[s[i].entry].llm ? v[s[i].entry].llm : s[i].model;
		sl_buf m = {0};
		sl_buf_printf(&m, "%s: %s = %s here, but %zu of the %zu %s%sentries of %s have %s (as %s)", r->summary,
			      key, mine, best_n, group, r->across_engines ? "" : s[i].st->engine,
			      r->across_engines ? "" : " ", name, theirs, path_of(&v[s[best].entry]));
		sl_finding *f = add(out, r, &s[i].st->origin, &m);
		made(o, s[i].entry);
		if (s[i].st->raw) {
			/* a claim: the span is its words */
			free(f->where.raw);
			f->where.raw = sl_strdup(s[i].st->raw);
		}
		sl_finding_related(f, &s[best].st->origin, "another entry of the model");
		free(mine);
		free(theirs);
		spill(o);
	}
	model_keys_free(&mks);
	free(s);
	free(best_of);
	free(best_n_of);
	free(group_of);
}

/* ---- duplicates ------------------------------------------------------------- */

static const sl_origin *first_command(const sl_model *m)
{
	for (size_t i = 0; i < m->nservices; i++)
		if (m->services[i].command_origin.src)
			return &m->services[i].command_origin;
	return NULL;
}

static void c_duplicates(const sl_rule *r, const sl_catalogue_entry *v, size_t n, outlet *o)
{
	sl_findings *out = o->out;
	for (size_t i = 0; i < n; i++) {
		size_t j = v[i].same_as;
		if (j >= i || !v[i].sum || !v[j].sum)
			continue;
		const sl_origin *a = &v[i].sum->command, *b = &v[j].sum->command;
		if (!a->src || !b->src)
			continue;
		sl_buf m = {0};
		sl_buf_printf(&m, "%s: this entry runs what %s runs (the same after normalization)", r->summary,
			      path_of(&v[j]));
		sl_finding *f = add(out, r, a, &m);
		made(o, i);
		sl_finding_related(f, b, "the earlier entry");
		spill(o);
	}
}

/* ---- metadata against the command ---------------------------------------------- */

static const sl_claim *meta(const sl_model *m, const char *key)
{
	for (size_t i = 0; i < m->nclaims; i++)
		if (!strcmp(m->claims[i].key, key) && !strcmp(m->claims[i].from, "metadata"))
			return &m->claims[i];
	return NULL;
}

/* The engine a metadata Engine field names, as grammar ids name it. */
static const char *engine_named(const char *s)
{
	static const struct { const char *meta, *id; } t[] = {
		{"vllm", "vllm"}, {"sglang", "sglang"}, {"trt-llm", "trtllm"}, {"tensorrt-llm", "trtllm"},
		{"trtllm", "trtllm"},
	};
	for (size_t i = 0; i < sizeof t / sizeof *t; i++)
		if (!strcasecmp(s, t[i].meta))
			return t[i].id;
	return NULL;
}

static void contradiction(const sl_rule *r, const sl_claim *k, const sl_origin *at,
			  const char *says, sl_findings *out)
{
	sl_buf b = {0};
	sl_buf_printf(&b, "%s: the metadata says \"%s\", %s", r->summary, k->text, says);
	sl_finding *f = add(out, r, &k->origin, &b);
	free(f->where.raw);
	f->where.raw = sl_strdup(k->text);
	if (at && at->src)
		sl_finding_related(f, at, "the command");
}

/* metadata_command reads one entry alone: its findings are made when the
 * entry is summarized (sl_catalogue_summarize), kept with it */
static void c_metadata(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	const sl_service *w = NULL;
	int prefill = 0, decode = 0, agg = 0, dynamo = 0;
	for (size_t i = 0; i < m->nservices; i++) {
		const sl_service *s = &m->services[i];
		dynamo |= sl_starts_with(s->engine, "dynamo");
		if (!is_worker(s->role))
			continue;
		w = w ? w : s;
		prefill |= !strcmp(s->role, "prefill");
		decode |= !strcmp(s->role, "decode");
		agg |= !strcmp(s->role, "aggregated");
	}
	if (!w)
		return;  /* no worker: nothing for the metadata to speak of */
	const sl_claim *k = meta(m, "engine");
	const char *id = k && json_is_string(k->value) ? engine_named(json_string_value(k->value)) : NULL;
	if (id) {
		const sl_service *runs = NULL;
		for (size_t i = 0; i < m->nservices && !runs; i++)
			if (is_worker(m->services[i].role) && !strcmp(family(m->services[i].engine), id))
				runs = &m->services[i];
		if (!runs) {
			sl_buf says = {0};
			sl_buf_printf(&says, "the %s worker runs %s", w->name, w->engine);
			contradiction(r, k, &w->command_origin, says.data, out);
			sl_buf_free(&says);
		}
	}
	k = meta(m, "dynamo");
	if (k && json_is_true(k->value) && !dynamo)
		contradiction(r, k, &w->command_origin, "no service of the command runs NVIDIA Dynamo", out);
	k = meta(m, "serving");
	const char *mode = k && json_is_string(k->value) ? json_string_value(k->value) : NULL;
	if (mode && !strcmp(mode, "disaggregated") && !(prefill && decode))
		contradiction(r, k, &w->command_origin,
			      "the command has no prefill and decode workers (it serves aggregated)", out);
	else if (mode && !strcmp(mode, "aggregated") && (prefill || decode) && !agg)
		contradiction(r, k, &w->command_origin,
			      "the command runs prefill and decode workers (disaggregated)", out);
}

/* ---- one build, one version name ---------------------------------------------- */

static char *image_of(const sl_service *s)
{
	for (size_t i = 0; i < s->nwrappers; i++) {
		json_t *im = json_object_get(s->wrappers[i].detail, "image");
		if (!json_is_string(im) || strchr(json_string_value(im), '<') || strchr(json_string_value(im), '$'))
			continue;
		const char *t = json_string_value(im);
		return sl_strndup(t, strcspn(t, "@"));
	}
	return NULL;
}

static char *commit_of(const char *version)
{
	const char *g = strstr(version, "+g");
	if (!g)
		return NULL;
	size_t l = strspn(g + 2, "0123456789abcdef");
	return l >= 7 ? sl_strndup(g + 2, l) : NULL;
}

/* one commit: a hash is a prefix of the other */
static int same_commit(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	return !strncmp(a, b, la < lb ? la : lb);
}

/* each entry's build, as the summary keeps it */
typedef struct {
	size_t entry;
	const build *b;
} built;

static void c_version_names(const sl_rule *r, const sl_catalogue_entry *v, size_t n, outlet *o)
{
	sl_findings *out = o->out;
	built *bs = NULL;
	size_t nb = 0, cap = 0;
	for (size_t e = 0; e < n; e++)
		if (v[e].sum && v[e].sum->build) {
			built b = {e, v[e].sum->build};
			SL_PUSH(bs, nb, cap, b);
		}
	for (size_t i = 0; i < nb; i++) {
		for (size_t j = 0; j < i; j++) {
			const build *bi = bs[i].b, *bj = bs[j].b;
			if (strcmp(bi->engine, bj->engine) || !strcmp(bi->version, bj->version))
				continue;
			int img = bi->image && bj->image && !strcmp(bi->image, bj->image);
			int com = bi->commit && bj->commit && same_commit(bi->commit, bj->commit);
			if (!img && !com)
				continue;
			/* the full name (with its +g<hash>) is the one to keep: the
			 * other entry is told; else the later one */
			const built *x = &bs[i], *y = &bs[j];
			if (x->b->commit && !y->b->commit) {
				x = &bs[j];
				y = &bs[i];
			}
			sl_buf m = {0};
			sl_buf_printf(&m, "%s: %s here, %s in %s, which runs the same %s %s", r->summary, x->b->version,
				      y->b->version, path_of(&v[y->entry]), img ? "image" : "commit",
				      img ? bi->image : bi->commit);
			sl_finding *f = add(out, r, &x->b->at, &m);
			made(o, x->entry);
			sl_finding_related(f, &y->b->at, "the other entry's version");
			break;  /* one finding per entry */
		}
		spill(o);
	}
	free(bs);
}

/* ---- summaries ------------------------------------------------------------- */

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

int sl_catalogue_summarize(const sl_rules *rs, const sl_model *m, sl_catalogue_summary **out)
{
	*out = NULL;
	if (!m)
		return SL_OK;
	sl_catalogue_summary *s = sl_calloc(1, sizeof *s);
	s->path = m->entry ? m->entry->path : NULL;
	s->model_of = shared(sl_catalogue_model_of(m));
	/* the keys' array of its size (grown by doubling, its spare room was
	 * 60 bytes an entry) */
	size_t nkeys = 0;
	for (size_t i = 0; i < sl_rules_count(rs); i++)
		if (sl_rules_at(rs, i)->catalogue && sl_rules_at(rs, i)->kind == K_ENTRIES)
			nkeys += sl_rules_at(rs, i)->nkeys;
	s->keys = nkeys ? sl_calloc(nkeys, sizeof *s->keys) : NULL;
	for (size_t i = 0; i < sl_rules_count(rs); i++) {
		const sl_rule *r = sl_rules_at(rs, i);
		if (!r->catalogue)
			continue;
		if (r->kind == K_ENTRIES)
			for (size_t k = 0; k < r->nkeys; k++)
				s->keys[s->nkeys++] = setting_of(m, r->keys[k]);
		else if (!strcmp(r->cname, "metadata_command"))
			c_metadata(r, m, &s->meta);
	}
	const sl_origin *c = first_command(m);
	if (c)
		origin_shared(&s->command, c);
	for (size_t i = 0; i < m->nservices; i++) {
		const sl_service *sv = &m->services[i];
		if (!is_worker(sv->role) || !sv->version)
			continue;
		build *b = sl_calloc(1, sizeof *b);
		b->engine = shared(family(sv->engine));
		b->version = shared(sv->version);
		b->image = shared_of(image_of(sv));
		b->commit = shared_of(commit_of(sv->version));
		origin_shared(&b->at, sv->version_origin.src ? &sv->version_origin : &sv->command_origin);
		s->build = b;
		break;  /* one per entry: its workers share a build */
	}
	*out = s;
	return SL_OK;
}

void sl_catalogue_summary_places(sl_catalogue_summary *s, sl_source_place_fn *fn, void *ud)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nkeys; i++)
		if (s->keys[i])
			fn(&s->keys[i]->origin.src, &s->keys[i]->origin.off, NULL, ud);
	fn(&s->command.src, &s->command.off, NULL, ud);
	if (s->build)
		fn(&s->build->at.src, &s->build->at.off, NULL, ud);
	sl_findings_places(&s->meta, 0, s->meta.n, fn, ud);
}

void sl_catalogue_summary_free(sl_catalogue_summary *s)
{
	if (!s)
		return;
	/* its path is its entry's, its words shared's: not freed */
	for (size_t i = 0; i < s->nkeys; i++)
		if (s->keys[i]) {
			json_decref(s->keys[i]->value);
			free(s->keys[i]);
		}
	free(s->keys);
	free(s->build);
	sl_findings_free(&s->meta);
	free(s);
}

/* metadata_command's findings, made as each entry was summarized */
static void c_metadata_kept(const sl_rule *r, const sl_catalogue_entry *v, size_t n, outlet *o)
{
	for (size_t e = 0; e < n; e++) {
		for (size_t f = 0; v[e].sum && f < v[e].sum->meta.n; f++)
			if (v[e].sum->meta.v[f].rule == r) {
				finding_copy(o->out, &v[e].sum->meta.v[f]);
				made(o, e);
			}
		spill(o);
	}
}

static void run_rules(const sl_rules *rs, const sl_catalogue_entry *v, size_t n, const sl_rule *only, outlet *out)
{
	size_t slot = 0;  /* slot: as sl_catalogue_summarize counts the keys */
	for (size_t i = 0; i < sl_rules_count(rs); i++) {
		const sl_rule *r = sl_rules_at(rs, i);
		if (!r->catalogue)
			continue;
		if (r->kind == K_ENTRIES) {
			for (size_t k = 0; k < r->nkeys; k++, slot++)
				if (!only || r == only)
					check_entries_key(r, r->keys[k], slot, v, n, out);
		} else if (only && r != only)
			continue;
		else if (!strcmp(r->cname, "duplicate_entries"))
			c_duplicates(r, v, n, out);
		else if (!strcmp(r->cname, "metadata_command"))
			c_metadata_kept(r, v, n, out);
		else if (!strcmp(r->cname, "engine_version_names"))
			c_version_names(r, v, n, out);
	}
}

int sl_check_catalogue(const sl_rules *rs, const sl_catalogue_entry *v, size_t n, const sl_rule *only,
		       sl_findings *out)
{
	size_t first = out->n;
	outlet o = {out, NULL, NULL, NULL, 0, 0};
	run_rules(rs, v, n, only, &o);
	sl_findings_sort(out, first);
	return SL_OK;
}

int sl_check_catalogue_each(const sl_rules *rs, const sl_catalogue_entry *v, size_t n, sl_findings *out,
			    sl_catalogue_sink *sink, void *ud)
{
	outlet o = {out, sink, ud, NULL, 0, 0};
	run_rules(rs, v, n, NULL, &o);
	if (out->n)
		sink(ud, out, o.who);
	free(o.who);
	return SL_OK;
}
