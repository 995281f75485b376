/*
 * watchdog.c: the process that outlives servelint for one cycle and kills
 * whatever of the run is left when servelint ends, however it ends.
 */
#include "internal.h"

#include <dirent.h>
#include <poll.h>
#include <stdint.h>

/*
 * A run must leave nothing behind even when servelint itself is killed
 * (SIGKILL: no handler, no teardown). PR_SET_PDEATHSIG reaches only the
 * direct children, and only with SIGTERM; a daemonised grandchild, a child
 * in its own group or one that ignores SIGTERM would survive. So each cycle
 * starts a watchdog first: a process in its own session that holds the read
 * end of a pipe whose only write end is servelint's (close-on-exec: no child
 * inherits it). The pipe ends only when servelint does, however it ends.
 * While it is open the watchdog learns the run's processes three ways:
 *   - servelint writes the pid of every process it starts (each leads its
 *     own group) into the pipe;
 *   - every 200 ms it records servelint's descendants from /proc (pid and
 *     start time, so that a reused pid is never taken for one of them);
 *   - every process of the run carries SERVELINT_RUN=<mark> in its
 *     environment, inherited by its descendants.
 * When the pipe ends, it sends SIGTERM to every process that is one of
 * those (or in the group of one it was told of, or the descendant of one),
 * then SIGKILL after the grace period, and scans again until none is left.
 * After an orderly teardown it finds nothing; servelint waits for it, so
 * the run is over when sl_exec_run returns.
 */
char rn_run_mark[64];     /* SERVELINT_RUN=<mark>, putenv in each child */
pid_t rn_watchdog_pid;
static int watchdog_fd = -1;  /* servelint's end of the pipe */

void rn_watchdog_tell(pid_t pid)
{
	if (watchdog_fd < 0)
		return;
	int32_t v = (int32_t)pid;
	while (write(watchdog_fd, &v, sizeof v) < 0 && errno == EINTR)
		;
}

typedef struct wproc {
	pid_t pid, ppid, pgid;
	unsigned long long start;
} wproc;

static int read_stat(pid_t pid, wproc *w)
{
	char path[64], buf[1024];
	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t k = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (k <= 0)
		return -1;
	buf[k] = 0;
	char *rp = strrchr(buf, ')');
	char state;
	int ppid, pgid;
	unsigned long long start;
	if (!rp || sscanf(rp + 1, " %c %d %d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %*d %*d %llu",
			  &state, &ppid, &pgid, &start) != 4 || state == 'Z' || state == 'X')
		return -1;
	w->pid = pid;
	w->ppid = ppid;
	w->pgid = pgid;
	w->start = start;
	return 0;
}

/* Every live process on the machine (that /proc shows). */
static size_t scan_all(wproc **out, size_t *cap)
{
	size_t n = 0;
	DIR *d = opendir("/proc");
	if (!d)
		return 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		char *end;
		long pid = strtol(de->d_name, &end, 10);
		wproc w;
		if (*end || pid <= 0 || read_stat((pid_t)pid, &w))
			continue;
		sl_grow((void **)out, cap, n + 1, sizeof **out);
		(*out)[n++] = w;
	}
	closedir(d);
	return n;
}

static int has_mark(pid_t pid)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/environ", (int)pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	sl_buf b = {0};
	char chunk[65536];
	ssize_t k;
	while (b.len < (8u << 20) && (k = read(fd, chunk, sizeof chunk)) > 0)
		sl_buf_add(&b, chunk, (size_t)k);
	close(fd);
	size_t ml = strlen(rn_run_mark);
	int hit = 0;
	for (size_t i = 0; b.data && i + ml <= b.len && !hit; i += strlen(b.data + i) + 1)
		hit = !memcmp(b.data + i, rn_run_mark, ml) && (i + ml == b.len || b.data[i + ml] == '\0');
	sl_buf_free(&b);
	return hit;
}

static int known_has(const wproc *k, size_t nk, const wproc *w)
{
	for (size_t i = 0; i < nk; i++)
		if (k[i].pid == w->pid && k[i].start == w->start)
			return 1;
	return 0;
}

static void known_add(wproc **k, size_t *nk, size_t *cap, const wproc *w)
{
	if (!known_has(*k, *nk, w))
		SL_PUSH(*k, *nk, *cap, *w);
}

/* Marks in is[] the descendants of the processes marked there, to a fixed
 * point: never the watchdog itself (self) nor servelint (boss). */
static void add_descendants(const wproc *all, size_t n, pid_t self, pid_t boss, char *is)
{
	for (int more = 1; more;) {
		more = 0;
		for (size_t i = 0; i < n; i++)
			if (!is[i] && all[i].pid != self && all[i].pid != boss)
				for (size_t j = 0; j < n && !is[i]; j++)
					if (is[j] && all[j].pid == all[i].ppid)
						is[i] = 1, more = 1;
	}
}

/* The processes of the run among those of all[]: known ones, members of a
 * group one of them leads (or led: a group id is not reused while any
 * member is left), carriers of the mark, and the descendants of any. */
static size_t victims(const wproc *all, size_t n, const wproc *k, size_t nk, pid_t self, pid_t boss,
		      char *is)
{
	size_t hits = 0;
	for (size_t i = 0; i < n; i++) {
		const wproc *w = &all[i];
		is[i] = 0;
		if (w->pid == self || w->pid == boss)
			continue;
		int ours = known_has(k, nk, w);
		for (size_t j = 0; j < nk && !ours; j++) {
			if (k[j].pgid != k[j].pid || w->pgid != k[j].pid)
				continue;
			/* the group's id is still the leader's, or nobody's */
			int reused = 0;
			for (size_t q = 0; q < n; q++)
				if (all[q].pid == k[j].pid && all[q].start != k[j].start)
					reused = 1;
			ours = !reused;
		}
		if (!ours)
			ours = has_mark(w->pid);
		is[i] = (char)ours;
	}
	add_descendants(all, n, self, boss, is);
	for (size_t i = 0; i < n; i++)
		hits += is[i] != 0;
	return hits;
}

static void watchdog(int rfd, pid_t boss, double grace)
{
	setsid();
	rn_signals_set(SIG_IGN, 1); /* it outlives servelint's signals to clean up after them */
	/* nothing of servelint's held open: no stdout a caller waits on */
	int nul = open("/dev/null", O_RDWR);
	for (int fd = 0; fd < 3; fd++)
		if (nul >= 0 && fd != rfd)
			dup2(nul, fd);
	for (int fd = 3; fd < 1024; fd++)
		if (fd != rfd)
			close(fd);
	pid_t self = getpid();
	wproc *k = NULL, *all = NULL;
	size_t nk = 0, kcap = 0, acap = 0;
	for (;;) {
		struct pollfd pf = {rfd, POLLIN, 0};
		int r = poll(&pf, 1, 200);
		if (r > 0) {
			int32_t v[64];
			ssize_t got = read(rfd, v, sizeof v);
			if (got == 0 || (got < 0 && errno != EINTR && errno != EAGAIN))
				break; /* servelint is gone */
			for (ssize_t i = 0; i + (ssize_t)sizeof *v <= got; i += (ssize_t)sizeof *v) {
				wproc w;
				if (!read_stat((pid_t)v[i / (ssize_t)sizeof *v], &w))
					known_add(&k, &nk, &kcap, &w);
			}
		}
		/* servelint's descendants now: its children, the known ones and
		 * theirs, to a fixed point */
		size_t n = scan_all(&all, &acap);
		char *is = sl_calloc(n + 1, 1);
		for (size_t i = 0; i < n; i++)
			is[i] = all[i].pid != self && (all[i].ppid == boss || known_has(k, nk, &all[i]));
		add_descendants(all, n, self, boss, is);
		for (size_t i = 0; i < n; i++)
			if (is[i])
				known_add(&k, &nk, &kcap, &all[i]);
		free(is);
	}
	/* the sweep */
	if (!(grace >= 0) || grace > 30)
		grace = 30;
	double until = now() + grace;
	int sig = SIGTERM;
	for (int round = 0; round < 2000; round++) {
		size_t n = scan_all(&all, &acap);
		char *is = sl_calloc(n + 1, 1);
		size_t hits = victims(all, n, k, nk, self, boss, is);
		for (size_t i = 0; i < n; i++)
			if (is[i]) {
				kill(all[i].pid, sig);
				known_add(&k, &nk, &kcap, &all[i]);
			}
		free(is);
		if (!hits)
			break;
		nap(50);
		if (now() >= until)
			sig = SIGKILL;
	}
	_exit(0);
}

/* Starts the watchdog of one cycle; without one (fork failed) the run goes
 * on with the protection servelint's own teardown gives. */
void rn_watchdog_start(double grace)
{
	int pfd[2];
	if (pipe2(pfd, O_CLOEXEC))
		return;
	unsigned long long r = 0;
	int u = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	if (u >= 0) {
		if (read(u, &r, sizeof r) != (ssize_t)sizeof r)
			r = 0;
		close(u);
	}
	snprintf(rn_run_mark, sizeof rn_run_mark, "SERVELINT_RUN=%d-%llx-%llx", (int)getpid(), r,
		 (unsigned long long)(now() * 1e6));
	fflush(NULL);
	pid_t boss = getpid();
	pid_t pid = fork();
	if (pid == 0) {
		close(pfd[1]);
		watchdog(pfd[0], boss, grace);
	}
	close(pfd[0]);
	if (pid < 0) {
		close(pfd[1]);
		return;
	}
	rn_watchdog_pid = pid;
	watchdog_fd = pfd[1];
}

/* Ends the watchdog: its pipe closed, it sweeps (nothing is left after
 * the teardown, so it finds nothing) and exits; servelint reaps it. */
void rn_watchdog_stop(void)
{
	if (watchdog_fd >= 0)
		close(watchdog_fd);
	watchdog_fd = -1;
	if (rn_watchdog_pid > 0)
		while (waitpid(rn_watchdog_pid, NULL, 0) < 0 && errno == EINTR)
			;
	rn_watchdog_pid = 0;
	rn_run_mark[0] = '\0';
}
