/*
 * structure.c: the breaks of a script's structure that only the services
 * show, once every command is read: a server started in the foreground
 * (no `&`, not `docker run -d`) with more services after it. bash waits
 * for a foreground command to exit before it runs the next, so the
 * services after it do not start while the server serves; and a variable
 * set after a service's command read it (the reader sees the order, this
 * file which commands are services). Each is a
 * note of its kind (sl_note_kind), which a `structure:` rule reports.
 * Uses build.c.
 */
#include "structure.h"

#include <string.h>

/* Whether the service goes on without holding the script: started with
 * `&` (or inside a statement that is), or by `docker run -d`. */
static int detached(const sl_service *s)
{
	if (s->background)
		return 1;
	for (size_t k = 0; k < s->nwrappers; k++) {
		const sl_wrapper *w = &s->wrappers[k];
		json_t *o = json_object_get(w->detail, "options");
		if (!strcmp(w->kind, "docker") && json_is_true(json_object_get(o, "--detach")))
			return 1;
	}
	return 0;
}

void sl_structure_services(sl_ctx *c, const sl_script *s)
{
	if (c->ws || !s)
		return;  /* a manifest's or a recipe's workloads are not run one after another */
	sl_model *m = c->model;
	/* a page that lists each node's command, none with `&`, is a listing
	 * of what runs where, not one host's script run top to bottom: only
	 * a script that starts some service in the background is read so */
	int some = 0;
	for (size_t i = 0; i < m->nservices && !some; i++)
		some = detached(&m->services[i]);
	if (!some)
		return;
	for (size_t i = 0; i + 1 < m->nservices; i++) {
		const sl_service *a = &m->services[i];
		if (detached(a) || !a->command_origin.src)
			continue;
		/* the services of later commands of this script (loop iterations
		 * of one command are replicas of one service, not later ones) */
		size_t later = 0, first = 0;
		for (size_t j = i + 1; j < m->nservices; j++)
			if (c->svc_cmd[j] > c->svc_cmd[i] && s->cmds[c->svc_cmd[j]].stmt != s->cmds[c->svc_cmd[i]].stmt &&
			    m->services[j].command_origin.src == a->command_origin.src && !later++)
				first = j;
		if (!later)
			continue;
		const sl_service *b = &m->services[first];
		sl_buf at = {0};
		sl_source_place(&at, b->command_origin.src, b->command_origin.off, s->cmds[c->svc_cmd[i]].end, 0);
		/* said where the `&` is missing: the end of the command */
		sl_note_kind(c, "foreground_before_services", a->command_origin.src, s->cmds[c->svc_cmd[i]].end,
			     "`%s` runs in the foreground (no `&`): the script waits here until it exits, so the "
			     "services after it (%zu, the first `%s` at %s) do not start while it serves",
			     a->program, later, b->program, at.data);
		sl_buf_free(&at);
	}
}

void sl_structure_reads(sl_ctx *c, const sl_script *s, const sl_source *src)
{
	for (size_t i = 0; i < s->nbreaks; i++) {
		const sl_shell_break *b = &s->breaks[i];
		if (strcmp(b->kind, "export_after_use"))
			continue;
		/* only a service's command: an `echo $X` before X is set starts nothing */
		int service = 0;
		for (size_t k = 0; k < c->model->nservices && !service; k++)
			service = s->cmds[c->svc_cmd[k]].start == b->cmd;
		if (service)
			sl_note_kind(c, b->kind, src, b->off, "%s", b->msg);
	}
}
