

/*
 * normalize.c: from a parsed script to services. Each command is unwrapped
 * (unwrap.c peels its launchers off until an engine command remains), then
 * the rest is done in order: topology.c (roles, replicas, GPUs, config
 * files), claims.c (what the text says of itself); the script's
 * here-documents become sources of the model, and a group's scripts one
 * model. The top of the stage: it uses unwrap.c, topology.c, claims.c,
 * config.c (freeing its files), group.c, build.c and grammar.c, and no
 * file of the stage uses it.
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "claims.h"
#include "config.h"
#include "structure.h"
#include "topology.h"
#include "unwrap.h"
#include "group.h"

int sl_normalize_grammars_load(sl_grammars **out, sl_error *err)
{
	return sl_grammars_load(out, err);
}

void sl_normalize_grammars_free(sl_grammars *gs)
{
	sl_grammars_free(gs);
}

void sl_normalize_grammars_share(sl_grammars *gs)
{
	sl_grammars_share(gs);
}

/*
 * Each here-document file becomes a source of the model: the script's path,
 * the written file's name as its section (as a catalogue-form section is),
 * and the script's line numbers and columns (the tabs `<<-` removes are
 * counted back). Columns after an expansion on the same line are those of
 * the expanded text ($TP written as 8 shortens the line).
 */
static void sl_written_load(sl_ctx *c)
{
	const sl_script *s = c->script;
	const sl_source *script = c->entry->script;
	if (!s->nheredocs)
		return;
	c->model->files = sl_calloc(s->nheredocs, sizeof *c->model->files);
	c->written = sl_calloc(s->nheredocs, sizeof *c->written);
	for (size_t i = 0; i < s->nheredocs; i++) {
		const sl_heredoc *h = &s->heredocs[i];
		sl_source *src;
		sl_error e = {0};
		if (sl_source_from_memory(script->path, h->body.text, h->body.len, &src, &e)) {
			sl_note_add(c, script, h->start, "here-document for `%s` is empty", h->target);
			sl_error_clear(&e);
			continue;
		}
		unsigned line, col;
		sl_source_pos(script, h->body_start, &line, &col);
		src->line_base = line - 1;
		src->section = sl_strdup(h->target);
		if (h->strip_tabs) {
			/* the tabs `<<-` removed, line by line, so columns are the script's */
			src->col_shift = sl_calloc(src->nlines, sizeof *src->col_shift);
			for (size_t k = 0; k < src->nlines; k++) {
				size_t len;
				const char *t = sl_source_line(script, line + (unsigned)k, &len);
				unsigned n = 0;
				while (n < len && t[n] == '\t')
					n++;
				src->col_shift[k] = n;
			}
		}
		c->model->files[c->model->nfiles++] = src;
		c->written[c->nwritten].src = src;
		c->written[c->nwritten].hd = h;
		c->nwritten++;
	}
}

static void build_free(sl_build *b)
{
	/* hand the service to a throwaway model for freeing */
	sl_model tmp;
	memset(&tmp, 0, sizeof tmp);
	sl_service *s = sl_malloc(sizeof *s);
	*s = b->svc;
	tmp.services = s;
	tmp.nservices = 1;
	sl_model *m = sl_malloc(sizeof *m);
	*m = tmp;
	sl_model_free(m);
	memset(b, 0, sizeof *b);
}

/* One variable a command gets, [name, value, symbolic] (built by hand, not
 * by json_pack, whose format parsing cost more than the values; a name or
 * value not UTF-8 gives NULL, as json_pack did, and is left out). */
static json_t *env_var(const sl_assign *a)
{
	json_t *n = json_string(a->name), *v = json_stringn(a->value.text, a->value.len);
	if (!n || !v) {
		json_decref(n);
		json_decref(v);
		return NULL;
	}
	json_t *r = json_array();
	json_array_append_new(r, n);
	json_array_append_new(r, v);
	json_array_append_new(r, json_boolean((a->value.flags & SL_WORD_SYMBOLIC) != 0));
	return r;
}

/* What `run` starts for a command: its words as written (expanded, quotes
 * removed) and the variables it gets (exported ones, then its inline ones). */
static json_t *launch_of(const sl_command *cmd, const sl_word *engine)
{
	json_t *argv = json_array(), *env = json_array();
	for (size_t i = 0; i < cmd->argc; i++)
		json_array_append_new(argv, json_stringn(cmd->argv[i].text, cmd->argv[i].len));
	for (size_t i = 0; i < cmd->nexported; i++)
		json_array_append_new(env, env_var(&cmd->exported[i]));
	for (size_t i = 0; i < cmd->nprefix; i++)
		json_array_append_new(env, env_var(&cmd->prefix[i]));
	/* words whose value the shell computes when it runs ($X, $(..)): kept
	 * as written, and run can only take them from --set or its environment */
	json_t *sym = json_array();
	for (size_t i = 0; i < cmd->argc; i++)
		if (cmd->argv[i].flags & SL_WORD_SYMBOLIC)
			json_array_append_new(sym, json_integer((json_int_t)i));
	json_int_t at = engine >= cmd->argv && engine < cmd->argv + cmd->argc ? (json_int_t)(engine - cmd->argv) : -1;
	json_t *o = json_object();
	json_object_set_new(o, "argv", argv);
	json_object_set_new(o, "env", env);
	json_object_set_new(o, "engine_at", json_integer(at));
	json_object_set_new(o, "symbolic", sym);
	json_object_set_new(o, "at", json_integer((json_int_t)cmd->start));
	return o;
}

int sl_normalize_entry(const sl_entry *e, const sl_grammars *gs, sl_model **out, sl_error *err)
{
	int rc = sl_normalize_entry_with(e, gs, NULL, out, err);
	if (!rc && (*out)->variant) {
		/* callers that take one model (matrix, log, review) get the first
		 * alternative of each undecided if/case: say so */
		sl_note n;
		memset(&n, 0, sizeof n);
		sl_buf b = {0};
		if (sl_source_is_vllm_recipe(e->script))
			sl_buf_printf(&b, "the recipe has several variants; this reading reads the first, %s "
				      "(servelint show lists every variant)", (*out)->variant);
		else
			sl_buf_printf(&b, "the script has conditionals this reading cannot decide; it assumes %s "
				      "(servelint show lists every variant)", (*out)->variant);
		n.msg = sl_buf_detach(&b);
		sl_origin_set(&n.origin, e->script, 0, NULL);
		size_t cap = (*out)->nnotes;
		SL_PUSH((*out)->notes, (*out)->nnotes, cap, n);
	}
	return rc;
}

int sl_normalize_entry_with(const sl_entry *e, const sl_grammars *gs, const sl_shell_opts *opts,
			    sl_model **out, sl_error *err)
{
	*out = NULL;
	sl_script *s;
	if (sl_source_is_manifest(e->script))
		return sl_normalize_entry_script(e, gs, NULL, NULL, out, err);
	int rc = sl_shell_parse_with(e->script, opts, &s, err);
	return rc ? rc : sl_normalize_entry_script(e, gs, s, opts ? opts->cache : NULL, out, err);
}

static int normalize_one(const sl_entry *e, const sl_grammars *gs, sl_script *s, sl_shell_cache *cache,
			 sl_group_run *grp, sl_model **out, sl_error *err)
{
	*out = NULL;
	sl_k8s_workload *ws = NULL;
	size_t nws = 0;
	int rc = SL_OK;
	if (!s) {
		sl_shell_opts o = {NULL, NULL, 0, NULL, 0, cache, NULL, 0};
		rc = sl_source_is_vllm_recipe(e->script)
			     ? sl_vllm_recipe_parse(e->script, e->recipe_variant, &s, &ws, &nws, err)
		     : sl_source_is_recipe(e->script)   ? sl_recipe_parse(e->script, &s, &ws, &nws, err)
		     : sl_source_is_manifest(e->script) ? sl_k8s_parse(e->script, &s, &ws, &nws, err)
						       : sl_shell_parse_with(e->script, &o, &s, err);
		if (rc)
			return rc;
	}
	sl_ctx c;
	memset(&c, 0, sizeof c);
	c.ws = ws;
	c.group = grp;
	c.entry = e;
	c.cache = cache;
	c.gs = gs;
	c.err = err;
	c.model = sl_calloc(1, sizeof *c.model);
	c.model->entry = e;
	c.model->variant = sl_script_variant_label(s);
	c.model->variant_index = 1;
	c.model->nvariants = 1;
	c.script = s;
	for (size_t i = 0; i < s->nnotes; i++)
		sl_note_add(&c, e->script, s->note_offs[i], "%s", s->notes[i]);
	sl_note_breaks(&c, s, e->script);
	/* DOS line ends: read as LF here, but not by bash */
	const char *cr = ws ? NULL : memchr(e->script->text, '\r', e->script->len);
	if (cr && (size_t)(cr - e->script->text) + 1 < e->script->len && cr[1] == '\n')
		sl_note_add(&c, e->script, (uint32_t)(cr - e->script->text),
			    "the script has DOS line ends (CR LF): servelint reads them as LF, but bash reads each CR as part of "
			    "the line's last word (`8000\\r`), and a `\\` before CR LF does not continue the line");
	if (s->ninputs) {
		c.model->inputs = sl_calloc(s->ninputs, sizeof *c.model->inputs);
		for (size_t i = 0; i < s->ninputs; i++) {
			sl_model_input *in = &c.model->inputs[i];
			in->name = sl_strdup(s->inputs[i].name);
			in->value = s->inputs[i].value ? sl_strdup(s->inputs[i].value) : NULL;
			in->defaulted = s->inputs[i].defaulted;
			sl_origin_set(&in->origin, e->script, s->inputs[i].off, NULL);
		}
		c.model->ninputs = s->ninputs;
	}
	sl_written_load(&c);
	for (size_t i = 0; i < s->ncmds && !c.failed; i++) {
		const sl_command *cmd = &s->cmds[i];
		sl_build b;
		memset(&b, 0, sizeof b);
		b.cmd = cmd;
		b.script = s;
		b.svc.replicas = 1;
		b.svc.gpus = -1;
		b.svc.background = cmd->background;
		sl_unwrap_handed(&c, &b);
		sl_unwrap_env_from(&b, cmd->exported, cmd->nexported, "export", e->script);
		int recipe = ws && strstr(ws[i].kind, "recipe");
		sl_unwrap_env_from(&b, cmd->prefix, cmd->nprefix, recipe ? "recipe" : ws ? "kubernetes" : "inline", e->script);
		if (ws) {
			const sl_k8s_workload *w = &ws[i];
			json_t *kind = json_string(w->kind), *d = kind ? json_object() : NULL;
			json_object_set_new(d, "kind", kind);
			if (w->name)
				json_object_set_new(d, "name", json_string(w->name));
			if (w->container)
				json_object_set_new(d, "container", json_string(w->container));
			if (w->image)
				json_object_set_new(d, "image", json_string(w->image));
			/* keys starting with '_' are internal: where the image is
			 * written, and the version the form states beside it */
			if (w->image && w->image_off)
				json_object_set_new(d, "_image_at", json_integer(w->image_off));
			if (w->version) {
				json_object_set_new(d, "_version", json_string(w->version));
				json_object_set_new(d, "_version_at", json_integer(w->version_off));
			}
			if (w->component)
				json_object_set_new(d, "componentType", json_string(w->component));
			if (w->sub_component)
				json_object_set_new(d, "subComponentType", json_string(w->sub_component));
			sl_build_wrapper(&b, recipe ? "recipe" : "kubernetes", d, e->script, cmd->start, w->kind);
		}
		sl_word **argv = sl_calloc(cmd->argc + 1, sizeof *argv);
		for (size_t k = 0; k < cmd->argc; k++)
			argv[k] = &cmd->argv[k];
		int found = cmd->argc ? sl_unwrap(&c, &b, argv, cmd->argc, 0) : 0;
		free(argv);
		if (found <= 0) {
			build_free(&b);
			continue;
		}
		sl_service svc = b.svc;
		svc.launches = json_array();
		json_array_append_new(svc.launches, launch_of(cmd, b.engine_word));
		sl_grow((void **)&c.svc_cmd, &c.svc_cmd_cap, c.model->nservices + 1, sizeof *c.svc_cmd);
		c.svc_cmd[c.model->nservices] = i;
		SL_PUSH(c.model->services, c.model->nservices, c.svc_cap, svc);
	}
	if (!c.failed) {
		sl_structure_services(&c, s);
		sl_structure_reads(&c, s, e->script);
	}
	if (!c.failed)
		sl_topology(&c, s);
	if (!c.failed)
		sl_extract_claims(&c, s);
	for (size_t i = 0; i < c.ninner; i++)
		sl_script_free(c.inner[i]);
	free(c.inner);
	free(c.svc_cmd);
	free(c.written);
	sl_config_free(&c);
	sl_script_free(s);
	sl_k8s_workloads_free(ws, nws);
	if (c.failed) {
		sl_model_free(c.model);
		return SL_ERR_INPUT;
	}
	*out = c.model;
	return SL_OK;
}

/* Whether a script's text has `name` as a word of its own (as a group
 * is found: sl_source_groups). */
static int names_word(const sl_source *src, const char *name)
{
	size_t nl = strlen(name);
	for (const char *p = strstr(src->text, name); p; p = strstr(p + 1, name)) {
		char b = p > src->text ? p[-1] : ' ', a = p[nl];
		int inner = (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9') || b == '_' ||
			    b == '-' || b == '.';
		int after = (a >= 'a' && a <= 'z') || (a >= 'A' && a <= 'Z') || (a >= '0' && a <= '9') || a == '_' ||
			    a == '-' || a == '.';
		if (!inner && !after)
			return 1;
	}
	return 0;
}

/* An entry of several scripts (a group: prefill.sh + decode.sh, a wrapper
 * and the script it runs): each read as its own, in the group's order, and
 * their services, notes, claims and inputs made one model (group.c). */
/* An engine config file read alone (sl_entry_input_alone): the command
 * line servelint made names the file itself, and that name is no served
 * value (two copies of one file under two names serve the same model). */
static void mark_own_name(const sl_entry *e, sl_model *m)
{
	if (!e->alone)
		return;
	for (size_t i = 0; i < m->nservices; i++)
		for (size_t k = 0; k < m->services[i].nsettings; k++) {
			sl_setting *st = &m->services[i].settings[k];
			if (st->origin.src == e->script && !strcmp(st->key, "engine.config_file"))
				st->flags |= SL_SET_OWN_NAME;
		}
}

int sl_normalize_entry_script(const sl_entry *e, const sl_grammars *gs, sl_script *s, sl_shell_cache *cache,
			      sl_model **out, sl_error *err)
{
	if (!e->nscripts) {
		int rc = normalize_one(e, gs, s, cache, NULL, out, err);
		if (!rc)
			mark_own_name(e, *out);
		return rc;
	}
	sl_group_run grp;
	memset(&grp, 0, sizeof grp);
	int rc = normalize_one(e, gs, s, cache, &grp, out, err);
	for (size_t k = 0; k < e->nscripts && !rc; k++) {
		/* a script that another of the group runs is read when this
		 * reading runs it (`case $FW in vllm) bash server_vllm.sh` gives
		 * one variant per server script, not all of them at once) */
		int run_by_other = 0, handed_here = 0;
		for (size_t q = 0; q <= e->nscripts && !run_by_other; q++) {
			const sl_source *o = q == e->nscripts ? e->script : e->scripts[q];
			run_by_other = q != k && names_word(o, e->scripts[k]->name);
		}
		for (size_t q = 0; q < grp.n && !handed_here; q++)
			handed_here = !strcmp(grp.v[q].script, e->scripts[k]->name);
		if (run_by_other && !handed_here)
			continue;
		/* the k-th script's view of the entry: the others are its group */
		sl_entry view = *e;
		view.script = e->scripts[k];
		view.metadata = NULL; /* the entry's claims are read once */
		view.scripts = sl_calloc(e->nscripts, sizeof *view.scripts);
		view.nscripts = 0;
		view.scripts[view.nscripts++] = e->script;
		for (size_t q = 0; q < e->nscripts; q++)
			if (q != k)
				view.scripts[view.nscripts++] = e->scripts[q];
		sl_model *m = NULL;
		rc = normalize_one(&view, gs, NULL, cache, &grp, &m, err);
		free(view.scripts);
		if (rc)
			break;
		m->entry = e;
		sl_group_merge(*out, m, e->scripts[k]);
	}
	sl_group_run_free(&grp);
	if (rc) {
		sl_model_free(*out);
		*out = NULL;
		return rc;
	}
	sl_group_rename(*out);
	return SL_OK;
}
