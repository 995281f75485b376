/*
 * options.h (cmd, internal): the options several subcommands share, parsed
 * one way: --color WHEN, the --ignore/--only key globs of diff, matrix
 * and log, and --set NAME=VALUE. Option parsing only (see options.c).
 */
#ifndef SL_CMD_OPTIONS_H
#define SL_CMD_OPTIONS_H

#include <stddef.h>

#include "diff/diff.h"
#include "parse/parse.h"
#include "plan/plan.h"

/* --color WHEN: 1 always, 0 never, -1 auto; -2 for anything else. */
int sl_color_parse(const char *when);
/* auto (-1) resolved: standard output is a terminal and NO_COLOR is unset. */
int sl_color_resolve(int color);

enum { SL_MAX_KEY_GLOBS = 64 };

typedef struct sl_key_globs {
	char *ignore[SL_MAX_KEY_GLOBS], *only[SL_MAX_KEY_GLOBS];  /* not owned: argv */
	size_t ni, no;
} sl_key_globs;

/* Takes --ignore (c 'i') or --only (c 'O'): 1 when taken, 0 when c is
 * neither, -1 (with a message on stderr) past SL_MAX_KEY_GLOBS. */
int sl_key_globs_take(sl_key_globs *k, int c, char *glob, const char *cmd);
/* The filter for the diff stage; points into k. */
sl_diff_opts sl_key_globs_opts(const sl_key_globs *k);

/* --set NAME=VALUE: a value for a variable the script leaves unknown.
 * Returns 0, or -1 with a message on stderr (NAME not a shell name).
 * Names and values are copies: free with sl_binds_free. */
int sl_binds_take(sl_binds *b, const char *arg, const char *cmd);
void sl_binds_free(sl_binds *b);

/* --system TEXT (c 'Y') and --model-config FILE (c 'M'), the memory
 * plan's facts (docs/memory-plan.md): 1 when c is one of them (taken into
 * o, pointing at argv), 0 when not. */
int sl_plan_opts_take(sl_plan_options *o, int c, char *arg);
/* Hands them to the plan stage: 0, or -1 with a message on stderr (the
 * --model-config file cannot be read). */
int sl_plan_opts_apply(const sl_plan_options *o);
/* The two options as the usage texts print them. */
#define SL_PLAN_OPTS_USAGE                                                                        \
	"      --system TEXT     the accelerator, for the memory plan and its checks (H200, B200,\n"  \
	"                        gb300-nvl72...), instead of the System claim or the folder name\n"  \
	"      --model-config FILE  the model's config.json, for the plan (instead of the\n"        \
	"                        catalogue's models/ folder or grammars/models/)\n"

#endif
