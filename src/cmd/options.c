/*
 * options.c (cmd): the options several subcommands share, parsed one way
 * (see options.h). It stays in the command layer rather than in a stage
 * because it is option parsing only: turning argv strings into the values
 * the stages take (a colour choice, diff key filters, --set bindings), and
 * no stage reads argv. What was not option parsing (loading the grammars
 * and rules together) is now the check stage's sl_check_load_rules.
 */
#include "options.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int sl_color_parse(const char *when)
{
	return !strcmp(when, "always") ? 1 : !strcmp(when, "never") ? 0 : !strcmp(when, "auto") ? -1 : -2;
}

int sl_color_resolve(int color)
{
	return color < 0 ? isatty(STDOUT_FILENO) && !getenv("NO_COLOR") : color;
}

int sl_key_globs_take(sl_key_globs *k, int c, char *glob, const char *cmd)
{
	if (c != 'i' && c != 'O')
		return 0;
	size_t *n = c == 'i' ? &k->ni : &k->no;
	if (*n == SL_MAX_KEY_GLOBS) {
		fprintf(stderr, "servelint %s: more than %d --%s globs\n", cmd, SL_MAX_KEY_GLOBS,
			c == 'i' ? "ignore" : "only");
		return -1;
	}
	(c == 'i' ? k->ignore : k->only)[(*n)++] = glob;
	return 1;
}

sl_diff_opts sl_key_globs_opts(const sl_key_globs *k)
{
	sl_diff_opts o = {k->ignore, k->ni, k->only, k->no};
	return o;
}

int sl_binds_take(sl_binds *b, const char *arg, const char *cmd)
{
	const char *eq = strchr(arg, '=');
	size_t n = eq ? (size_t)(eq - arg) : 0;
	/* a shell name, or a positional parameter's number (the script's $1) */
	int digits = n > 0;
	for (size_t i = 0; i < n && digits; i++)
		digits = isdigit((unsigned char)arg[i]) != 0;
	int ok = n > 0 && (digits || !isdigit((unsigned char)arg[0]));
	for (size_t i = 0; i < n && ok && !digits; i++)
		ok = isalnum((unsigned char)arg[i]) || arg[i] == '_';
	if (!ok) {
		fprintf(stderr, "servelint %s: --set takes NAME=VALUE with NAME a shell variable name or a number, not `%s`\n",
			cmd, arg);
		return -1;
	}
	size_t cap = b->n;
	sl_grow((void **)&b->names, &cap, b->n + 1, sizeof *b->names);
	cap = b->n;
	sl_grow((void **)&b->values, &cap, b->n + 1, sizeof *b->values);
	b->names[b->n] = sl_strndup(arg, n);
	b->values[b->n] = sl_strdup(eq + 1);
	b->n++;
	return 0;
}

void sl_binds_free(sl_binds *b)
{
	for (size_t i = 0; i < b->n; i++) {
		free(b->names[i]);
		free(b->values[i]);
	}
	free(b->names);
	free(b->values);
	memset(b, 0, sizeof *b);
}

int sl_plan_opts_take(sl_plan_options *o, int c, char *arg)
{
	if (c == 'Y')
		o->system = arg;
	else if (c == 'M')
		o->model_config = arg;
	else
		return 0;
	return 1;
}

int sl_plan_opts_apply(const sl_plan_options *o)
{
	sl_error err = {0};
	if (sl_plan_set_options(o, &err)) {
		sl_error_print(&err, "servelint");
		sl_error_clear(&err);
		return -1;
	}
	return 0;
}
