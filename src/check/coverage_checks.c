/*
 * coverage_checks.c: the checks of what servelint could not check, so that
 * an entry read only in part never reads as clean. value_not_known
 * (SL0004): the settings of a service whose value the script does not give
 * (`--tensor-parallel-size "$TP"`, TP set by no line and given no default):
 * no rule that needs the value can hold it, so they are named, one finding
 * per service, with where their values would come from. Its rule is
 * advisory: harness scripts take their values from the environment by
 * design, and saying so must not fail a CI run (check.c's exit status).
 * A sourced file that is not read is SL0003, a structure note of the shell
 * stage (source.c), not this file's.
 */
#include "coverage_checks.h"

#include <stdlib.h>
#include <string.h>

#include "findings.h"

#define LISTED 6   /* settings a message names before "and N more" */

int sl_coverage_check_known(const char *name)
{
	return !strcmp(name, "value_not_known");
}

static int name_char(char c)
{
	return c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

/* What a symbolic value reads, added to the lists: the variables it names
 * ($NAME, ${NAME...}) that are inputs of the model without a value, the
 * script's arguments ($1, $@) and commands' output ($(...), `...`). */
typedef struct reads {
	sl_buf names;     /* "`$TP`, `$MAXLEN`": inputs no line sets, each once */
	size_t nnames;
	sl_buf parsed;    /* inputs a line sets, where the reader cannot tell the value
			   * (`MODEL="$2"` in a `case` of the arguments) */
	size_t nparsed;
	sl_buf computed;  /* "`$LIST` (line 16)": inputs set to what cannot be known */
	size_t ncomputed;
	int args, commands, other;
} reads;

/* Whether an input's place is where the script sets it (`LIST=$(...)`:
 * set to what it cannot know) rather than where it is first read (`$TP`:
 * no line sets it). */
static int set_there(const sl_model_input *in)
{
	const sl_source *src = in->origin.src;
	size_t n = strlen(in->name);
	if (!src || in->origin.off + n >= src->len)
		return 0;
	const char *t = src->text + in->origin.off;
	return !strncmp(t, in->name, n) && (t[n] == '=' || t[n] == '[' || (t[n] == '+' && t[n + 1] == '='));
}

/* Whether text assigns name somewhere (`NAME=`, `NAME+=`, at the start of
 * a word): said so, never "no line sets it", when the reader left the
 * value unknown there (an argument parsed, a branch). */
static int assigns(const char *text, const char *name, size_t n)
{
	for (const char *p = text; p && (p = strstr(p, name)) != NULL; p += n) {
		if (p > text && (name_char(p[-1]) || p[-1] == '$' || p[-1] == '{'))
			continue;
		if (strncmp(p, name, n))
			continue;
		if (p[n] == '=' || (p[n] == '+' && p[n + 1] == '='))
			return 1;
	}
	return 0;
}

static int script_assigns(const sl_model *m, const char *name, size_t n)
{
	const sl_source *s = m->entry ? m->entry->script : NULL;
	if (!s)
		return 0;
	char *nm = sl_strndup(name, n);
	int hit = assigns(s->text, nm, n);
	for (size_t i = 0; i < s->nlinks && !hit; i++)
		hit = assigns(s->links[i].src->text, nm, n);
	free(nm);
	return hit;
}

static const sl_model_input *input_named(const sl_model *m, const char *name, size_t n)
{
	for (size_t i = 0; i < m->ninputs; i++)
		if (strlen(m->inputs[i].name) == n && !memcmp(m->inputs[i].name, name, n))
			return &m->inputs[i];
	return NULL;
}

static int listed(const sl_buf *b, const char *name, size_t n)
{
	for (const char *p = b->data; p && (p = strstr(p, "`$")) != NULL; p++)
		if (!strncmp(p + 2, name, n) && p[2 + n] == '`')
			return 1;
	return 0;
}

static void read_name(const sl_model *m, const char *q, size_t n, reads *r);

static void read_value(const sl_model *m, const char *t, reads *r)
{
	for (const char *p = strchr(t, '$'); p; p = strchr(p + 1, '$')) {
		const char *q = p + 1 + (p[1] == '{');
		if (q[0] == '(' && q[1] == '(') {
			/* arithmetic: its names are variables, with or without `$` */
			const char *end = strstr(q, "))");
			for (const char *a = q + 2; a < (end ? end : q + strlen(q));) {
				size_t n = 0;
				if ((*a == '_' || (*a >= 'A' && *a <= 'Z') || (*a >= 'a' && *a <= 'z')) &&
				    (a == q + 2 || !name_char(a[-1])))
					while (name_char(a[n]))
						n++;
				if (n) {
					read_name(m, a, n, r);
					a += n;
				} else {
					a++;
				}
			}
			if (end)
				p = end;
			continue;
		}
		if (*q == '(') {
			/* a command's output: what it names inside (`awk '{print
			 * $1}'`) is the command's, not the script's arguments */
			r->commands = 1;
			int depth = 0;
			for (const char *e = q; *e; e++) {
				if (*e == '(')
					depth++;
				else if (*e == ')' && --depth == 0) {
					p = e;
					break;
				}
			}
			continue;
		}
		if ((*q >= '0' && *q <= '9') || *q == '@' || *q == '*' || *q == '#') {
			r->args = 1;
			continue;
		}
		size_t n = 0;
		while (name_char(q[n]))
			n++;
		if (n)
			read_name(m, q, n, r);
	}
	if (strchr(t, '`'))
		r->commands = 1;
}

/* A variable a value reads, NAME (n bytes at q): listed by where its value
 * would come from. */
static void read_name(const sl_model *m, const char *q, size_t n, reads *r)
{
	const sl_model_input *in = input_named(m, q, n);
	if (!in || in->value || in->defaulted) {
		r->other = 1;  /* set to what cannot be known (a loop's, an array's) */
		return;
	}
	if (set_there(in)) {
		if (!listed(&r->computed, q, n)) {
			unsigned l, c;
			sl_origin_pos(&in->origin, &l, &c);
			sl_buf_printf(&r->computed, "%s`$%.*s` (line %u)", r->ncomputed ? ", " : "", (int)n, q, l);
			r->ncomputed++;
		}
	} else if (script_assigns(m, q, n)) {
		if (!listed(&r->parsed, q, n)) {
			sl_buf_printf(&r->parsed, "%s`$%.*s`", r->nparsed ? ", " : "", (int)n, q);
			r->nparsed++;
		}
	} else if (!listed(&r->names, q, n)) {
		sl_buf_printf(&r->names, "%s`$%.*s`", r->nnames ? ", " : "", (int)n, q);
		r->nnames++;
	}
}

/* Whether a setting's value is unknown to the script: symbolic, and not a
 * loop's variable (known per replica) or a placeholder of a catalogue. */
static int unknown(const sl_setting *st)
{
	return (st->flags & SL_SET_SYMBOLIC) && !(st->flags & (SL_SET_OVERRIDDEN | SL_SET_PER_REPLICA)) &&
	       json_is_string(st->value);
}

/* The place of the first note of a file sourced and not read, or NULL. */
static const sl_origin *unread_source(const sl_model *m)
{
	for (size_t i = 0; i < m->nnotes; i++)
		if (m->notes[i].kind && !strcmp(m->notes[i].kind, "source_not_read") && m->notes[i].origin.src)
			return &m->notes[i].origin;
	return NULL;
}

/* Whether st names a config file the entry does not hold: normalize's
 * config_not_read note at its place (config.c). A path the script does not
 * know (`--config "$CFG"`) is a symbolic setting, named as such. */
static int config_not_read(const sl_model *m, const sl_setting *st)
{
	if (strcmp(st->key, "engine.config_file") || !json_is_string(st->value) ||
	    (st->flags & (SL_SET_SYMBOLIC | SL_SET_PLACEHOLDER | SL_SET_OVERRIDDEN)))
		return 0;
	for (size_t i = 0; i < m->nnotes; i++)
		if (m->notes[i].kind && !strcmp(m->notes[i].kind, "config_not_read") &&
		    m->notes[i].origin.src == st->origin.src && m->notes[i].origin.off == st->origin.off)
			return 1;
	return 0;
}

/* Where a config file was looked for (normalize's config.c, resolve): by
 * its base name among the entry's files (those beside its script, or the
 * sections of its catalogue page) and the files its scripts write. The
 * text names no folder, so that an entry's findings read the same
 * wherever it is copied. */
static void looked_for(const sl_model *m, const char *path, sl_buf *b)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	const sl_entry *e = m->entry;
	const sl_source *sc = e ? e->script : NULL;
	/* a catalogue page's entry: its metadata is the page's own lines */
	if (sc && e->metadata && e->metadata->path && sc->path && !strcmp(e->metadata->path, sc->path))
		sl_buf_printf(b, "no section `%s` on its page", base);
	else
		sl_buf_printf(b, "no file `%s` beside %s", base, sc && sc->name ? sc->name : "the script");
	sl_buf_puts(b, ", and none written by the script");
}

/* The flag as written (`--extra_llm_api_options`, which the grammar
 * spells `--config`), from the setting's text; into b. */
static void written_flag(const sl_setting *st, sl_buf *b)
{
	const char *raw = st->origin.raw;
	size_t n = 0;
	if (raw && raw[0] == '-')
		while (raw[n] && raw[n] != ' ' && raw[n] != '=' && raw[n] != '\t' && raw[n] != '\n')
			n++;
	if (n)
		sl_buf_add(b, raw, n);
	else
		sl_buf_puts(b, st->flag ? st->flag : st->key);
}

/* The config files s names that the entry does not hold, as SL0004 tells
 * them ("prefill's config file `P` (--extra-engine-args) is not part of
 * the entry: ..."), with a related note at each; their count. */
static size_t unread_configs(const sl_model *m, const sl_service *s, sl_buf *msg, sl_finding *f)
{
	size_t n = 0;
	for (size_t k = 0; k < s->nsettings; k++) {
		const sl_setting *st = &s->settings[k];
		if (!config_not_read(m, st))
			continue;
		const char *path = json_string_value(st->value);
		sl_buf flag = {0};
		written_flag(st, &flag);
		if (msg) {
			sl_buf_printf(msg, "%s%s's config file `%s` (%s) is not part of the entry (", n ? "; " : "",
				      s->name, path, flag.data);
			looked_for(m, path, msg);
			sl_buf_puts(msg, "): none of its settings is known (parallelism, memory and the rest; add the "
					 "file to the entry)");
		}
		if (f && st->origin.src) {
			sl_buf what = {0};
			sl_buf_printf(&what, "%s names `%s`, which is not part of the entry", flag.data, path);
			sl_finding_related(f, &st->origin, what.data);
			sl_buf_free(&what);
		}
		sl_buf_free(&flag);
		n++;
	}
	return n;
}

static void value_not_known(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	/* an engine config file read alone: the script around it is servelint's
	 * own, its `$MODEL` no value a user left out */
	if (m->entry && m->entry->alone)
		return;
	const sl_origin *src_at = unread_source(m);
	for (size_t i = 0; i < m->nservices; i++) {
		const sl_service *s = &m->services[i];
		size_t n = 0;
		sl_buf list = {0};
		reads rd = {0};
		for (size_t k = 0; k < s->nsettings; k++) {
			const sl_setting *st = &s->settings[k];
			if (!unknown(st))
				continue;
			if (n < LISTED)
				sl_buf_printf(&list, "%s%s (`%s`)", n ? ", " : "", st->key, json_string_value(st->value));
			n++;
			read_value(m, json_string_value(st->value), &rd);
		}
		sl_buf files = {0};
		size_t nfiles = unread_configs(m, s, &files, NULL);
		if (!n && nfiles) {
			sl_finding *f = sl_finding_add(out, r, &s->command_origin, "%s: %s", r->summary, files.data);
			f->unread_files = nfiles;
			unread_configs(m, s, NULL, f);
		}
		if (!n) {
			sl_buf_free(&files);
			sl_buf_free(&list);
			continue;
		}
		if (n > LISTED)
			sl_buf_printf(&list, " and %zu more", n - LISTED);
		sl_buf from = {0};
		if (rd.nnames) {
			sl_buf_printf(&from, "%s %s no value in the script", rd.names.data, rd.nnames == 1 ? "has" : "have");
			/* the caller's environment, unless a file not read may set them */
			if (src_at) {
				unsigned l, c;
				sl_origin_pos(src_at, &l, &c);
				sl_buf_printf(&from, " (the caller's environment, or the file sourced at line %u that is not "
						     "read, gives %s)", l, rd.nnames == 1 ? "it" : "them");
			} else {
				sl_buf_printf(&from, " (no line sets %s and no default is given: the caller's environment "
						     "gives %s)", rd.nnames == 1 ? "it" : "them", rd.nnames == 1 ? "it" : "them");
			}
		}
		if (rd.nparsed) {
			sl_buf_printf(&from, "%s%s %s set by the script where %s value cannot be told (the arguments "
					     "it parses, a branch, a loop", from.len ? "; " : "", rd.parsed.data,
				      rd.nparsed == 1 ? "is" : "are", rd.nparsed == 1 ? "its" : "their");
			if (src_at) {
				unsigned l, c;
				sl_origin_pos(src_at, &l, &c);
				sl_buf_printf(&from, ", or the file sourced at line %u that is not read", l);
			}
			sl_buf_puts(&from, ")");
		}
		if (rd.ncomputed)
			sl_buf_printf(&from, "%s%s %s set to what the script cannot know", from.len ? "; " : "",
				      rd.computed.data, rd.ncomputed == 1 ? "is" : "are");
		if (rd.args || rd.commands)
			sl_buf_printf(&from, "%svalues from %s%s%s", from.len ? "; " : "", rd.args ? "the script's arguments" : "",
				      rd.args && rd.commands ? " and " : "", rd.commands ? "a command's output" : "");
		if (rd.other && !from.len)
			sl_buf_puts(&from, "values the script computes from what it cannot know");
		sl_finding *f = sl_finding_add(out, r, &s->command_origin, "%s: %zu of %s: %s; %s (bind with --set NAME=VALUE)%s%s",
					       r->summary, n, s->name, list.data, from.data, nfiles ? "; and " : "",
					       nfiles ? files.data : "");
		f->unchecked = n;
		f->unread_files = nfiles;
		for (size_t k = 0, told = 0; k < s->nsettings && told < LISTED; k++) {
			const sl_setting *st = &s->settings[k];
			if (!unknown(st) || !st->origin.src)
				continue;
			sl_buf what = {0};
			sl_buf_printf(&what, "%s is `%s`, not known", st->key, json_string_value(st->value));
			sl_finding_related(f, &st->origin, what.data);
			sl_buf_free(&what);
			told++;
		}
		unread_configs(m, s, NULL, f);
		sl_buf_free(&files);
		sl_buf_free(&from);
		sl_buf_free(&rd.names);
		sl_buf_free(&rd.computed);
		sl_buf_free(&rd.parsed);
		sl_buf_free(&list);
	}
}

void sl_coverage_check(const sl_rule *r, const sl_model *m, sl_findings *out)
{
	if (!strcmp(r->cname, "value_not_known"))
		value_not_known(r, m, out);
}
