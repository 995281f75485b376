/*
 * jobs.c (util): work on several threads, results in input order (see
 * util.h, "work on several threads"). `check -j N` and `audit -j N` read
 * their entries this way: the items are claimed in order by N threads and
 * handed back to the calling thread one by one in input order, so that what
 * the command prints is the same as with one thread. What a work function
 * writes through sl_diag() (sl_error_print's messages) is held with its
 * item and written to stderr when the item is handed back, so stderr is in
 * input order too.
 *
 * Threads claim at most a window of items ahead of the oldest one not yet
 * handed back: a slow entry holds the others' results in memory only that
 * far (memory stays flat in the input's size, as with one thread).
 */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include "util.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

unsigned sl_jobs_available(void)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
		return (unsigned)CPU_COUNT(&set);
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (unsigned)n : 1;
}

typedef struct {
	size_t n;
	size_t next;          /* the next item to claim */
	size_t handed;        /* items [0, handed) were handed back */
	size_t window;        /* claimed at most this far past handed */
	unsigned char *finished;
	char **diag;          /* each finished item's diagnostics (owned), or NULL */
	size_t *ndiag;
	void (*work)(void *ud, size_t i);
	void *ud;
	pthread_mutex_t mu;
	pthread_cond_t finished_one;  /* an item finished: the caller may hand it back */
	pthread_cond_t moved;         /* the window moved: an item may be claimed */
} pool;

static void *worker(void *arg)
{
	pool *p = arg;
	pthread_mutex_lock(&p->mu);
	for (;;) {
		while (p->next < p->n && p->next >= p->handed + p->window)
			pthread_cond_wait(&p->moved, &p->mu);
		if (p->next >= p->n)
			break;
		size_t i = p->next++;
		pthread_mutex_unlock(&p->mu);
		char *buf = NULL;
		size_t len = 0;
		FILE *diag = open_memstream(&buf, &len);  /* NULL: straight to stderr */
		sl_diag_to(diag);
		p->work(p->ud, i);
		sl_diag_to(NULL);
		if (diag)
			fclose(diag);
		pthread_mutex_lock(&p->mu);
		p->diag[i] = buf;
		p->ndiag[i] = len;
		p->finished[i] = 1;
		pthread_cond_signal(&p->finished_one);
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

/* Deep scripts recurse deeply in the parse and its walk: a thread gets the
 * stack the main thread has by default (8 MiB), whatever glibc's default. */
enum { STACK_BYTES = 8u << 20 };

void sl_jobs_run(size_t n, unsigned threads, void (*work)(void *ud, size_t i), void (*done)(void *ud, size_t i),
		 void *ud)
{
	if (threads > n)
		threads = (unsigned)n;
	pthread_t *tid = NULL;
	unsigned started = 0;
	pool p;
	memset(&p, 0, sizeof p);
	if (threads > 1) {
		p.n = n;
		p.window = (size_t)threads * 4;
		p.finished = sl_calloc(n, 1);
		p.diag = sl_calloc(n, sizeof *p.diag);
		p.ndiag = sl_calloc(n, sizeof *p.ndiag);
		p.work = work;
		p.ud = ud;
		pthread_mutex_init(&p.mu, NULL);
		pthread_cond_init(&p.finished_one, NULL);
		pthread_cond_init(&p.moved, NULL);
		tid = sl_calloc(threads, sizeof *tid);
		pthread_attr_t attr;
		int have_attr = pthread_attr_init(&attr) == 0;
		if (have_attr)
			pthread_attr_setstacksize(&attr, STACK_BYTES);
		while (started < threads && pthread_create(&tid[started], have_attr ? &attr : NULL, worker, &p) == 0)
			started++;
		if (have_attr)
			pthread_attr_destroy(&attr);
	}
	if (started == 0) {
		/* one thread (or none could be started): each item in turn, here */
		for (size_t i = 0; i < n; i++) {
			work(ud, i);
			done(ud, i);
		}
	} else {
		pthread_mutex_lock(&p.mu);
		while (p.handed < n) {
			size_t i = p.handed;
			while (!p.finished[i])
				pthread_cond_wait(&p.finished_one, &p.mu);
			pthread_mutex_unlock(&p.mu);
			if (p.diag[i]) {
				fwrite(p.diag[i], 1, p.ndiag[i], stderr);
				free(p.diag[i]);
				p.diag[i] = NULL;
			}
			done(ud, i);
			pthread_mutex_lock(&p.mu);
			p.handed++;
			pthread_cond_broadcast(&p.moved);
		}
		pthread_mutex_unlock(&p.mu);
		for (unsigned t = 0; t < started; t++)
			pthread_join(tid[t], NULL);
	}
	if (threads > 1) {
		pthread_mutex_destroy(&p.mu);
		pthread_cond_destroy(&p.finished_one);
		pthread_cond_destroy(&p.moved);
	}
	free(tid);
	free(p.finished);
	free(p.diag);
	free(p.ndiag);
}
