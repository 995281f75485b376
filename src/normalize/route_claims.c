/*
 * route_claims.c (normalize): the routing a comment names, for claims.c.
 * The shapes are the headers of Dynamo's example launchers ("# Start
 * frontend with KV routing", "# run frontend + KV router", "Two
 * aggregated workers behind a KV-aware router", the launch scripts of
 * ai-dynamo/dynamo examples/backends) and SGLang's router policies named in
 * prose ("cache-aware routing", "round-robin routing"): a kind of routing
 * followed by "rout..." (routing, router, routes). Nothing else is read:
 * "round-robin" alone is also a kernel's or a DP balancer's word.
 */
#include "route_claims.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

/* the word w at q, case aside, ending there (not a prefix of a longer word) */
static size_t word_is(const char *q, const char *w)
{
	size_t n = strlen(w);
	return !strncasecmp(q, w, n) && !isalnum((unsigned char)q[n]) ? n : 0;
}

/* one '-', '_' or ' ' between the words of a name */
static const char *sep(const char *q)
{
	return *q == '-' || *q == '_' || *q == ' ' ? q + 1 : NULL;
}

/* The words before p in its sentence (back to '.', ';', ':', '(' or the
 * line's start) that deny, weigh or list alternatives. */
static int hedged(const char *base, const char *p)
{
	static const char *const words[] = {"no",      "not",      "without", "instead", "than",   "vs",
					    "versus",  "compared", "rather",  "unlike",  "disable", "disables",
					    "disabled", "or",      "nor",     "if",      "when",    "unless"};
	const char *a = p;
	while (a > base && !strchr(".;:(", a[-1]))
		a--;
	for (const char *q = a; q < p; q++) {
		if (!isalpha((unsigned char)*q) || (q > a && isalpha((unsigned char)q[-1])))
			continue;
		for (size_t i = 0; i < sizeof words / sizeof *words; i++) {
			size_t n = word_is(q, words[i]);
			if (n && q + n <= p)
				return 1;
		}
	}
	return 0;
}

size_t sl_route_claim(const char *base, const char *p, const char **mode)
{
	const char *q = p, *s;
	size_t n;
	/* kv, cache, prefix, round, random: a cheap test first */
	if (!*p || !strchr("kKcCpPrR", *p))
		return 0;
	if ((n = word_is(q, "kv"))) {
		*mode = "kv";
		q += n;
		/* "KV-cache-aware", "KV cache aware", "KV-aware", "KV-based" */
		if ((s = sep(q)) && (n = word_is(s, "cache")))
			q = s + n;
		if ((s = sep(q)) && ((n = word_is(s, "aware")) || (n = word_is(s, "based"))))
			q = s + n;
	} else if (((n = word_is(q, "cache")) || (n = word_is(q, "prefix"))) && (s = sep(q + n)) &&
		   (n = word_is(s, "aware"))) {
		*mode = "kv";  /* SGLang's cache_aware: the prefix the workers' caches hold */
		q = s + n;
	} else if ((n = word_is(q, "round")) && (s = sep(q + n)) && (n = word_is(s, "robin"))) {
		*mode = "round-robin";
		q = s + n;
	} else if ((n = word_is(q, "random"))) {
		*mode = "random";
		q += n;
	} else
		return 0;
	if (!(s = sep(q)) || strncasecmp(s, "rout", 4))
		return 0;
	q = s + 4;
	while (isalpha((unsigned char)*q))
		q++;
	/* "KV routing or round-robin", "KV routing off" */
	const char *after = q;
	while (*after == ' ')
		after++;
	if (word_is(after, "or") || word_is(after, "off") || word_is(after, "disabled") || word_is(after, "vs") ||
	    hedged(base, p))
		return 0;
	return (size_t)(q - p);
}
