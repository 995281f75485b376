/*
 * roles.c: each service's role (from flags, the header comment right above
 * its command, KV transfer roles, engine kinds, a manifest's
 * subComponentType) and its name (role, or role-1, role-2...), and the
 * reading of comments that the other topology files share (a command's
 * comment block, words naming a role). Uses no other file of the stage.
 */
#include "topology.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

const sl_command *sl_topo_cmd_of(sl_ctx *c, const sl_script *s, size_t i)
{
	return &s->cmds[c->svc_cmd[i]];
}

void sl_topo_lower(char *s)
{
	for (; *s; s++)
		*s = (char)tolower((unsigned char)*s);
}

static int has_word(const char *text, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = strstr(text, word); p; p = strstr(p + 1, word)) {
		int before = p == text || !isalnum((unsigned char)p[-1]);
		int after = !isalnum((unsigned char)p[n]) || p[n] == 's';
		if (before && after)
			return 1;
	}
	return 0;
}

/* ---- roles ------------------------------------------------------------------ */

const char *sl_topo_role_from_text(const char *t)
{
	if (has_word(t, "prefill") || has_word(t, "context"))
		return "prefill";
	if (has_word(t, "decode") || has_word(t, "generation"))
		return "decode";
	if (has_word(t, "frontend"))
		return "frontend";
	if (has_word(t, "router"))
		return "router";
	return NULL;
}

static void set_role(sl_service *s, const char *role, const char *from)
{
	free(s->role);
	free(s->role_from);
	s->role = sl_strdup(role);
	s->role_from = sl_strdup(from);
}

void sl_topo_assign_role(sl_ctx *c, const sl_script *sc, size_t i)
{
	sl_service *s = &c->model->services[i];
	const char *e = s->engine;
	if (!strcmp(e, "dynamo-frontend")) {
		set_role(s, "frontend", "engine");
		return;
	}
	if (!strcmp(e, "etcd")) {
		set_role(s, "etcd", "engine");
		return;
	}
	if (!strcmp(e, "trtllm-disagg")) {
		set_role(s, "orchestrator", "engine");
		return;
	}
	const sl_grammar *g = sl_grammar_find(c->gs, e);
	if (g && g->role) {  /* routers, KV stores: the grammar's `role:` */
		set_role(s, g->role, "engine");
		return;
	}
	const sl_setting *m = sl_service_get(s, "disagg.mode");
	if (m && json_is_string(m->value)) {
		const char *v = json_string_value(m->value);
		if (!strcmp(v, "prefill") || !strcmp(v, "decode")) {
			set_role(s, v, m->flag);
			return;
		}
		/* pd: Dynamo's legacy name of agg (ai-dynamo/dynamo
		 * components/src/dynamo/sglang/args.py@e147cee maps agg and pd to
		 * SGLang's null) */
		if (!strcmp(v, "agg") || !strcmp(v, "pd") || !strcmp(v, "prefill_and_decode") || !strcmp(v, "null")) {
			set_role(s, "aggregated", m->flag);
			return;
		}
		/* a Dynamo multimodal encode worker: runs the vision encoder
		 * alone (SGLang's encoder_only) and hands the embeddings on; it
		 * neither prefills nor decodes for the LLM */
		if (!strcmp(v, "encode")) {
			set_role(s, "encode", m->flag);
			return;
		}
	}
	/* its deprecated flag (Dynamo before 1.4.0: --multimodal-encode-worker) */
	const sl_setting *mew = sl_service_get(s, "dynamo.multimodal_encode_worker");
	if (mew && json_is_true(mew->value)) {
		set_role(s, "encode", mew->flag);
		return;
	}
	/* Dynamo's deprecated role flags */
	const sl_setting *ip = sl_service_get(s, "dynamo.is_prefill_worker");
	const sl_setting *id = sl_service_get(s, "dynamo.is_decode_worker");
	if (ip && json_is_true(ip->value)) {
		set_role(s, "prefill", ip->flag);
		return;
	}
	if (id && json_is_true(id->value)) {
		set_role(s, "decode", id->flag);
		return;
	}
	const sl_command *cmd = sl_topo_cmd_of(c, sc, i);
	if (cmd->block >= 0) {
		/* the header line right above the command names the role */
		const sl_comment_block *bl = &sc->blocks[cmd->block];
		char *last = sl_strdup(sc->comments[bl->first + bl->count - 1].text);
		sl_topo_lower(last);
		const char *r = sl_topo_role_from_text(last);
		free(last);
		if (r && strcmp(r, "frontend") && strcmp(r, "router")) {
			set_role(s, r, "comment");
			return;
		}
	}
	const sl_setting *kv = sl_service_get(s, "kv.transfer.role");
	if (kv && json_is_string(kv->value)) {
		const char *v = json_string_value(kv->value);
		if (!strcmp(v, "kv_producer")) {
			set_role(s, "prefill", "kv_role");
			return;
		}
		if (!strcmp(v, "kv_consumer")) {
			set_role(s, "decode", "kv_role");
			return;
		}
	}
	/* a Dynamo manifest's subComponentType (v1alpha1), or its
	 * component's type (v1beta1: prefill and decode are types) */
	const char *sub = c->ws ? c->ws[c->svc_cmd[i]].sub_component : NULL;
	const char *comp = c->ws ? c->ws[c->svc_cmd[i]].component : NULL;
	if (sub && (!strcmp(sub, "prefill") || !strcmp(sub, "decode"))) {
		set_role(s, sub, "subComponentType");
		return;
	}
	if (!sub && comp && (!strcmp(comp, "prefill") || !strcmp(comp, "decode"))) {
		set_role(s, comp, "type");
		return;
	}
	/* a group's script named for its role: prefill.sh, run_decode.sh */
	if (c->entry->grouped) {
		char *low = sl_strdup(c->entry->script->name);
		sl_topo_lower(low);
		const char *r = sl_topo_role_from_text(low);
		free(low);
		if (r) {
			sl_buf from = {0};
			sl_buf_printf(&from, "script name %s", c->entry->script->name);
			set_role(s, r, from.data);
			sl_buf_free(&from);
			return;
		}
	}
	set_role(s, "aggregated", "default");
}

int sl_topo_is_worker(const char *role)
{
	return !strcmp(role, "prefill") || !strcmp(role, "decode") || !strcmp(role, "aggregated");
}

/* role, or role-1, role-2 ... when several services share it */
void sl_topo_assign_names(sl_model *m)
{
	const char *roles[16];
	size_t total[16] = {0}, seen[16] = {0}, nr = 0;
	for (size_t i = 0; i < m->nservices; i++) {
		size_t r = 0;
		while (r < nr && strcmp(roles[r], m->services[i].role))
			r++;
		if (r == nr && nr < 16)
			roles[nr++] = m->services[i].role;
		if (r < 16)
			total[r]++;
	}
	for (size_t i = 0; i < m->nservices; i++) {
		size_t r = 0;
		while (r < nr && strcmp(roles[r], m->services[i].role))
			r++;
		sl_buf b = {0};
		if (r < 16 && total[r] > 1)
			sl_buf_printf(&b, "%s-%zu", m->services[i].role, ++seen[r]);
		else
			sl_buf_puts(&b, m->services[i].role);
		m->services[i].name = sl_buf_detach(&b);
	}
}
