/*
 * route_claims.h (normalize, internal): the routing a comment says the
 * deployment uses ("KV-aware routing", "KV router", "round-robin
 * routing"), for claims.c (route_claims.c).
 */
#ifndef SL_NORMALIZE_ROUTE_CLAIMS_H
#define SL_NORMALIZE_ROUTE_CLAIMS_H

#include <stddef.h>

/* The routing named at p, a word's start in the comment text base: its
 * length, with *mode set to "kv", "round-robin" or "random" (static
 * strings); 0 when p names none, or the words before it on its sentence
 * deny or weigh it ("without KV routing", "faster than round-robin
 * routing", "KV routing or random"). */
size_t sl_route_claim(const char *base, const char *p, const char **mode);

#endif
