/*
 * run.c: running a plan. It owns the processes of one cycle: starting them
 * stage by stage (each in its own process group, output to its log file),
 * polling their readiness, timing the probe, noticing a process that ends
 * too soon, a timeout or a signal to servelint, and the teardown that
 * leaves nothing behind: SIGTERM to every group in reverse start order,
 * SIGKILL after the grace period, then any descendant that escaped its
 * group (servelint is the subreaper of everything it starts) killed and
 * reaped.
 */
#define _GNU_SOURCE
#include "exec.h"

#include "curl_lazy.h"  /* libcurl, loaded by the first curl_global_init */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* How often readiness is asked, and how long one ask may take. */
#define POLL_MS 100
#define ASK_TIMEOUT_MS 1000
#define TAIL_LINES 10

static volatile sig_atomic_t got_signal;
static volatile sig_atomic_t nsignals; /* how many: a second one cuts the teardown's grace short */

static void on_signal(int sig)
{
	if (!got_signal)
		got_signal = sig;
	nsignals++;
}

void sl_exec_signals_install(void)
{
	struct sigaction sa, old;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* a lost terminal or ssh session: the same orderly teardown, unless
	 * servelint was started to outlive it (nohup: SIGHUP ignored) */
	if (sigaction(SIGHUP, NULL, &old) || old.sa_handler != SIG_IGN)
		sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN); /* a probe's closed pipe must not end servelint */
}

int sl_exec_interrupted(void)
{
	return (int)got_signal;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void nap(int ms)
{
	struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
	nanosleep(&ts, NULL); /* a signal cuts it short: fine */
}

static double tv(struct timeval t)
{
	return (double)t.tv_sec + (double)t.tv_usec / 1e6;
}

/* ---- readiness ------------------------------------------------------------ */

static size_t collect(char *p, size_t size, size_t n, void *ud)
{
	sl_buf *b = ud;
	if (b->len < 1024 * 1024) /* a model list is small; more is not read */
		sl_buf_add(b, p, size * n);
	return size * n;
}

/* GET url; 2xx gives 1 (and the body in *body when asked). */
static int http_ok(const char *url, const char *unix_socket, sl_buf *body)
{
	CURL *h = curl_easy_init();
	if (!h)
		return 0;
	sl_buf sink = {0};
	curl_easy_setopt(h, CURLOPT_URL, url);
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, (long)ASK_TIMEOUT_MS);
	curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, (long)ASK_TIMEOUT_MS);
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, collect);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, body ? body : &sink);
	curl_easy_setopt(h, CURLOPT_PROXY, ""); /* the service is local: no proxy from the environment */
	if (unix_socket)
		curl_easy_setopt(h, CURLOPT_UNIX_SOCKET_PATH, unix_socket);
	long code = 0;
	int ok = curl_easy_perform(h) == CURLE_OK && !curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &code) &&
		 code >= 200 && code < 300;
	curl_easy_cleanup(h);
	sl_buf_free(&sink);
	return ok;
}

static int tcp_ok(const char *host, int port)
{
	struct addrinfo hints, *res = NULL;
	memset(&hints, 0, sizeof hints);
	hints.ai_socktype = SOCK_STREAM;
	char ps[16];
	snprintf(ps, sizeof ps, "%d", port);
	if (getaddrinfo(host, ps, &hints, &res))
		return 0;
	int ok = 0;
	for (struct addrinfo *a = res; a && !ok; a = a->ai_next) {
		int fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
		if (fd < 0)
			continue;
		ok = connect(fd, a->ai_addr, a->ai_addrlen) == 0;
		close(fd);
	}
	freeaddrinfo(res);
	return ok;
}

/* The frontend lists a model: {"data": [ ... ]} with at least one. */
static int lists_model(const char *url)
{
	sl_buf body = {0};
	int ok = 0;
	if (http_ok(url, NULL, &body) && body.data) {
		json_t *doc = json_loadb(body.data, body.len, 0, NULL);
		ok = json_array_size(json_object_get(doc, "data")) > 0;
		json_decref(doc);
	}
	sl_buf_free(&body);
	return ok;
}

static int is_ready(const sl_proc *p)
{
	switch (p->ready) {
	case SL_READY_NONE: return 1;
	case SL_READY_HTTP: return http_ok(p->url, NULL, NULL);
	case SL_READY_TCP: return tcp_ok(p->host, p->port);
	case SL_READY_FRONTEND: return lists_model(p->url);
	}
	return 0;
}

int sl_exec_docker_answers(const char **where)
{
	const char *dh = getenv("DOCKER_HOST");
	*where = dh && *dh ? dh : "unix:///var/run/docker.sock";
	curl_global_init(CURL_GLOBAL_DEFAULT);
	int ok;
	if (!strncmp(*where, "unix://", 7)) {
		ok = http_ok("http://localhost/_ping", *where + 7, NULL);
	} else if (!strncmp(*where, "tcp://", 6)) {
		sl_buf u = {0};
		sl_buf_printf(&u, "http://%s/_ping", *where + 6);
		ok = http_ok(u.data, NULL, NULL);
		sl_buf_free(&u);
	} else {
		ok = 0;
	}
	curl_global_cleanup();
	return ok;
}

/* ---- processes ------------------------------------------------------------ */

/* The probe stops first, before the stages of the plan (0 to 3). */
#define STAGE_PROBE 4

typedef struct live {
	pid_t pid;             /* 0: not started; -1: reaped */
	int stage;
	double start, end;
	int ready;
	int status;
	struct rusage ru;
} live;

/* ---- the watchdog --------------------------------------------------------- */

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
static char run_mark[64];     /* SERVELINT_RUN=<mark>, putenv in each child */
static pid_t watchdog_pid;
static int watchdog_fd = -1;  /* servelint's end of the pipe */

static void watchdog_tell(pid_t pid)
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
	size_t ml = strlen(run_mark);
	int hit = 0;
	for (size_t i = 0; b.data && i + ml <= b.len && !hit; i += strlen(b.data + i) + 1)
		hit = !memcmp(b.data + i, run_mark, ml) && (i + ml == b.len || b.data[i + ml] == '\0');
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
	/* descendants: to a fixed point */
	for (int more = 1; more;) {
		more = 0;
		for (size_t i = 0; i < n; i++)
			if (!is[i] && all[i].pid != self && all[i].pid != boss)
				for (size_t j = 0; j < n && !is[i]; j++)
					if (is[j] && all[j].pid == all[i].ppid)
						is[i] = 1, more = 1;
	}
	for (size_t i = 0; i < n; i++)
		hits += is[i] != 0;
	return hits;
}

static void watchdog(int rfd, pid_t boss, double grace)
{
	setsid();
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);
	sigaction(SIGPIPE, &sa, NULL);
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
		for (int more = 1; more;) {
			more = 0;
			for (size_t i = 0; i < n; i++)
				if (!is[i] && all[i].pid != self && all[i].pid != boss)
					for (size_t j = 0; j < n && !is[i]; j++)
						if (is[j] && all[j].pid == all[i].ppid)
							is[i] = 1, more = 1;
		}
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
static void watchdog_start(double grace)
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
	snprintf(run_mark, sizeof run_mark, "SERVELINT_RUN=%d-%llx-%llx", (int)getpid(), r,
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
	watchdog_pid = pid;
	watchdog_fd = pfd[1];
}

/* Ends the watchdog: its pipe closed, it sweeps (nothing is left after
 * the teardown, so it finds nothing) and exits; servelint reaps it. */
static void watchdog_stop(void)
{
	if (watchdog_fd >= 0)
		close(watchdog_fd);
	watchdog_fd = -1;
	if (watchdog_pid > 0)
		while (waitpid(watchdog_pid, NULL, 0) < 0 && errno == EINTR)
			;
	watchdog_pid = 0;
	run_mark[0] = '\0';
}

/* Starts argv in its own process group with output to log. Returns the
 * pid, or -1 with errno from exec (reported through a close-on-exec pipe). */
static pid_t spawn(char *const *argv, char *const *env, size_t nenv, const char *log, const char *cwd,
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
		struct sigaction sa;
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = SIG_DFL;
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
		sigaction(SIGHUP, &sa, NULL);
		sigaction(SIGPIPE, &sa, NULL);
		/* the run's mark, inherited by every descendant: the watchdog
		 * finds by it what left its group and its parent */
		if (run_mark[0])
			putenv(run_mark);
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
	watchdog_tell(pid);
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
static int reaped(live *l)
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
		if (rp && sscanf(rp + 1, " %c %ld", &state, &ppid) == 2 && ppid == self && pid != watchdog_pid)
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
		if (ls[i].stage == stage && ls[i].pid > 0 && !reaped(&ls[i]))
			kill(-ls[i].pid, SIGTERM);
	double until = now() + grace;
	for (;;) {
		int alive = 0;
		for (size_t i = 0; i < n; i++)
			alive |= ls[i].stage == stage && ls[i].pid > 0 && !reaped(&ls[i]);
		/* a signal to servelint during the teardown: no more waiting */
		if (!alive || now() >= until || nsignals > seen)
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
static void teardown(live *ls, size_t n, double grace)
{
	sig_atomic_t seen = nsignals;
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

/* The last lines of a log: only its end is read (a crashing engine may
 * have written gigabytes). */
static char *tail_of(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return NULL;
	struct stat st;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return NULL;
	}
	size_t want = 64u * 1024u;
	off_t from = st.st_size > (off_t)want ? st.st_size - (off_t)want : 0;
	char *text = sl_malloc(want + 1);
	size_t len = 0;
	ssize_t k;
	while (len < want && (k = pread(fd, text + len, want - len, from + (off_t)len)) > 0)
		len += (size_t)k;
	close(fd);
	text[len] = '\0';
	size_t lines = 0, i = len;
	if (i && text[i - 1] == '\n')
		i--;
	while (i > 0 && lines < TAIL_LINES)
		if (text[--i] == '\n')
			lines++;
	if (i && text[i] == '\n')
		i++;
	char *t = sl_strndup(text + i, len - i);
	free(text);
	return t;
}

static char *log_path(const char *dir, const char *name, int cycle)
{
	sl_buf b = {0};
	sl_buf_printf(&b, "%s/", dir);
	for (const char *p = name; *p; p++)
		sl_buf_putc(&b, *p == '#' ? '-' : *p == '/' ? '_' : *p);
	if (cycle > 0)
		sl_buf_printf(&b, ".%d", cycle);
	sl_buf_puts(&b, ".log");
	return sl_buf_detach(&b);
}


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
	watchdog_start(o->grace);
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
		r->procs[i].log = log_path(o->logs, p->procs[i].name, o->cycle);
	}
	size_t first = 0;
	while (first < p->n && outcome == SL_RUN_OK) {
		size_t last = first;
		while (last < p->n && p->procs[last].stage == p->procs[first].stage)
			last++;
		for (size_t i = first; i < last && outcome == SL_RUN_OK; i++) {
			int e = 0;
			ls[i].start = now();
			pid_t pid = spawn(p->procs[i].argv, p->procs[i].env, p->procs[i].nenv, r->procs[i].log, work, &e);
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
			if (got_signal) {
				outcome = SL_RUN_INTERRUPTED;
				break;
			}
			int all = 1;
			for (size_t i = 0; i < last && outcome == SL_RUN_OK; i++) {
				if (reaped(&ls[i])) {
					outcome = SL_RUN_DIED;
					failed = i;
					break;
				}
				if (i >= first && !ls[i].ready) {
					if (is_ready(&p->procs[i])) {
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
		char *plog = log_path(o->logs, "probe", o->cycle);
		int e = 0;
		probe->start = now();
		probe->pid = spawn(argv, NULL, 0, plog, NULL, &e);
		nlive = p->n + 1;
		if (probe->pid < 0) {
			outcome = SL_RUN_PROBE_FAILED;
			r->failed = sl_strdup("probe");
			r->tail = sl_strdup(strerror(e));
			probe->pid = 0;
		}
		while (outcome == SL_RUN_OK) {
			if (reaped(probe)) {
				r->probe = probe->end - probe->start;
				r->probe_user = tv(probe->ru.ru_utime);
				r->probe_sys = tv(probe->ru.ru_stime);
				r->probe_status = probe->status;
				if (!WIFEXITED(probe->status) || WEXITSTATUS(probe->status)) {
					outcome = SL_RUN_PROBE_FAILED;
					r->failed = sl_strdup("probe");
					r->tail = tail_of(plog);
				}
				break;
			}
			if (got_signal) {
				outcome = SL_RUN_INTERRUPTED;
				break;
			}
			for (size_t i = 0; i < p->n && outcome == SL_RUN_OK; i++)
				if (reaped(&ls[i])) {
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
	teardown(ls, nlive, o->grace);
	watchdog_stop();
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
			r->tail = tail_of(r->procs[failed].log);
		}
	}
	r->outcome = outcome;
	r->signal = outcome == SL_RUN_INTERRUPTED ? (int)got_signal : 0;
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
