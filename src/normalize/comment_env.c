/*
 * comment_env.c: environment variables that comments list ("# Worker
 * environment:", "#   NCCL_X=1 UCX_Y=2"), to the services their headings
 * name. Comments are prose, so what is taken from them is narrow on
 * purpose: env only as NAME=VALUE tokens whose NAME has an underscore (so
 * `TP=2` in a sentence is not an env var), unless the line lists env.
 * Uses roles.c (the roles services have, the role words of a heading).
 */
#include "topology.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static char *block_text(const sl_script *s, int bi)
{
	sl_buf b = {0};
	if (bi < 0)
		return sl_buf_detach(&b);
	const sl_comment_block *bl = &s->blocks[bi];
	for (size_t k = 0; k < bl->count; k++) {
		sl_buf_puts(&b, s->comments[bl->first + k].text);
		sl_buf_putc(&b, '\n');
	}
	char *t = sl_buf_detach(&b);
	sl_topo_lower(t);
	return t;
}

static int env_name_ok(const char *s, size_t n)
{
	if (n < 3 || !isupper((unsigned char)s[0]))
		return 0;
	int us = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '_')
			us = 1;
		else if (!isupper((unsigned char)s[i]) && !isdigit((unsigned char)s[i]))
			return 0;
	}
	return us;
}

/* Which services a comment's env reaches: the roles its heading names
 * ("Worker environment", "Frontend / router and worker environment"), or
 * every service when it names none. */
enum { R_WORKERS = 1, R_FRONTEND = 2, R_ETCD = 4, R_ORCH = 8, R_PREFILL = 16, R_DECODE = 32 };

static unsigned scope_of(const char *low)
{
	unsigned m = 0;
	if (strstr(low, "worker"))
		m |= R_WORKERS;
	if (strstr(low, "frontend") || strstr(low, "router"))
		m |= R_FRONTEND;
	if (strstr(low, "etcd"))
		m |= R_ETCD;
	if (strstr(low, "orchestrator"))
		m |= R_ORCH;
	return m;
}

static int in_scope(const sl_service *s, unsigned m)
{
	if (!m)
		return 1;
	const char *r = s->role;
	return ((m & R_WORKERS) && sl_topo_is_worker(r)) ||
	       ((m & R_FRONTEND) && (!strcmp(r, "frontend") || !strcmp(r, "router"))) ||
	       ((m & R_ETCD) && !strcmp(r, "etcd")) || ((m & R_ORCH) && !strcmp(r, "orchestrator")) ||
	       ((m & R_PREFILL) && !strcmp(r, "prefill")) || ((m & R_DECODE) && !strcmp(r, "decode"));
}

static void add_comment_env(sl_service *s, const char *name, const char *value, const sl_source *src,
			    uint32_t off, const char *raw, unsigned extra)
{
	/* an env var the command really sets wins over one a comment lists */
	unsigned flags = 0;
	for (size_t i = 0; i < s->nenv; i++)
		if (!strcmp(s->env[i].name, name) && strcmp(s->env[i].via, "comment"))
			flags |= SL_SET_OVERRIDDEN;
	size_t at;
	if (sl_find_placeholder(value, strlen(value), &at))
		flags |= SL_SET_PLACEHOLDER;
	sl_env e;
	memset(&e, 0, sizeof e);
	e.name = sl_strdup(name);
	e.value = sl_strdup(value);
	e.via = "comment";
	e.flags = flags | extra;
	sl_origin_set(&e.origin, src, off, raw);
	size_t cap = s->nenv;
	SL_PUSH(s->env, s->nenv, cap, e);
}

static int is_env_listing(const char *t)
{
	while (*t == ' ' || *t == '\t')
		t++;
	if (!isupper((unsigned char)*t))
		return 0;
	while (isupper((unsigned char)*t) || isdigit((unsigned char)*t) || *t == '_')
		t++;
	return *t == '=';
}

static void comment_env_line(sl_ctx *c, const sl_comment *cm, unsigned scope,
			     const size_t *targets, size_t ntargets)
{
	const char *t = cm->text;
	const sl_source *src = c->entry->script;
	char *low = sl_strdup(t);
	sl_topo_lower(low);
	int additionally = strstr(low, "additionally") != NULL;
	/* "(context workers additionally: X=1)" narrows the scope of its line */
	if (additionally) {
		const char *r = sl_topo_role_from_text(low);
		if (r) {
			scope = !strcmp(r, "prefill") ? R_PREFILL : !strcmp(r, "decode") ? R_DECODE
											  : scope_of(low);
			ntargets = 0;
			targets = NULL;
		}
	}
	free(low);
	/* a line that lists env (`#   A=1 B=2`) may hold any NAME; in prose,
	 * only NAMEs with an underscore count, so `TP=2` stays prose */
	int listing = is_env_listing(t) || additionally;
	size_t n = strlen(t);
	for (size_t i = 0; i < n;) {
		if (!isupper((unsigned char)t[i]) || (i > 0 && (isalnum((unsigned char)t[i - 1]) || t[i - 1] == '_'))) {
			i++;
			continue;
		}
		size_t j = i;
		while (j < n && (isupper((unsigned char)t[j]) || isdigit((unsigned char)t[j]) || t[j] == '_'))
			j++;
		if (j >= n || t[j] != '=' || !(env_name_ok(t + i, j - i) || listing)) {
			i = j + 1;
			continue;
		}
		size_t v = j + 1, ve = v;
		while (ve < n && !isspace((unsigned char)t[ve]))
			ve++;
		/* prose punctuation around the value is not part of it */
		while (ve > v && (t[ve - 1] == ')' || t[ve - 1] == ':' || t[ve - 1] == ';' ||
				  (t[ve - 1] == ',' && ve == v + 1)))
			ve--;
		char *name = sl_strndup(t + i, j - i);
		char *value = sl_strndup(t + v, ve - v);
		char *raw = sl_strndup(t + i, ve - i);
		uint32_t off = cm->start + 1 + (uint32_t)i;
		const char *rest = t + ve;
		/* "CUDA_VISIBLE_DEVICES=0,1,2,3 per tray": per node, not per replica */
		unsigned extra = (!strncmp(rest, " per tray", 9) || !strncmp(rest, " per node", 9))
					 ? SL_SET_PER_NODE : 0;
		/* "NAME=8081 (prefill) / 8091 (decode)": one value per role */
		const char *r1 = NULL;
		if (!strncmp(rest, " (prefill)", 10))
			r1 = "prefill";
		else if (!strncmp(rest, " (decode)", 9))
			r1 = "decode";
		for (size_t k = 0; k < c->model->nservices; k++) {
			sl_service *s = &c->model->services[k];
			int ok;
			if (r1)
				ok = !strcmp(s->role, r1);
			else if (ntargets) {
				ok = 0;
				for (size_t q = 0; q < ntargets; q++)
					ok |= targets[q] == k;
			} else
				ok = in_scope(s, scope);
			if (ok)
				add_comment_env(s, name, value, src, off, raw, extra);
		}
		if (r1) {
			/* the alternative after " / " */
			const char *p = strstr(rest, " / ");
			if (p) {
				p += 3;
				size_t q = 0;
				while (p[q] && !isspace((unsigned char)p[q]))
					q++;
				const char *r2 = !strncmp(p + q, " (decode)", 9) ? "decode"
					       : !strncmp(p + q, " (prefill)", 10) ? "prefill" : NULL;
				if (r2) {
					char *v2 = sl_strndup(p, q);
					sl_buf raw2 = {0};
					sl_buf_printf(&raw2, "%s=%s", name, v2);
					for (size_t k = 0; k < c->model->nservices; k++)
						if (!strcmp(c->model->services[k].role, r2))
							add_comment_env(&c->model->services[k], name, v2, src,
									cm->start + 1 + (uint32_t)(p - t), raw2.data, 0);
					sl_buf_free(&raw2);
					free(v2);
				}
			}
		}
		free(name);
		free(value);
		free(raw);
		i = ve;
	}
}

void sl_topo_comment_env(sl_ctx *c, const sl_script *sc)
{
	for (size_t b = 0; b < sc->nblocks; b++) {
		const sl_comment_block *bl = &sc->blocks[b];
		/* services this block sits directly above */
		size_t *targets = NULL, nt = 0, cap = 0;
		for (size_t k = 0; k < c->model->nservices; k++)
			if (sl_topo_cmd_of(c, sc, k)->block == (int)b)
				SL_PUSH(targets, nt, cap, k);
		char *text = block_text(sc, (int)b);
		char *first = sl_strdup(sc->comments[bl->first].text);
		sl_topo_lower(first);
		unsigned scope = scope_of(first);
		/* a block that heads commands and talks of a role describes them;
		 * an env block standing alone describes every service in its scope */
		int standalone = nt == 0 || strstr(first, "environment") != NULL;
		for (size_t k = 0; k < bl->count; k++) {
			const sl_comment *cm = &sc->comments[bl->first + k];
			/* a new heading inside the block ("# Worker environment:") sets
			 * the scope of the listings under it */
			if (k > 0 && !is_env_listing(cm->text)) {
				char *h = sl_strdup(cm->text);
				sl_topo_lower(h);
				if (strstr(h, "environment") || strstr(h, " env")) {
					scope = scope_of(h);
					standalone = 1;
				}
				free(h);
			}
			comment_env_line(c, cm, scope, standalone ? NULL : targets, standalone ? 0 : nt);
		}
		free(first);
		free(text);
		free(targets);
	}
}
