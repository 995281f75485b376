/*
 * fact_checks.c: the checks that hold a flag to the engine's own source,
 * release by release (a setting's `facts`, docs/engine-facts.md): a flag the
 * entry's engine version does not accept (part of SL1001), a value outside
 * the flag's choices (SL1007), a value that is not of the flag's type or a
 * count that is not positive (SL1008), a flag that takes no value given one
 * (SL1009), a flag the release deprecates (SL1014); a removed or deprecated
 * flag renamed is rewritten to its new name (rename_fix). Uses findings.c.
 */
#include "fact_checks.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "findings.h"


typedef struct {
	const json_t *e;       /* the spelling's facts */
	const json_t *rel;     /* the recorded releases, oldest first */
	const char *title;
	size_t n;              /* releases */
	long lo;               /* the newest recorded release at or before the entry's version; -1 none */
	int exact;             /* the entry runs that very release */
	int older;             /* the entry runs a version older than every recorded release */
	const char *version;   /* the release judged by (sl_service_release); NULL: none */
} judged;

/* Where the last judged version fell among a release list: the settings of
 * one service share their engine's list and version, so each rule finds
 * the place once per service, not once per setting (4 rules x every
 * setting x every release was 60,000 version comparisons, 37 M
 * instructions, in a check of 350 entries). Lives for one rule's pass
 * over one model, while the pointers it keeps are alive. */
typedef struct {
	const json_t *rel;
	const char *ver;
	long lo;
	int exact;
} judge_memo;

/* A setting's facts' members the rules read, looked up once per model
 * rather than once per rule (five rules judge every setting: 101,680
 * lookups in a check of 350 entries). Per thread, by the facts' address;
 * forgotten when the model is checked (sl_fact_forget), before it is freed. */
static _Thread_local struct facts_view {
	const json_t *facts, *e, *rel;
	const char *title, *eng;
} views[256];

void sl_fact_forget(void)
{
	memset(views, 0, sizeof views);
}

static const struct facts_view *view_of(const json_t *facts)
{
	struct facts_view *v = &views[((uintptr_t)facts / 16) % (sizeof views / sizeof *views)];
	if (v->facts != facts) {
		v->facts = facts;
		v->e = json_object_get(facts, "e");
		v->rel = json_object_get(facts, "r");
		v->title = json_string_value(json_object_get(facts, "title"));
		v->eng = json_string_value(json_object_get(facts, "engine"));
	}
	return v;
}

/* The facts of a setting, judged against its service's version (lo = -1
 * when the version is not known, not the engine's own, or older than every
 * recorded release: then the union of the releases is what counts). */
static int judge_as(const sl_service *s, const sl_setting *st, const json_t *e, const json_t *rel, judged *j,
		    judge_memo *memo)
{
	memset(j, 0, sizeof *j);
	j->lo = -1;
	if (!st->facts)
		return 0;
	const struct facts_view *fv = view_of(st->facts);
	j->e = e;
	j->rel = rel;
	j->title = fv->title;
	j->n = json_array_size(j->rel);
	const char *eng = fv->eng;
	if (!j->e || !j->n)
		return 0;
	/* a flag of an included engine (dynamo-vllm passing vLLM flags on) runs
	 * that engine's version, which the entry's does not tell; and a Dynamo
	 * worker's own flags run Dynamo's release (its runtime image's tag),
	 * not the backend's version servelint reads for it (model.c) */
	const char *ver = sl_service_release(s, eng);
	j->version = ver;
	if (!ver)
		return 1;
	if (memo->rel == j->rel && memo->ver == ver) {
		j->lo = memo->lo;
		j->exact = memo->exact;
	} else {
		for (size_t i = 0; i < j->n; i++) {
			const char *v = json_string_value(json_array_get(j->rel, i));
			if (v && sl_version_cmp(v, ver) <= 0) {
				j->lo = (long)i;
				j->exact = sl_version_cmp(v, ver) == 0;
			}
		}
		*memo = (judge_memo){j->rel, ver, j->lo, j->exact};
	}
	j->older = j->lo < 0;
	return 1;
}

static int judge(const sl_service *s, const sl_setting *st, judged *j, judge_memo *memo)
{
	const struct facts_view *fv = st->facts ? view_of(st->facts) : NULL;
	return judge_as(s, st, fv ? fv->e : NULL, fv ? fv->rel : NULL, j, memo);
}

/* A JSON member's facts (json_members.c: "member", its releases "r", or
 * "member_r" on a first member that carries its flag's facts too). */
static int judge_member(const sl_service *s, const sl_setting *st, judged *j, judge_memo *memo)
{
	const json_t *rel = json_object_get(st->facts, "member_r");
	return judge_as(s, st, json_object_get(st->facts, "member"), rel ? rel : json_object_get(st->facts, "r"), j,
			memo);
}

static const char *rel(const judged *j, long i)
{
	return json_string_value(json_array_get(j->rel, (size_t)i));
}

static int accepted(const judged *j, long i)
{
	const char *in = json_string_value(json_object_get(j->e, "in"));
	return !in || i < 0 || (size_t)i >= strlen(in) || in[i] == '1';
}

/* The facts in force at release i (the newest, or the history entry whose
 * range holds it); with i < 0 the newest. */
static const json_t *facts_at(const judged *j, long i)
{
	if (i < 0)
		return j->e;
	const char *v = rel(j, i);
	size_t k;
	json_t *h;
	json_array_foreach(json_object_get(j->e, "history"), k, h) {
		const char *from = json_string_value(json_object_get(h, "from"));
		const char *to = json_string_value(json_object_get(h, "to"));
		if (v && from && to && sl_version_cmp(from, v) <= 0 && sl_version_cmp(v, to) <= 0)
			return h;
	}
	return j->e;
}

/* The flag a setting's facts judge, as written: the setting's own flag
 * and place; or, on the first member of a JSON value split into settings
 * (flags.c, the facts' "split"), the flag whose value it was, at the
 * flag's place, once for all its members. o's raw is borrowed. */
typedef struct {
	const char *flag;  /* the grammar's primary spelling */
	sl_origin o;
	int split;
} as_written;

static as_written written_of(const sl_setting *st)
{
	as_written a = {st->flag, st->origin, 0};
	const json_t *sp = json_object_get(st->facts, "split");
	if (sp) {
		a.flag = json_string_value(json_object_get(sp, "flag"));
		a.o.off = (uint32_t)json_integer_value(json_object_get(sp, "at"));
		a.o.raw = (char *)json_string_value(json_object_get(sp, "written"));
		a.split = 1;
	}
	return a;
}

/* An abbreviation taken as the one flag a release has alone, held to the
 * entry's release: ambiguous there when several of its flags share it. */
static int ambiguous_here(const sl_rule *r, const sl_service *s, const sl_setting *st, sl_findings *out)
{
	const json_t *cand = json_object_get(st->facts, "abbrev");
	const json_t *rel = json_object_get(st->facts, "r");
	const char *eng = json_string_value(json_object_get(st->facts, "engine"));
	const char *ver = sl_service_release(s, eng);
	if (!cand || !ver)
		return 0;
	long lo = -1;
	for (size_t i = 0; i < json_array_size(rel); i++)
		if (sl_version_cmp(json_string_value(json_array_get(rel, i)), ver) <= 0)
			lo = (long)i;
	if (lo < 0)
		return 0;
	sl_buf names = {0};
	size_t n = 0, k;
	json_t *c;
	json_array_foreach(cand, k, c) {
		const char *in = json_string_value(json_object_get(c, "in"));
		if (in && (size_t)lo < strlen(in) && in[lo] != '1')
			continue;
		sl_buf_printf(&names, "%s`%s`", n ? ", " : "", json_string_value(json_object_get(c, "name")));
		n++;
	}
	if (n > 1) {
		as_written a = written_of(st);
		const char *raw = a.o.raw ? a.o.raw : a.flag;
		size_t w = strcspn(raw, " =");
		const char *title = json_string_value(json_object_get(st->facts, "title"));
		sl_finding_add(out, r, &a.o, "%s: `%.*s` is ambiguous in %s %s: %s share it; this entry runs %s",
			       r->summary, (int)w, raw, title ? title : s->engine,
			       json_string_value(json_array_get(rel, (size_t)lo)), names.data, ver);
	}
	sl_buf_free(&names);
	return n > 1;
}

/* Whether v (a choice's text) is one of the choices cs. */
static int among(const json_t *cs, const char *v);

/* The fix that rewrites a spelling the source replaced by another (a
 * removed or deprecated flag, SL1001 and SL1014): made only where the
 * entry's release is known (j->lo), the flag is written with the spelling
 * itself, and the replacement is a rename, the same setting under a new
 * name: the release accepts it and does not deprecate it, both take a
 * value of one type and arity and, where either lists choices, the same
 * choices (the value written one of them), and the service does not give
 * it already. The value then stays as written: SGLang 0.5.13's
 * `--nsa-decode-backend` -> `--dsa-decode-backend`.
 * A switch is never renamed so: a deprecated switch names the flag to use
 * instead when its meaning moved, not its name (SGLang 0.5.13
 * `--enable-piecewise-cuda-graph`: "PCG is now enabled by default. Use
 * --enforce-piecewise-cuda-graph to skip auto-disable conditions",
 * sgl-project/sglang docs; vLLM `--enable-reasoning` ->
 * `--reasoning-parser NAME`; SGLang `--enable-flashmla` ->
 * `--attention-backend flashmla`): those findings name it and have no fix. */
static void rename_fix(sl_finding *f, const sl_service *s, const sl_setting *st, const judged *j, fix_kind kind)
{
	const json_t *to = json_object_get(st->facts, "rep");
	const char *rep = json_string_value(json_object_get(j->e, "replacement"));
	if (!to || !rep || j->lo < 0 || strcmp(st->via, "flag") || st->origin.raw == NULL ||
	    strncmp(st->origin.raw, st->flag, strlen(st->flag)) || !st->value_at.src ||
	    (st->flags & (SL_SET_STRAY | SL_SET_UNKNOWN)))
		return;
	judged r = *j;
	r.e = to;
	const char *dep = json_string_value(json_object_get(to, "deprecated"));
	if (!accepted(&r, j->lo) || (dep && sl_version_cmp(dep, rel(j, j->lo)) <= 0))
		return;
	const json_t *a = facts_at(j, j->lo), *b = facts_at(&r, j->lo);
	const char *ta = json_string_value(json_object_get(a, "type"));
	if (!ta || !strcmp(ta, "bool") || json_object_get(a, "bool") || json_object_get(b, "bool"))
		return;
	static const char *const same[] = {"type", "nargs", "choices"};
	for (size_t i = 0; i < sizeof same / sizeof *same; i++) {
		const json_t *x = json_object_get(a, same[i]), *y = json_object_get(b, same[i]);
		if (!(x == y || (x && y && json_equal(x, y))))
			return;
	}
	const json_t *cs = json_object_get(b, "choices");
	if (cs && json_array_size(cs)) {
		char *v = st->value ? sl_finding_value_text(st->value) : NULL;
		int ok = v && among(cs, v);
		free(v);
		if (!ok)
			return;
	}
	/* the flag it would become, given already (by any of its spellings) */
	const char *prim = json_string_value(json_object_get(to, "of"));
	for (size_t k = 0; k < s->nsettings; k++) {
		const sl_setting *o = &s->settings[k];
		if (o != st && !(o->flags & SL_SET_UNKNOWN) &&
		    (!strcmp(o->flag, rep) || (prim && !strcmp(o->flag, prim))))
			return;
	}
	char what[256];
	snprintf(what, sizeof what, "replace `%s` with `%s`", st->flag, rep);
	sl_finding_fix(f, kind, st->origin.src, st->origin.off, st->flag, strlen(st->flag), rep, what);
}

/* `--no-X` where the entry's release declares X a plain store_true, with no
 * negated form, and a later one makes it negatable (ATOM's
 * --enable_prefix_caching, a BooleanOptionalAction from 0.1.3): argparse
 * of that release refuses the spelling. */
static void negation_version(const sl_rule *r, const sl_setting *st, const judged *j, sl_findings *out)
{
	const char *raw = st->origin.raw ? st->origin.raw : "";
	if (!(st->flags & SL_SET_NEGATED) || strncmp(raw, "--no", 4))
		return;
	const char *here = json_string_value(json_object_get(facts_at(j, j->lo), "bool"));
	if (!here || strcmp(here, "store_true"))
		return;
	long first = -1;
	for (long x = j->lo + 1; x < (long)j->n && first < 0; x++) {
		const char *b = json_string_value(json_object_get(facts_at(j, x), "bool"));
		if (accepted(j, x) && b && !strcmp(b, "optional"))
			first = x;
	}
	if (first < 0)
		return;
	sl_finding_add(out, r, &st->origin,
		       "%s: `%.*s` is accepted from %s %s on (`%s` is a plain switch before); this entry runs %s",
		       r->summary, (int)strcspn(raw, " ="), raw, j->title ? j->title : "the engine", rel(j, first),
		       st->flag, j->version);
}

/* SL1001, by release: a spelling the entry's version does not accept that
 * other recorded releases do. Silent where the records cannot tell (the
 * flag came or went between two recorded releases around the version). */
void sl_fact_version(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	judge_memo memo = {0};
	for (size_t i = 0; i < m->nservices; i++) {
		const sl_service *s = &m->services[i];
		for (size_t k = 0; k < s->nsettings; k++) {
			const sl_setting *st = &s->settings[k];
			judged j;
			if (st->facts && ambiguous_here(r, s, st, out))
				continue;
			/* the hand-written grammar's since/until are SL1005's */
			if (!judge(s, st, &j, &memo) || j.lo < 0 || st->since || st->until)
				continue;
			if (accepted(&j, j.lo)) {
				negation_version(r, st, &j, out);
				continue;
			}
			long first = -1, last = -1;
			for (long x = 0; x < (long)j.n; x++)
				if (accepted(&j, x)) {
					if (first < 0)
						first = x;
					last = x;
				}
			if (last < 0)
				continue;
			const char *title = j.title ? j.title : s->engine;
			const char *rep = json_string_value(json_object_get(j.e, "replacement"));
			char also[160] = "";
			if (rep)
				snprintf(also, sizeof also, "; use `%s`", rep);
			/* the facts judged are the spelling written's: name that one
			 * (ATOM's `--kv-cache-dtype`, added beside `--kv_cache_dtype`),
			 * unless written as a negation or an abbreviation, whose facts
			 * are the flag's own; a JSON flag split into members is named
			 * as written, at the flag */
			as_written a = written_of(st);
			const char *said = a.flag;
			int sn = (int)strlen(said);
			if (!a.split) {
				const char *raw = st->origin.raw ? st->origin.raw : st->flag;
				int wn = (int)strcspn(raw, " =");
				if (st->via && !strcmp(st->via, "flag") && raw[0] == '-' &&
				    !(st->flags & (SL_SET_NEGATED | SL_SET_ABBREV)) && wn > 1) {
					said = raw;
					sn = wn;
				}
			}
			if (last < j.lo) {
				sl_finding *f = sl_finding_add(
					out, r, &a.o,
					"%s: `%.*s` was removed in %s %s, last accepted in %s; this entry runs %s%s",
					r->summary, sn, said, title, rel(&j, last + 1), rel(&j, last), j.version, also);
				/* the engine's own source names the flag that replaced
				 * it: the spelling written becomes that one, if a rename */
				rename_fix(f, s, st, &j, FIX_SPELLING);
			} else if (first > j.lo + 1 || (first == j.lo + 1 && j.exact))
				sl_finding_add(out, r, &a.o,
					       "%s: `%.*s` is accepted from %s %s on; this entry runs %s", r->summary,
					       sn, said, title, rel(&j, first), j.version);
		}
	}
}

/* SL1014: a spelling the entry's release accepts and its source marks
 * deprecated (the first release that marks it at or before the entry's),
 * with the replacement the source names; a rename is fixed. Silent where
 * the release is not known: the records cannot say what it marks. */
void sl_fact_deprecated(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	judge_memo memo = {0};
	for (size_t i = 0; i < m->nservices; i++) {
		const sl_service *s = &m->services[i];
		for (size_t k = 0; k < s->nsettings; k++) {
			const sl_setting *st = &s->settings[k];
			judged j;
			as_written a = written_of(st);
			if (!judge(s, st, &j, &memo) || j.lo < 0 || !accepted(&j, j.lo) || (strcmp(st->via, "flag") && !a.split))
				continue;
			const char *dep = json_string_value(json_object_get(j.e, "deprecated"));
			if (!dep || sl_version_cmp(dep, rel(&j, j.lo)) > 0)
				continue;
			/* a spelling written differently (an alias, `--no-x`) is
			 * another spelling's facts: said only of the one written */
			const char *raw = a.o.raw ? a.o.raw : "";
			size_t w = strcspn(raw, " =");
			if (!a.flag || w != strlen(a.flag) || strncmp(raw, a.flag, w))
				continue;
			const char *rep = json_string_value(json_object_get(j.e, "replacement"));
			const char *title = j.title ? j.title : s->engine;
			sl_finding *f = sl_finding_add(out, r, &a.o,
						       "%s: `%s` is deprecated since %s %s%s%s%s; this entry runs %s", r->summary,
						       a.flag, title, dep, rep ? " (its source points to `" : "", rep ? rep : "",
						       rep ? "`)" : "", s->version);
			rename_fix(f, s, st, &j, FIX_SPELLING);
		}
	}
}

static int among(const json_t *cs, const char *v)
{
	size_t k;
	json_t *c;
	json_array_foreach(cs, k, c) {
		char *t = sl_finding_value_text(c);
		int hit = !strcmp(t, v);
		free(t);
		if (hit)
			return 1;
	}
	return 0;
}

/* A value the check can read: written plainly, not $X or <placeholder>. */
static int plain(const sl_setting *st)
{
	return !(st->flags & (SL_SET_SYMBOLIC | SL_SET_PLACEHOLDER | SL_SET_UNKNOWN)) && st->value_at.src &&
	       !strcmp(st->via, "flag");
}

static int same_choice(const json_t *c, const char *v)
{
	if (json_is_string(c))
		return !strcmp(json_string_value(c), v);
	if (json_is_integer(c)) {
		char *end;
		long long x = strtoll(v, &end, 10);
		return *v && !*end && x == (long long)json_integer_value(c);
	}
	return 1;  /* a choice of another kind: not judged */
}

static void add_choices(json_t *all, const json_t *more)
{
	size_t k, x;
	json_t *c, *d;
	json_array_foreach(more, k, c) {
		int seen = 0;
		json_array_foreach(all, x, d)
			seen |= json_equal(c, d);
		if (!seen)
			json_array_append(all, c);
	}
}

/* The choices that hold for the setting: those of its release, or, with no
 * release to go by, every choice any recorded release has. */
static json_t *choices_for(const judged *j)
{
	json_t *all = json_array();
	if (j->lo >= 0) {
		add_choices(all, json_object_get(facts_at(j, j->lo), "choices"));
		return all;
	}
	if (!json_object_get(j->e, "choices"))
		return all;
	add_choices(all, json_object_get(j->e, "choices"));
	size_t k;
	json_t *h;
	json_array_foreach(json_object_get(j->e, "history"), k, h) {
		if (!json_object_get(h, "choices")) {
			json_array_clear(all);  /* a release without choices takes anything */
			return all;
		}
		add_choices(all, json_object_get(h, "choices"));
	}
	return all;
}

static const char *version_words(const judged *j, const sl_service *s, char *buf, size_t n)
{
	if (j->lo >= 0)
		snprintf(buf, n, "%s %s", j->title ? j->title : s->engine, rel(j, j->lo));
	else
		snprintf(buf, n, "%s", j->title ? j->title : s->engine);
	return buf;
}

/* Where the choices hold, for the message: "SGLang 0.5.17", and the
 * wrapper whose values were taken too ("SGLang 0.5.17 under NVIDIA Dynamo +
 * SGLang worker 1.4.0"); or, when the value is one the wrapper takes in
 * other releases only, those. */
typedef struct {
	const json_t *x;      /* the setting's facts' "ext" (include_choices), or NULL */
	int on;               /* its values hold in the entry's release of the wrapper */
	const char *ver;      /* that release; NULL: not known */
} ext_judged;

static ext_judged ext_judge(const sl_service *s, const sl_setting *st)
{
	ext_judged e = {json_object_get(st->facts, "ext"), 0, NULL};
	if (!e.x)
		return e;
	e.ver = sl_service_release(s, json_string_value(json_object_get(e.x, "engine")));
	const char *since = json_string_value(json_object_get(e.x, "since"));
	const char *until = json_string_value(json_object_get(e.x, "until"));
	/* with no release of the wrapper known, any release's values pass */
	e.on = !e.ver || ((!since || sl_version_cmp(since, e.ver) <= 0) && (!until || sl_version_cmp(e.ver, until) < 0));
	return e;
}

static void check_choice(const sl_rule *r, const sl_service *s, const sl_setting *st, const char *v,
			 const char *what, const char *later, const judged *j, const ext_judged *x, json_t *ch,
			 sl_findings *out)
{
	size_t k;
	json_t *c;
	json_array_foreach(ch, k, c)
		if (same_choice(c, v))
			return;
	/* vLLM's Optional choices also take None */
	if (!strcmp(v, "None"))
		return;
	char **names = sl_calloc(json_array_size(ch) + 1, sizeof *names);
	size_t nn = 0;
	const char *nocase = NULL;
	sl_buf list = {0};
	json_array_foreach(ch, k, c) {
		char *t = sl_finding_value_text(c);
		if (!nocase && !strcasecmp(t, v))
			nocase = t;
		if (k < 12)
			sl_buf_printf(&list, "%s%s", k ? ", " : "", t);
		names[nn++] = t;
	}
	if (k > 12)
		sl_buf_printf(&list, ", ... (%zu in all)", k);
	const char *near = nocase ? nocase : sl_nearest(v, names, nn);
	char where[96];
	sl_buf also = {0};
	const char *xt = x->x ? json_string_value(json_object_get(x->x, "title")) : NULL;
	int replaced = x->x && x->on && json_is_true(json_object_get(x->x, "replace"));
	if (replaced)  /* the wrapper's choices alone: said as its */
		snprintf(where, sizeof where, "%s%s%s", xt ? xt : "its wrapper", x->ver ? " " : "", x->ver ? x->ver : "");
	else if (x->x && x->on)
		sl_buf_printf(&also, " under %s%s%s", xt ? xt : "its wrapper", x->ver ? " " : "", x->ver ? x->ver : "");
	else if (later) {  /* a value of a later release: said, and meant */
		sl_buf_puts(&also, later);
		near = NULL;
	} else if (x->x && among(json_object_get(x->x, "values"), v)) {
		/* a value the wrapper reads in other releases: which */
		const char *since = json_string_value(json_object_get(x->x, "since"));
		const char *until = json_string_value(json_object_get(x->x, "until"));
		sl_buf_printf(&also, "; %s takes it", xt ? xt : "its wrapper");
		if (since)
			sl_buf_printf(&also, " from %s on", since);
		if (until)
			sl_buf_printf(&also, " before %s", until);
		sl_buf_printf(&also, ", and this entry runs %s", x->ver);
		near = NULL;  /* what was meant is not in doubt */
	}
	sl_finding *f = sl_finding_add(out, r, &st->value_at, "%s: `%s` for %s, which takes %s in %s%s%s%s%s",
				       r->summary, v, what, list.data, replaced ? where : version_words(j, s, where, sizeof where),
				       also.data ? also.data : "", near ? " (did you mean `" : "", near ? near : "",
				       near ? "`?)" : "");
	sl_buf_free(&also);
	if (near) {
		f->hint = sl_strdup(near);
		/* certain when it is the value in another case, or the only
		 * choice that close */
		int tied = !nocase && sl_nearest_tied(v, names, nn, near);
		char what[256];
		snprintf(what, sizeof what, "replace `%s` with `%s`", v, near);
		if (!tied && (nocase || sl_finding_typo_close(v, near)))
			sl_finding_fix(f, FIX_SPELLING, st->value_at.src, st->value_at.off, v, strlen(v), near, what);
	}
	sl_buf_free(&list);
	for (size_t x = 0; x < nn; x++)
		free(names[x]);
	free(names);
}

/* Whether the record after the entry's release (a version between two
 * records) takes v: the flag is in it with no choices, or v among them.
 * A wrapper's own values (ext) leave it to the choices as they are. */
static int next_takes_choice(const judged *j, const char *v, int ext)
{
	if (ext || j->lo < 0 || j->exact || j->lo + 1 >= (long)j->n || !accepted(j, j->lo + 1))
		return 0;
	const json_t *cs = json_object_get(facts_at(j, j->lo + 1), "choices");
	if (!cs)
		return 1;
	size_t k;
	json_t *c;
	json_array_foreach(cs, k, c)
		if (same_choice(c, v))
			return 1;
	return 0;
}

/* SL1007: a value outside the choices the flag has in the entry's release. */
void sl_fact_choices(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	judge_memo memo = {0};
	for (size_t i = 0; i < m->nservices; i++) {
		const sl_service *s = &m->services[i];
		for (size_t k = 0; k < s->nsettings; k++) {
			const sl_setting *st = &s->settings[k];
			judged j;
			/* a version older than the records: its choices are not known */
			if (!plain(st) || !judge(s, st, &j, &memo) || j.older)
				continue;
			json_t *ch = choices_for(&j);
			/* the values a wrapper reads itself (include_choices), in its release */
			ext_judged x = ext_judge(s, st);
			if (x.on) {
				if (json_is_true(json_object_get(x.x, "replace")))
					json_array_clear(ch);
				/* added only to choices that hold: a release whose
				 * flag takes anything still does */
				if (json_array_size(ch) || json_is_true(json_object_get(x.x, "replace")))
					add_choices(ch, json_object_get(x.x, "values"));
			}
			if (json_array_size(ch)) {
				if (json_is_string(st->value) || json_is_integer(st->value)) {
					char *v = sl_finding_value_text(st->value);
					sl_buf what = {0};
					sl_buf_printf(&what, "`%s`", st->flag);
					/* a release between the records may take it already
					 * (a vLLM recipe's 0.18.0, judged by 0.11.0's choices,
					 * where 0.27.0 takes any): the records cannot tell, as
					 * for a flag the next record has (SL1001) */
					if (!next_takes_choice(&j, v, x.on))
						check_choice(r, s, st, v, what.data, NULL, &j, &x, ch, out);
					sl_buf_free(&what);
					free(v);
				}
			}
			json_decref(ch);
		}
	}
}

/* SL1007 for a JSON flag's member the engine's source declares with
 * choices (`--speculative-config '{"method":"eagle4"}'`): its value, a
 * string written as is, by the entry's release; with no release known,
 * judged only where every recorded release has choices. */
void sl_fact_member_choices(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	judge_memo memo = {0};
	for (size_t i = 0; i < m->nservices; i++) {
		const sl_service *s = &m->services[i];
		for (size_t k = 0; k < s->nsettings; k++) {
			const sl_setting *st = &s->settings[k];
			judged j;
			if (!st->facts || !json_object_get(st->facts, "member") || strcmp(st->via, "json") ||
			    (st->flags & (SL_SET_SYMBOLIC | SL_SET_PLACEHOLDER | SL_SET_UNKNOWN)) || !st->value_at.src ||
			    !json_is_string(st->value) || !judge_member(s, st, &j, &memo) || j.older || !accepted(&j, j.lo))
				continue;
			json_t *ch = choices_for(&j);
			if (json_array_size(ch)) {
				const char *of = json_string_value(json_object_get(st->facts, "member_of"));
				const char *sp = strchr(st->flag, ' ');
				sl_buf what = {0};
				sl_buf_printf(&what, "`%s` of %s", sp ? sp + 1 : st->flag, of ? of : st->flag);
				/* a value a later release takes: from which */
				const char *v = json_string_value(st->value);
				sl_buf later = {0};
				for (long n = j.lo + 1; n < (long)j.n && !later.data; n++) {
					size_t c;
					json_t *x;
					json_array_foreach(json_object_get(facts_at(&j, n), "choices"), c, x)
						if (accepted(&j, n) && !later.data && same_choice(x, v))
							sl_buf_printf(&later, "; %s %s takes it, and this entry runs %s",
								      j.title ? j.title : s->engine, rel(&j, n), j.version);
				}
				/* a release between the records may take it already
				 * (`0.14+`, dspark of 0.27.0): the records cannot tell */
				ext_judged x = {0};
				if (!later.data || j.exact)
					check_choice(r, s, st, v, what.data, later.data, &j, &x, ch, out);
				sl_buf_free(&later);
				sl_buf_free(&what);
			}
			json_decref(ch);
		}
	}
}

static int human_int_text(const char *s)
{
	char *end;
	double d = strtod(s, &end);
	if (end == s || d < 0)
		return 0;
	if (*end && strchr("kKmMgGtT", *end))
		end++;
	return !*end;
}

static int int_text(const char *s)
{
	char *end;
	if (!*s)
		return 0;
	(void)strtoll(s, &end, 10);
	return !*end;
}

static int float_text(const char *s)
{
	char *end;
	if (!*s)
		return 0;
	(void)strtod(s, &end);
	return !*end;
}

/* Counts that must be at least 1 (an engine refuses 0 or less): the widths
 * of parallelism and the batch limits, by canonical key. */
static int positive_count(const char *key)
{
	static const char *const keys[] = {"parallel.tensor", "parallel.pipeline", "parallel.data",
					   "limits.max_seqs", "limits.max_batched_tokens"};
	for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
		if (!strcmp(key, keys[i]))
			return 1;
	return 0;
}

/* What a value v of type t would have to be, when it is not; NULL when
 * it reads as t (or t is a type not judged). */
static const char *type_wants(const char *t, const char *v)
{
	if (!strcmp(t, "int") && !int_text(v))
		return float_text(v) ? "a whole number" : "an integer";
	if (!strcmp(t, "human_int") && !human_int_text(v))
		return "an integer (32k and 32K read as 32000 and 32768)";
	if (!strcmp(t, "human_int_or_auto") && !human_int_text(v) && strcmp(v, "auto") && strcmp(v, "-1"))
		return "an integer (32k and 32K read as 32000 and 32768) or auto";
	if (!strcmp(t, "float") && !float_text(v))
		return "a number";
	return NULL;
}

/* SL1008: a value that does not read as the flag's type in the entry's
 * release (`--tensor-parallel-size four`, `--max-num-seqs 64.5`), or a count
 * that is not positive. */
void sl_fact_types(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	judge_memo memo = {0};
	for (size_t i = 0; i < m->nservices; i++) {
		const sl_service *s = &m->services[i];
		for (size_t k = 0; k < s->nsettings; k++) {
			const sl_setting *st = &s->settings[k];
			judged j;
			if (!plain(st) || !judge(s, st, &j, &memo))
				continue;
			if (json_is_integer(st->value) && json_integer_value(st->value) < 1 && positive_count(st->key)) {
				char *v = sl_finding_value_text(st->value);
				sl_finding_add(out, r, &st->value_at, "%s: `%s` is %s; a count must be 1 or more",
					       r->summary, st->flag, v);
				free(v);
				continue;
			}
			if ((!json_is_string(st->value) && !json_is_real(st->value)) || j.older)
				continue;
			/* the type every release in question gives the flag */
			const char *t = json_string_value(json_object_get(facts_at(&j, j.lo), "type"));
			if (!t || json_object_get(facts_at(&j, j.lo), "choices"))
				continue;
			if (j.lo < 0) {
				size_t x;
				json_t *h;
				json_array_foreach(json_object_get(j.e, "history"), x, h) {
					const char *ht = json_string_value(json_object_get(h, "type"));
					if (!ht || strcmp(ht, t)) {
						t = NULL;  /* releases disagree: no type to hold it to */
						break;
					}
				}
				if (!t)
					continue;
			}
			char *vt = sl_finding_value_text(st->value);
			const char *v = st->value_at.raw && json_is_real(st->value) ? st->value_at.raw : vt;
			const char *want = type_wants(t, v);
			/* a release between the records may read it already (a
			 * vLLM recipe's 0.21.0 `--max-model-len auto`, an int in
			 * 0.11.0 and int-or-auto in 0.27.0): the records cannot tell */
			if (want && j.lo >= 0 && !j.exact && j.lo + 1 < (long)j.n && accepted(&j, j.lo + 1)) {
				const json_t *nf = facts_at(&j, j.lo + 1);
				const char *nt = json_string_value(json_object_get(nf, "type"));
				if (json_object_get(nf, "choices") || !nt || !type_wants(nt, v))
					want = NULL;
			}
			if (want) {
				char where[96];
				sl_finding_add(out, r, &st->value_at, "%s: `%s` for `%s`, which takes %s in %s",
					       r->summary, v, st->flag, want, version_words(&j, s, where, sizeof where));
			}
			free(vt);
		}
	}
}

/* SL1009's fix (FIX_DELETE_STRAY): the stray word goes with the blanks
 * before it, when it says what the switch alone does (`--enforce-eager
 * true`: on) and is on the flag's line of a shell script. `false` meant the
 * flag off, which deleting the word does not do, and `auto` means nothing
 * to a switch: neither is fixed. In a manifest's list (`- "true"`) the
 * item's dash would stay behind: not fixed either. */
static void stray_fix(sl_finding *f, const sl_setting *st, const char *v)
{
	static const char *const on[] = {"true", "1", "yes", "on"};
	int yes = 0;
	for (size_t i = 0; i < sizeof on / sizeof *on; i++)
		yes |= !strcasecmp(v, on[i]);
	const sl_source *src = st->value_at.src;
	if (!yes || f->rule->fix != FIX_DELETE_STRAY || src->section || sl_ends_with(src->name, ".yaml") ||
	    sl_ends_with(src->name, ".yml") || sl_ends_with(src->name, ".json"))
		return;
	size_t a = st->value_at.off, n = strlen(v), from = a;
	const char *t = src->text;
	if (a > src->len || n > src->len - a || memcmp(t + a, v, n) ||
	    (a + n < src->len && !strchr(" \t\n;&|)\"'", t[a + n])))  /* a quote: a `bash -c` string's end */
		return;
	while (from > 0 && (t[from - 1] == ' ' || t[from - 1] == '\t'))
		from--;
	/* the switch itself just before: the blanks do not start a line */
	if (from == a || from == 0 || t[from - 1] == '\n' || t[from - 1] == '\\')
		return;
	char what[128];
	snprintf(what, sizeof what, "delete the stray `%s` (the switch alone is on)", v);
	sl_finding_fix(f, FIX_DELETE_STRAY, src, from, t + from, a + n - from, "", what);
}

/* SL1009: a flag that takes no value, followed by a value the engine
 * leaves as a stray argument (`--enforce-eager true`). */
void sl_fact_stray(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	for (size_t i = 0; i < m->nservices; i++) {
		const sl_service *s = &m->services[i];
		for (size_t k = 0; k < s->nsettings; k++) {
			const sl_setting *st = &s->settings[k];
			if (!(st->flags & SL_SET_STRAY) || !st->value_at.src)
				continue;
			const char *v = st->value_at.raw ? st->value_at.raw : "";
			int off = !strcasecmp(v, "false") || !strcmp(v, "0") || !strcasecmp(v, "no") ||
				  !strcasecmp(v, "off");
			sl_finding *f = sl_finding_add(out, r, &st->value_at,
						       "%s: `%s` takes no value; `%s` is left as a stray argument%s",
						       r->summary, st->flag, v,
						       off ? " and the flag is on (leave the flag out to keep it off)" : "");
			stray_fix(f, st, v);
		}
	}
}
