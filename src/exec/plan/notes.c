/*
 * notes.c: what the plan tells beside its processes, so that it shows what
 * will run: the variables a shell string reads from servelint's environment
 * and the --set values an unquoted $NAME splits into several words.
 */
#include "internal.h"

#include <ctype.h>
#include <stdlib.h>

/* The variables a shell string reads that the process does not get from
 * the plan: the shell takes them from servelint's environment when it runs
 * (as words, never as code). A note says so, with the value, so that the
 * plan shows what will run. */
void pl_note_shell_env(const sl_proc *p, size_t at, sl_plan *out)
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
			pl_push_text(&out->notes, &out->nnotes, sl_buf_detach(&nb));
			seen++;
		}
		free(nm);
	}
}

/* An unquoted $NAME splits its value at blanks, as bash splits it: a
 * --set value with spaces becomes several argv elements. The plan says so
 * where it happened (quoting "$NAME" in the script keeps it whole). */
void pl_note_split(const ctx *c, const sl_proc *p, sl_plan *out)
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
				pl_push_text(&out->notes, &out->nnotes, sl_buf_detach(&nb));
				break;
			}
		}
		free(v);
	}
}
