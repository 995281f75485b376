/*
 * procs.c: the processes of a cycle: each started in its own process group
 * with its output to its log, reaped with its resource use, and the
 * teardown stage by stage (SIGTERM, SIGKILL after the grace period, then
 * what escaped its group, adopted by servelint as subreaper).
 */
#include "internal.h"

#include <dirent.h>
#include <sys/prctl.h>

/* Starts argv in its own process group with output to log. Returns the
 * pid, or -1 with errno from exec (reported through a close-on-exec pipe). */
pid_t rn_spawn(char *const *argv, char *const *env, size_t nenv, const char *log, const char *cwd,
		   int *exec_errno)
{
	int pfd[2];
	*exec_errno = 0;
	if (pipe2(pfd, O_CLOEXEC))
		return -1;
	int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0) {
		*exec_errno = errno;
		close(pfd[0]);
		close(pfd[1]);
		return -1;
	}
	pid_t pid = fork();
	if (pid == 0) {
		setpgid(0, 0);
		/* should servelint itself be killed (SIGKILL, no teardown), its
		 * direct children still hear of it */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		rn_signals_set(SIG_DFL, 0); /* servelint's own handling is not the engine's */
		/* the run's mark, inherited by every descendant: the watchdog
		 * finds by it what left its group and its parent */
		if (rn_run_mark[0])
			putenv(rn_run_mark);
		int in = open("/dev/null", O_RDONLY);
		if (in >= 0)
			dup2(in, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		for (size_t i = 0; i < nenv; i++)
			putenv((char *)env[i]);
		if (cwd && chdir(cwd))
			_exit(127);
		execvp(argv[0], argv);
		int e = errno;
		if (write(pfd[1], &e, sizeof e) < 0)
			_exit(127);
		_exit(127);
	}
	close(fd);
	close(pfd[1]);
	if (pid < 0) {
		*exec_errno = errno;
		close(pfd[0]);
		return -1;
	}
	setpgid(pid, pid); /* also here: whichever runs first */
	rn_watchdog_tell(pid);
	int e = 0;
	ssize_t k;
	while ((k = read(pfd[0], &e, sizeof e)) < 0 && errno == EINTR)
		;
	close(pfd[0]);
	if (k == (ssize_t)sizeof e) {
		*exec_errno = e;
		int st;
		waitpid(pid, &st, 0);
		return -1;
	}
	return pid;
}

/* Reaps l if it ended; 1 when it has (now or before). */
int rn_reaped(live *l)
{
	if (l->pid <= 0)
		return l->pid < 0;
	int st;
	struct rusage ru;
	pid_t r = wait4(l->pid, &st, WNOHANG, &ru);
	if (r == l->pid) {
		l->status = st;
		l->ru = ru;
		l->end = now();
		l->pid = -1;
		return 1;
	}
	return 0;
}

/* The children servelint adopted (subreaper): processes whose parent it
 * is but that it did not start. */
static size_t orphans(pid_t *out, size_t max)
{
	DIR *d = opendir("/proc");
	if (!d)
		return 0;
	pid_t self = getpid();
	size_t n = 0;
	struct dirent *de;
	while ((de = readdir(d)) && n < max) {
		char *end;
		long pid = strtol(de->d_name, &end, 10);
		if (*end || pid <= 0)
			continue;
		char path[64], buf[512];
		snprintf(path, sizeof path, "/proc/%ld/stat", pid);
		FILE *f = fopen(path, "re");
		if (!f)
			continue;
		size_t k = fread(buf, 1, sizeof buf - 1, f);
		fclose(f);
		buf[k] = 0;
		/* pid (comm) state ppid ...: comm may hold spaces and parentheses */
		char *rp = strrchr(buf, ')');
		char state;
		long ppid;
		if (rp && sscanf(rp + 1, " %c %ld", &state, &ppid) == 2 && ppid == self && pid != rn_watchdog_pid)
			out[n++] = (pid_t)pid;
	}
	closedir(d);
	return n;
}

/* SIGTERM to the groups of one stage, then SIGKILL to those still there
 * after the grace period; each reaped with its resource use. */
static void stop_stage(live *ls, size_t n, int stage, double grace, sig_atomic_t seen)
{
	for (size_t i = n; i-- > 0;)
		if (ls[i].stage == stage && ls[i].pid > 0 && !rn_reaped(&ls[i]))
			kill(-ls[i].pid, SIGTERM);
	double until = now() + grace;
	for (;;) {
		int alive = 0;
		for (size_t i = 0; i < n; i++)
			alive |= ls[i].stage == stage && ls[i].pid > 0 && !rn_reaped(&ls[i]);
		/* a signal to servelint during the teardown: no more waiting */
		if (!alive || now() >= until || rn_nsignals > seen)
			break;
		nap(20);
	}
	for (size_t i = n; i-- > 0;)
		if (ls[i].stage == stage && ls[i].pid > 0) {
			kill(-ls[i].pid, SIGKILL);
			int st;
			struct rusage ru;
			if (wait4(ls[i].pid, &st, 0, &ru) == ls[i].pid) {
				ls[i].status = st;
				ls[i].ru = ru;
				ls[i].end = now();
				ls[i].pid = -1;
			}
		}
	/* members of a group whose leader is gone are servelint's children
	 * now (subreaper): the sweep after the last stage takes them */
}

/* Stage by stage, the last started first (the probe, workers, frontends,
 * etcd last), so that what others report to is still there while they
 * stop. */
void rn_teardown(live *ls, size_t n, double grace)
{
	sig_atomic_t seen = rn_nsignals;
	for (int stage = STAGE_PROBE; stage >= 0; stage--)
		stop_stage(ls, n, stage, grace, seen);
	/* what escaped its group (setsid, double fork) was adopted by us */
	for (int round = 0; round < 50; round++) {
		pid_t o[256];
		size_t k = orphans(o, 256);
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
		if (!k)
			break;
		for (size_t i = 0; i < k; i++) {
			kill(o[i], SIGKILL);
			waitpid(o[i], NULL, 0);
		}
	}
}
