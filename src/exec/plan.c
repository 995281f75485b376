/*
 * plan.c: what `servelint run` would start for a model. Each replica of
 * each service becomes one process with the argv its command has as
 * written (launchers and all), the environment the script gives it, and a
 * readiness check from the engine grammar's `health:`. Placeholders
 * (<host-path>) and the shell variables the script leaves to its caller
 * ($MODEL) are filled from --set (variables also from servelint's own
 * environment, as the shell would) inside single argv elements, never by
 * building a shell string; anything left unresolved is an error naming it.
 */
#include "exec.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Start order by role: what others connect to first. */
static int stage_of(const char *role)
{
	if (!strcmp(role, "etcd"))
		return 0;
	if (!strcmp(role, "frontend") || !strcmp(role, "router"))
		return 1;
	if (!strcmp(role, "orchestrator"))
		return 3; /* trtllm-serve disaggregated proxies to the workers */
	return 2;
}

/* "<8 GPUs>" and "8-gpus" and "<8-gpus>" name the same placeholder. */
static char *ph_key(const char *s, size_t n)
{
	if (n >= 2 && s[0] == '<' && s[n - 1] == '>') {
		s++;
		n -= 2;
	}
	char *k = sl_strndup(s, n);
	for (char *p = k; *p; p++)
		*p = *p == ' ' ? '-' : (char)tolower((unsigned char)*p);
	return k;
}

typedef struct ctx {
	const sl_plan_opts *o;
	sl_error *err;
	const char *file;        /* the place errors name: the command's */
	unsigned line, col;
	sl_plan *plan;           /* where a dry run's holes go */
} ctx;

static void push_text(char ***v, size_t *n, char *s)
{
	size_t cap = *n;
	sl_grow((void **)v, &cap, *n + 1, sizeof **v);
	(*v)[(*n)++] = s;
}

/* Something missing before the plan can run: with --dry-run it is listed
 * (once) and the plan goes on (1); else it is the error (0). */
static int hole(ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int hole(ctx *c, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (!c->o->dry_run || !c->plan) {
		sl_error_set(c->err, c->file, c->line, c->col, "%s", msg);
		return 0;
	}
	sl_buf b = {0};
	sl_buf_printf(&b, "%s:%u:%u: %s", c->file, c->line, c->col, msg);
	for (size_t i = 0; i < c->plan->nunresolved; i++)
		if (!strcmp(c->plan->unresolved[i], b.data)) {
			sl_buf_free(&b);
			return 1;
		}
	push_text(&c->plan->unresolved, &c->plan->nunresolved, sl_buf_detach(&b));
	return 1;
}

static const char *set_value(const ctx *c, const char *name, size_t n, int placeholder)
{
	for (size_t i = 0; i < c->o->nsets; i++) {
		const char *eq = strchr(c->o->sets[i], '=');
		if (!eq)
			continue;
		size_t kl = (size_t)(eq - c->o->sets[i]);
		if (placeholder) {
			char *a = ph_key(c->o->sets[i], kl), *b = ph_key(name, n);
			int same = !strcmp(a, b);
			free(a);
			free(b);
			if (same)
				return eq + 1;
		} else if (kl == n && !strncmp(c->o->sets[i], name, n)) {
			return eq + 1;
		}
	}
	return NULL;
}

/* A placeholder: <words>, lower case, digits, spaces and dashes, as the
 * catalogues write them (<host-path>, <8 GPUs>, <node-ip>). */
static size_t ph_len(const char *s)
{
	if (*s != '<')
		return 0;
	size_t i = 1;
	while (s[i] && (isalnum((unsigned char)s[i]) || s[i] == '-' || s[i] == '_' || s[i] == ' '))
		i++;
	return s[i] == '>' && i > 1 ? i + 1 : 0;
}

/* A --set value the shell would read as nothing but one plain word: no
 * quote, space, `;`, `$`, `*`, `~`..., and no NAME= that would make it an
 * assignment at the head of a command. */
static int shell_inert(const char *v)
{
	static const char ok[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:,+@%=-";
	if (strspn(v, ok) != strlen(v))
		return 0;
	size_t n = strspn(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
	return !(n && v[n] == '=' && !isdigit((unsigned char)v[0]));
}

/* The reader binds a --set shell variable where the script reads it, also
 * inside `bash -c "... $MODEL ..."`, where its value becomes shell code. A
 * value that could change what the shell runs is refused there: the
 * value as given, or the part of it from its first character that is not
 * plain to its last (what ${V#prefix} would leave). */
static int shell_string_safe(ctx *c, const char *str, const char *what)
{
	for (size_t i = 0; i < c->o->nsets; i++) {
		const char *set = c->o->sets[i], *eq = strchr(set, '=');
		if (!eq || eq == set)
			continue;
		size_t kl = (size_t)(eq - set), digits = strspn(set, "0123456789");
		int shell_name = digits == kl;
		if (!shell_name) {
			shell_name = !isdigit((unsigned char)set[0]);
			for (size_t k = 0; k < kl && shell_name; k++)
				shell_name = isalnum((unsigned char)set[k]) || set[k] == '_';
		}
		const char *v = eq + 1;
		if (!shell_name || !*v || shell_inert(v))
			continue;
		static const char plain[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:,+@%-";
		size_t a = strspn(v, plain), b = strlen(v);
		while (b > a && strchr(plain, v[b - 1]))
			b--;
		char *core = sl_strndup(v + a, b - a);
		int hit = strstr(str, v) || (*core && strstr(str, core));
		free(core);
		if (hit) {
			sl_error_set(c->err, c->file, c->line, c->col,
				     "%s: the value of %.*s (--set) lands in a shell string, where the shell would run it as code: "
				     "servelint never does; give a value that is one plain word, or start the engine without the shell string",
				     what, (int)kl, set);
			return 0;
		}
	}
	return 1;
}

/* Fills placeholders (and, for a symbolic word, $NAME and ${NAME}) in one
 * value. Returns the new string, or NULL with the error set. */
static char *fill(ctx *c, const char *v, int symbolic, int shell_string, const char *what)
{
	sl_buf b = {0};
	sl_buf_puts(&b, "");
	for (const char *p = v; *p;) {
		size_t n = ph_len(p);
		if (n) {
			if (shell_string) {
				sl_error_set(c->err, c->file, c->line, c->col,
					     "%s: placeholder %.*s is inside a shell string; run it with values in place, or with --native",
					     what, (int)n, p);
				goto fail;
			}
			const char *val = set_value(c, p, n, 1);
			if (!val) {
				char *k = ph_key(p, n);
				int go_on = hole(c, "%s: placeholder %.*s has no value (--set %s=VALUE)", what, (int)n, p, k);
				free(k);
				if (!go_on)
					goto fail;
				val = ""; /* a dry run shows it as written */
				sl_buf_add(&b, p, n);
			}
			sl_buf_puts(&b, val);
			p += n;
			continue;
		}
		if (symbolic && *p == '$' && !shell_string) {
			const char *q = p + 1;
			int brace = *q == '{';
			q += brace;
			const char *name = q;
			while (isalnum((unsigned char)*q) || *q == '_')
				q++;
			size_t nl = (size_t)(q - name);
			if (nl && !isdigit((unsigned char)*name) && (!brace || *q == '}')) {
				const char *val = set_value(c, name, nl, 0);
				if (!val) {
					char *nm = sl_strndup(name, nl);
					val = getenv(nm);
					free(nm);
				}
				if (!val) {
					if (!hole(c, "%s: $%.*s is not set (--set %.*s=VALUE, or set it in the environment)",
						  what, (int)nl, name, (int)nl, name))
						goto fail;
					val = ""; /* a dry run shows it as written */
					sl_buf_add(&b, p, (size_t)(q + brace - p));
				}
				sl_buf_puts(&b, val);
				p = q + brace;
				continue;
			}
			sl_error_set(c->err, c->file, c->line, c->col,
				     "%s: `%s` is computed by the shell when the script runs; give the value with --set",
				     what, v);
			goto fail;
		}
		sl_buf_putc(&b, *p++);
	}
	return sl_buf_detach(&b);
fail:
	sl_buf_free(&b);
	return NULL;
}

/* A variable's value for the process. One the script cannot know (a
 * Kubernetes valueFrom, `export X=$(cmd)`) is taken whole, by its own
 * name, from --set or servelint's environment, as the process would have
 * inherited it; else its $VARS are filled as in argv. */
static char *env_value(ctx *c, const char *name, const char *value, int symbolic, const char *what)
{
	if (symbolic) {
		const char *v = set_value(c, name, strlen(name), 0);
		if (!v)
			v = getenv(name);
		if (v)
			return sl_strdup(v);
		if (strstr(value, "$(")) {
			sl_error_set(c->err, c->file, c->line, c->col,
				     "%s: its value (`%s`) is known only where it runs; give it with --set %s=VALUE or in the environment",
				     what, value, name);
			return NULL;
		}
	}
	return fill(c, value, symbolic, 0, what);
}

/* Docker's -v HOST:CONTAINER[:OPTIONS], as the model keeps them. */
typedef struct vol {
	char *host, *cont;
} vol;

/* Maps a path inside the container back to the host (--native). */
static char *map_back(const char *v, const vol *vs, size_t nv)
{
	size_t best = nv, bl = 0;
	for (size_t i = 0; i < nv; i++) {
		size_t cl = strlen(vs[i].cont);
		if (cl > bl && !strncmp(v, vs[i].cont, cl) && (v[cl] == '\0' || v[cl] == '/')) {
			best = i;
			bl = cl;
		}
	}
	if (best == nv)
		return sl_strdup(v);
	sl_buf b = {0};
	sl_buf_puts(&b, vs[best].host);
	sl_buf_puts(&b, v + bl);
	return sl_buf_detach(&b);
}

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

static void add_env(sl_proc *p, size_t *cap, const char *name, const char *value)
{
	/* a later value of the same name wins, as in the shell */
	size_t nl = strlen(name);
	sl_buf b = {0};
	sl_buf_printf(&b, "%s=%s", name, value);
	for (size_t i = 0; i < p->nenv; i++)
		if (!strncmp(p->env[i], name, nl) && p->env[i][nl] == '=') {
			free(p->env[i]);
			p->env[i] = sl_buf_detach(&b);
			return;
		}
	sl_grow((void **)&p->env, cap, p->nenv + 2, sizeof *p->env);
	p->env[p->nenv++] = sl_buf_detach(&b);
	p->env[p->nenv] = NULL;
}

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
		char *f = fill(c, json_string_value(v), (st->flags & SL_SET_SYMBOLIC) != 0, 0, "port");
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
	char *f = fill(c, u, (st->flags & SL_SET_SYMBOLIC) != 0, 0, "etcd --listen-client-urls");
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

/* Does --service SEL pick replica r of s? ROLE, ROLE#N, or the service name. */
static int picked(const sl_plan_opts *o, const sl_service *s, size_t r)
{
	if (!o->nservices)
		return 1;
	for (size_t i = 0; i < o->nservices; i++) {
		const char *sel = o->services[i], *hash = strchr(sel, '#');
		size_t nl = hash ? (size_t)(hash - sel) : strlen(sel);
		int named = (strlen(s->role) == nl && !strncmp(s->role, sel, nl)) ||
			    (strlen(s->name) == nl && !strncmp(s->name, sel, nl));
		if (!named)
			continue;
		long long k;
		if (!hash || (!sl_parse_int(hash + 1, &k) && k == (long long)r + 1))
			return 1;
	}
	return 0;
}

static void proc_free(sl_proc *p)
{
	free(p->name);
	free(p->role);
	for (size_t i = 0; i < p->argc; i++)
		free(p->argv[i]);
	free(p->argv);
	for (size_t i = 0; i < p->nenv; i++)
		free(p->env[i]);
	free(p->env);
	free(p->url);
	free(p->host);
	free(p->where);
}

/* What the common images start when the arguments after the image are
 * only arguments (their Dockerfiles' ENTRYPOINT): vLLM's images run
 * `vllm serve`; the SGLang, TensorRT-LLM and Dynamo images run no engine,
 * so their command must be written after the image. */
static const struct image_ep {
	const char *repo;          /* the image's name up to its tag, without docker.io/ */
	const char *argv[3];       /* the entrypoint, or none */
	const char *none;          /* why there is none */
} image_eps[] = {
	{"vllm/vllm-openai", {"vllm", "serve", NULL}, NULL}, /* and vllm/vllm-openai-rocm */
	{"lmsysorg/sglang", {NULL}, "lmsysorg/sglang images start a shell, no engine: write `python3 -m sglang.launch_server ...` after the image"},
	{"nvcr.io/nvidia/tensorrt-llm", {NULL}, "NGC TensorRT-LLM images have no engine entrypoint: write `trtllm-serve ...` after the image"},
	{"nvcr.io/nvidia/ai-dynamo", {NULL}, "NGC Dynamo images have no engine entrypoint: write `python3 -m dynamo.frontend ...` (or a worker) after the image"},
};

static const struct image_ep *image_ep_of(const char *image)
{
	if (!image)
		return NULL;
	if (!strncmp(image, "docker.io/", 10))
		image += 10;
	for (size_t i = 0; i < sizeof image_eps / sizeof *image_eps; i++)
		if (!strncmp(image, image_eps[i].repo, strlen(image_eps[i].repo)))
			return &image_eps[i];
	return NULL;
}

/* docker's --gpus for a process run natively: `device=2,3` (quoted or
 * not, placeholders filled) becomes CUDA_VISIBLE_DEVICES, through which a
 * -e CUDA_VISIBLE_DEVICES of the container's own indexes is mapped; `N`
 * the first N; `all` nothing. ROCm's --device /dev/dri/renderD* is left
 * (told): the process then sees every GPU. 0, or -1 with the error. */
static int native_gpus(ctx *c, const sl_wrapper *dk, sl_proc *p, size_t *ecap, sl_plan *out)
{
	const json_t *dev = json_object_get(json_object_get(dk->detail, "options"), "--device");
	for (size_t i = 0; i < json_array_size(dev); i++) {
		const char *d = json_string_value(json_array_get(dev, i));
		if (d && strstr(d, "/dev/dri/renderD")) {
			sl_buf nb = {0};
			sl_buf_printf(&nb, "%s: docker's --device %s gives the container one GPU; run natively, the process sees every GPU (ROCR_VISIBLE_DEVICES is not set for it)",
				      p->name, d);
			push_text(&out->notes, &out->nnotes, sl_buf_detach(&nb));
		}
	}
	const char *g = json_string_value(json_object_get(dk->detail, "gpus"));
	if (!g)
		return 0;
	size_t n = strlen(g);
	while (n >= 2 && (g[0] == '"' || g[0] == '\'') && g[n - 1] == g[0]) {
		g++;
		n -= 2;
	}
	char *spec = sl_strndup(g, n);
	int rc = 0;
	char *list = NULL;
	long long count;
	if (!strcmp(spec, "all")) {
		; /* every GPU, as natively */
	} else if (!strncmp(spec, "device=", 7)) {
		sl_buf what = {0};
		sl_buf_printf(&what, "%s --gpus", p->name);
		list = fill(c, spec + 7, 0, 0, what.data);
		sl_buf_free(&what);
		rc = list ? 0 : -1;
	} else if (!sl_parse_int(spec, &count) && count > 0 && count <= 64) {
		sl_buf b = {0};
		for (long long i = 0; i < count; i++)
			sl_buf_printf(&b, "%s%lld", i ? "," : "", i);
		list = sl_buf_detach(&b);
	}
	if (list && *list) {
		/* the container's CUDA_VISIBLE_DEVICES counts the GPUs it was given */
		const char *inner = NULL;
		for (size_t i = 0; i < p->nenv && !inner; i++)
			if (!strncmp(p->env[i], "CUDA_VISIBLE_DEVICES=", 21))
				inner = p->env[i] + 21;
		char *value = sl_strdup(list);
		if (inner) {
			char **ids = NULL;
			size_t nid = 0;
			for (char *tok = list, *save = NULL; (tok = strtok_r(tok, ",", &save)); tok = NULL)
				push_text(&ids, &nid, tok);
			sl_buf b = {0};
			int ok = 1;
			char *in = sl_strdup(inner);
			for (char *tok = in, *save = NULL; ok && (tok = strtok_r(tok, ",", &save)); tok = NULL) {
				long long k;
				ok = !sl_parse_int(tok, &k) && k >= 0 && (size_t)k < nid;
				if (ok)
					sl_buf_printf(&b, "%s%s", b.len ? "," : "", ids[k]);
			}
			if (ok && b.data) {
				free(value);
				value = sl_buf_detach(&b);
			}
			sl_buf_free(&b);
			free(in);
			free(ids);
		}
		add_env(p, ecap, "CUDA_VISIBLE_DEVICES", value);
		free(value);
	}
	free(list);
	free(spec);
	return rc;
}

/* The variables a shell string reads that the process does not get from
 * the plan: the shell takes them from servelint's environment when it runs
 * (as words, never as code). A note says so, with the value, so that the
 * plan shows what will run. */
static void note_shell_env(const sl_proc *p, size_t at, sl_plan *out)
{
	const char *str = p->argv[at];
	size_t seen = 0;
	for (const char *q = strchr(str, '$'); q && seen < 32; q = strchr(q + 1, '$')) {
		const char *name = q + 1 + (q[1] == '{');
		size_t nl = 0;
		while (isalnum((unsigned char)name[nl]) || name[nl] == '_')
			nl++;
		if (!nl || isdigit((unsigned char)*name))
			continue;
		int given = 0;
		for (size_t i = 0; i < p->nenv && !given; i++)
			given = !strncmp(p->env[i], name, nl) && p->env[i][nl] == '=';
		char *nm = sl_strndup(name, nl);
		const char *v = given ? NULL : getenv(nm);
		/* once per name */
		int again = 0;
		for (const char *r = strchr(str, '$'); r && r < q && !again; r = strchr(r + 1, '$')) {
			const char *n2 = r + 1 + (r[1] == '{');
			again = !strncmp(n2, name, nl) && !isalnum((unsigned char)n2[nl]) && n2[nl] != '_';
		}
		if (v && !again) {
			static const char *const secret[] = {"TOKEN", "SECRET", "PASSWORD", "PASSWD", "KEY", "CREDENTIAL"};
			int hide = 0;
			for (size_t k = 0; k < sizeof secret / sizeof *secret; k++)
				hide |= strstr(nm, secret[k]) != NULL;
			sl_buf nb = {0};
			sl_buf_printf(&nb, "%s argv[%zu]: the shell reads $%s from servelint's environment when it runs (%s=%s); as a word, not as code",
				      p->name, at, nm, nm, hide ? "<redacted>" : v);
			size_t ncap = out->nnotes;
			sl_grow((void **)&out->notes, &ncap, out->nnotes + 1, sizeof *out->notes);
			out->notes[out->nnotes++] = sl_buf_detach(&nb);
			seen++;
		}
		free(nm);
	}
}

/* An unquoted $NAME splits its value at blanks, as bash splits it: a
 * --set value with spaces becomes several argv elements. The plan says so
 * where it happened (quoting "$NAME" in the script keeps it whole). */
static void note_split(const ctx *c, const sl_proc *p, sl_plan *out)
{
	for (size_t i = 0; i < c->o->nsets; i++) {
		const char *set = c->o->sets[i], *eq = strchr(set, '=');
		if (!eq || eq == set || !strpbrk(eq + 1, " \t\n"))
			continue;
		char *v = sl_strdup(eq + 1), *save = NULL;
		char *words[64];
		size_t nw = 0;
		for (char *w = strtok_r(v, " \t\n", &save); w && nw < 64; w = strtok_r(NULL, " \t\n", &save))
			words[nw++] = w;
		for (size_t a = 0; nw >= 2 && a + nw <= p->argc; a++) {
			size_t k = 0;
			while (k < nw && !strcmp(p->argv[a + k], words[k]))
				k++;
			if (k == nw) {
				sl_buf nb = {0};
				sl_buf_printf(&nb, "%s argv[%zu..%zu]: the value of %.*s (--set) is split at its blanks into %zu elements, as bash splits an unquoted $%.*s; write \"$%.*s\" in the script for one",
					      p->name, a, a + nw - 1, (int)(eq - set), set, nw, (int)(eq - set), set,
					      (int)(eq - set), set);
				size_t ncap = out->nnotes;
				sl_grow((void **)&out->notes, &ncap, out->nnotes + 1, sizeof *out->notes);
				out->notes[out->nnotes++] = sl_buf_detach(&nb);
				break;
			}
		}
		free(v);
	}
}

/* One process: replica r of service s, its launch l. */
static int add_proc(ctx *c, const sl_model *m, const sl_service *s, size_t r, const json_t *l, sl_plan *out,
		    size_t *cap)
{
	const sl_plan_opts *o = c->o;
	sl_proc p;
	memset(&p, 0, sizeof p);
	sl_buf nm = {0};
	sl_buf_printf(&nm, r ? "%s#%zu" : "%s", s->name, r + 1);
	p.name = sl_buf_detach(&nm);
	p.role = sl_strdup(s->role);
	p.stage = stage_of(s->role);
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
	    !hole(c, "%s: `docker run -d` leaves the container to docker: servelint could neither see it end nor stop it; run it with --native",
		  p.name)) {
		rc = SL_ERR_INPUT;
		goto out;
	}
	const struct image_ep *iep = NULL;
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
			/* only arguments after the image: its own entrypoint takes them */
			from = img + 1;
			iep = image_ep_of(image);
			if (!iep || !iep->argv[0]) {
				sl_error_set(c->err, c->file, line, col, "%s: %s; --native cannot start it", p.name,
					     iep ? iep->none : "the image's entrypoint is not known (write its command after the image)");
				rc = SL_ERR_INPUT;
				goto out;
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
	p.argv = sl_calloc(n - from + 4, sizeof *p.argv);
	if (entrypoint)
		p.argv[p.argc++] = sl_strdup(entrypoint);
	for (size_t i = 0; iep && i < 2 && iep->argv[i]; i++)
		p.argv[p.argc++] = sl_strdup(iep->argv[i]);
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
		char *mapped = nv ? map_back(v, vs, nv) : sl_strdup(v);
		for (size_t k = 0; k < nv && shell_string; k++)
			if (strstr(v, vs[k].cont)) {
				sl_buf nb = {0};
				sl_error ignored = {0};
				ctx quiet = *c;
				quiet.err = &ignored;
				char *host = fill(&quiet, vs[k].host, 0, 0, "volume");
				sl_error_clear(&ignored);
				sl_buf_printf(&nb, "%s argv[%zu]: the shell string names %s, a path in the container; it is not mapped back to %s (only whole argv elements are)",
					      p.name, p.argc, vs[k].cont, host ? host : vs[k].host);
				free(host);
				size_t ncap = out->nnotes;
				sl_grow((void **)&out->notes, &ncap, out->nnotes + 1, sizeof *out->notes);
				out->notes[out->nnotes++] = sl_buf_detach(&nb);
			}
		sl_buf what = {0};
		sl_buf_printf(&what, "%s argv[%zu]", p.name, p.argc);
		char *f = shell_string && !shell_string_safe(c, mapped, what.data)
				  ? NULL
				  : fill(c, mapped, symbolic, shell_string, what.data);
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
		char *mapped = nv && !strcmp(e->via, "docker") ? map_back(e->value, vs, nv) : sl_strdup(e->value);
		char *f = fill(c, mapped, (e->flags & SL_SET_SYMBOLIC) != 0, 0, what.data);
		free(mapped);
		sl_buf_free(&what);
		if (!f) {
			rc = SL_ERR_INPUT;
			break;
		}
		add_env(&p, &ecap, e->name, f);
		free(f);
	}
	const json_t *env = json_object_get(l, "env");
	for (size_t i = 0; i < json_array_size(env) && rc == SL_OK; i++) {
		const json_t *kv = json_array_get(env, i);
		const char *name = json_string_value(json_array_get(kv, 0));
		sl_buf what = {0};
		sl_buf_printf(&what, "%s env %s", p.name, name);
		char *f = env_value(c, name, json_string_value(json_array_get(kv, 1)), json_is_true(json_array_get(kv, 2)),
				    what.data);
		sl_buf_free(&what);
		if (!f) {
			rc = SL_ERR_INPUT;
			break;
		}
		add_env(&p, &ecap, name, f);
		free(f);
	}
	if (rc == SL_OK && dk && o->native && native_gpus(c, dk, &p, &ecap, out))
		rc = SL_ERR_INPUT;
	if (rc == SL_OK && shell_at != (size_t)-1)
		note_shell_env(&p, shell_at, out);
	if (rc == SL_OK)
		note_split(c, &p, out);
	/* readiness */
	if (rc == SL_OK && o->ready) {
		rc = parse_ready(o->ready, &p, c->err);
	} else if (rc == SL_OK && s->health) {
		const char *path = json_string_value(json_object_get(s->health, "http"));
		long dport = (long)json_integer_value(json_object_get(s->health, "port"));
		if (path) {
			long port = port_of(c, s, r, dport);
			if ((port <= 0 || port > 65535) && c->plan->nunresolved && c->o->dry_run) {
				; /* a hole in its port (a $PORT left unset) is told already */
			} else if (port <= 0 || port > 65535) {
				sl_error_set(c->err, p.where, line, col,
					     "%s: its port is not known (give the readiness check with --ready)", p.name);
				rc = SL_ERR_INPUT;
			} else {
				sl_buf u = {0};
				sl_buf_printf(&u, "http://127.0.0.1:%ld%s", port, path);
				p.url = sl_buf_detach(&u);
				p.listens = (int)port;
				p.ready = SL_READY_HTTP;
			}
		} else if (json_object_get(s->health, "tcp")) {
			long port = etcd_port(c, s, (long)json_integer_value(json_object_get(s->health, "tcp")));
			if (port < 0) {
				sl_error_set(c->err, c->file, line, col,
					     "%s: its client port is not known (give the readiness check with --ready)",
					     p.name);
				rc = SL_ERR_INPUT;
			}
			p.ready = SL_READY_TCP;
			p.host = sl_strdup("127.0.0.1");
			p.port = p.listens = (int)port;
		} else if (json_is_true(json_object_get(s->health, "frontend"))) {
			p.ready = SL_READY_FRONTEND; /* the URL is the frontend's, set once all are planned */
		}
	}
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
	proc_free(&p);
	return rc;
}

static void add_file(sl_plan *p, size_t *cap, const char *name, const char *text, size_t len)
{
	const char *base = strrchr(name, '/');
	base = base ? base + 1 : name;
	for (size_t i = 0; i < p->nfiles; i++)
		if (!strcmp(p->file_names[i], base))
			return; /* the first wins: the entry's own file over a later write */
	size_t c = *cap;
	sl_grow((void **)&p->file_names, &c, p->nfiles + 1, sizeof *p->file_names);
	c = *cap;
	sl_grow((void **)&p->file_texts, &c, p->nfiles + 1, sizeof *p->file_texts);
	c = *cap;
	sl_grow((void **)&p->file_lens, &c, p->nfiles + 1, sizeof *p->file_lens);
	*cap = c;
	p->file_names[p->nfiles] = sl_strdup(base);
	p->file_texts[p->nfiles] = sl_strndup(text, len);
	p->file_lens[p->nfiles] = len;
	p->nfiles++;
}

/* The files a run needs beside it: the entry's YAML and the script's
 * here-documents, by base name. */
static void plan_files(const sl_model *m, sl_plan *p)
{
	size_t cap = 0;
	const sl_entry *e = m->entry;
	for (size_t i = 0; i < m->nfiles; i++) {
		const sl_source *s = m->files[i];
		const char *name = s->section ? s->section : s->name;
		if (name[0] == '/') {
			sl_buf nb = {0};
			sl_buf_printf(&nb, "the script writes %s; the run writes it as work/%s, and words naming %s are not changed",
				      name, strrchr(name, '/') + 1, name);
			size_t ncap = p->nnotes;
			sl_grow((void **)&p->notes, &ncap, p->nnotes + 1, sizeof *p->notes);
			p->notes[p->nnotes++] = sl_buf_detach(&nb);
		}
		add_file(p, &cap, name, s->text, s->len);
	}
	for (size_t i = 0; i < e->nfiles; i++) {
		const sl_source *s = e->files[i];
		add_file(p, &cap, s->section ? s->section : s->name, s->text, s->len);
	}
}

/* How many processes a service is: one per launch (a loop's iterations
 * each have theirs), or a manifest's replicas, which all run its one
 * launch: the model keeps them as a count. */
static size_t nlaunches(const sl_service *s)
{
	size_t n = json_array_size(s->launches);
	int k8s = s->replicas_from && (!strcmp(s->replicas_from, "replicas") || !strcmp(s->replicas_from, "kubernetes default"));
	return n == 1 && k8s ? s->replicas : n;
}

static const json_t *launch_at(const sl_service *s, size_t r)
{
	size_t n = json_array_size(s->launches);
	return json_array_get(s->launches, r < n ? r : n - 1);
}

/* run starts everything on one host: more processes than this are a
 * catalogue's cluster, not a run */
#define SL_MAX_RUN_PROCS 256

/* The replica after r that --service could pick: r + 1 when a selector
 * names the service whole (then every replica is picked), else the least
 * ROLE#N past r; (size_t)-1 when none. */
static size_t next_pick(const sl_plan_opts *o, const sl_service *s, size_t r)
{
	if (!o->nservices)
		return r + 1;
	size_t best = (size_t)-1;
	for (size_t i = 0; i < o->nservices; i++) {
		const char *sel = o->services[i], *hash = strchr(sel, '#');
		size_t nl = hash ? (size_t)(hash - sel) : strlen(sel);
		int named = (strlen(s->role) == nl && !strncmp(s->role, sel, nl)) ||
			    (strlen(s->name) == nl && !strncmp(s->name, sel, nl));
		if (!named)
			continue;
		long long k;
		if (!hash)
			return r + 1;
		if (!sl_parse_int(hash + 1, &k) && k >= 1 && (size_t)(k - 1) > r && (size_t)(k - 1) < best)
			best = (size_t)(k - 1);
	}
	return best;
}

int sl_exec_plan(const sl_model *m, const sl_plan_opts *o, sl_plan *out, sl_error *err)
{
	memset(out, 0, sizeof *out);
	ctx c = {o, err, m->entry->path, 0, 0, out};
	size_t cap = 0;
	int rc = SL_OK;
	size_t total = 0;
	for (size_t i = 0; i < m->nservices && rc == SL_OK; i++) {
		const sl_service *s = &m->services[i];
		/* a count past the limit: only the replicas --service names one
		 * by one are looked at (not a billion of them) */
		size_t many = nlaunches(s) > SL_MAX_RUN_PROCS;
		for (size_t r = 0; r < nlaunches(s) && rc == SL_OK; r = many ? next_pick(o, s, r) : r + 1)
			if (picked(o, s, r) && ++total > SL_MAX_RUN_PROCS) {
				unsigned line = 0, col = 0;
				sl_origin_pos(&s->replicas_origin, &line, &col);
				sl_error_set(err, s->replicas_origin.src ? s->replicas_origin.src->path : m->entry->path, line, col,
					     "%s: %zu replicas; run starts every process on this host, at most %d (pick some with --service %s#N)",
					     s->name, nlaunches(s), SL_MAX_RUN_PROCS, s->role);
				rc = SL_ERR_INPUT;
			} else if (picked(o, s, r)) {
				rc = add_proc(&c, m, s, r, launch_at(s, r), out, &cap);
			}
	}
	for (size_t i = 0; i < o->nservices && rc == SL_OK; i++) {
		int any = 0;
		for (size_t k = 0; k < m->nservices && !any; k++)
			for (size_t r = 0; r < nlaunches(&m->services[k]) && !any;
			     r = nlaunches(&m->services[k]) > SL_MAX_RUN_PROCS ? next_pick(o, &m->services[k], r) : r + 1) {
				sl_plan_opts one = *o;
				one.services = o->services + i;
				one.nservices = 1;
				any = picked(&one, &m->services[k], r);
			}
		if (!any) {
			sl_error_set(err, m->entry->path, 0, 0, "--service %s: no such service or replica", o->services[i]);
			rc = SL_ERR_USAGE;
		}
	}
	if (rc == SL_OK && !out->n) {
		sl_error_set(err, m->entry->path, 0, 0, "no service to run");
		rc = SL_ERR_INPUT;
	}
	/* Dynamo workers are ready when the frontend lists a model */
	const sl_proc *fe = NULL;
	for (size_t i = 0; i < out->n && rc == SL_OK; i++)
		if (!strcmp(out->procs[i].role, "frontend") && out->procs[i].ready == SL_READY_HTTP)
			fe = &out->procs[i];
	for (size_t i = 0; i < out->n && rc == SL_OK; i++) {
		sl_proc *p = &out->procs[i];
		if (p->ready != SL_READY_FRONTEND)
			continue;
		if (!fe) {
			sl_error_set(err, p->where, 0, 0,
				     "%s: a Dynamo worker is ready when the frontend lists a model; run the frontend too, or give --ready",
				     p->name);
			rc = SL_ERR_INPUT;
		} else {
			p->url = sl_strdup(fe->url);
		}
	}
	for (size_t i = 0; i < out->n && rc == SL_OK; i++)
		if (!strcmp(out->procs[i].argv[0], "docker") || sl_ends_with(out->procs[i].argv[0], "/docker"))
			out->needs_docker = 1;
	/* run starts everything on this host: two servers on one port cannot
	 * both start (a published multi-node entry, or ports left to the
	 * engine's default) */
	for (size_t i = 0; i < out->n && rc == SL_OK; i++)
		for (size_t j = i + 1; j < out->n && rc == SL_OK; j++)
			if (out->procs[i].listens && out->procs[i].listens == out->procs[j].listens) {
				sl_buf m = {0};
				sl_buf_printf(&m, "%s and %s both serve on port %d (%s); on one host the second cannot start: give one another port, or run them apart with --service",
					      out->procs[i].name, out->procs[j].name, out->procs[i].listens, out->procs[i].where);
				if (o->dry_run) {
					sl_buf h = {0};
					sl_buf_printf(&h, "%s: %s", out->procs[j].where, m.data);
					push_text(&out->unresolved, &out->nunresolved, sl_buf_detach(&h));
				} else {
					sl_error_set(err, out->procs[j].where, 0, 0, "%s", m.data);
					rc = SL_ERR_INPUT;
				}
				sl_buf_free(&m);
			}
	if (rc) {
		sl_exec_plan_free(out);
		return rc;
	}
	/* stable: replicas and services keep the script's order within a stage */
	sl_proc *sorted = sl_calloc(out->n + 1, sizeof *sorted);
	size_t k = 0;
	for (int st = 0; st <= 3; st++)
		for (size_t i = 0; i < out->n; i++)
			if (out->procs[i].stage == st)
				sorted[k++] = out->procs[i];
	free(out->procs);
	out->procs = sorted;
	plan_files(m, out);
	return SL_OK;
}

void sl_exec_plan_free(sl_plan *p)
{
	for (size_t i = 0; i < p->nfiles; i++) {
		free(p->file_names[i]);
		free(p->file_texts[i]);
	}
	free(p->file_names);
	free(p->file_texts);
	free(p->file_lens);
	for (size_t i = 0; i < p->nnotes; i++)
		free(p->notes[i]);
	free(p->notes);
	for (size_t i = 0; i < p->nunresolved; i++)
		free(p->unresolved[i]);
	free(p->unresolved);
	for (size_t i = 0; i < p->n; i++)
		proc_free(&p->procs[i]);
	free(p->procs);
	memset(p, 0, sizeof *p);
}
