/* show.c (report): the normalized model as JSON and as terminal text. */
#include "report.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* A string value: ASCII (most of a model: flags, paths, numbers, names) is
 * checked here eight bytes at a time and made without jansson's own UTF-8
 * check, a call per character (34 M instructions of `show --format json`
 * over 350 entries); anything else goes through json_string and its check,
 * so text that is not UTF-8 still gives NULL, as before. */
static json_t *text(const char *s)
{
	if (!s)
		return NULL;
	size_t n = strlen(s), i = 0;
	uint64_t high = 0;
	for (; i + 8 <= n; i += 8) {
		uint64_t x;
		memcpy(&x, s + i, 8);
		high |= x;
	}
	for (; i < n; i++)
		high |= (unsigned char)s[i];
	if (high & 0x8080808080808080ull)
		return json_stringn(s, n);
	return json_stringn_nocheck(s, n);
}

/* An object of n (key, value) pairs, each value a new reference (stolen),
 * made as json_pack would make it but without parsing a format, which was
 * most of its cost (46,800 calls, 294 M of the 2,366 M instructions of
 * `show --format json` over 350 entries). As with json_pack, a value that
 * is NULL (a string missing or not UTF-8) makes the whole NULL. The keys
 * are our own literals, ASCII: set without jansson's check of each. */
static json_t *obj(int n, ...)
{
	json_t *o = json_object();
	int bad = !o;
	va_list ap;
	va_start(ap, n);
	for (int i = 0; i < n; i++) {
		const char *k = va_arg(ap, const char *);
		json_t *v = va_arg(ap, json_t *);
		if (!v || bad)
			bad = 1, json_decref(v);
		else
			json_object_set_new_nocheck(o, k, v);
	}
	va_end(ap);
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* o[KEY] = v for a literal KEY (ours, ASCII: no check, no strlen) */
#define SET(o, KEY, v) json_object_setn_new_nocheck((o), KEY, sizeof KEY - 1, (v))

/* json_pack's "s?": a NULL string is null */
static json_t *str_or_null(const char *s)
{
	return s ? text(s) : json_null();
}

/* json_pack's "O": a new reference; NULL stays NULL */
static json_t *ref(json_t *v)
{
	return v ? json_incref(v) : NULL;
}

json_t *sl_report_json_doc(json_t *doc)
{
	json_t *o = json_pack("{s:i}", SL_JSON_VERSION_KEY, (json_int_t)SL_JSON_VERSION);
	if (doc) {
		json_object_update(o, doc);
		json_decref(doc);
	}
	return o;
}

char *sl_report_where(const sl_origin *o)
{
	sl_buf b = {0};
	unsigned l, c;
	sl_origin_pos(o, &l, &c);
	if (o->src)
		sl_buf_printf(&b, "%s:%u:%u", o->src->path, l, c);
	return sl_buf_detach(&b);
}

/* The paths of one model's origins, each made a JSON string once and then
 * shared by reference: an entry's hundreds of origins name a few files
 * (origins were 105 M of the 261 M instructions of building 350 entries'
 * JSON, each path checked as UTF-8 and copied). */
#define NPATHS 8
typedef struct {
	const sl_source *src[NPATHS];
	json_t *path[NPATHS];
	size_t n;
} paths;

static json_t *path_json(paths *p, const sl_source *src)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->src[i] == src)
			return json_incref(p->path[i]);
	json_t *v = text(src->path);
	if (v && p->n < NPATHS) {
		p->src[p->n] = src;
		p->path[p->n++] = json_incref(v);
	}
	return v;
}

static void paths_free(paths *p)
{
	for (size_t i = 0; i < p->n; i++)
		json_decref(p->path[i]);
	p->n = 0;
}

static json_t *origin_json(paths *p, const sl_origin *o)
{
	if (!o->src)
		return json_null();
	unsigned l, c;
	sl_origin_pos(o, &l, &c);
	return obj(3, "file", path_json(p, o->src), "line", json_integer((json_int_t)l), "col",
		   json_integer((json_int_t)c));
}

static void flags_json(json_t *o, unsigned f)
{
	if (f & SL_SET_UNKNOWN)
		SET(o, "unknown", json_true());
	if (f & SL_SET_SYMBOLIC)
		SET(o, "symbolic", json_true());
	if (f & SL_SET_PLACEHOLDER)
		SET(o, "placeholder", json_true());
	if (f & SL_SET_OVERRIDDEN)
		SET(o, "overridden", json_true());
	if (f & SL_SET_ABBREV)
		SET(o, "abbreviated", json_true());
	if (f & SL_SET_NEGATED)
		SET(o, "negated", json_true());
	if (f & SL_SET_PER_NODE)
		SET(o, "per_node", json_true());
	if (f & SL_SET_PER_REPLICA)
		SET(o, "per_replica", json_true());
	if (f & SL_SET_BOUND)
		SET(o, "set", json_true());
}

/* A wrapper's detail without its internal keys (those starting with '_'). */
static json_t *public_detail(json_t *detail)
{
	json_t *d = json_object();
	const char *k;
	json_t *v;
	json_object_foreach(detail, k, v)
		if (k[0] != '_')
			json_object_set_nocheck(d, k, v);  /* a key of an object */
	return d;
}

static json_t *service_json(paths *p, const sl_service *s)
{
	json_t *o = json_object();
	SET(o, "name", text(s->name));
	SET(o, "role", text(s->role));
	SET(o, "role_from", text(s->role_from));
	SET(o, "engine", text(s->engine));
	SET(o, "program", text(s->program));
	if (s->version)
		SET(o, "version", obj(2, "value", text(s->version), "origin",
				      origin_json(p, &s->version_origin)));
	else
		SET(o, "version", json_null());
	SET(o, "replicas", obj(3, "count", json_integer((json_int_t)s->replicas), "from",
			       text(s->replicas_from), "origin", origin_json(p, &s->replicas_origin)));
	if (s->gpus_from) {
		json_t *g = json_object();
		if (s->gpus >= 0)
			SET(g, "per_replica", json_integer(s->gpus));
		else if (s->gpus == -2)
			SET(g, "per_replica", text("all"));
		else
			SET(g, "per_replica", json_null());
		SET(g, "from", text(s->gpus_from));
		if (s->gpus_placeholder)
			SET(g, "placeholder", json_true());
		SET(g, "devices", s->gpu_devices ? json_incref(s->gpu_devices) : json_array());
		SET(g, "origin", origin_json(p, &s->gpus_origin));
		SET(o, "gpus", g);
	} else {
		SET(o, "gpus", json_null());
	}
	SET(o, "background", json_boolean(s->background));
	SET(o, "command", obj(2, "origin",
						    origin_json(p, &s->command_origin), "argv", ref(s->argv)));
	json_t *wr = json_array();
	for (size_t i = 0; i < s->nwrappers; i++) {
		json_t *d = public_detail(s->wrappers[i].detail);
		json_array_append_new(wr, obj(3, "kind", text(s->wrappers[i].kind),
						    "detail", d, "origin",
						    origin_json(p, &s->wrappers[i].origin)));
	}
	SET(o, "wrappers", wr);
	json_t *env = json_array();
	for (size_t i = 0; i < s->nenv; i++) {
		const sl_env *e = &s->env[i];
		json_t *x = obj(4, "name", text(e->name), "value", text(e->value),
				"via", text(e->via), "origin", origin_json(p, &e->origin));
		flags_json(x, e->flags);
		json_array_append_new(env, x);
	}
	SET(o, "env", env);
	json_t *set = json_array();
	for (size_t i = 0; i < s->nsettings; i++) {
		const sl_setting *st = &s->settings[i];
		json_t *x = obj(6, "key", text(st->key), "value", ref(st->value),
				"flag", text(st->flag), "via", text(st->via), "origin",
				origin_json(p, &st->origin), "raw", str_or_null(st->origin.raw));
		if (st->value_origin.src)
			SET(x, "value_origin", origin_json(p, &st->value_origin));
		flags_json(x, st->flags);
		json_array_append_new(set, x);
	}
	SET(o, "settings", set);
	return o;
}

json_t *sl_report_model_json(const sl_model *m)
{
	paths p = {{NULL}, {NULL}, 0};
	const sl_entry *e = m->entry;
	json_t *files = json_array();
	for (size_t i = 0; i < e->nfiles; i++) {
		/* a section of a catalogue-form file: path#section */
		sl_buf b = {0};
		sl_buf_puts(&b, e->files[i]->path);
		if (e->files[i]->section)
			sl_buf_printf(&b, "#%s", e->files[i]->section);
		json_array_append_new(files, text(b.data));
		sl_buf_free(&b);
	}
	/* files the script writes itself (here-documents): script#file */
	for (size_t i = 0; i < m->nfiles; i++) {
		sl_buf b = {0};
		sl_buf_printf(&b, "%s#%s", m->files[i]->path, m->files[i]->section);
		json_array_append_new(files, text(b.data));
		sl_buf_free(&b);
	}
	json_t *o = obj(4, "entry", text(e->path), "script", text(e->script->path), "files",
		       files, "metadata", e->metadata ? text(e->metadata->path) : json_null());
	if (e->nscripts) {
		/* a group: its other scripts, and how they were put together */
		json_t *sc = json_array();
		for (size_t i = 0; i < e->nscripts; i++)
			json_array_append_new(sc, text(e->scripts[i]->path));
		SET(o, "scripts", sc);
	}
	if (e->grouped)
		SET(o, "grouped", text(e->grouped));
	json_t *sourced = json_array();
	for (size_t k = 0; k <= e->nscripts; k++) {
		const sl_source *s = k ? e->scripts[k - 1] : e->script;
		for (size_t i = 0; s && i < s->nlinks; i++)
			json_array_append_new(sourced, text(s->links[i].src->path));
	}
	if (json_array_size(sourced))
		SET(o, "sourced", sourced);
	else
		json_decref(sourced);
	if (m->variant)
		SET(o, "variant", obj(3, "index", json_integer((json_int_t)m->variant_index),
					  "of", json_integer((json_int_t)m->nvariants), "assumes",
					  text(m->variant)));
	json_t *svc = json_array();
	for (size_t i = 0; i < m->nservices; i++)
		json_array_append_new(svc, service_json(&p, &m->services[i]));
	SET(o, "services", svc);
	json_t *notes = json_array();
	for (size_t i = 0; i < m->nnotes; i++)
		json_array_append_new(notes, obj(2, "message", text(m->notes[i].msg),
						 "origin", origin_json(&p, &m->notes[i].origin)));
	SET(o, "notes", notes);
	json_t *claims = json_array();
	for (size_t i = 0; i < m->nclaims; i++) {
		const sl_claim *k = &m->claims[i];
		json_array_append_new(claims, obj(6, "key", text(k->key),
						  "value", ref(k->value), "role", str_or_null(k->role),
						  "text", text(k->text), "from", text(k->from),
						  "origin", origin_json(&p, &k->origin)));
	}
	SET(o, "claims", claims);
	/* the memory and shape plan, when the model is known (docs/memory-plan.md) */
	sl_entry_plan *plan;
	sl_error err = {0};
	if (!sl_plan_entry(m, &plan, &err)) {
		if (plan->arch)
			SET(o, "plan", sl_plan_json(plan));
		sl_entry_plan_free(plan);
	}
	sl_error_clear(&err);
	/* only when there are some: the catalogue's scripts read none */
	if (m->ninputs) {
		json_t *in = json_array();
		for (size_t i = 0; i < m->ninputs; i++)
			json_array_append_new(in, obj(4, "name", text(m->inputs[i].name), "set",
						     str_or_null(m->inputs[i].value), "default_used",
						     json_boolean(m->inputs[i].defaulted), "origin",
						     origin_json(&p, &m->inputs[i].origin)));
		SET(o, "inputs", in);
	}
	paths_free(&p);
	return o;
}

/* ---- terminal ---------------------------------------------------------------- */

typedef struct {
	FILE *f;
	int color;
} out;

static const char *C(const out *o, const char *code)
{
	return o->color ? code : "";
}
#define BOLD "\033[1m"
#define DIM "\033[2m"
#define CYAN "\033[36m"
#define YEL "\033[33m"
#define RST "\033[0m"

/* A value for the terminal: strings as they are, the rest as compact JSON.
 * *tmp receives what the caller must free (NULL for strings). */
static const char *value_text(json_t *v, char **tmp)
{
	*tmp = NULL;
	if (json_is_string(v))
		return json_string_value(v);
	*tmp = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY | JSON_REAL_PRECISION(15));
	return *tmp ? *tmp : "?";
}

/* "launch.sh:12:5" into buf. Formatted by hand: the terminal report
 * writes one per setting, and snprintf showed in profiles. */
static char *put_uint(char *p, unsigned v)
{
	char tmp[12];
	int n = 0;
	do
		tmp[n++] = (char)('0' + v % 10);
	while ((v /= 10) && n < 11);
	while (n)
		*p++ = tmp[--n];
	return p;
}

static const char *short_where(const sl_origin *o, char *buf, size_t n)
{
	if (!o->src || n < 32) {
		snprintf(buf, n, "-");
		return buf;
	}
	unsigned l, c;
	sl_origin_pos(o, &l, &c);
	size_t nl = strlen(o->src->name);
	if (nl > n - 26)
		nl = n - 26;
	memcpy(buf, o->src->name, nl);
	char *p = buf + nl;
	*p++ = ':';
	p = put_uint(p, l);
	*p++ = ':';
	p = put_uint(p, c);
	*p = '\0';
	return buf;
}

/* s, then spaces up to width (a column; the caller adds the gap after) */
static void pad(FILE *f, const char *s, int width)
{
	static const char spaces[] = "                                                ";
	size_t n = strlen(s);
	fwrite(s, 1, n, f);
	for (int left = width - (int)n; left > 0; left -= (int)sizeof spaces - 1)
		fwrite(spaces, 1, left < (int)sizeof spaces - 1 ? (size_t)left : sizeof spaces - 1, f);
}

/* Columns as wide as their content, up to a cap: one long value does
 * not push every other row out (it runs over its column alone). */
enum { SL_SHOW_VALUE_CAP = 40 };

static void widen(int *w, const char *s, int cap)
{
	int n = (int)strlen(s ? s : "");
	if (n > *w)
		*w = n < cap ? n : cap;
}

typedef struct {
	int key, value, via;          /* env and settings */
	int ckey, crole, cvalue;      /* claims */
	int iname, ivalue;            /* inputs */
} widths;

/* env and settings: per service; claims and inputs: per model */
static void measure_service(const sl_service *s, widths *w)
{
	w->key = w->value = w->via = 0;
	{
		for (size_t k = 0; k < s->nenv; k++) {
			widen(&w->key, s->env[k].name, 48);
			widen(&w->value, s->env[k].value, SL_SHOW_VALUE_CAP);
			widen(&w->via, s->env[k].via, 16);
		}
		for (size_t k = 0; k < s->nsettings; k++) {
			char *tmp;
			widen(&w->key, s->settings[k].key, 48);
			widen(&w->value, value_text(s->settings[k].value, &tmp), SL_SHOW_VALUE_CAP);
			free(tmp);
		}
	}
}

static void measure(const sl_model *m, widths *w)
{
	memset(w, 0, sizeof *w);
	for (size_t i = 0; i < m->nclaims; i++) {
		char *tmp;
		widen(&w->ckey, m->claims[i].key, 64);
		widen(&w->crole, m->claims[i].role ? m->claims[i].role : "-", 16);
		widen(&w->cvalue, value_text(m->claims[i].value, &tmp), SL_SHOW_VALUE_CAP);
		free(tmp);
	}
	for (size_t i = 0; i < m->ninputs; i++) {
		const sl_model_input *in = &m->inputs[i];
		widen(&w->iname, in->name, 64);
		widen(&w->ivalue, in->value ? in->value : in->defaulted ? "(default used)" : "(unknown)",
		      SL_SHOW_VALUE_CAP);
	}
}

static void tag(const out *o, unsigned f)
{
	if (f & SL_SET_OVERRIDDEN)
		fprintf(o->f, " %s(overridden)%s", C(o, DIM), C(o, RST));
	if (f & SL_SET_UNKNOWN)
		fprintf(o->f, " %s(unknown)%s", C(o, YEL), C(o, RST));
	if (f & SL_SET_SYMBOLIC)
		fprintf(o->f, " (symbolic)");
	if (f & SL_SET_PLACEHOLDER)
		fprintf(o->f, " (placeholder)");
	if (f & SL_SET_ABBREV)
		fprintf(o->f, " (abbreviation)");
	if (f & SL_SET_PER_NODE)
		fprintf(o->f, " (per node)");
	if (f & SL_SET_PER_REPLICA)
		fprintf(o->f, " (per replica)");
	if (f & SL_SET_BOUND)
		fprintf(o->f, " (--set)");
}

int sl_report_model_tty(FILE *f, const sl_model *m, int color)
{
	out o = {f, color};
	char w[512];
	widths cw;
	measure(m, &cw);
	fprintf(f, "%s%s%s: %zu service%s\n", C(&o, BOLD), m->entry->path, C(&o, RST), m->nservices,
		m->nservices == 1 ? "" : "s");
	if (m->entry->grouped)
		fprintf(f, "grouped: %s\n", m->entry->grouped);
	/* the files its scripts source and that were read (link.c), by their
	 * names in places */
	const char *sep = "sourced: ";
	for (size_t k = 0; k <= m->entry->nscripts; k++) {
		const sl_source *s = k ? m->entry->scripts[k - 1] : m->entry->script;
		for (size_t i = 0; s && i < s->nlinks; i++, sep = ", ")
			fprintf(f, "%s%s", sep, s->links[i].src->name);
	}
	if (sep[0] == ',')
		fputc('\n', f);
	if (m->variant)
		fprintf(f, "variant %u of %u: %s\n", m->variant_index, m->nvariants, m->variant);
	if (m->nfiles) {
		fprintf(f, sl_source_is_recipe(m->entry->script)     ? "\nengine files held in the recipe\n"
			   : sl_source_is_manifest(m->entry->script) ? "\nfiles mounted from the manifest's ConfigMaps\n"
								     : "\nfiles written by the script (here-documents)\n");
		for (size_t i = 0; i < m->nfiles; i++)
			fprintf(f, "  %s  %s:%u\n", m->files[i]->section, m->files[i]->name,
				m->files[i]->line_base + 1);
	}
	for (size_t i = 0; i < m->nservices; i++) {
		const sl_service *s = &m->services[i];
		measure_service(s, &cw);
		fprintf(f, "\n%sservice %s%s  %s (%s)", C(&o, BOLD), s->name, C(&o, RST), s->engine,
			s->program);
		if (s->version)
			fprintf(f, ", version %s", s->version);
		fprintf(f, "  %s%s%s\n", C(&o, DIM), short_where(&s->command_origin, w, sizeof w), C(&o, RST));
		fprintf(f, "  role      %s (from %s)\n", s->role, s->role_from);
		fprintf(f, "  replicas  %u (%s", s->replicas, s->replicas_from);
		if (strcmp(s->replicas_from, "single"))
			fprintf(f, ", %s", short_where(&s->replicas_origin, w, sizeof w));
		fprintf(f, ")\n");
		fprintf(f, "  gpus      ");
		if (!s->gpus_from) {
			fprintf(f, "not stated\n");
		} else {
			if (s->gpus >= 0)
				fprintf(f, "%ld per replica", s->gpus);
			else if (s->gpus == -2)
				fprintf(f, "all");
			else
				fprintf(f, "unknown count");
			if (s->gpu_devices && json_array_size(s->gpu_devices)) {
				char *d = json_dumps(s->gpu_devices, JSON_COMPACT);
				fprintf(f, " %s", d);
				free(d);
			}
			fprintf(f, " (from %s, %s)%s\n", s->gpus_from, short_where(&s->gpus_origin, w, sizeof w),
				s->gpus_placeholder ? " (placeholder)" : "");
		}
		for (size_t k = 0; k < s->nwrappers; k++) {
			json_t *det = public_detail(s->wrappers[k].detail);
			char *d = json_object_size(det) ? json_dumps(det, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
			json_decref(det);
			fprintf(f, "  via       %s%s%s\n", s->wrappers[k].kind, d ? " " : "", d ? d : "");
			free(d);
		}
		if (s->nenv)
			fprintf(f, "  env\n");
		for (size_t k = 0; k < s->nenv; k++) {
			const sl_env *e = &s->env[k];
			fputs("    ", f);
			fputs(C(&o, CYAN), f);
			pad(f, e->name, cw.key);
			fputs(C(&o, RST), f);
			fputs("  ", f);
			pad(f, *e->value ? e->value : "\"\"", cw.value);
			fputs("  ", f);
			pad(f, e->via, cw.via);
			fputs("  ", f);
			fputs(C(&o, DIM), f);
			fputs(short_where(&e->origin, w, sizeof w), f);
			fputs(C(&o, RST), f);
			tag(&o, e->flags);
			fputc('\n', f);
		}
		if (s->nsettings)
			fprintf(f, "  settings\n");
		for (size_t k = 0; k < s->nsettings; k++) {
			const sl_setting *st = &s->settings[k];
			char *tmp;
			const char *v = value_text(st->value, &tmp);
			fputs("    ", f);
			fputs(C(&o, CYAN), f);
			pad(f, st->key, cw.key);
			fputs(C(&o, RST), f);
			fputs("  ", f);
			pad(f, v, cw.value + cw.via + 2);
			fputs("  ", f);
			fputs(C(&o, DIM), f);
			fputs(short_where(&st->origin, w, sizeof w), f);
			fputs(C(&o, RST), f);
			fputs("  ", f);
			fputs(st->origin.raw ? st->origin.raw : st->flag, f);
			tag(&o, st->flags);
			fputc('\n', f);
			free(tmp);
		}
	}
	/* the memory and shape plan, when the system or the model is known */
	sl_entry_plan *plan;
	sl_error err = {0};
	if (!sl_plan_entry(m, &plan, &err)) {
		if (plan->arch || plan->hw)
			sl_report_plan_tty(f, plan);
		sl_entry_plan_free(plan);
	}
	sl_error_clear(&err);
	if (m->nclaims) {
		fprintf(f, "\nclaims\n");
		for (size_t i = 0; i < m->nclaims; i++) {
			const sl_claim *k = &m->claims[i];
			char *tmp;
			const char *v = value_text(k->value, &tmp);
			fputs("  ", f);
			fputs(C(&o, CYAN), f);
			pad(f, k->key, cw.ckey);
			fputs(C(&o, RST), f);
			fputs("  ", f);
			pad(f, k->role ? k->role : "-", cw.crole);
			fputs("  ", f);
			pad(f, v, cw.cvalue);
			fputs("  ", f);
			fputs(C(&o, DIM), f);
			fputs(short_where(&k->origin, w, sizeof w), f);
			fputs(C(&o, RST), f);
			fprintf(f, "  %s: \"%s\"\n", k->from, k->text);
			free(tmp);
		}
	}
	if (m->ninputs) {
		fprintf(f, "\ninputs (unknown to the script; bind with --set NAME=VALUE)\n");
		for (size_t i = 0; i < m->ninputs; i++) {
			const sl_model_input *in = &m->inputs[i];
			fputs("  $", f);
			pad(f, in->name, cw.iname);
			fputs("  ", f);
			pad(f, in->value ? in->value : in->defaulted ? "(default used)" : "(unknown)", cw.ivalue);
			fputs("  ", f);
			fputs(C(&o, DIM), f);
			fputs(short_where(&in->origin, w, sizeof w), f);
			fputs(C(&o, RST), f);
			fputs(in->value ? "  --set\n" : "\n", f);
		}
	}
	if (m->nnotes) {
		fprintf(f, "\nnotes\n");
		for (size_t i = 0; i < m->nnotes; i++)
			fprintf(f, "  %s: %s\n", short_where(&m->notes[i].origin, w, sizeof w), m->notes[i].msg);
	}
	return ferror(f) ? -1 : 0;
}
