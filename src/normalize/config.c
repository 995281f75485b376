/*
 * config.c: engine config files into settings.
 *
 * A service whose command names a config file (`--extra-engine-args
 * gen_config.yaml`, `--config`, `--extra_llm_api_options` behind a docker
 * `-v host:container` mount) gets that file's settings, read through the
 * config_keys of its grammar. A topology file (`context_servers` /
 * `generation_servers`, the TensorRT-LLM disaggregated server config) also
 * sets the replica counts of the roles, whether or not a service names it.
 * Which of file and command line wins is the engine's rule (config_wins).
 *
 * Uses flags.c (a file holding flags by name is read as a command line),
 * build.c and grammar.c; called by topology.c, freed by normalize.c.
 */
#include "config.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "flags.h"

static const char *base(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

const sl_written *sl_written_file(const sl_ctx *c, const char *path, uint32_t before)
{
	/* the newest written before the command: by the path as written, then by base name */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = c->nwritten; i-- > 0;) {
			const sl_heredoc *h = c->written[i].hd;
			if (h->start >= before)
				continue;
			if (pass == 0 ? !strcmp(h->target, path) : !strcmp(base(h->target), base(path)))
				return &c->written[i];
		}
	return NULL;
}

/* Where the command of service s starts (here-documents before it count). */
static uint32_t command_start(const sl_ctx *c, const sl_service *s)
{
	size_t i = (size_t)(s - c->model->services);
	if (i >= c->model->nservices || !c->svc_cmd)
		return UINT32_MAX;
	return c->script->cmds[c->svc_cmd[i]].start;
}

/* The entry's file a path names: a file the script itself writes with a
 * here-document first, then through docker -v host:container mounts (the
 * host side is what the entry keeps), then by base name. */
static const sl_source *resolve(sl_ctx *c, const sl_service *s, const char *path)
{
	const sl_written *wr = sl_written_file(c, path, command_start(c, s));
	if (wr)
		return wr->src;
	/* through a mount: the container path's base name among written files */
	for (size_t i = 0; i < s->nwrappers && c->nwritten; i++)
		if (json_object_get(s->wrappers[i].detail, "volumes")) {
			wr = sl_written_file(c, base(path), command_start(c, s));
			if (wr)
				return wr->src;
		}

	for (size_t i = 0; i < s->nwrappers; i++) {
		json_t *vols = json_object_get(s->wrappers[i].detail, "volumes");
		size_t k;
		json_t *v;
		json_array_foreach(vols, k, v) {
			const char *spec = json_string_value(v);
			const char *colon = spec ? strchr(spec, ':') : NULL;
			if (!colon)
				continue;
			const char *cont = colon + 1;
			const char *end = strchr(cont, ':');
			size_t cl = end ? (size_t)(end - cont) : strlen(cont);
			if (strlen(path) == cl && !strncmp(path, cont, cl)) {
				char *host = sl_strndup(spec, (size_t)(colon - spec));
				const sl_source *f = sl_entry_file(c->entry, base(host));
				free(host);
				if (f)
					return f;
			} else if (!strncmp(path, cont, cl) && path[cl] == '/') {
				/* a folder mount: host dir + the rest of the path */
				const sl_source *f = sl_entry_file(c->entry, base(path));
				if (f)
					return f;
			}
		}
	}
	return sl_entry_file(c->entry, base(path));
}

static const sl_heredoc *written_hd(const sl_ctx *c, const sl_source *src)
{
	for (size_t i = 0; i < c->nwritten; i++)
		if (c->written[i].src == src)
			return c->written[i].hd;
	return NULL;
}

/* The span of h's body that starts at off, or NULL. */
static const uint32_t *span_at(const sl_heredoc *h, size_t off)
{
	for (size_t i = 0; i + 1 < h->nspans; i += 2)
		if (h->spans[i] == off)
			return h->spans + i;
	return NULL;
}

/* Scalars that stand where an unknown expansion was written get its text
 * back (`${LIST%, }`, read as a quoted placeholder). */
static void restore_spans(const sl_source *src, const sl_heredoc *h, sl_yaml_node *n, unsigned depth)
{
	if (!n || depth > SL_YAML_MAX_DEPTH)
		return;
	if (n->kind == SL_YAML_SCALAR) {
		const uint32_t *sp = span_at(h, sl_source_offset(src, n->line, n->col));
		if (sp) {
			free(n->value);
			n->len = sp[1] - sp[0];
			n->value = sl_strndup(src->text + sp[0], n->len);
			n->plain = 0;
		}
		return;
	}
	for (size_t i = 0; i < n->n; i++)
		restore_spans(src, h, n->items[i], depth + 1);
}

/*
 * A here-document whose YAML holds text the script cannot know (`[${LIST%,
 * }]`, `{$OPTS}`) may not parse as written. It is read again with each
 * unknown expansion as a quoted scalar of the same length, so that every
 * other key keeps its place and value; the unknown ones are symbolic. When
 * even that fails, the file's settings are unknown, noted: never a failure
 * of the whole entry.
 */
static int load_symbolic(sl_ctx *c, const sl_source *src, const sl_heredoc *h, sl_yaml_doc **out)
{
	sl_error_clear(c->err);
	sl_source q = *src;
	q.text = sl_strndup(src->text, src->len);
	for (size_t i = 0; i + 1 < h->nspans; i += 2) {
		uint32_t f = h->spans[i], t = h->spans[i + 1];
		if (t > src->len || t <= f)
			continue;
		for (uint32_t k = f; k < t; k++)
			if (q.text[k] == '"' || q.text[k] == '\\' || q.text[k] == '\n')
				q.text[k] = '_';
		if (t - f >= 2) {
			q.text[f] = '"';
			q.text[t - 1] = '"';
		} else {
			q.text[f] = '_';
		}
	}
	sl_error e = {0};
	int rc = sl_yaml_load(&q, out, &e);
	free(q.text);
	if (rc) {
		sl_note_add(c, src, 0, "%s holds text unknown to the script where YAML needs its structure; "
			    "its settings are unknown (%s)", src->section ? src->section : src->name,
			    e.msg ? e.msg : "YAML error");
		sl_error_clear(&e);
		*out = NULL;
		return -1;
	}
	(*out)->src = src;
	for (size_t i = 0; i < (*out)->ndocs; i++)
		restore_spans(src, h, (*out)->roots[i], 0);
	(*out)->root = (*out)->ndocs ? (*out)->roots[0] : NULL;
	return 0;
}

static sl_config_doc *doc_of(sl_ctx *c, const sl_source *src)
{
	for (size_t i = 0; i < c->ndocs; i++)
		if (c->docs[i].src == src)
			return c->docs[i].doc ? &c->docs[i] : NULL;
	sl_config_doc d = {src, NULL, 0, 0};
	/* a file of the entry itself is parsed once for all its readings
	 * (the entry's cache); a here-document a reading writes is its own */
	int own = 0;
	for (size_t i = 0; i < c->entry->nfiles && !own; i++)
		own = c->entry->files[i] == src;
	int rc = own ? sl_shell_cache_yaml(c->cache, src, &d.doc, &d.shared, c->err) : sl_yaml_load(src, &d.doc, c->err);
	if (rc) {
		const sl_heredoc *h = written_hd(c, src);
		d.doc = NULL;
		if (!h || !h->symbolic)
			c->failed = 1;
		else
			load_symbolic(c, src, h, &d.doc);
	}
	SL_PUSH(c->docs, c->ndocs, c->docs_cap, d);
	return d.doc ? &c->docs[c->ndocs - 1] : NULL;
}

/* The value under a config key, converted to the key's type when it can be. */
static json_t *typed(const sl_config_key *k, const sl_yaml_node *n, int *bad)
{
	json_t *v = sl_yaml_to_json(n);
	*bad = 0;
	switch (k->type) {
	case SL_T_INT:
	case SL_T_HUMAN_INT:
		*bad = !json_is_integer(v) && !json_is_null(v);
		break;
	case SL_T_FLOAT:
		if (json_is_integer(v)) {
			json_t *r = json_real((double)json_integer_value(v));
			json_decref(v);
			v = r;
		}
		*bad = !json_is_real(v) && !json_is_null(v);
		break;
	case SL_T_BOOL:
		*bad = !json_is_boolean(v) && !json_is_null(v);
		break;
	case SL_T_STRING:
		if (!json_is_string(v) && !json_is_null(v) && n->kind == SL_YAML_SCALAR) {
			json_decref(v);
			v = json_string(n->value);  /* "8" is a fine string */
		}
		break;
	default:
		break;
	}
	return v;
}

/* "key: value" as written, from the key to the end of its line. */
static char *raw_line(const sl_source *src, uint32_t off)
{
	size_t e = off;
	while (e < src->len && src->text[e] != '\n')
		e++;
	while (e > off && (src->text[e - 1] == ' ' || src->text[e - 1] == '\r'))
		e--;
	return sl_strndup(src->text + off, e - off);
}

/* "key: value" as written in the script, for a file the script writes
 * with a here-document ($MAX_BATCH where the file holds 256); NULL when
 * src is not such a file. */
static char *written_raw(const sl_ctx *c, const sl_source *src, uint32_t off)
{
	const sl_heredoc *h = NULL;
	for (size_t i = 0; i < c->nwritten && !h; i++)
		if (c->written[i].src == src)
			h = c->written[i].hd;
	if (!h || off > src->len)
		return NULL;
	size_t bol = off;
	while (bol > 0 && src->text[bol - 1] != '\n')
		bol--;
	unsigned line, col;
	sl_source_pos(src, off, &line, &col);
	size_t len;
	const char *t = sl_source_line(c->entry->script, line, &len);
	if (!t)
		return NULL;
	size_t i = 0;
	while (h->strip_tabs && i < len && t[i] == '\t')
		i++;
	i += off - bol;
	if (i > len)
		return NULL;
	size_t e = len;
	while (e > i && (t[e - 1] == ' ' || t[e - 1] == '\r'))
		e--;
	return sl_strndup(t + i, e - i);
}

typedef struct {
	sl_ctx *c;
	const sl_grammar *g;     /* whose config_keys apply */
	const sl_source *src;
	sl_service **targets;    /* services that get the settings */
	size_t ntargets;
	const char *only;        /* topology: only paths under this prefix (or NULL) */
	int topology_pass;       /* collect replica facts */
	int note_unknown;
	int symbolic_src;        /* a here-document with unknown expansions ($TP kept) */
} walk_ctx;

static void emit(walk_ctx *w, const char *key, json_t *v, const char *path, unsigned flags,
		 uint32_t off)
{
	char *raw = written_raw(w->c, w->src, off);
	if (!raw)
		raw = raw_line(w->src, off);
	for (size_t t = 0; t < w->ntargets; t++) {
		sl_service *s = w->targets[t];
		sl_setting st;
		memset(&st, 0, sizeof st);
		st.key = sl_strdup(key);
		st.value = json_incref(v);
		st.flag = sl_strdup(path);
		st.via = "file";
		st.flags = flags;
		sl_origin_set(&st.origin, w->src, off, raw);
		size_t cap = s->nsettings;
		SL_PUSH(s->settings, s->nsettings, cap, st);
	}
	free(raw);
	json_decref(v);
}

/* A collection holding a scalar written from an unknown expansion. */
static int holds_symbolic(const sl_yaml_node *n, unsigned depth)
{
	if (!n || depth > SL_YAML_MAX_DEPTH)
		return 0;
	if (n->kind == SL_YAML_SCALAR)
		return n->value && (strchr(n->value, '$') || strchr(n->value, '`'));
	for (size_t i = 0; i < n->n; i++)
		if (holds_symbolic(n->items[i], depth + 1))
			return 1;
	return 0;
}

static uint32_t line_end(const sl_source *src, uint32_t off);

static void walk(walk_ctx *w, const sl_yaml_node *map, const char *prefix, unsigned depth)
{
	if (!map || map->kind != SL_YAML_MAP || depth > SL_YAML_MAX_DEPTH)
		return;
	for (size_t i = 0; i < map->n; i++) {
		const sl_yaml_node *kn = map->keys[i], *vn = map->items[i];
		sl_buf path = {0};
		if (prefix)
			sl_buf_printf(&path, "%s.%s", prefix, kn->value);
		else
			sl_buf_puts(&path, kn->value);
		uint32_t off = (uint32_t)sl_source_offset(w->src, kn->line, kn->col);
		const sl_config_key *k = sl_grammar_config_key(w->g, path.data);
		int below = sl_grammar_config_below(w->g, path.data);
		if (k && k->replicas_of && w->topology_pass) {
			int bad;
			json_t *v = typed(k, vn, &bad);
			if (json_is_integer(v) && json_integer_value(v) > 0) {
				sl_topo_fact f;
				memset(&f, 0, sizeof f);
				f.role = sl_strdup(k->replicas_of);
				f.count = (unsigned)json_integer_value(v);
				char *raw = raw_line(w->src, off);
				sl_origin_set(&f.origin, w->src, off, raw);
				free(raw);
				SL_PUSH(w->c->topo, w->c->ntopo, w->c->topo_cap, f);
			}
			json_decref(v);
		}
		int skip = 0;
		if (w->only && *w->only)
			skip = strncmp(path.data, w->only, strlen(w->only)) != 0;
		else if (w->only)  /* "": the keys outside both sections */
			skip = sl_starts_with(path.data, "context_servers") ||
			       sl_starts_with(path.data, "generation_servers");
		if (skip) {
			/* another pass's part of the file; still counted for replicas */
			if (w->topology_pass && vn->kind == SL_YAML_MAP) {
				walk_ctx q = *w;
				q.ntargets = 0;
				q.only = NULL;
				q.note_unknown = 0;
				walk(&q, vn, path.data, depth + 1);
			}
		} else if (vn->kind == SL_YAML_MAP && (below || (!k && vn->n))) {
			walk(w, vn, path.data, depth + 1);
		} else if (k) {
			int bad;
			json_t *v = typed(k, vn, &bad);
			unsigned fl = 0;
			if (w->symbolic_src && vn->kind == SL_YAML_SCALAR && vn->value &&
			    (strchr(vn->value, '$') || strchr(vn->value, '`'))) {
				/* `tensor_parallel_size: $TP` with TP unknown: symbolic, as written */
				json_decref(v);
				v = json_string(vn->value);
				fl = SL_SET_SYMBOLIC;
				bad = 0;
			} else if (w->symbolic_src && vn->kind != SL_YAML_SCALAR && holds_symbolic(vn, 0)) {
				/* `[${LIST%, }]`: the whole value is unknown, kept as written */
				uint32_t vo = (uint32_t)sl_source_offset(w->src, vn->line, vn->col);
				char *txt = sl_strndup(w->src->text + vo, line_end(w->src, vo) - vo);
				json_decref(v);
				v = json_string(txt);
				if (w->note_unknown)
					sl_note_add(w->c, w->src, vo, "`%s` in %s is text unknown to the script (`%s`)",
						    path.data, w->src->section ? w->src->section : w->src->name, txt);
				free(txt);
				fl = SL_SET_SYMBOLIC;
				bad = 0;
			}
			if (bad && w->note_unknown)
				sl_note_add(w->c, w->src, off, "`%s` in %s should be %s", path.data,
					    w->src->section ? w->src->section : w->src->name,
					    k->type == SL_T_BOOL ? "true or false" :
					    k->type == SL_T_FLOAT ? "a number" : "an integer");
			emit(w, k->key, v, path.data, fl, off);
			/* the key's default travels with it, as a flag's does
			 * (flags.c): equal_across_roles holds a side that does
			 * not set it to that default (TensorRT-LLM's
			 * kv_cache_config.tokens_per_block 32); not under a
			 * section whose absence turns its feature off (a side
			 * without speculative_config drafts nothing, not the
			 * default count) */
			int optional = 0;
			for (size_t o = 0; o < w->g->noptional_sections && !optional; o++) {
				size_t n = strlen(w->g->optional_sections[o]);
				optional = !strncmp(path.data, w->g->optional_sections[o], n) && path.data[n] == '.';
			}
			for (size_t t = 0; k->dflt && !optional && t < w->ntargets; t++) {
				sl_setting *st = &w->targets[t]->settings[w->targets[t]->nsettings - 1];
				if (!st->dflt)
					st->dflt = json_incref(k->dflt);
			}
			/* the releases that declare the key travel with it: SL1001
			 * judges it by the entry's version, as it does a flag */
			for (size_t t = 0; k->in && w->g->config_versions && t < w->ntargets; t++) {
				sl_setting *st = &w->targets[t]->settings[w->targets[t]->nsettings - 1];
				if (!st->facts)
					st->facts = sl_build_facts(w->g->config_versions, w->g->id, w->g->title, k->in);
			}
		} else {
			/* a key the grammar does not know: kept, marked unknown */
			sl_buf key = {0};
			sl_buf_printf(&key, "%s.%s", w->g->id, path.data);
			json_t *uv = sl_yaml_to_json(vn);
			unsigned fl = SL_SET_UNKNOWN;
			if (w->symbolic_src && holds_symbolic(vn, 0)) {
				uint32_t vo = (uint32_t)sl_source_offset(w->src, vn->line, vn->col);
				json_decref(uv);
				uv = json_stringn(w->src->text + vo, line_end(w->src, vo) - vo);
				fl |= SL_SET_SYMBOLIC;
			}
			emit(w, key.data, uv, path.data, fl, off);
			/* the nearest key the engine reads, for SL1001 */
			char **paths = sl_malloc((w->g->nconfig_keys + 1) * sizeof *paths);
			for (size_t k2 = 0; k2 < w->g->nconfig_keys; k2++)
				paths[k2] = w->g->config_keys[k2].path;
			const char *near = sl_nearest(path.data, paths, w->g->nconfig_keys);
			int tied = near && sl_nearest_tied(path.data, paths, w->g->nconfig_keys, near);
			for (size_t t = 0; near && t < w->ntargets; t++) {
				sl_setting *st = &w->targets[t]->settings[w->targets[t]->nsettings - 1];
				free(st->hint);
				st->hint = sl_strdup(near);
				if (tied)
					st->flags |= SL_SET_HINT_TIED;
			}
			free(paths);
			if (w->note_unknown)
				sl_note_add(w->c, w->src, off, "unknown key `%s` in %s for %s", path.data,
					    w->src->section ? w->src->section : w->src->name, w->g->title);
			sl_buf_free(&key);
		}
		sl_buf_free(&path);
	}
}

static int src_symbolic(const sl_ctx *c, const sl_source *src)
{
	for (size_t i = 0; i < c->nwritten; i++)
		if (c->written[i].src == src)
			return c->written[i].hd->symbolic;
	return 0;
}

static int is_topology(const sl_yaml_doc *d)
{
	return d && d->root && (sl_yaml_get(d->root, "context_servers") ||
				sl_yaml_get(d->root, "generation_servers"));
}

/* A word of a config file: text at source offset `at` (every byte there). */
static sl_word *config_word(const char *text, size_t len, uint32_t at, uint32_t end)
{
	sl_word *w = sl_calloc(1, sizeof *w);
	w->text = sl_strndup(text, len);
	w->len = len;
	w->offs = sl_malloc((len + 1) * sizeof *w->offs);
	for (size_t i = 0; i <= len; i++)
		w->offs[i] = at;
	w->start = at;
	w->end = end;
	return w;
}

/* Where a YAML scalar's text ends on its line (its key: value as written). */
static uint32_t line_end(const sl_source *src, uint32_t off)
{
	size_t e = off;
	while (e < src->len && src->text[e] != '\n')
		e++;
	while (e > off && (src->text[e - 1] == ' ' || src->text[e - 1] == '\r'))
		e--;
	return (uint32_t)e;
}

/*
 * A config file that holds flags by name (vLLM's --config): each key is
 * read as `--key value` through the engine's own grammar, the way vLLM's
 * FlexibleArgumentParser.load_config_file builds arguments from it
 * (vllm-project/vllm:vllm/utils/argparse_utils.py@00da11e): true gives
 * `--key`, false `--no-key` when that exists (else nothing), a list
 * `--key item...`, a mapping `--key JSON`, anything else `--key str(value)`.
 * The command line wins over the file (via "file", see mark_overrides).
 */
static int flags_config(sl_ctx *c, sl_service *s, const sl_grammar *g, sl_config_doc *d)
{
	const sl_source *src = d->src;
	const sl_yaml_node *root = d->doc->root;
	if (!root)
		return 0;
	if (root->kind != SL_YAML_MAP) {
		sl_error_set(c->err, src->path, root->line + src->line_base, root->col,
			     "%s: expected a mapping of settings", src->section ? src->section : src->name);
		c->failed = 1;
		return -1;
	}
	sl_word **args = NULL;
	size_t n = 0, cap = 0;
	int sym = src_symbolic(c, src);
	for (size_t i = 0; i < root->n; i++) {
		const sl_yaml_node *k = root->keys[i], *v = root->items[i];
		uint32_t ko = (uint32_t)sl_source_offset(src, k->line, k->col);
		uint32_t vo = (uint32_t)sl_source_offset(src, v->line, v->col);
		uint32_t le = line_end(src, ko);
		sl_buf name = {0};
		sl_buf_printf(&name, "--%s", k->value);
		json_t *jv = sl_yaml_to_json(v);
		if (json_is_boolean(jv)) {
			if (json_is_false(jv)) {
				sl_buf no = {0};
				sl_buf_printf(&no, "--no-%s", k->value);
				sl_flag_match m;
				if (sl_grammar_match(c->gs, g, no.data, &m) && m.flag && m.negated) {
					sl_word *fw = config_word(no.data, no.len, ko, le);
					SL_PUSH(args, n, cap, fw);
				}
				sl_buf_free(&no);
			} else {
				sl_word *fw = config_word(name.data, name.len, ko, le);
				SL_PUSH(args, n, cap, fw);
			}
		} else if (json_is_array(jv)) {
			if (json_array_size(jv)) {
				sl_word *fw = config_word(name.data, name.len, ko, ko + (uint32_t)strlen(k->value));
				SL_PUSH(args, n, cap, fw);
				for (size_t q = 0; q < v->n; q++) {
					const sl_yaml_node *it = v->items[q];
					uint32_t io = (uint32_t)sl_source_offset(src, it->line, it->col);
					char *t = it->kind == SL_YAML_SCALAR ? sl_strdup(it->value)
									     : json_dumps(json_array_get(jv, q), JSON_COMPACT);
					sl_word *iw = config_word(t, strlen(t), io, line_end(src, io));
					SL_PUSH(args, n, cap, iw);
					free(t);
				}
			}
		} else if (v->kind == SL_YAML_MAP) {
			/* JSON whose every member points at its key in the file */
			sl_word *fw = config_word(name.data, name.len, ko, ko + (uint32_t)strlen(k->value));
			SL_PUSH(args, n, cap, fw);
			sl_word *vw = config_word("{", 1, vo, le);
			sl_buf t = {0};
			sl_buf_putc(&t, '{');
			uint32_t *offs = NULL;
			size_t ocap = 0;
			sl_grow((void **)&offs, &ocap, 2, sizeof *offs);
			offs[0] = vo;
			for (size_t q = 0; q < v->n; q++) {
				uint32_t mo = (uint32_t)sl_source_offset(src, v->keys[q]->line, v->keys[q]->col);
				json_t *mk = json_string(v->keys[q]->value);
				json_t *mv = json_object_get(jv, v->keys[q]->value);
				char *a = json_dumps(mk, JSON_ENCODE_ANY);
				char *bv = json_dumps(mv, JSON_ENCODE_ANY | JSON_COMPACT);
				size_t from = t.len;
				sl_buf_printf(&t, "%s%s:%s", q ? "," : "", a, bv ? bv : "null");
				sl_grow((void **)&offs, &ocap, t.len + 2, sizeof *offs);
				for (size_t z = from; z < t.len; z++)
					offs[z] = mo;
				free(a);
				free(bv);
				json_decref(mk);
			}
			sl_buf_putc(&t, '}');
			sl_grow((void **)&offs, &ocap, t.len + 1, sizeof *offs);
			offs[t.len - 1] = vo;
			offs[t.len] = vo;
			free(vw->text);
			free(vw->offs);
			vw->len = t.len;
			vw->text = sl_buf_detach(&t);
			vw->offs = offs;
			SL_PUSH(args, n, cap, vw);
		} else {
			sl_word *fw = config_word(name.data, name.len, ko, ko + (uint32_t)strlen(k->value));
			SL_PUSH(args, n, cap, fw);
			char *t = v->kind == SL_YAML_SCALAR ? sl_strdup(v->value ? v->value : "")
							    : json_dumps(jv, JSON_COMPACT);
			sl_word *vw = config_word(t, strlen(t), vo, le);
			if (sym && (strchr(t, '$') || strchr(t, '`')))
				vw->flags |= SL_WORD_SYMBOLIC;
			SL_PUSH(args, n, cap, vw);
			free(t);
		}
		json_decref(jv);
		sl_buf_free(&name);
	}
	/* read into the service as if written on its command line, then marked
	 * as coming from the file */
	sl_build b;
	memset(&b, 0, sizeof b);
	b.svc = *s;
	b.env_cap = s->nenv;
	b.set_cap = s->nsettings;
	b.wrap_cap = s->nwrappers;
	b.grammar = g;
	b.args_src = src;
	size_t first = s->nsettings;
	int rc = sl_parse_engine_args(c, &b, g, args, n, 0);
	*s = b.svc;
	for (size_t i = first; i < s->nsettings; i++) {
		sl_setting *st = &s->settings[i];
		st->via = "file";
		char *raw = written_raw(c, src, st->origin.off);
		if (raw) {
			free(st->origin.raw);
			st->origin.raw = raw;
		}
	}
	for (size_t i = 0; i < n; i++) {
		sl_word_free(args[i]);
		free(args[i]);
	}
	free(args);
	return rc;
}

/* One file a service names into its settings: -1 stops (c->failed). */
static int link_file(sl_ctx *c, size_t i, sl_service *s, const sl_grammar *own, const sl_grammar *g,
		     const sl_source *src, const sl_setting *cf)
{
	sl_model *m = c->model;
	if (!g && own && own->config_as_flags) {
		sl_config_doc *d = doc_of(c, src);
		if (!d)
			return c->failed ? -1 : 0;
		d->used = 1;
		return flags_config(c, s, own, d) ? -1 : 0;
	}
	if (!g) {
		sl_note_add(c, cf->origin.src, cf->origin.off,
			    "config files of %s are not read yet", own ? own->title : s->engine);
		return 0;
	}
	sl_config_doc *d = doc_of(c, src);
	if (!d)
		return c->failed ? -1 : 0;
	d->used = 1;
	if (!d->doc->root)
		return 0;
	if (d->doc->ndocs > 1)
		sl_note_add(c, src, 0, "%s holds %zu YAML documents; engines read one (the first is used here)",
			    src->section ? src->section : src->name, d->doc->ndocs);
	if (d->doc->root->kind != SL_YAML_MAP) {
		sl_error_set(c->err, src->path, d->doc->root->line + src->line_base,
			     d->doc->root->col, "%s: expected a mapping of settings",
			     src->section ? src->section : src->name);
		c->failed = 1;
		return -1;
	}
	walk_ctx w = {c, g, src, &s, 1, NULL, is_topology(d->doc), 1, src_symbolic(c, src)};
	/* notes once per file, not once per service naming it */
	for (size_t j = 0; j < i; j++) {
		const sl_setting *o = sl_service_get(&m->services[j], "engine.config_file");
		if (o && json_is_string(o->value) &&
		    resolve(c, &m->services[j], json_string_value(o->value)) == src) {
			w.note_unknown = 0;
			w.topology_pass = 0;
		}
	}
	walk(&w, d->doc->root, NULL, 0);
	return 0;
}

/* The parts of a file the script writes in steps (`cat <<EOF >> FILE`
 * after `cat > FILE <<EOF`), oldest first, ending with src; n is 1 when
 * src is not such a file or is written at once. */
static size_t written_parts(const sl_ctx *c, const sl_source *src, const sl_source **parts, size_t max)
{
	size_t at = c->nwritten;
	for (size_t i = 0; i < c->nwritten; i++)
		if (c->written[i].src == src)
			at = i;
	parts[0] = src;
	if (at == c->nwritten || !c->written[at].hd->append)
		return 1;
	size_t n = 1;
	const char *target = c->written[at].hd->target;
	for (size_t j = at; j-- > 0 && n < max;) {
		const sl_heredoc *h = c->written[j].hd;
		if (strcmp(h->target, target))
			continue;
		memmove(parts + 1, parts, n * sizeof *parts);
		parts[0] = c->written[j].src;
		n++;
		if (!h->append)
			break;
	}
	return n;
}

int sl_link_configs(sl_ctx *c)
{
	sl_model *m = c->model;
	/* 1. files that services name */
	for (size_t i = 0; i < m->nservices && !c->failed; i++) {
		sl_service *s = &m->services[i];
		const sl_setting *cf = sl_service_get(s, "engine.config_file");
		if (!cf || !json_is_string(cf->value))
			continue;
		const char *path = json_string_value(cf->value);
		const sl_grammar *own = sl_grammar_find(c->gs, s->engine);
		const sl_grammar *g = own ? sl_grammar_config(c->gs, own) : NULL;
		const sl_source *src = resolve(c, s, path);
		if (!src) {
			/* of its kind: SL0004 names the file among what is not checked */
			sl_note_kind(c, "config_not_read", cf->origin.src, cf->origin.off,
				     "config file `%s` is not part of the entry: its settings are unknown", path);
			continue;
		}
		const sl_source *parts[16];
		size_t np = written_parts(c, src, parts, 16);
		for (size_t p = 0; p < np; p++)
			if (link_file(c, i, s, own, g, parts[p], cf))
				break;
	}
	if (c->failed)
		return SL_ERR_INPUT;
	/* 2. topology files no service names: replica counts, and each section's
	 * settings to the role it describes */
	const sl_grammar *tg = sl_grammar_find(c->gs, "trtllm-disagg");
	for (size_t f = 0; f < c->entry->nfiles + c->nwritten && tg && !c->failed; f++) {
		const sl_source *src = f < c->entry->nfiles ? c->entry->files[f]
							     : c->written[f - c->entry->nfiles].src;
		int named = 0;
		for (size_t i = 0; i < c->ndocs; i++)
			named |= c->docs[i].src == src && c->docs[i].used;
		/* only what can be a YAML file: a script writing its patch.py or
		 * "$f" with a here-document has written no topology */
		const char *fname = src->section ? src->section : src->name;
		if (named || !(sl_ends_with(fname, ".yaml") || sl_ends_with(fname, ".yml") ||
			       sl_ends_with(fname, ".json")))
			continue;
		sl_config_doc *d = doc_of(c, src);
		if (!d || !is_topology(d->doc))
			continue;
		static const struct { const char *section, *role; } parts[] = {
			{"context_servers", "prefill"}, {"generation_servers", "decode"}, {"", NULL}};
		for (size_t p = 0; p < 3; p++) {
			sl_service **t = NULL;
			size_t nt = 0, cap = 0;
			for (size_t i = 0; i < m->nservices; i++)
				if (parts[p].role ? !strcmp(m->services[i].role, parts[p].role)
						  : (!strcmp(m->services[i].role, "prefill") ||
						     !strcmp(m->services[i].role, "decode"))) {
					sl_service *sp = &m->services[i];
					SL_PUSH(t, nt, cap, sp);
				}
			walk_ctx w = {c, tg, src, t, nt, parts[p].section, p == 0, 1, src_symbolic(c, src)};
			walk(&w, d->doc->root, NULL, 0);
			free(t);
		}
	}
	return c->failed ? SL_ERR_INPUT : SL_OK;
}

void sl_config_replicas(sl_ctx *c)
{
	for (size_t f = 0; f < c->ntopo; f++)
		for (size_t i = 0; i < c->model->nservices; i++) {
			sl_service *s = &c->model->services[i];
			if (strcmp(s->role, c->topo[f].role) || (s->replicas_from &&
								  !strcmp(s->replicas_from, "for loop")))
				continue;
			s->replicas = c->topo[f].count;
			free(s->replicas_from);
			s->replicas_from = sl_strdup(c->topo[f].origin.src->section
							     ? c->topo[f].origin.src->section
							     : c->topo[f].origin.src->name);
			sl_origin_clear(&s->replicas_origin);
			sl_origin_copy(&s->replicas_origin, &c->topo[f].origin);
		}
}

void sl_config_free(sl_ctx *c)
{
	for (size_t i = 0; i < c->ndocs; i++)
		if (!c->docs[i].shared)
			sl_yaml_free(c->docs[i].doc);
	free(c->docs);
	for (size_t i = 0; i < c->ntopo; i++) {
		free(c->topo[i].role);
		sl_origin_clear(&c->topo[i].origin);
	}
	free(c->topo);
}
