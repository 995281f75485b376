/*
 * options.h (cmd, internal): the command-line contract every subcommand
 * shares, parsed one way (docs/servelint.md, "THE COMMAND LINE"):
 * --version, --color WHEN with NO_COLOR and TERM, `-` for standard input
 * (once), `-` for standard output as an output file, an output file's
 * folder checked before anything is written, --quiet; the --ignore/--only
 * key globs of diff, matrix and log, and --set NAME=VALUE. Option parsing
 * only (see options.c).
 */
#ifndef SL_CMD_OPTIONS_H
#define SL_CMD_OPTIONS_H

#include <getopt.h>
#include <stddef.h>
#include <stdio.h>

#include "diff/diff.h"
#include "parse/parse.h"
#include "plan/plan.h"

#ifndef SL_VERSION
#define SL_VERSION "0.0.0"
#endif

/* getopt values of the options every command takes (beyond ASCII) */
enum { SL_OPT_VERSION = 0x100, SL_OPT_QUIET };
/* The option table entries every command has: put first in each table. */
#define SL_OPTS_COMMON {"version", no_argument, NULL, SL_OPT_VERSION}

/* (--version itself: sl_cmd_version, in cmd.h, for main.c too) */

/* --color WHEN: 1 always, 0 never, -1 auto; -2 for anything else. */
int sl_color_parse(const char *when);
/* --color WHEN into *color; 0, or -1 with `servelint CMD: --color takes
 * auto, always or never` on stderr (a usage error). */
int sl_opt_color(const char *cmd, const char *when, int *color);
/* auto (-1) resolved: standard output is a terminal, NO_COLOR is unset or
 * empty (no-color.org), and TERM is not `dumb`. */
int sl_color_resolve(int color);

/* The PATH arguments argv[first..argc): `-` (standard input) at most once.
 * 0, or -1 with a message on stderr (a usage error). */
int sl_opt_stdin_once(int argc, char **argv, int first, const char *cmd);

/* An output file named on the command line: `-` is standard output; any
 * other must be creatable in its folder. Checked before anything is read
 * or printed, so a wrong name writes nothing at all. 0, or -1 with a
 * message on stderr (an output error, exit 2). */
int sl_opt_output_ok(const char *cmd, const char *opt, const char *file);
/* Whether an output file name means standard output. */
int sl_opt_is_stdout(const char *file);

/* -j N, --jobs N (check, audit): read entries on N threads, 1 to
 * SL_MAX_JOBS (the default is the cores available, sl_jobs_available).
 * 0, or -1 with a message on stderr (a usage error). */
enum { SL_MAX_JOBS = 256 };
int sl_opt_jobs(const char *cmd, const char *arg, unsigned *jobs);

/* --quiet: nothing on standard output (the exit status only), as rg -q and
 * shellcheck -f quiet; stderr still tells of errors. 0, or -1. */
int sl_opt_quiet(void);

/* A glob of --include/--exclude/--only/--ignore that matched nothing: a
 * warning on stderr (`servelint CMD: warning: --OPT GLOB matched no
 * WHAT`), as rg's "No files were searched". */
void sl_opt_warn_unmatched(const char *cmd, const char *opt, const char *glob, const char *what);

/* Whether a path glob (--include, --exclude) matches path, an entry found
 * under the PATH argument root: the glob is matched against the path below
 * root (as rg does: `--include 'model/...'` under `corpus` matches corpus/model/x),
 * and against path as it is. */
int sl_opt_path_glob(const char *glob, const char *path, const char *root);

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
/* Warns (sl_opt_warn_unmatched) of each glob of k that matches no key of
 * the models ms[0..n) (their settings, env, claims, as the diff names them). */
void sl_key_globs_warn(const sl_key_globs *k, const sl_model *const *ms, size_t n, const char *cmd);
/* The same over models met one batch at a time: seen (2 x
 * SL_MAX_KEY_GLOBS, zeroed by the caller) marks each glob (--ignore's,
 * then --only's) that matched a key of some batch; then the warnings. */
void sl_key_globs_mark(const sl_key_globs *k, const sl_model *const *ms, size_t n, unsigned char *seen);
void sl_key_globs_warn_seen(const sl_key_globs *k, const unsigned char *seen, const char *cmd);

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
