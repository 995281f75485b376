/*
 * ready.c: a process's readiness check: --ready as given, else the engine
 * grammar's `health:` (an HTTP path on the service's port, etcd's client
 * port, or a Dynamo worker's frontend listing a model).
 */
#include "internal.h"

#include <stdlib.h>

/* The port a service listens on: its server.port for this replica (a
 * list when it follows a loop variable; $PORT filled as in argv), else
 * the grammar's default. -1 when it cannot be told. */
static long port_of(ctx *c, const sl_service *s, size_t replica, long dflt)
{
	const sl_setting *st = sl_service_get(s, "server.port");
	if (!st)
		return dflt;
	const json_t *v = st->value;
	if (json_is_array(v))
		v = json_array_get(v, replica < json_array_size(v) ? replica : 0);
	if (json_is_integer(v))
		return (long)json_integer_value(v);
	long long n = -1;
	if (json_is_string(v)) {
		char *f = pl_fill(c, json_string_value(v), (st->flags & SL_SET_SYMBOLIC) != 0, 0, "port");
		if (!f || sl_parse_int(f, &n))
			n = -1;
		free(f);
	}
	return (long)n;
}

/* The client port of etcd: from --listen-client-urls when given (the
 * first URL's; $VARS filled as in argv). */
static long etcd_port(ctx *c, const sl_service *s, long dflt)
{
	const sl_setting *st = sl_service_get(s, "etcd.listen_client_urls");
	const char *u = st && json_is_string(st->value) ? json_string_value(st->value) : NULL;
	if (!u)
		return dflt;
	char *f = pl_fill(c, u, (st->flags & SL_SET_SYMBOLIC) != 0, 0, "etcd --listen-client-urls");
	long port = -1;
	if (f) {
		char *comma = strchr(f, ',');
		if (comma)
			*comma = 0;
		const char *colon = strrchr(f, ':');
		long long n;
		if (colon && !sl_parse_int(colon + 1, &n) && n > 0 && n < 65536)
			port = (long)n;
	}
	free(f);
	return port;
}

static int parse_ready(const char *r, sl_proc *p, sl_error *err)
{
	if (!strncmp(r, "tcp:", 4)) {
		const char *hp = r + 4, *colon = strrchr(hp, ':');
		long long port;
		if (!colon || colon == hp || sl_parse_int(colon + 1, &port) || port <= 0 || port > 65535) {
			sl_error_set(err, NULL, 0, 0, "--ready %s: expected tcp:HOST:PORT", r);
			return SL_ERR_USAGE;
		}
		p->ready = SL_READY_TCP;
		p->host = sl_strndup(hp, (size_t)(colon - hp));
		p->port = (int)port;
		return SL_OK;
	}
	if (!strncmp(r, "http://", 7) || !strncmp(r, "https://", 8)) {
		p->ready = SL_READY_HTTP;
		p->url = sl_strdup(r);
		return SL_OK;
	}
	sl_error_set(err, NULL, 0, 0, "--ready %s: expected tcp:HOST:PORT or an http:// URL", r);
	return SL_ERR_USAGE;
}

/* The readiness check of replica r of s (line and col: its command's). */
int pl_ready(ctx *c, const sl_service *s, size_t r, sl_proc *p, unsigned line, unsigned col)
{
	const sl_plan_opts *o = c->o;
	int rc = SL_OK;
	if (o->ready) {
		rc = parse_ready(o->ready, p, c->err);
	} else if (s->health) {
		const char *path = json_string_value(json_object_get(s->health, "http"));
		long dport = (long)json_integer_value(json_object_get(s->health, "port"));
		if (path) {
			long port = port_of(c, s, r, dport);
			if ((port <= 0 || port > 65535) && c->plan->nunresolved && c->o->dry_run) {
				; /* a hole in its port (a $PORT left unset) is told already */
			} else if (port <= 0 || port > 65535) {
				sl_error_set(c->err, p->where, line, col,
					     "%s: its port is not known (give the readiness check with --ready)", p->name);
				rc = SL_ERR_INPUT;
			} else {
				sl_buf u = {0};
				sl_buf_printf(&u, "http://127.0.0.1:%ld%s", port, path);
				p->url = sl_buf_detach(&u);
				p->listens = (int)port;
				p->ready = SL_READY_HTTP;
			}
		} else if (json_object_get(s->health, "tcp")) {
			long port = etcd_port(c, s, (long)json_integer_value(json_object_get(s->health, "tcp")));
			if (port < 0) {
				sl_error_set(c->err, c->file, line, col,
					     "%s: its client port is not known (give the readiness check with --ready)",
					     p->name);
				rc = SL_ERR_INPUT;
			}
			p->ready = SL_READY_TCP;
			p->host = sl_strdup("127.0.0.1");
			p->port = p->listens = (int)port;
		} else if (json_is_true(json_object_get(s->health, "frontend"))) {
			p->ready = SL_READY_FRONTEND; /* the URL is the frontend's, set once all are planned */
		}
	}
	return rc;
}
