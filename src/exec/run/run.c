/*
 * run.c: running a plan (sl_exec_run): the working folder with the entry's
 * files, the watchdog, the stages started in order and their readiness
 * polled, the probe timed, a process that ends too soon, a timeout or a
 * signal noticed, then the teardown and the result.
 */
#include "internal.h"

#include "../curl_lazy.h"  /* libcurl, loaded by the first curl_global_init */
#include <sys/prctl.h>
#include <sys/stat.h>

int sl_exec_run(const sl_plan *p, const sl_run_opts *o, sl_run_result *r, sl_error *err)
{
	memset(r, 0, sizeof *r);
	if (mkdir(o->logs, 0755) && errno != EEXIST) {
		sl_error_set(err, o->logs, 0, 0, "cannot make the log folder: %s", strerror(errno));
		return SL_ERR_IO;
	}
	/* the working folder, with the entry's files */
	sl_buf wb = {0};
	sl_buf_printf(&wb, "%s/work", o->logs);
	char *work = sl_buf_detach(&wb);
	if (mkdir(work, 0755) && errno != EEXIST) {
		sl_error_set(err, work, 0, 0, "cannot make the working folder: %s", strerror(errno));
		free(work);
		return SL_ERR_IO;
	}
	for (size_t i = 0; i < p->nfiles; i++) {
		sl_buf fp = {0};
		sl_buf_printf(&fp, "%s/%s", work, p->file_names[i]);
		/* never through a link left in the folder, never `.` or `..` */
		const char *fn = p->file_names[i];
		int fd = !*fn || !strcmp(fn, ".") || !strcmp(fn, "..") || strchr(fn, '/')
				 ? (errno = EINVAL, -1)
				 : open(fp.data, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
		FILE *f = fd < 0 ? NULL : fdopen(fd, "wb");
		if (!f && fd >= 0)
			close(fd);
		int bad = !f || fwrite(p->file_texts[i], 1, p->file_lens[i], f) != p->file_lens[i];
		if (f && fclose(f))
			bad = 1;
		if (bad) {
			sl_error_set(err, fp.data, 0, 0, "cannot write: %s", strerror(errno));
			sl_buf_free(&fp);
			free(work);
			return SL_ERR_IO;
		}
		sl_buf_free(&fp);
	}
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	rn_watchdog_start(o->grace);
	curl_global_init(CURL_GLOBAL_DEFAULT);
	r->n = p->n;
	r->procs = sl_calloc(p->n + 1, sizeof *r->procs);
	r->deployment_ready = -1;
	r->probe = -1;
	live *ls = sl_calloc(p->n + 2, sizeof *ls);
	live *probe = &ls[p->n]; /* torn down with the rest, last started, first stopped */
	size_t nlive = p->n;
	double t0 = now(), deadline = o->timeout > 0 ? t0 + o->timeout : 0;
	int outcome = SL_RUN_OK;
	size_t failed = (size_t)-1;
	probe->stage = STAGE_PROBE;
	for (size_t i = 0; i < p->n; i++) {
		ls[i].stage = p->procs[i].stage;
		r->procs[i].ready = -1;
		r->procs[i].log = rn_log_path(o->logs, p->procs[i].name, o->cycle);
	}
	size_t first = 0;
	while (first < p->n && outcome == SL_RUN_OK) {
		size_t last = first;
		while (last < p->n && p->procs[last].stage == p->procs[first].stage)
			last++;
		for (size_t i = first; i < last && outcome == SL_RUN_OK; i++) {
			int e = 0;
			ls[i].start = now();
			pid_t pid = rn_spawn(p->procs[i].argv, p->procs[i].env, p->procs[i].nenv, r->procs[i].log, work, &e);
			if (pid < 0) {
				outcome = SL_RUN_START_FAILED;
				failed = i;
				sl_buf m = {0};
				sl_buf_printf(&m, "cannot run %s: %s", p->procs[i].argv[0], strerror(e));
				r->tail = sl_buf_detach(&m);
				break;
			}
			ls[i].pid = pid;
		}
		/* wait for the stage */
		while (outcome == SL_RUN_OK) {
			if (rn_got_signal) {
				outcome = SL_RUN_INTERRUPTED;
				break;
			}
			int all = 1;
			for (size_t i = 0; i < last && outcome == SL_RUN_OK; i++) {
				if (rn_reaped(&ls[i])) {
					outcome = SL_RUN_DIED;
					failed = i;
					break;
				}
				if (i >= first && !ls[i].ready) {
					if (rn_is_ready(&p->procs[i])) {
						ls[i].ready = 1;
						r->procs[i].ready = now() - ls[i].start;
					} else {
						all = 0;
					}
				}
			}
			if (outcome != SL_RUN_OK || all)
				break;
			if (deadline && now() >= deadline) {
				outcome = SL_RUN_TIMEOUT;
				break;
			}
			nap(POLL_MS);
		}
		first = last;
	}
	if (outcome == SL_RUN_OK)
		r->deployment_ready = now() - t0;
	/* the probe, once everything is ready */
	if (outcome == SL_RUN_OK && o->probe) {
		char *argv[] = {"/bin/sh", "-c", (char *)o->probe, NULL};
		char *plog = rn_log_path(o->logs, "probe", o->cycle);
		int e = 0;
		probe->start = now();
		probe->pid = rn_spawn(argv, NULL, 0, plog, NULL, &e);
		nlive = p->n + 1;
		if (probe->pid < 0) {
			outcome = SL_RUN_PROBE_FAILED;
			r->failed = sl_strdup("probe");
			r->tail = sl_strdup(strerror(e));
			probe->pid = 0;
		}
		while (outcome == SL_RUN_OK) {
			if (rn_reaped(probe)) {
				r->probe = probe->end - probe->start;
				r->probe_user = tv(probe->ru.ru_utime);
				r->probe_sys = tv(probe->ru.ru_stime);
				r->probe_status = probe->status;
				if (!WIFEXITED(probe->status) || WEXITSTATUS(probe->status)) {
					outcome = SL_RUN_PROBE_FAILED;
					r->failed = sl_strdup("probe");
					r->tail = rn_tail_of(plog);
				}
				break;
			}
			if (rn_got_signal) {
				outcome = SL_RUN_INTERRUPTED;
				break;
			}
			for (size_t i = 0; i < p->n && outcome == SL_RUN_OK; i++)
				if (rn_reaped(&ls[i])) {
					outcome = SL_RUN_DIED;
					failed = i;
				}
			if (outcome == SL_RUN_OK && deadline && now() >= deadline)
				outcome = SL_RUN_TIMEOUT;
			if (outcome == SL_RUN_OK)
				nap(20);
		}
		free(plog);
	}
	/* the processes that had ended on their own, before the teardown */
	for (size_t i = 0; i < p->n; i++)
		if (ls[i].pid < 0)
			r->procs[i].exited_early = 1;
	rn_teardown(ls, nlive, o->grace);
	rn_watchdog_stop();
	for (size_t i = 0; i < p->n; i++) {
		sl_proc_result *x = &r->procs[i];
		if (!ls[i].start || ls[i].pid == 0)
			continue;
		x->wall = ls[i].end - ls[i].start;
		x->user = tv(ls[i].ru.ru_utime);
		x->sys = tv(ls[i].ru.ru_stime);
		x->max_rss_kb = ls[i].ru.ru_maxrss;
		x->status = ls[i].status;
	}
	if (failed != (size_t)-1) {
		r->failed = sl_strdup(p->procs[failed].name);
		if (outcome == SL_RUN_DIED) {
			r->procs[failed].exited_early = 1;
			r->tail = rn_tail_of(r->procs[failed].log);
		}
	}
	r->outcome = outcome;
	r->signal = outcome == SL_RUN_INTERRUPTED ? (int)rn_got_signal : 0;
	free(ls);
	free(work);
	curl_global_cleanup();
	return SL_OK;
}

void sl_exec_result_free(sl_run_result *r)
{
	for (size_t i = 0; i < r->n; i++)
		free(r->procs[i].log);
	free(r->procs);
	free(r->failed);
	free(r->tail);
	memset(r, 0, sizeof *r);
}
