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
 * The items may also come as a stream (sl_jobs_start, _add, _finish): check
 * -j adds each entry as discovery finds it, so the threads start on the
 * first entries while the calling thread searches for the rest.
 *
 * Threads claim at most a window of items ahead of the oldest one not yet
 * handed back: a slow entry holds the others' results in memory only that
 * far (memory stays flat in the input's size, as with one thread). For the
 * same reason the caller adding a stream waits, handing back, while twice
 * that many items wait (discovery outran the threads, and 69,440 entries'
 * paths and results' slots were 16 MB of check's peak at 100 MB of
 * scripts), and the items handed back leave the arrays.
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

/* One run of items on threads: a fixed set (sl_jobs_run) or a stream the
 * calling thread adds to as it finds them (sl_jobs_start). */
struct sl_jobs {
	size_t n, cap;        /* items added so far; the arrays' room (from base) */
	int closed;           /* no more will be added */
	size_t next;          /* the next item to claim */
	size_t handed;        /* items [0, handed) were handed back */
	size_t window;        /* claimed at most this far past handed */
	/* items [base, n), each at [i - base] of the arrays (room for cap - base) */
	size_t base;
	void **items;
	unsigned char *finished;
	char **diag;          /* each finished item's diagnostics (owned), or NULL */
	size_t *ndiag;
	void (*work)(void *ud, void *item);
	void (*done)(void *ud, void *item);
	void (*start)(void *ud);
	void *ud;
	unsigned threads, started;
	int serial;           /* no threads: each item worked and handed back as added */
	pthread_t *tid;
	pthread_mutex_t mu;
	pthread_cond_t finished_one;  /* an item finished: the caller may hand it back */
	pthread_cond_t moved;         /* an item was added, or the window moved: one may be claimed */
};

static void *worker(void *arg)
{
	sl_jobs *p = arg;
	pthread_mutex_lock(&p->mu);
	for (;;) {
		while ((p->next >= p->n && !p->closed) || (p->next < p->n && p->next >= p->handed + p->window))
			pthread_cond_wait(&p->moved, &p->mu);
		if (p->next >= p->n)
			break;  /* closed, and every item claimed */
		size_t i = p->next++;
		void *item = p->items[i - p->base];  /* read under the lock: add may move the array */
		pthread_mutex_unlock(&p->mu);
		char *buf = NULL;
		size_t len = 0;
		FILE *diag = open_memstream(&buf, &len);  /* NULL: straight to stderr */
		sl_diag_to(diag);
		p->work(p->ud, item);
		sl_diag_to(NULL);
		if (diag)
			fclose(diag);
		pthread_mutex_lock(&p->mu);
		p->diag[i - p->base] = buf;
		p->ndiag[i - p->base] = len;
		p->finished[i - p->base] = 1;
		pthread_cond_signal(&p->finished_one);
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

/* Deep scripts recurse deeply in the parse and its walk: a thread gets the
 * stack the main thread has by default (8 MiB), whatever glibc's default. */
enum { STACK_BYTES = 8u << 20 };

sl_jobs *sl_jobs_start(unsigned threads, void (*work)(void *ud, void *item), void (*done)(void *ud, void *item),
		       void (*start)(void *ud), void *ud)
{
	sl_jobs *p = sl_calloc(1, sizeof *p);
	p->work = work;
	p->done = done;
	p->start = start;
	p->ud = ud;
	p->threads = threads;
	p->serial = threads <= 1;
	p->window = (size_t)threads * 4;
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->finished_one, NULL);
	pthread_cond_init(&p->moved, NULL);
	return p;
}

/* Hands back, in input order, the items finished before the first that
 * is not, waiting for more while more than `waiting` items are not handed
 * back (0: all of them; then every item must be coming). */
static void hand_back(sl_jobs *p, size_t waiting)
{
	pthread_mutex_lock(&p->mu);
	while (p->handed < p->n) {
		size_t i = p->handed;
		if (!p->finished[i - p->base]) {
			if (p->n - p->handed <= waiting)
				break;
			pthread_cond_wait(&p->finished_one, &p->mu);
			continue;
		}
		void *item = p->items[i - p->base];
		char *d = p->diag[i - p->base];
		size_t nd = p->ndiag[i - p->base];
		p->diag[i - p->base] = NULL;
		pthread_mutex_unlock(&p->mu);
		if (d) {
			fwrite(d, 1, nd, stderr);
			free(d);
		}
		p->done(p->ud, item);
		pthread_mutex_lock(&p->mu);
		p->handed++;
		pthread_cond_broadcast(&p->moved);
	}
	pthread_mutex_unlock(&p->mu);
}

/* The threads, started at the second item (one item alone runs here, as
 * sl_jobs_run's would); none started: the items run here in turn. */
static void start_threads(sl_jobs *p)
{
	if (p->start)
		p->start(p->ud);
	p->tid = sl_calloc(p->threads, sizeof *p->tid);
	pthread_attr_t attr;
	int have_attr = pthread_attr_init(&attr) == 0;
	if (have_attr)
		pthread_attr_setstacksize(&attr, STACK_BYTES);
	while (p->started < p->threads &&
	       pthread_create(&p->tid[p->started], have_attr ? &attr : NULL, worker, p) == 0)
		p->started++;
	if (have_attr)
		pthread_attr_destroy(&attr);
	if (!p->started)
		p->serial = 1;
}

/* Items [handed, n) worked and handed back here, in turn (no threads). */
static void run_serial(sl_jobs *p)
{
	for (; p->handed < p->n; p->handed++) {
		p->work(p->ud, p->items[p->handed - p->base]);
		p->done(p->ud, p->items[p->handed - p->base]);
	}
}

/* The items handed back leave the arrays (under the lock) once they are
 * most of them: each item is moved about once. */
static void forget_handed(sl_jobs *p)
{
	size_t gone = p->handed - p->base, left = p->n - p->handed;
	if (gone < 64 || gone < left)
		return;
	memmove(p->items, p->items + gone, left * sizeof *p->items);
	memmove(p->finished, p->finished + gone, left * sizeof *p->finished);
	memmove(p->diag, p->diag + gone, left * sizeof *p->diag);
	memmove(p->ndiag, p->ndiag + gone, left * sizeof *p->ndiag);
	p->base = p->handed;
}

void sl_jobs_add(sl_jobs *p, void *item)
{
	pthread_mutex_lock(&p->mu);
	forget_handed(p);
	size_t at = p->n - p->base;
	if (at == p->cap) {
		size_t c = p->cap, c2 = p->cap, c3 = p->cap;
		sl_grow((void **)&p->items, &p->cap, at + 1, sizeof *p->items);
		sl_grow((void **)&p->finished, &c, at + 1, sizeof *p->finished);
		sl_grow((void **)&p->diag, &c2, at + 1, sizeof *p->diag);
		sl_grow((void **)&p->ndiag, &c3, at + 1, sizeof *p->ndiag);
	}
	p->items[at] = item;
	p->finished[at] = 0;
	p->diag[at] = NULL;
	p->ndiag[at] = 0;
	p->n++;
	pthread_cond_broadcast(&p->moved);
	pthread_mutex_unlock(&p->mu);
	if (!p->serial && !p->started && p->n == 2)
		start_threads(p);
	if (p->serial)
		run_serial(p);
	else if (p->started)
		/* keeps the window moving while items are found, and waits
		 * while twice the window's items wait */
		hand_back(p, 2 * p->window);
}

void sl_jobs_finish(sl_jobs *p)
{
	pthread_mutex_lock(&p->mu);
	p->closed = 1;
	pthread_cond_broadcast(&p->moved);
	pthread_mutex_unlock(&p->mu);
	if (p->started) {
		hand_back(p, 0);
		for (unsigned t = 0; t < p->started; t++)
			pthread_join(p->tid[t], NULL);
	} else {
		run_serial(p);  /* no item, or one alone */
	}
	pthread_mutex_destroy(&p->mu);
	pthread_cond_destroy(&p->finished_one);
	pthread_cond_destroy(&p->moved);
	free(p->tid);
	free(p->items);
	free(p->finished);
	free(p->diag);
	free(p->ndiag);
	free(p);
}

/* sl_jobs_run on the stream: item i is the index itself */
typedef struct run_fns {
	void (*work)(void *ud, size_t i);
	void (*done)(void *ud, size_t i);
	void *ud;
} run_fns;

static void run_work(void *ud, void *item)
{
	run_fns *f = ud;
	f->work(f->ud, (size_t)(uintptr_t)item);
}

static void run_done(void *ud, void *item)
{
	run_fns *f = ud;
	f->done(f->ud, (size_t)(uintptr_t)item);
}

void sl_jobs_run(size_t n, unsigned threads, void (*work)(void *ud, size_t i), void (*done)(void *ud, size_t i),
		 void *ud)
{
	run_fns f = {work, done, ud};
	sl_jobs *p = sl_jobs_start(threads > n ? (unsigned)n : threads, run_work, run_done, NULL, &f);
	for (size_t i = 0; i < n; i++)
		sl_jobs_add(p, (void *)(uintptr_t)i);
	sl_jobs_finish(p);
}
