/*
 * internal.h: what the files of src/exec/run/ share, the runner behind
 * sl_exec_run (../exec.h is the interface; nothing here is seen outside
 * this folder).
 *
 * Running a plan. It owns the processes of one cycle: starting them stage
 * by stage (each in its own process group, output to its log file),
 * polling their readiness, timing the probe, noticing a process that ends
 * too soon, a timeout or a signal to servelint, and the teardown that
 * leaves nothing behind: SIGTERM to every group in reverse start order,
 * SIGKILL after the grace period, then any descendant that escaped its
 * group (servelint is the subreaper of everything it starts) killed and
 * reaped.
 *
 * The files, lowest first: signals.c, ready.c (readiness asked),
 * watchdog.c, procs.c (start, reap, teardown), logs.c, run.c (a cycle).
 */
#ifndef SL_EXEC_RUN_INTERNAL_H
#define SL_EXEC_RUN_INTERNAL_H

#define _GNU_SOURCE
#include "../exec.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* How often readiness is asked, and how long one ask may take. */
#define POLL_MS 100
#define ASK_TIMEOUT_MS 1000
#define TAIL_LINES 10

/* The probe stops first, before the stages of the plan (0 to 3). */
#define STAGE_PROBE 4

/* One process of the cycle as it runs. */
typedef struct live {
	pid_t pid;             /* 0: not started; -1: reaped */
	int stage;
	double start, end;
	int ready;
	int status;
	struct rusage ru;
} live;

static inline double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static inline void nap(int ms)
{
	struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
	nanosleep(&ts, NULL); /* a signal cuts it short: fine */
}

static inline double tv(struct timeval t)
{
	return (double)t.tv_sec + (double)t.tv_usec / 1e6;
}

/* signals.c: the first signal received (0: none), and how many */
extern volatile sig_atomic_t rn_got_signal;
extern volatile sig_atomic_t rn_nsignals;
/* SIGINT, SIGTERM, SIGHUP, SIGPIPE (and SIGQUIT when with_quit) to handler:
 * SIG_DFL in a forked engine, SIG_IGN in the watchdog */
void rn_signals_set(void (*handler)(int), int with_quit);

/* ready.c: whether p answers its readiness check now */
int rn_is_ready(const sl_proc *p);

/* watchdog.c */
/* SERVELINT_RUN=<mark> of this cycle ("" without a watchdog), put in each
 * child's environment */
extern char rn_run_mark[64];
/* the watchdog's pid (0: none), which is not an orphan to kill */
extern pid_t rn_watchdog_pid;
/* Tells the watchdog of a process just started (the leader of its group). */
void rn_watchdog_tell(pid_t pid);
/* Starts the watchdog of one cycle (grace: of its sweep), or none. */
void rn_watchdog_start(double grace);
/* Ends it and reaps it. */
void rn_watchdog_stop(void);

/* procs.c */
/* Starts argv in its own process group with output to log. Returns the
 * pid, or -1 with errno from exec in *exec_errno. */
pid_t rn_spawn(char *const *argv, char *const *env, size_t nenv, const char *log, const char *cwd,
	       int *exec_errno);
/* Reaps l if it ended; 1 when it has (now or before). */
int rn_reaped(live *l);
/* Stops the n processes of ls, the last stage first, and what escaped. */
void rn_teardown(live *ls, size_t n, double grace);

/* logs.c */
/* The last TAIL_LINES lines of a log, or NULL. Caller frees. */
char *rn_tail_of(const char *path);
/* DIR/NAME[.CYCLE].log of a process. Caller frees. */
char *rn_log_path(const char *dir, const char *name, int cycle);

#endif
