/*
 * internal.h: what the files of src/exec/plan/ share, the planner behind
 * sl_exec_plan (../exec.h is the interface; nothing here is seen outside
 * this folder).
 *
 * What `servelint run` would start for a model. Each replica of each
 * service becomes one process with the argv its command has as written
 * (launchers and all), the environment the script gives it, and a
 * readiness check from the engine grammar's `health:`. Placeholders
 * (<host-path>) and the shell variables the script leaves to its caller
 * ($MODEL) are filled from --set (variables also from servelint's own
 * environment, as the shell would) inside single argv elements, never by
 * building a shell string; anything left unresolved is an error naming it.
 *
 * The files, lowest first: values.c (filling from --set), proc.c (one
 * sl_proc as a value), native.c (docker run natively), notes.c, ready.c
 * (readiness checks), launch.c (one process), plan.c (the whole plan).
 */
#ifndef SL_EXEC_PLAN_INTERNAL_H
#define SL_EXEC_PLAN_INTERNAL_H

#include "../exec.h"

#include <string.h>

/* What filling a value needs: the options, where errors go and the place
 * they name. */
typedef struct ctx {
	const sl_plan_opts *o;
	sl_error *err;
	const char *file;        /* the place errors name: the command's */
	unsigned line, col;
	sl_plan *plan;           /* where a dry run's holes go */
} ctx;

/* Docker's -v HOST:CONTAINER[:OPTIONS], as the model keeps them. */
typedef struct vol {
	char *host, *cont;
} vol;

/* values.c */
/* Appends s (owned by *v from then on) to the array *v of *n strings. */
void pl_push_text(char ***v, size_t *n, char *s);
/* Something missing before the plan can run: with --dry-run it is listed
 * (once) and the plan goes on (1); else it is the error (0). */
int pl_hole(ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* 0 with the error set when a --set value would land in the shell string
 * str as code; what names the place. */
int pl_shell_string_safe(ctx *c, const char *str, const char *what);
/* v with its placeholders (and, symbolic, its $NAME and ${NAME}) filled;
 * NULL with the error set. Caller frees. */
char *pl_fill(ctx *c, const char *v, int symbolic, int shell_string, const char *what);
/* A variable's value for the process; NULL with the error set. Caller frees. */
char *pl_env_value(ctx *c, const char *name, const char *value, int symbolic, const char *what);

/* proc.c */
/* Start order by role (0 first): what others connect to first. */
int pl_stage_of(const char *role);
/* Sets NAME=value in p's environment; cap is the capacity of p->env. */
void pl_add_env(sl_proc *p, size_t *cap, const char *name, const char *value);
/* Frees what p owns (not p). */
void pl_proc_free(sl_proc *p);

/* native.c */
/* A path inside the container mapped back to the host. Caller frees. */
char *pl_map_back(const char *v, const vol *vs, size_t nv);
/* docker's --gpus as CUDA_VISIBLE_DEVICES for p run natively; notes go
 * to out. 0, or -1 with the error. */
int pl_native_gpus(ctx *c, const sl_wrapper *dk, sl_proc *p, size_t *ecap, sl_plan *out);

/* notes.c */
/* Notes the variables argv[at] (a shell string) reads from servelint's environment. */
void pl_note_shell_env(const sl_proc *p, size_t at, sl_plan *out);
/* Notes the --set values an unquoted $NAME split into several argv elements. */
void pl_note_split(const ctx *c, const sl_proc *p, sl_plan *out);

/* ready.c */
/* Sets p's readiness check (replica r of s; line and col name its
 * command); SL_OK, or an error code with c->err set. */
int pl_ready(ctx *c, const sl_service *s, size_t r, sl_proc *p, unsigned line, unsigned col);

/* launch.c */
/* Adds replica r of s, launched by l, to out->procs (capacity *cap). */
int pl_add_proc(ctx *c, const sl_model *m, const sl_service *s, size_t r, const json_t *l, sl_plan *out,
		size_t *cap);

#endif
