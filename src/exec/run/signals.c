/*
 * signals.c: a signal to servelint (SIGINT, SIGTERM, SIGHUP) turned into a
 * flag the run polls, so that it ends in an orderly teardown; and the one
 * way the processes servelint forks (engines, the watchdog) set theirs.
 */
#include "internal.h"

volatile sig_atomic_t rn_got_signal;
volatile sig_atomic_t rn_nsignals; /* how many: a second one cuts the teardown's grace short */

static void on_signal(int sig)
{
	if (!rn_got_signal)
		rn_got_signal = sig;
	rn_nsignals++;
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

void rn_signals_set(void (*handler)(int), int with_quit)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGPIPE, &sa, NULL);
	if (with_quit)
		sigaction(SIGQUIT, &sa, NULL);
}

int sl_exec_interrupted(void)
{
	return (int)rn_got_signal;
}
