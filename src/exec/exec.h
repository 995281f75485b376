/*
 * exec.h: the exec stage, the whole of its public interface. It turns a
 * model into a plan (which processes `servelint run` starts, in which
 * order, with which argv, environment and readiness check), and runs a
 * plan: each process in its own process group with its output in a log
 * file, readiness polled, a probe timed, everything torn down afterwards.
 * Nothing here runs a shell on the configuration's words: argv elements
 * are passed to execvp as they are.
 *
 * Ownership: a plan owns all its strings (sl_exec_plan_free); a result
 * owns its arrays (sl_exec_result_free).
 */
#ifndef SL_EXEC_H
#define SL_EXEC_H

#include "../model/model.h"

typedef enum {
	SL_READY_NONE = 0,     /* ready once started (nothing to ask) */
	SL_READY_HTTP,         /* GET url answers 2xx */
	SL_READY_TCP,          /* a TCP connect to host:port succeeds */
	SL_READY_FRONTEND,     /* the frontend's url lists a model (Dynamo workers) */
} sl_ready_kind;

typedef struct sl_proc {
	char *name;            /* service, with #N for replica N > 1 (decode#2); owned */
	char *role;            /* owned */
	int stage;             /* start order: 0 etcd, 1 frontend and routers, 2 workers */
	char **argv;           /* NULL-terminated; owned */
	size_t argc;
	char **env;            /* NAME=VALUE set on top of servelint's environment; NULL-terminated; owned */
	size_t nenv;
	sl_ready_kind ready;
	char *url;             /* HTTP and FRONTEND: the URL asked; owned, may be NULL */
	char *host;            /* TCP: host; owned, may be NULL */
	int port;              /* TCP */
	int listens;           /* the port it serves on this host (from the model), 0 unknown */
	char *where;           /* the command's place, file:line:col; owned */
} sl_proc;

typedef struct sl_plan {
	sl_proc *procs;        /* in start order */
	size_t n;
	int needs_docker;      /* some argv runs `docker` (not --native) */
	char **notes;          /* what the plan could not do as asked (owned), told with it */
	size_t nnotes;
	/* with dry_run: what is missing before it can run (a placeholder or
	 * variable without a value, `docker run -d`), each told with its place;
	 * the plan shows the holes as written (owned) */
	char **unresolved;
	size_t nunresolved;
	/* The entry's files (its YAML, and what its here-documents write),
	 * written into the run's working folder where every process starts,
	 * so that `--config gen_config.yaml` finds its file; owned */
	char **file_names, **file_texts;
	size_t *file_lens;
	size_t nfiles;
} sl_plan;

typedef struct sl_plan_opts {
	char *const *services; /* ROLE or ROLE#N (or a service name) to start; none: all */
	size_t nservices;
	char *const *sets;     /* NAME=VALUE: placeholders (<host-path>) and shell variables ($MODEL) */
	size_t nsets;
	int native;            /* run the engine inside docker directly */
	const char *ready;     /* --ready: tcp:HOST:PORT or an http URL for every process; may be NULL */
	int dry_run;           /* plan what can be planned: holes go to unresolved, not errors */
} sl_plan_opts;

/* Builds the plan of model m. Fails (SL_ERR_INPUT, err naming the place)
 * on an unresolved placeholder or variable (with dry_run: listed in
 * unresolved instead, the plan made all the same), a placeholder inside a
 * shell string, a --service naming nothing, a service run cannot start.
 * With native, docker's --gpus device=... becomes CUDA_VISIBLE_DEVICES, and
 * the image's own entrypoint (vllm/vllm-openai: `vllm serve`) starts the
 * arguments after the image. */
int sl_exec_plan(const sl_model *m, const sl_plan_opts *o, sl_plan *out, sl_error *err);
void sl_exec_plan_free(sl_plan *p);

/* Whether a docker engine answers on $DOCKER_HOST (a unix socket) or
 * /var/run/docker.sock; *where names the socket asked (static or getenv). */
int sl_exec_docker_answers(const char **where);

typedef struct sl_run_opts {
	const char *logs;      /* folder for the log files (created if missing); the
				* processes start in its subfolder work/, which holds the
				* plan's files */
	double timeout;        /* seconds for the cycle (start to probe end); <= 0: none */
	double grace;          /* seconds between SIGTERM and SIGKILL */
	const char *probe;     /* a shell command run once everything is ready, or NULL */
	int cycle;             /* appended to log names (service.N.log) when > 0 */
} sl_run_opts;

/* One process of one cycle. */
typedef struct sl_proc_result {
	double ready;          /* seconds from its start to ready; < 0 never ready */
	double wall;           /* seconds from its start to its end */
	double user, sys;      /* CPU seconds (wait4) */
	long max_rss_kb;       /* peak resident set (wait4) */
	int status;            /* wait status */
	int exited_early;      /* it ended before the cycle was over */
	char *log;             /* its log file; owned */
} sl_proc_result;

enum {
	SL_RUN_OK = 0,
	SL_RUN_DIED,           /* a process ended before the cycle was over */
	SL_RUN_TIMEOUT,
	SL_RUN_INTERRUPTED,    /* SIGINT or SIGTERM to servelint */
	SL_RUN_PROBE_FAILED,
	SL_RUN_START_FAILED,   /* a program could not be executed */
};

typedef struct sl_run_result {
	int outcome;           /* SL_RUN_* */
	sl_proc_result *procs; /* one per plan process (not started: ready < 0, wall 0) */
	size_t n;
	double deployment_ready; /* seconds from the first start to all ready; < 0 if not */
	double probe;          /* seconds; < 0 when not run */
	double probe_user, probe_sys; /* its CPU seconds (wait4) */
	int probe_status;
	char *failed;          /* the process (or probe) that failed, or NULL; owned */
	int signal;            /* the signal that interrupted, or 0 */
	char *tail;            /* last lines of the failed process's log, or NULL; owned */
} sl_run_result;

/* Runs one cycle of plan p: starts the stages in order, each process in
 * its own process group with stdout and stderr in LOGS/NAME.log, waits
 * for each stage to be ready, times the probe, then tears down: SIGTERM to
 * every group in reverse start order, SIGKILL after the grace period, and
 * any descendant left (servelint is their subreaper) is killed and reaped.
 * Returns SL_OK with the outcome in *r (a failed run is an outcome, not an
 * error); SL_ERR_IO when the log folder cannot be made. */
int sl_exec_run(const sl_plan *p, const sl_run_opts *o, sl_run_result *r, sl_error *err);
void sl_exec_result_free(sl_run_result *r);

/* Installs the SIGINT/SIGTERM handlers that turn a signal into an orderly
 * teardown (the run's outcome is then SL_RUN_INTERRUPTED). */
void sl_exec_signals_install(void);
/* The signal received since, or 0. */
int sl_exec_interrupted(void);

/* Statistics of n samples, as hyperfine gives them (stddev is the sample
 * standard deviation, 0 for one sample). */
typedef struct sl_stats {
	double mean, stddev, median, min, max;
} sl_stats;
void sl_exec_stats(const double *v, size_t n, sl_stats *out);

#endif
