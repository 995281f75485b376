/*
 * values.c: the values a plan's words are given. Placeholders (<host-path>)
 * and the shell variables the script leaves to its caller ($MODEL) are
 * filled from --set (variables also from servelint's own environment, as
 * the shell would) inside single argv elements, never by building a shell
 * string; a --set value that would land in a shell string as code is
 * refused; anything left unresolved is an error naming it, or with
 * --dry-run a hole the plan lists.
 */
#include "internal.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>

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

void pl_push_text(char ***v, size_t *n, char *s)
{
	size_t cap = *n;
	sl_grow((void **)v, &cap, *n + 1, sizeof **v);
	(*v)[(*n)++] = s;
}

/* Something missing before the plan can run: with --dry-run it is listed
 * (once) and the plan goes on (1); else it is the error (0). */
int pl_hole(ctx *c, const char *fmt, ...)
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
	pl_push_text(&c->plan->unresolved, &c->plan->nunresolved, sl_buf_detach(&b));
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
int pl_shell_string_safe(ctx *c, const char *str, const char *what)
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
char *pl_fill(ctx *c, const char *v, int symbolic, int shell_string, const char *what)
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
				int go_on = pl_hole(c, "%s: placeholder %.*s has no value (--set %s=VALUE)", what, (int)n, p, k);
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
					if (!pl_hole(c, "%s: $%.*s is not set (--set %.*s=VALUE, or set it in the environment)",
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
char *pl_env_value(ctx *c, const char *name, const char *value, int symbolic, const char *what)
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
	return pl_fill(c, value, symbolic, 0, what);
}
