/*
 * ready.c: asking a process whether it is ready (HTTP 2xx, a TCP connect,
 * a frontend that lists a model) with libcurl, and whether docker's engine
 * answers.
 */
#include "internal.h"

#include "../curl_lazy.h"  /* libcurl, loaded by the first curl_global_init */
#include <netdb.h>
#include <sys/socket.h>

static size_t collect(char *p, size_t size, size_t n, void *ud)
{
	sl_buf *b = ud;
	if (b->len < 1024 * 1024) /* a model list is small; more is not read */
		sl_buf_add(b, p, size * n);
	return size * n;
}

/* GET url; 2xx gives 1 (and the body in *body when asked). */
static int http_ok(const char *url, const char *unix_socket, sl_buf *body)
{
	CURL *h = curl_easy_init();
	if (!h)
		return 0;
	sl_buf sink = {0};
	curl_easy_setopt(h, CURLOPT_URL, url);
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, (long)ASK_TIMEOUT_MS);
	curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, (long)ASK_TIMEOUT_MS);
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, collect);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, body ? body : &sink);
	curl_easy_setopt(h, CURLOPT_PROXY, ""); /* the service is local: no proxy from the environment */
	if (unix_socket)
		curl_easy_setopt(h, CURLOPT_UNIX_SOCKET_PATH, unix_socket);
	long code = 0;
	int ok = curl_easy_perform(h) == CURLE_OK && !curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &code) &&
		 code >= 200 && code < 300;
	curl_easy_cleanup(h);
	sl_buf_free(&sink);
	return ok;
}

static int tcp_ok(const char *host, int port)
{
	struct addrinfo hints, *res = NULL;
	memset(&hints, 0, sizeof hints);
	hints.ai_socktype = SOCK_STREAM;
	char ps[16];
	snprintf(ps, sizeof ps, "%d", port);
	if (getaddrinfo(host, ps, &hints, &res))
		return 0;
	int ok = 0;
	for (struct addrinfo *a = res; a && !ok; a = a->ai_next) {
		int fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
		if (fd < 0)
			continue;
		ok = connect(fd, a->ai_addr, a->ai_addrlen) == 0;
		close(fd);
	}
	freeaddrinfo(res);
	return ok;
}

/* The frontend lists a model: {"data": [ ... ]} with at least one. */
static int lists_model(const char *url)
{
	sl_buf body = {0};
	int ok = 0;
	if (http_ok(url, NULL, &body) && body.data) {
		json_t *doc = json_loadb(body.data, body.len, 0, NULL);
		ok = json_array_size(json_object_get(doc, "data")) > 0;
		json_decref(doc);
	}
	sl_buf_free(&body);
	return ok;
}

int rn_is_ready(const sl_proc *p)
{
	switch (p->ready) {
	case SL_READY_NONE: return 1;
	case SL_READY_HTTP: return http_ok(p->url, NULL, NULL);
	case SL_READY_TCP: return tcp_ok(p->host, p->port);
	case SL_READY_FRONTEND: return lists_model(p->url);
	}
	return 0;
}

int sl_exec_docker_answers(const char **where)
{
	const char *dh = getenv("DOCKER_HOST");
	*where = dh && *dh ? dh : "unix:///var/run/docker.sock";
	curl_global_init(CURL_GLOBAL_DEFAULT);
	int ok;
	if (!strncmp(*where, "unix://", 7)) {
		ok = http_ok("http://localhost/_ping", *where + 7, NULL);
	} else if (!strncmp(*where, "tcp://", 6)) {
		sl_buf u = {0};
		sl_buf_printf(&u, "http://%s/_ping", *where + 6);
		ok = http_ok(u.data, NULL, NULL);
		sl_buf_free(&u);
	} else {
		ok = 0;
	}
	curl_global_cleanup();
	return ok;
}
