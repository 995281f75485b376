/*
 * catalogue_summary.c (check): what the catalogue rules (catalogue.c) read
 * of one entry, made of its model as the entry is read (a value per key
 * of each equal_across_entries rule, the model its workers load, its
 * first command's place, its build, metadata_command's findings), and
 * put aside and read back (sl_catalogue_summary_freeze, _thaw): audit
 * keeps no summary in memory past its entry's reading, so that its peak
 * memory stays flat in the catalogue's size (issue 18); the rules read
 * the summaries back one at a time, in passes over the catalogue.
 *
 * A summary's words and values are shared between entries (sl_intern, a
 * table of values): a summary put aside names a value by its index in
 * that table, which lasts the process's life.
 */
#include "catalogue_summary.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

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

sl_finding *sl_catalogue_add(sl_findings *out, const sl_rule *r, const sl_origin *where, sl_buf *msg)
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

/* v's one copy (a reference), *vid its index (UINT32_MAX: none, a copy of its own) */
static json_t *shared_value(json_t *v, uint32_t *vid)
{
	char *t = v ? json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17))
		    : NULL;
	*vid = UINT32_MAX;
	if (!t)
		return json_deep_copy(v);
	pthread_mutex_lock(&values_mu);
	size_t i = sl_strmap_put(&values_seen, t, strlen(t), values_n);
	if (i == values_n)
		SL_PUSH(values_v, values_n, values_cap, json_deep_copy(v));
	json_t *s = json_incref(values_v[i]);
	pthread_mutex_unlock(&values_mu);
	free(t);
	if (i < UINT32_MAX)
		*vid = (uint32_t)i;
	return s;
}

/* value vid of the table (a reference), or NULL when there is none */
static json_t *value_at(uint32_t vid)
{
	pthread_mutex_lock(&values_mu);
	json_t *v = vid < values_n ? json_incref(values_v[vid]) : NULL;
	pthread_mutex_unlock(&values_mu);
	return v;
}

/* a copy of from whose spelling is shared's */
static void origin_shared(sl_origin *o, const sl_origin *from)
{
	o->src = from->src;
	o->off = from->off;
	o->raw = shared(from->raw);
}

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
			g->value = shared_value(st->value, &g->vid);
			origin_shared(&g->origin, &st->origin);
			g->engine = shared(family(s->engine));
			return g;
		}
	}
	for (size_t i = 0; first && i < m->nclaims; i++)
		if (!strcmp(m->claims[i].key, key) && !m->claims[i].role) {
			given *g = sl_calloc(1, sizeof *g);
			g->value = shared_value(m->claims[i].value, &g->vid);
			origin_shared(&g->origin, &m->claims[i].origin);
			g->raw = shared(m->claims[i].text);
			g->engine = shared(first);
			return g;
		}
	return NULL;
}

static const sl_origin *first_command(const sl_model *m)
{
	for (size_t i = 0; i < m->nservices; i++)
		if (m->services[i].command_origin.src)
			return &m->services[i].command_origin;
	return NULL;
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
	sl_finding *f = sl_catalogue_add(out, r, &k->origin, &b);
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
	/* its path is its entry's (or in rec), its words shared's: not freed */
	for (size_t i = 0; i < s->nkeys; i++)
		if (s->keys[i]) {
			json_decref(s->keys[i]->value);
			free(s->keys[i]);
		}
	free(s->keys);
	free(s->build);
	sl_findings_free(&s->meta);
	for (size_t i = 0; i < s->nsrcs; i++)
		sl_source_free(s->srcs[i]);
	free(s->srcs);
	free(s->rec);  /* after the places and path it holds */
	free(s);
}

void sl_catalogue_summary_take_meta(sl_catalogue_summary *s, sl_findings *out)
{
	for (size_t i = 0; s && i < s->meta.n; i++)
		SL_PUSH(out->v, out->n, out->cap, s->meta.v[i]);
	if (s) {
		free(s->meta.v);
		memset(&s->meta, 0, sizeof s->meta);
	}
}

/* ---- put aside and read back ------------------------------------------------ */

/* A summary's record: its path and model; per key slot whether it is set,
 * then its value's index in the table, place, words and engine; its
 * command's place; whether it has a build, then the build's words and
 * place; then the copies of the lines its places are on (the entry's own
 * files' first), last, so that one read without its places stops before
 * them. A place is the index of its copy (NONE: no place), its offset and
 * its spelling. */
#define NONE UINT32_MAX

/* 0, or -1 when o's source is none of kept's */
static int put_origin(sl_buf *out, const sl_origin *o, sl_source *const *kept, size_t nkept)
{
	uint32_t at = NONE;
	for (size_t i = 0; o->src && i < nkept && at == NONE; i++)
		if (kept[i] == o->src)
			at = (uint32_t)i;
	sl_buf_put_u32(out, at);
	sl_buf_put_u32(out, o->off);
	sl_buf_put_str(out, o->raw);
	return o->src && at == NONE ? -1 : 0;
}

int sl_catalogue_summary_freeze(const sl_catalogue_summary *s, sl_source *const *kept, size_t nkept, size_t nown,
				sl_buf *out)
{
	if (s->meta.n || !s->path)
		return -1;  /* findings are not put aside: sl_catalogue_summary_take_meta first */
	size_t start = out->len;
	int bad = 0;
	sl_buf_put_str(out, s->path);
	sl_buf_put_str(out, s->model_of);
	sl_buf_put_u32(out, (uint32_t)s->nkeys);
	for (size_t i = 0; i < s->nkeys; i++) {
		const given *g = s->keys[i];
		sl_buf_put_u32(out, g != NULL);
		if (!g)
			continue;
		bad |= g->vid == NONE;
		sl_buf_put_u32(out, g->vid);
		bad |= put_origin(out, &g->origin, kept, nkept);
		sl_buf_put_str(out, g->raw);
		sl_buf_put_str(out, g->engine);
	}
	bad |= put_origin(out, &s->command, kept, nkept);
	sl_buf_put_u32(out, s->build != NULL);
	if (s->build) {
		const build *b = s->build;
		sl_buf_put_str(out, b->engine);
		sl_buf_put_str(out, b->version);
		sl_buf_put_str(out, b->image);
		sl_buf_put_str(out, b->commit);
		bad |= put_origin(out, &b->at, kept, nkept);
	}
	sl_buf_put_u32(out, (uint32_t)nkept);
	sl_buf_put_u32(out, (uint32_t)nown);
	for (size_t i = 0; i < nkept; i++)
		sl_source_kept_freeze(kept[i], out);
	if (bad)
		out->len = start;
	return bad ? -1 : 0;
}

/* a place read back: its source the copy it names, or NULL (srcs NULL:
 * read without its places) */
static void get_origin(sl_reader *r, sl_origin *o, sl_source **srcs, size_t nsrcs, uint32_t *at)
{
	*at = sl_read_u32(r);
	o->off = sl_read_u32(r);
	o->raw = shared(sl_read_str(r, NULL));
	o->src = srcs && *at < nsrcs ? srcs[*at] : NULL;
	if (srcs && *at != NONE && *at >= nsrcs)
		r->bad = 1;
}

/* a shared copy of the next string */
static char *get_shared(sl_reader *r)
{
	return shared(sl_read_str(r, NULL));
}

sl_catalogue_summary *sl_catalogue_summary_thaw(char *rec, size_t len, int places)
{
	sl_catalogue_summary *s = sl_calloc(1, sizeof *s);
	s->rec = rec;
	sl_reader r = {rec, rec + len, 0};
	s->path = sl_read_str(&r, NULL);
	s->model_of = get_shared(&r);
	size_t nkeys = sl_read_u32(&r);
	if (r.bad || nkeys > len) {
		sl_catalogue_summary_free(s);
		return NULL;
	}
	s->keys = sl_calloc(nkeys + 1, sizeof *s->keys);
	/* the places' sources are last: where each place is, noted, then set
	 * once the copies are read */
	uint32_t *where = sl_calloc(nkeys + 3, sizeof *where);
	for (; s->nkeys < nkeys && !r.bad; s->nkeys++) {
		if (!sl_read_u32(&r))
			continue;
		given *g = sl_calloc(1, sizeof *g);
		s->keys[s->nkeys] = g;
		g->vid = sl_read_u32(&r);
		g->value = value_at(g->vid);
		get_origin(&r, &g->origin, NULL, 0, &where[s->nkeys]);
		g->raw = get_shared(&r);
		g->engine = get_shared(&r);
		if (!g->value || !g->engine)
			r.bad = 1;
	}
	get_origin(&r, &s->command, NULL, 0, &where[nkeys]);
	if (sl_read_u32(&r)) {
		build *b = sl_calloc(1, sizeof *b);
		s->build = b;
		b->engine = get_shared(&r);
		b->version = get_shared(&r);
		b->image = get_shared(&r);
		b->commit = get_shared(&r);
		get_origin(&r, &b->at, NULL, 0, &where[nkeys + 1]);
		if (!b->engine || !b->version)
			r.bad = 1;
	}
	size_t nsrcs = sl_read_u32(&r), nown = sl_read_u32(&r);
	if (!r.bad && places && nown <= nsrcs && nsrcs <= len) {
		s->srcs = sl_calloc(nsrcs + 1, sizeof *s->srcs);
		for (; s->nsrcs < nsrcs && !r.bad; s->nsrcs++)
			if (!(s->srcs[s->nsrcs] = sl_source_kept_thaw(&r)))
				r.bad = 1;
		s->nown = nown;
		/* each place in the copy it names */
		for (size_t i = 0; i < s->nkeys && !r.bad; i++)
			if (s->keys[i] && where[i] != NONE)
				s->keys[i]->origin.src = where[i] < s->nsrcs ? s->srcs[where[i]] : NULL;
		if (where[nkeys] != NONE)
			s->command.src = where[nkeys] < s->nsrcs ? s->srcs[where[nkeys]] : NULL;
		if (s->build && where[nkeys + 1] != NONE)
			s->build->at.src = where[nkeys + 1] < s->nsrcs ? s->srcs[where[nkeys + 1]] : NULL;
	} else if (places) {
		r.bad = 1;
	}
	free(where);
	if (r.bad) {
		sl_catalogue_summary_free(s);
		return NULL;
	}
	return s;
}

int sl_catalogue_summary_owns(const sl_catalogue_summary *s, const sl_source *src)
{
	if (!s->rec)
		return -1;
	for (size_t i = 0; i < s->nown; i++)
		if (s->srcs[i] == src)
			return 1;
	return 0;
}
