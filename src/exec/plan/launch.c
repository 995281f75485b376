/*
 * launch.c: one process of the plan, replica r of a service from its
 * launch: the argv as written (behind docker's entrypoint or the image's
 * when run natively), each element filled from --set, shell strings told
 * apart; then its environment, notes and readiness check.
 */
#include "internal.h"

#include <stdlib.h>

static const sl_wrapper *docker_of(const sl_service *s)
{
	for (size_t i = 0; i < s->nwrappers; i++)
		if (!strcmp(s->wrappers[i].kind, "docker"))
			return &s->wrappers[i];
	return NULL;
}

static int is_shell(const char *p)
{
	const char *b = strrchr(p, '/');
	b = b ? b + 1 : p;
	return !strcmp(b, "bash") || !strcmp(b, "sh") || !strcmp(b, "dash") || !strcmp(b, "zsh");
}

/* One process: replica r of service s, its launch l. */
int pl_add_proc(ctx *c, const sl_model *m, const sl_service *s, size_t r, const json_t *l, sl_plan *out,
		    size_t *cap)
{
	const sl_plan_opts *o = c->o;
	sl_proc p;
	memset(&p, 0, sizeof p);
	sl_buf nm = {0};
	sl_buf_printf(&nm, r ? "%s#%zu" : "%s", s->name, r + 1);
	p.name = sl_buf_detach(&nm);
	p.role = sl_strdup(s->role);
	p.stage = pl_stage_of(s->role);
	unsigned line = 0, col = 0;
	sl_origin at = {m->entry->script, (uint32_t)json_integer_value(json_object_get(l, "at")), NULL};
	sl_origin_pos(&at, &line, &col);
	sl_buf w = {0};
	sl_buf_printf(&w, "%s:%u:%u", m->entry->script->path, line, col);
	p.where = sl_buf_detach(&w);
	c->file = m->entry->script->path;
	c->line = line;
	c->col = col;
	const json_t *argv = json_object_get(l, "argv"), *sym = json_object_get(l, "symbolic");
	size_t from = 0, n = json_array_size(argv);
	const sl_wrapper *dk = docker_of(s);
	json_int_t engine_at = json_integer_value(json_object_get(l, "engine_at"));
	vol *vs = NULL;
	size_t nv = 0;
	size_t ecap = 0;
	int rc = SL_OK;
	const char *entrypoint = NULL;
	size_t shell_at = (size_t)-1; /* the argv element that is a shell string */
	if (dk && !o->native && json_is_true(json_object_get(json_object_get(dk->detail, "options"), "--detach")) &&
	    !pl_hole(c, "%s: `docker run -d` leaves the container to docker: servelint could neither see it end nor stop it; run it with --native",
		  p.name)) {
		rc = SL_ERR_INPUT;
		goto out;
	}
	const json_t *iep = NULL;  /* the image's own entrypoint, when only arguments follow it */
	if (dk && o->native) {
		/* the command after the image, behind the entrypoint when one is set */
		const char *image = json_string_value(json_object_get(dk->detail, "image"));
		size_t img = 0;
		for (size_t i = 1; i < n && !img && image; i++)
			if (!strcmp(json_string_value(json_array_get(argv, i)), image))
				img = i;
		entrypoint = json_string_value(json_object_get(dk->detail, "entrypoint"));
		const char *next = img && img + 1 < n ? json_string_value(json_array_get(argv, img + 1)) : NULL;
		if (engine_at >= 0 && !entrypoint && (size_t)engine_at != img) {
			from = (size_t)engine_at;
		} else if (img && (entrypoint || (next && next[0] != '-' && (size_t)engine_at != img))) {
			from = img + 1;
		} else if (img) {
			/* only arguments after the image: its own entrypoint takes
			 * them, as docker.yaml's `images:` list it (normalize's
			 * unwrap.c leaves it in the wrapper; an image only guessed
			 * to be an engine from its name has none) */
			from = img + 1;
			iep = json_object_get(dk->detail, "_entrypoint");
			if (!json_array_size(iep)) {
				sl_error_set(c->err, c->file, line, col,
					     "%s: the image's entrypoint is not known (write its command after the image); --native cannot start it",
					     p.name);
				rc = SL_ERR_INPUT;
				goto out;
			}
			const char *why = json_string_value(json_object_get(dk->detail, "_entrypoint_assumed"));
			if (why) {
				sl_buf nb = {0};
				sl_buf_printf(&nb, "%s: the entrypoint of image `%s` is assumed (%s)", p.name, image, why);
				pl_push_text(&out->notes, &out->nnotes, sl_buf_detach(&nb));
			}
		} else {
			sl_error_set(c->err, c->file, line, col, "%s: the container's command is not known; --native cannot start it",
				     p.name);
			rc = SL_ERR_INPUT;
			goto out;
		}
		const json_t *vl = json_object_get(dk->detail, "volumes");
		vs = sl_calloc(json_array_size(vl) + 1, sizeof *vs);
		for (size_t i = 0; i < json_array_size(vl); i++) {
			const char *v = json_string_value(json_array_get(vl, i)), *colon = v ? strchr(v, ':') : NULL;
			if (!colon)
				continue;
			const char *end = strchr(colon + 1, ':');
			vs[nv].host = sl_strndup(v, (size_t)(colon - v));
			vs[nv].cont = end ? sl_strndup(colon + 1, (size_t)(end - colon - 1)) : sl_strdup(colon + 1);
			nv++;
		}
	}
	p.argv = sl_calloc(n - from + json_array_size(iep) + 2, sizeof *p.argv);
	if (entrypoint)
		p.argv[p.argc++] = sl_strdup(entrypoint);
	for (size_t i = 0; i < json_array_size(iep); i++) {
		const char *a = json_string_value(json_array_get(iep, i));
		if (a)
			p.argv[p.argc++] = sl_strdup(a);
	}
	for (size_t i = from; i < n && rc == SL_OK; i++) {
		const char *v = json_string_value(json_array_get(argv, i));
		int symbolic = 0;
		for (size_t k = 0; k < json_array_size(sym); k++)
			symbolic |= (size_t)json_integer_value(json_array_get(sym, k)) == i;
		/* `bash -c STRING`: the string is shell code */
		const char *before = i > from ? json_string_value(json_array_get(argv, i - 1)) : NULL;
		const char *prog = i >= from + 2 ? json_string_value(json_array_get(argv, i - 2))
				   : i == from + 1 && entrypoint ? entrypoint : NULL;
		/* docker run --entrypoint bash IMAGE -c STRING: the image stands where the program would */
		const char *dk_ep = dk ? json_string_value(json_object_get(dk->detail, "entrypoint")) : NULL;
		const char *dk_img = dk ? json_string_value(json_object_get(dk->detail, "image")) : NULL;
		if (prog && dk_ep && dk_img && !strcmp(prog, dk_img))
			prog = dk_ep;
		int shell_string = before && prog && !strcmp(before, "-c") && is_shell(prog);
		char *mapped = nv ? pl_map_back(v, vs, nv) : sl_strdup(v);
		for (size_t k = 0; k < nv && shell_string; k++)
			if (strstr(v, vs[k].cont)) {
				sl_buf nb = {0};
				sl_error ignored = {0};
				ctx quiet = *c;
				quiet.err = &ignored;
				char *host = pl_fill(&quiet, vs[k].host, 0, 0, "volume");
				sl_error_clear(&ignored);
				sl_buf_printf(&nb, "%s argv[%zu]: the shell string names %s, a path in the container; it is not mapped back to %s (only whole argv elements are)",
					      p.name, p.argc, vs[k].cont, host ? host : vs[k].host);
				free(host);
				pl_push_text(&out->notes, &out->nnotes, sl_buf_detach(&nb));
			}
		sl_buf what = {0};
		sl_buf_printf(&what, "%s argv[%zu]", p.name, p.argc);
		char *f = shell_string && !pl_shell_string_safe(c, mapped, what.data)
				  ? NULL
				  : pl_fill(c, mapped, symbolic, shell_string, what.data);
		sl_buf_free(&what);
		free(mapped);
		if (!f) {
			rc = SL_ERR_INPUT;
			break;
		}
		if (shell_string && shell_at == (size_t)-1)
			shell_at = p.argc;
		p.argv[p.argc++] = f;
	}
	if (rc == SL_OK && !p.argc) {
		sl_error_set(c->err, p.where, line, col, "%s: nothing to run", p.name);
		rc = SL_ERR_INPUT;
	}
	/* the environment: the entry's comments first (what it says every
	 * role gets), then docker's -e when the engine runs natively, then
	 * exported and inline variables, later ones winning */
	for (size_t i = 0; i < s->nenv && rc == SL_OK; i++) {
		const sl_env *e = &s->env[i];
		if (strcmp(e->via, "comment") && !(o->native && dk && !strcmp(e->via, "docker")))
			continue;
		if (e->flags & SL_SET_OVERRIDDEN)
			continue;
		sl_buf what = {0};
		sl_buf_printf(&what, "%s env %s", p.name, e->name);
		/* a container path in docker's -e is the host's, natively */
		char *mapped = nv && !strcmp(e->via, "docker") ? pl_map_back(e->value, vs, nv) : sl_strdup(e->value);
		char *f = pl_fill(c, mapped, (e->flags & SL_SET_SYMBOLIC) != 0, 0, what.data);
		free(mapped);
		sl_buf_free(&what);
		if (!f) {
			rc = SL_ERR_INPUT;
			break;
		}
		pl_add_env(&p, &ecap, e->name, f);
		free(f);
	}
	const json_t *env = json_object_get(l, "env");
	for (size_t i = 0; i < json_array_size(env) && rc == SL_OK; i++) {
		const json_t *kv = json_array_get(env, i);
		const char *name = json_string_value(json_array_get(kv, 0));
		sl_buf what = {0};
		sl_buf_printf(&what, "%s env %s", p.name, name);
		char *f = pl_env_value(c, name, json_string_value(json_array_get(kv, 1)), json_is_true(json_array_get(kv, 2)),
				    what.data);
		sl_buf_free(&what);
		if (!f) {
			rc = SL_ERR_INPUT;
			break;
		}
		pl_add_env(&p, &ecap, name, f);
		free(f);
	}
	if (rc == SL_OK && dk && o->native && pl_native_gpus(c, dk, &p, &ecap, out))
		rc = SL_ERR_INPUT;
	if (rc == SL_OK && shell_at != (size_t)-1)
		pl_note_shell_env(&p, shell_at, out);
	if (rc == SL_OK)
		pl_note_split(c, &p, out);
	/* readiness */
	if (rc == SL_OK)
		rc = pl_ready(c, s, r, &p, line, col);

	if (rc == SL_OK) {
		SL_PUSH(out->procs, out->n, *cap, p);
		memset(&p, 0, sizeof p);
	}
out:
	for (size_t i = 0; i < nv; i++) {
		free(vs[i].host);
		free(vs[i].cont);
	}
	free(vs);
	pl_proc_free(&p);
	return rc;
}
