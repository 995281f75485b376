/*
 * stats.c: the statistics of repeated timings, as hyperfine reports them:
 * mean, sample standard deviation, median, min and max.
 */
#include "exec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

void sl_exec_stats(const double *v, size_t n, sl_stats *out)
{
	memset(out, 0, sizeof *out);
	if (!n)
		return;
	double *s = sl_malloc(n * sizeof *s), sum = 0;
	memcpy(s, v, n * sizeof *s);
	qsort(s, n, sizeof *s, cmp_double);
	for (size_t i = 0; i < n; i++)
		sum += s[i];
	out->mean = sum / (double)n;
	double ss = 0;
	for (size_t i = 0; i < n; i++)
		ss += (s[i] - out->mean) * (s[i] - out->mean);
	out->stddev = n > 1 ? sqrt(ss / (double)(n - 1)) : 0;
	out->median = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	out->min = s[0];
	out->max = s[n - 1];
	free(s);
}
