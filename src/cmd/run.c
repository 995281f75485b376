/*
 * run.c (cmd): `servelint run ENTRY`: starts an entry's services (or the
 * ones --service picks) as written, waits until they are ready, times a
 * probe, tears everything down, and repeats for statistics. The only
 * command that executes anything, and only without --dry-run.
 * Exit: 0; 1 the run failed (a process ended early, timeout, probe failed,
 * a program could not start); 2 input errors (unreadable entry, unresolved
 * placeholder, no docker engine); 3 usage; 128+N after signal N.
 */
#include "cmd.h"
#include "entry/entry.h"
#include "options.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "exec/exec.h"
#include "normalize/normalize.h"

static void usage(FILE *f)
{
	fputs("usage: servelint run [--service ROLE[#N]]... [--set NAME=VALUE]... [--dry-run]\n"
	      "                     [--native] [--repeat N] [--warmup N] [--ready tcp:HOST:PORT|URL]\n"
	      "                     [--timeout SECONDS] [--grace SECONDS] [--probe CMD] [--logs DIR]\n"
	      "                     [--format tty|json] [--export-json FILE] ENTRY\n"
	      "\n"
	      "Starts the entry's processes as written (etcd, then frontends and routers,\n"
	      "then workers), each in its own process group with its output in a log file,\n"
	      "waits until each is ready (its engine's health endpoint, or --ready), times\n"
	      "the probe, then stops them all: SIGTERM in reverse order, SIGKILL after the\n"
	      "grace period. Nothing is left running, also after a failure, a timeout or\n"
	      "Ctrl-C.\n"
	      "\n"
	      "  -s, --service SEL     start only ROLE (prefill), ROLE#N (its Nth replica) or a\n"
	      "                        service name; repeatable\n"
	      "      --set NAME=VALUE  a placeholder's value (host-path=/data for <host-path>)\n"
	      "                        or a shell variable's ($MODEL, read into the script as\n"
	      "                        show --set does); repeatable\n"
	      "      --variant N       the variant of a script with an undecided if/case\n"
	      "  -n, --dry-run         print what would run (argv, env, order, readiness); run nothing\n"
	      "      --native          run a docker-wrapped engine directly: the container's -e\n"
	      "                        env applied, its -v paths mapped back to the host\n"
	      "  -r, --repeat N        run the whole cycle N times (default 1)\n"
	      "  -w, --warmup N        cycles before those measured (default 0)\n"
	      "      --ready SPEC      readiness of every process: tcp:HOST:PORT or an http URL\n"
	      "  -t, --timeout S       seconds a cycle may take to be ready and probed (default 1800)\n"
	      "      --grace S         seconds between SIGTERM and SIGKILL (default 10)\n"
	      "  -p, --probe CMD       a shell command timed once everything is ready\n"
	      "      --logs DIR        where the logs go (default: a new folder under $TMPDIR)\n"
	      "  -f, --format FORMAT   tty (default), json\n"
	      "      --export-json F   timings in hyperfine's export layout (seconds)\n",
	      f);
}

/* NAME=VALUE with NAME a shell variable's name (or a positional's number). */
static int is_shell_name(const char *arg)
{
	const char *eq = strchr(arg, '=');
	size_t n = eq ? (size_t)(eq - arg) : 0, digits = 0;
	for (size_t i = 0; i < n; i++) {
		if (!isalnum((unsigned char)arg[i]) && arg[i] != '_')
			return 0;
		digits += isdigit((unsigned char)arg[i]) != 0;
	}
	return n > 0 && (digits == n || !isdigit((unsigned char)arg[0]));
}

static int parse_count(const char *s, const char *what, long long min, long long *out)
{
	if (sl_parse_int(s, out) || *out < min) {
		fprintf(stderr, "servelint run: %s takes a whole number of at least %lld\n", what, min);
		return -1;
	}
	return 0;
}

static int parse_seconds(const char *s, const char *what, double *out)
{
	if (sl_parse_double(s, out) || *out < 0) {
		fprintf(stderr, "servelint run: %s takes seconds (a number, 0 or more)\n", what);
		return -1;
	}
	return 0;
}

/* An argv element as a reader would retype it in a shell (display only:
 * nothing is ever run through a shell built from these). */
static void put_quoted(sl_buf *b, const char *s)
{
	int plain = *s != '\0';
	for (const char *p = s; *p && plain; p++)
		plain = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=,+@%", *p) != NULL;
	if (plain) {
		sl_buf_puts(b, s);
		return;
	}
	sl_buf_putc(b, '\'');
	for (const char *p = s; *p; p++)
		if (*p == '\'')
			sl_buf_puts(b, "'\\''");
		else
			sl_buf_putc(b, *p);
	sl_buf_putc(b, '\'');
}

/* A variable whose value is a credential is not printed (a dry run's
 * output goes into logs and pull requests). */
static int secret_name(const char *name, size_t n)
{
	static const char *const words[] = {"TOKEN", "SECRET", "PASSWORD", "PASSWD", "API_KEY", "ACCESS_KEY", "CREDENTIAL"};
	char *up = sl_strndup(name, n);
	int hit = 0;
	for (size_t i = 0; i < sizeof words / sizeof *words && !hit; i++)
		hit = strstr(up, words[i]) != NULL;
	free(up);
	return hit;
}

static const char *stage_name(int st)
{
	static const char *const n[] = {"etcd", "frontend", "workers", "orchestrator"};
	return st >= 0 && st <= 3 ? n[st] : "?";
}

static char *ready_text(const sl_proc *p)
{
	sl_buf b = {0};
	switch (p->ready) {
	case SL_READY_NONE: sl_buf_puts(&b, "none (ready once started)"); break;
	case SL_READY_HTTP: sl_buf_printf(&b, "GET %s answers 2xx", p->url); break;
	case SL_READY_TCP: sl_buf_printf(&b, "TCP connect %s:%d", p->host, p->port); break;
	case SL_READY_FRONTEND: sl_buf_printf(&b, "GET %s lists a model", p->url); break;
	}
	return sl_buf_detach(&b);
}

static json_t *plan_json(const sl_plan *p, const char *logs)
{
	json_t *a = json_array();
	for (size_t i = 0; i < p->n; i++) {
		const sl_proc *x = &p->procs[i];
		json_t *argv = json_array(), *env = json_object();
		for (size_t k = 0; k < x->argc; k++)
			json_array_append_new(argv, json_string(x->argv[k]));
		for (size_t k = 0; k < x->nenv; k++) {
			const char *eq = strchr(x->env[k], '=');
			char *name = sl_strndup(x->env[k], (size_t)(eq - x->env[k]));
			json_object_set_new(env, name,
					    json_string(secret_name(name, strlen(name)) ? "<redacted>" : eq + 1));
			free(name);
		}
		char *rt = ready_text(x);
		json_t *o = json_pack("{s:I, s:s, s:s, s:s, s:s, s:o, s:o, s:s}", "order", (json_int_t)i + 1, "name",
				      x->name, "role", x->role, "stage", stage_name(x->stage), "where", x->where,
				      "argv", argv, "env", env, "ready", rt);
		if (logs) {
			sl_buf l = {0};
			sl_buf_printf(&l, "%s/", logs);
			for (const char *c = x->name; *c; c++)
				sl_buf_putc(&l, *c == '#' ? '-' : *c);
			sl_buf_puts(&l, ".log");
			json_object_set_new(o, "log", json_string(l.data));
			sl_buf_free(&l);
		}
		free(rt);
		json_array_append_new(a, o);
	}
	return a;
}

static void plan_tty(FILE *f, const sl_plan *p, const char *entry, int dry)
{
	fprintf(f, "%s: %zu process%s%s\n", entry, p->n, p->n == 1 ? "" : "es",
		dry ? " (dry run: nothing is started)" : "");
	for (size_t i = 0; i < p->n; i++) {
		const sl_proc *x = &p->procs[i];
		sl_buf b = {0};
		for (size_t k = 0; k < x->argc; k++) {
			if (k)
				sl_buf_putc(&b, ' ');
			put_quoted(&b, x->argv[k]);
		}
		char *rt = ready_text(x);
		fprintf(f, "%zu. %s  (%s, stage %s)  %s\n", i + 1, x->name, x->role, stage_name(x->stage), x->where);
		fprintf(f, "   argv   %s\n", b.data);
		for (size_t k = 0; k < x->nenv; k++) {
			const char *eq = strchr(x->env[k], '=');
			if (secret_name(x->env[k], (size_t)(eq - x->env[k])))
				fprintf(f, "   env    %.*s=<redacted>\n", (int)(eq - x->env[k]), x->env[k]);
			else
				fprintf(f, "   env    %s\n", x->env[k]);
		}
		fprintf(f, "   ready  %s\n", rt);
		free(rt);
		sl_buf_free(&b);
	}
	if (p->nfiles) {
		fputs("files in the working folder:", f);
		for (size_t i = 0; i < p->nfiles; i++)
			fprintf(f, " %s", p->file_names[i]);
		fputs("\n", f);
	}
	for (size_t i = 0; i < p->nnotes; i++)
		fprintf(f, "note: %s\n", p->notes[i]);
}

/* ---- timings --------------------------------------------------------------- */

/* One named series of a timing over the measured cycles. */
typedef struct series {
	char *name;
	double *t, *user, *sys;
	int *codes;
	size_t n;
} series;

static void series_add(series *s, double t, double user, double sys, int code)
{
	size_t cap = s->n; /* grows one at a time: a few dozen cycles at most */
	sl_grow((void **)&s->t, &cap, s->n + 1, sizeof *s->t);
	cap = s->n;
	sl_grow((void **)&s->user, &cap, s->n + 1, sizeof *s->user);
	cap = s->n;
	sl_grow((void **)&s->sys, &cap, s->n + 1, sizeof *s->sys);
	cap = s->n;
	sl_grow((void **)&s->codes, &cap, s->n + 1, sizeof *s->codes);
	s->t[s->n] = t;
	s->user[s->n] = user;
	s->sys[s->n] = sys;
	s->codes[s->n] = code;
	s->n++;
}

static double mean(const double *v, size_t n)
{
	double s = 0;
	for (size_t i = 0; i < n; i++)
		s += v[i];
	return n ? s / (double)n : 0;
}

/* hyperfine's export layout: {"results": [{"command", "mean", "stddev",
 * "median", "user", "system", "min", "max", "times", "exit_codes"}]} */
static json_t *series_json(const series *s)
{
	sl_stats st;
	sl_exec_stats(s->t, s->n, &st);
	json_t *times = json_array(), *codes = json_array();
	for (size_t i = 0; i < s->n; i++) {
		json_array_append_new(times, json_real(s->t[i]));
		json_array_append_new(codes, json_integer(s->codes[i]));
	}
	return json_pack("{s:s, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:o, s:o}", "command", s->name, "mean", st.mean,
			 "stddev", st.stddev, "median", st.median, "user", mean(s->user, s->n), "system",
			 mean(s->sys, s->n), "min", st.min, "max", st.max, "times", times, "exit_codes", codes);
}

static int exit_code_of(int status)
{
	return WIFEXITED(status) ? WEXITSTATUS(status) : WIFSIGNALED(status) ? 128 + WTERMSIG(status) : -1;
}

/* Writes doc to path through a temporary file and a rename: never half a file. */
static int write_json(const char *path, json_t *doc)
{
	sl_buf tmp = {0};
	sl_buf_printf(&tmp, "%s.tmpXXXXXX", path);
	int fd = mkstemp(tmp.data);
	int rc = -1;
	if (fd >= 0) {
		FILE *f = fdopen(fd, "w");
		if (f && !json_dumpf(doc, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(9)) &&
		    fputc('\n', f) != EOF && !fflush(f) && !ferror(f)) {
			rc = 0;
		}
		if (f ? fclose(f) : close(fd))
			rc = -1;
		if (!rc && rename(tmp.data, path))
			rc = -1;
		if (rc)
			unlink(tmp.data);
	}
	sl_buf_free(&tmp);
	return rc;
}

static void print_stats(const series *s)
{
	sl_stats st;
	sl_exec_stats(s->t, s->n, &st);
	if (s->n == 1)
		printf("  %-28s %9.3f s\n", s->name, st.mean);
	else
		printf("  %-28s %9.3f s ± %.3f s   median %.3f s   min %.3f s   max %.3f s\n", s->name, st.mean,
		       st.stddev, st.median, st.min, st.max);
}

static const char *outcome_text(int o)
{
	switch (o) {
	case SL_RUN_OK: return "ok";
	case SL_RUN_DIED: return "a process ended before the run was over";
	case SL_RUN_TIMEOUT: return "timed out";
	case SL_RUN_INTERRUPTED: return "interrupted";
	case SL_RUN_PROBE_FAILED: return "the probe failed";
	case SL_RUN_START_FAILED: return "a program could not be started";
	}
	return "?";
}

static void describe_status(sl_buf *b, int st)
{
	if (WIFEXITED(st))
		sl_buf_printf(b, "exit status %d", WEXITSTATUS(st));
	else if (WIFSIGNALED(st))
		sl_buf_printf(b, "killed by signal %d (%s)", WTERMSIG(st), strsignal(WTERMSIG(st)));
	else
		sl_buf_puts(b, "ended");
}

int sl_cmd_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{"service", required_argument, NULL, 's'},
		{"set", required_argument, NULL, 'S'},
		{"dry-run", no_argument, NULL, 'n'},
		{"native", no_argument, NULL, 'N'},
		{"repeat", required_argument, NULL, 'r'},
		{"warmup", required_argument, NULL, 'w'},
		{"ready", required_argument, NULL, 'R'},
		{"timeout", required_argument, NULL, 't'},
		{"grace", required_argument, NULL, 'g'},
		{"probe", required_argument, NULL, 'p'},
		{"logs", required_argument, NULL, 'L'},
		{"format", required_argument, NULL, 'f'},
		{"export-json", required_argument, NULL, 'E'},
		{"variant", required_argument, NULL, 'V'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	char **svcs = sl_calloc((size_t)argc + 1, sizeof *svcs), **sets = sl_calloc((size_t)argc + 1, sizeof *sets);
	size_t nsvcs = 0, nsets = 0;
	sl_plan_opts po = {0};
	sl_run_opts ro = {NULL, 1800, 10, NULL, 0};
	long long repeat = 1, warmup = 0, variant = 0;
	sl_binds binds = {0};
	const char *format = "tty", *export_json = NULL;
	int dry = 0, c, rc = SL_EXIT_OK;
	optind = 1;
	while ((c = getopt_long(argc, argv, "s:nr:w:t:p:f:h", opts, NULL)) != -1) {
		switch (c) {
		case 's': svcs[nsvcs++] = optarg; break;
		case 'S':
			if (!strchr(optarg, '=') || *optarg == '=') {
				fprintf(stderr, "servelint run: --set takes NAME=VALUE\n");
				rc = 3;
			}
			sets[nsets++] = optarg;
			/* a shell name (or $N) is also the script's variable: bound
			 * where the script reads it, as show --set does; a
			 * placeholder's name (host-path, <8 GPUs>) is not */
			if (!rc && is_shell_name(optarg) && sl_binds_take(&binds, optarg, "run"))
				rc = 3;
			break;
		case 'n': dry = 1; break;
		case 'N': po.native = 1; break;
		case 'r': rc = parse_count(optarg, "--repeat", 1, &repeat) ? 3 : rc; break;
		case 'w': rc = parse_count(optarg, "--warmup", 0, &warmup) ? 3 : rc; break;
		case 'R': po.ready = optarg; break;
		case 't': rc = parse_seconds(optarg, "--timeout", &ro.timeout) ? 3 : rc; break;
		case 'g': rc = parse_seconds(optarg, "--grace", &ro.grace) ? 3 : rc; break;
		case 'p': ro.probe = optarg; break;
		case 'L': ro.logs = optarg; break;
		case 'f':
			if (strcmp(optarg, "tty") && strcmp(optarg, "json")) {
				fprintf(stderr, "servelint run: unknown format `%s` (tty, json)\n", optarg);
				rc = 3;
			}
			format = optarg;
			break;
		case 'E': export_json = optarg; break;
		case 'V': rc = parse_count(optarg, "--variant", 1, &variant) ? 3 : rc; break;
		case 'h':
			usage(stdout);
			free(svcs);
			free(sets);
			sl_binds_free(&binds);
			return SL_EXIT_OK;
		default: rc = 3; break;
		}
	}
	if (!rc && argc - optind != 1) {
		fprintf(stderr, "servelint run: one ENTRY is needed\n");
		rc = 3;
	}
	if (rc) {
		usage(stderr);
		free(svcs);
		free(sets);
		sl_binds_free(&binds);
		return rc;
	}
	po.services = svcs;
	po.nservices = nsvcs;
	po.sets = sets;
	po.nsets = nsets;
	int json = !strcmp(format, "json");
	const char *path = argv[optind];
	size_t nentries = sl_entry_input_count(path);
	if (nentries > 1) {
		fprintf(stderr,
			"servelint run: %s holds %zu entries; run one: `servelint import` makes a folder of each\n",
			path, nentries);
		free(svcs);
		free(sets);
		sl_binds_free(&binds);
		return SL_EXIT_ERROR;
	}
	sl_error err = {0};
	sl_grammars *gs = NULL;
	sl_entry *e = NULL;
	sl_model *m = NULL;
	sl_plan plan = {0};
	char *tmpdir = NULL;
	series *ss = NULL;
	size_t nss = 0;
	json_t *cycles = json_array();
	int prc = 0;
	if (sl_normalize_grammars_load(&gs, &err) || sl_entry_input_load_one(path, &e, &err) ||
	    sl_entry_model_one(e, gs, &binds, (unsigned)variant, &m, &err) ||
	    (prc = sl_exec_plan(m, &po, &plan, &err))) {
		sl_error_print(&err, "servelint run");
		rc = prc == SL_ERR_USAGE ? 3 : SL_EXIT_ERROR;
		goto done;
	}
	if (dry) {
		if (json) {
			json_t *notes = json_array();
			for (size_t i = 0; i < plan.nnotes; i++)
				json_array_append_new(notes, json_string(plan.notes[i]));
			json_t *files = json_array();
			for (size_t i = 0; i < plan.nfiles; i++)
				json_array_append_new(files, json_string(plan.file_names[i]));
			json_t *doc = json_pack("{s:s, s:b, s:o, s:o, s:o}", "entry", e->path, "dry_run", 1, "processes",
						plan_json(&plan, ro.logs), "files", files, "notes", notes);
			json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
			fputc('\n', stdout);
			json_decref(doc);
		} else {
			plan_tty(stdout, &plan, e->path, 1);
		}
		goto done;
	}
	const char *dock;
	if (plan.needs_docker && !sl_exec_docker_answers(&dock)) {
		fprintf(stderr,
			"servelint run: %s: no docker engine answers at %s; start one, or run the engine directly with --native\n",
			e->path, dock);
		rc = SL_EXIT_ERROR;
		goto done;
	}
	if (!ro.logs) {
		const char *t = getenv("TMPDIR");
		sl_buf b = {0};
		sl_buf_printf(&b, "%s/servelint-run-XXXXXX", t && *t ? t : "/tmp");
		tmpdir = sl_buf_detach(&b);
		if (!mkdtemp(tmpdir)) {
			fprintf(stderr, "servelint run: cannot make a log folder %s: %s\n", tmpdir, strerror(errno));
			rc = SL_EXIT_ERROR;
			goto done;
		}
		ro.logs = tmpdir;
	}
	if (!json)
		plan_tty(stdout, &plan, e->path, 0);
	fprintf(json ? stderr : stdout, "logs in %s\n", ro.logs);
	fflush(stdout);
	/* the series: deployment, each process's readiness, the probe */
	nss = plan.n + 2;
	ss = sl_calloc(nss, sizeof *ss);
	ss[0].name = sl_strdup("deployment ready");
	for (size_t i = 0; i < plan.n; i++) {
		sl_buf b = {0};
		sl_buf_printf(&b, "%s ready", plan.procs[i].name);
		ss[i + 1].name = sl_buf_detach(&b);
	}
	ss[nss - 1].name = sl_strdup("probe");
	sl_exec_signals_install();
	long long total = warmup + repeat;
	for (long long k = 0; k < total && rc == SL_EXIT_OK; k++) {
		sl_run_result r;
		ro.cycle = total > 1 ? (int)k + 1 : 0;
		int measured = k >= warmup;
		if (!json)
			printf("%s %lld/%lld ...\n", measured ? "run" : "warmup", measured ? k - warmup + 1 : k + 1,
			       measured ? repeat : warmup);
		fflush(stdout);
		if (sl_exec_run(&plan, &ro, &r, &err)) {
			sl_error_print(&err, "servelint run");
			rc = SL_EXIT_ERROR;
			break;
		}
		json_t *procs = json_array();
		double cpu_u = 0, cpu_s = 0;
		for (size_t i = 0; i < plan.n; i++) {
			const sl_proc_result *x = &r.procs[i];
			cpu_u += x->user;
			cpu_s += x->sys;
			json_t *o = json_pack("{s:s, s:f, s:f, s:f, s:I, s:i, s:b, s:s}", "name", plan.procs[i].name,
					      "wall", x->wall, "user", x->user, "system", x->sys, "max_rss_kb",
					      (json_int_t)x->max_rss_kb, "exit_code", exit_code_of(x->status),
					      "exited_early", x->exited_early, "log", x->log);
			json_object_set_new(o, "ready", x->ready >= 0 ? json_real(x->ready) : json_null());
			json_array_append_new(procs, o);
			if (!json && r.outcome == SL_RUN_OK)
				printf("  %-20s ready %8.3f s   wall %8.3f s   cpu %.3f s   peak RSS %ld KiB\n",
				       plan.procs[i].name, x->ready, x->wall, x->user + x->sys, x->max_rss_kb);
		}
		json_t *cyc = json_pack("{s:b, s:s, s:o}", "warmup", !measured, "outcome", outcome_text(r.outcome),
					"processes", procs);
		json_object_set_new(cyc, "deployment_ready",
				    r.deployment_ready >= 0 ? json_real(r.deployment_ready) : json_null());
		json_object_set_new(cyc, "probe", r.probe >= 0 ? json_real(r.probe) : json_null());
		json_array_append_new(cycles, cyc);
		if (r.outcome == SL_RUN_OK) {
			if (!json && r.probe >= 0)
				printf("  %-20s %8.3f s\n", "probe", r.probe);
			if (!json)
				printf("  %-20s %8.3f s\n", "deployment ready", r.deployment_ready);
			if (measured) {
				series_add(&ss[0], r.deployment_ready, cpu_u, cpu_s, 0);
				for (size_t i = 0; i < plan.n; i++)
					series_add(&ss[i + 1], r.procs[i].ready, r.procs[i].user, r.procs[i].sys, 0);
				if (r.probe >= 0)
					series_add(&ss[nss - 1], r.probe, r.probe_user, r.probe_sys,
						   exit_code_of(r.probe_status));
			}
		} else {
			sl_buf why = {0};
			sl_buf_printf(&why, "servelint run: %s", outcome_text(r.outcome));
			if (r.failed)
				sl_buf_printf(&why, ": %s", r.failed);
			if (r.outcome == SL_RUN_DIED) {
				for (size_t i = 0; i < plan.n; i++)
					if (r.failed && !strcmp(plan.procs[i].name, r.failed)) {
						sl_buf_puts(&why, " (");
						describe_status(&why, r.procs[i].status);
						sl_buf_printf(&why, "; log %s)", r.procs[i].log);
					}
			} else if (r.outcome == SL_RUN_PROBE_FAILED && r.probe >= 0) {
				sl_buf_puts(&why, " (");
				describe_status(&why, r.probe_status);
				sl_buf_puts(&why, ")");
			} else if (r.outcome == SL_RUN_TIMEOUT) {
				sl_buf_printf(&why, " after %.0f s; not ready:", ro.timeout);
				for (size_t i = 0; i < plan.n; i++)
					if (r.procs[i].ready < 0)
						sl_buf_printf(&why, " %s", plan.procs[i].name);
			} else if (r.outcome == SL_RUN_INTERRUPTED) {
				sl_buf_printf(&why, " by %s", strsignal(r.signal));
			}
			fprintf(stderr, "%s\n", why.data);
			sl_buf_free(&why);
			if (r.tail && *r.tail)
				fprintf(stderr, "%s%s", r.tail, sl_ends_with(r.tail, "\n") ? "" : "\n");
			fprintf(stderr, "servelint run: every process was stopped\n");
			rc = r.outcome == SL_RUN_INTERRUPTED ? 128 + r.signal : SL_EXIT_FINDINGS;
		}
		sl_exec_result_free(&r);
	}
	/* a failed run still gives its JSON: what ran, how each cycle ended */
	if (json && rc != SL_EXIT_OK && rc != SL_EXIT_ERROR) {
		json_t *doc = json_pack("{s:s, s:s, s:I, s:I, s:b, s:[], s:O}", "entry", e->path, "logs", ro.logs,
					"repeat", (json_int_t)repeat, "warmup", (json_int_t)warmup, "ok", 0, "results",
					"cycles", cycles);
		json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(9));
		fputc('\n', stdout);
		json_decref(doc);
		fflush(stdout);
	}
	if (rc == SL_EXIT_OK) {
		if (!json && repeat > 1) {
			printf("over %lld runs%s:\n", repeat, warmup ? " (warmups left out)" : "");
			for (size_t i = 0; i < nss; i++)
				if (ss[i].n)
					print_stats(&ss[i]);
		}
		json_t *results = json_array();
		for (size_t i = 0; i < nss; i++)
			if (ss[i].n)
				json_array_append_new(results, series_json(&ss[i]));
		if (json) {
			json_t *doc = json_pack("{s:s, s:s, s:I, s:I, s:b, s:O, s:o}", "entry", e->path, "logs",
						ro.logs, "repeat", (json_int_t)repeat, "warmup", (json_int_t)warmup, "ok", 1,
						"results", results, "cycles", cycles);
			cycles = NULL;
			json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(9));
			fputc('\n', stdout);
			json_decref(doc);
		}
		if (export_json) {
			json_t *doc = json_pack("{s:O}", "results", results);
			if (write_json(export_json, doc)) {
				fprintf(stderr, "servelint run: cannot write %s: %s\n", export_json, strerror(errno));
				rc = SL_EXIT_ERROR;
			}
			json_decref(doc);
		}
		json_decref(results);
		if (fflush(stdout) || ferror(stdout))
			rc = SL_EXIT_ERROR;
	}
done:
	for (size_t i = 0; i < nss; i++) {
		free(ss[i].name);
		free(ss[i].t);
		free(ss[i].user);
		free(ss[i].sys);
		free(ss[i].codes);
	}
	free(ss);
	json_decref(cycles);
	free(tmpdir);
	sl_exec_plan_free(&plan);
	sl_model_free(m);
	sl_entry_free(e);
	sl_normalize_grammars_free(gs);
	sl_error_clear(&err);
	free(svcs);
	free(sets);
	sl_binds_free(&binds);
	return rc;
}
