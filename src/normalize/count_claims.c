/*
 * count_claims.c (normalize): counts a comment states with their noun
 * before them, for claims.c.
 *
 * Draft tokens: "MTP3" (InferenceX's srt-slurm recipes: "Validated GB300
 * AgentX MTP3 efficiency topology" over num_speculative_tokens 3; the
 * catalogues' entry names "-mtp3"), "num draft tokens: 2", "draft tokens =
 * 4", "num_speculative_tokens: 3".
 *
 * Load: the concurrency a benchmark entry is tuned or measured at, the form
 * InferenceX's recipes and Dynamo's benchmark launchers write in their
 * headers ("one DEP8 decode worker at concurrency 384", "tuned for
 * concurrency 512", "conc=2048", "64 concurrent requests"), and the batch
 * one rank runs ("batch 64 per rank", "per-rank batch of 64"). Only one
 * number counts: a list, a range or a bound ("conc 1/2/4/8/16", "conc
 * 16-256", "concurrency 64 and 128") states no one load, and a sentence
 * that weighs the number ("above conc 16", "if concurrency 64") states
 * none.
 */
#include "count_claims.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* the word w at q (case as given), not the prefix of a longer word */
static size_t word(const char *q, const char *w)
{
	size_t n = strlen(w);
	return !strncmp(q, w, n) && !isalnum((unsigned char)q[n]) && q[n] != '_' ? n : 0;
}

/* The words of [a, p), the sentence before a number, that make it a
 * bound, a condition or a comparison. */
static int weighed_in(const char *a, const char *p);

/* The sentence may have begun on the previous line of the block (prev, or
 * NULL): "... above\n# conc 16". */
static int weighed(const char *base, const char *p, const char *prev)
{
	const char *a = p;
	while (a > base && !strchr(";:", a[-1]) && !(a[-1] == '.' && *a == ' '))
		a--;
	if (weighed_in(a, p))
		return 1;
	if (a > base || !prev)
		return 0;
	const char *e = prev + strlen(prev), *b = e;
	while (b > prev && !strchr(";:", b[-1]) && !(b[-1] == '.' && (*b == ' ' || b == e)))
		b--;
	return weighed_in(b, e);
}

static int weighed_in(const char *a, const char *p)
{
	static const char *const words[] = {"if",     "when",   "whenever", "above",   "below",  "under",
					    "over",   "beyond", "past",     "than",    "vs",     "versus",
					    "not",    "without", "unless",  "except",  "until",  "e.g",
					    "like",   "instead", "rather",  "compared", "beside", "besides"};
	for (const char *q = a; q < p; q++) {
		if (!isalpha((unsigned char)*q) || (q > a && isalpha((unsigned char)q[-1])))
			continue;
		for (size_t i = 0; i < sizeof words / sizeof *words; i++) {
			size_t n = strlen(words[i]);
			if (q + n <= p && !strncasecmp(q, words[i], n) && !isalpha((unsigned char)q[n]))
				return 1;
		}
	}
	return 0;
}

/* The one number at q: its value and the bytes after it, or NULL when
 * there is none, or it is one of a list, a range or a product ("1/2/4",
 * "16-256", "4k", "2x", "1.5", "64 and 128"). */
static const char *one_number(const char *q, long *v)
{
	if (!isdigit((unsigned char)*q))
		return NULL;
	char *end;
	*v = strtol(q, &end, 10);
	if (*v < 1 || isalnum((unsigned char)*end) || *end == '_')
		return NULL;
	if ((*end == '/' || *end == '-' || *end == '.' || *end == ',' || *end == '+') &&
	    isdigit((unsigned char)end[1]))
		return NULL;
	if (*end == '\xe2' && end[1] == '\x80' && end[2] == '\x93')  /* an en dash: a range */
		return NULL;
	const char *a = end;
	while (*a == ' ')
		a++;
	static const char *const more[] = {"and", "or", "to", "through", "thru"};
	for (size_t i = 0; i < sizeof more / sizeof *more; i++) {
		size_t n = word(a, more[i]);
		if (n && (isdigit((unsigned char)a[n + 1]) || isdigit((unsigned char)a[n])))
			return NULL;
	}
	return end;
}

/* ':', '=' or a blank between a noun and its number ("concurrency: 64",
 * "conc=64", "concurrency 64"); any is allowed, NULL when none is there */
static const char *sep(const char *q, int blank_ok)
{
	const char *s = q;
	while (*s == ' ')
		s++;
	if (*s == ':' || *s == '=') {
		s++;
		while (*s == ' ')
			s++;
		return s;
	}
	return blank_ok && s > q ? s : NULL;
}

/* "MTP3": MTP and its draft count in one word; not a name's part
 * ("ckpt/MTP3", "MTP_3") nor a version ("MTP3.1") */
static size_t mtp_word(const char *base, const char *p, long *v)
{
	if (strncmp(p, "MTP", 3) || !isdigit((unsigned char)p[3]))
		return 0;
	if (p > base && strchr("/_.", p[-1]))
		return 0;
	char *end;
	*v = strtol(p + 3, &end, 10);
	if (*v < 1 || *v > 16 || isalnum((unsigned char)*end) || *end == '_' ||
	    (*end == '.' && isdigit((unsigned char)end[1])))
		return 0;
	return (size_t)(end - p);
}

/* "num draft tokens: 2", "draft tokens = 4", "num_speculative_tokens: 3",
 * "number of draft tokens: 5" */
static size_t draft_words(const char *p, long *v)
{
	const char *q = p;
	size_t n;
	int num = 0;
	if ((n = word(q, "num")) && q[n] == ' ')
		q += n + 1, num = 1;
	else if (!strncmp(q, "num_", 4))
		q += 4, num = 1;
	else if (!strncasecmp(q, "number of ", 10))
		q += 10, num = 1;
	if (!strncasecmp(q, "draft", 5))
		q += 5;
	else if (!strncasecmp(q, "speculative", 11))
		q += 11;
	else
		return 0;
	if (*q != ' ' && *q != '_')
		return 0;
	q++;
	if (!(n = word(q, "tokens")))
		return 0;
	const char *s = sep(q + n, num);
	const char *end = s ? one_number(s, v) : NULL;
	return end && *v <= 64 ? (size_t)(end - p) : 0;
}

/* "concurrency 384", "concurrency of 512", "conc=2048", "concurrency: 64" */
static size_t concurrency_words(const char *p, long *v)
{
	size_t n = word(p, "concurrency");
	if (!n)
		n = word(p, "Concurrency");
	if (!n)
		n = word(p, "conc");
	if (!n)
		return 0;
	const char *q = p + n;
	if (!strncmp(q, " of ", 4))
		q += 3;
	const char *s = sep(q, 1);
	const char *end = s ? one_number(s, v) : NULL;
	return end ? (size_t)(end - p) : 0;
}

/* "64 concurrent requests" (users, clients, sequences, streams, sessions) */
static size_t concurrent_noun(const char *base, const char *p, long *v)
{
	if (p > base && (p[-1] == ',' || p[-1] == '.' || p[-1] == '/' || p[-1] == '-'))
		return 0;
	const char *end = one_number(p, v);
	if (!end || strncmp(end, " concurrent ", 12))
		return 0;
	static const char *const nouns[] = {"requests", "users", "clients", "sequences", "streams", "sessions"};
	for (size_t i = 0; i < sizeof nouns / sizeof *nouns; i++) {
		size_t n = word(end + 12, nouns[i]);
		if (n)
			return (size_t)(end + 12 + n - p);
	}
	return 0;
}

/* " per rank", " per DP rank", " per attention-DP rank" after a batch's number */
static size_t per_rank(const char *q)
{
	static const char *const forms[] = {" per rank", " per DP rank", " per DP-rank", " per attention-DP rank",
					    " per attention DP rank"};
	for (size_t i = 0; i < sizeof forms / sizeof *forms; i++) {
		size_t n = strlen(forms[i]);
		if (!strncmp(q, forms[i], n) && !isalnum((unsigned char)q[n]))
			return n;
	}
	return 0;
}

/* "batch 64 per rank", "batch size of 64 per DP rank", "per-rank batch 64",
 * "per-rank batch size: 64" */
static size_t batch_words(const char *p, long *v)
{
	const char *q = p;
	int before = 0;
	if (!strncasecmp(q, "per-rank ", 9) || !strncasecmp(q, "per rank ", 9)) {
		q += 9;
		before = 1;
	}
	size_t n = word(q, "batch");
	if (!n)
		n = word(q, "Batch");
	if (!n)
		return 0;
	q += n;
	if (!strncmp(q, " size", 5) && !isalnum((unsigned char)q[5]))
		q += 5;
	if (!strncmp(q, " of ", 4))
		q += 3;
	const char *s = sep(q, 1);
	const char *end = s ? one_number(s, v) : NULL;
	if (!end)
		return 0;
	if (before)
		return (size_t)(end - p);
	size_t r = per_rank(end);
	return r ? (size_t)(end + r - p) : 0;
}

size_t sl_count_claim(const char *base, const char *p, const char *prev, const char **key, long *value)
{
	size_t n;
	/* every form starts with one of these (MTP, num/number/draft/
	 * speculative, concurrency/conc, a number, per-rank/batch): most words
	 * of a comment are none of them */
	if (!*p || (!isdigit((unsigned char)*p) && !strchr("MnNdDsScCpPbB", *p)))
		return 0;
	if ((n = mtp_word(base, p, value)) || (n = draft_words(p, value)))
		*key = "spec.num_tokens";
	else if ((n = concurrency_words(p, value)) || (n = concurrent_noun(base, p, value)))
		*key = "load.concurrency";
	else if ((n = batch_words(p, value)))
		*key = "load.batch_per_rank";
	else
		return 0;
	return weighed(base, p, prev) ? 0 : n;
}
