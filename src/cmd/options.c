/* options.c (cmd): the shared options (see options.h). */
#include "options.h"

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
