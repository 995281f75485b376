/*
 * count_claims.h (normalize, internal): the counts a comment states after
 * their noun, for claims.c (count_claims.c): draft tokens ("MTP3", "num
 * draft tokens: 2"), the concurrency an entry is tuned or measured at
 * ("at concurrency 384", "conc=2048", "64 concurrent requests") and the
 * batch one rank runs ("batch 64 per rank", "per-rank batch of 64").
 */
#ifndef SL_NORMALIZE_COUNT_CLAIMS_H
#define SL_NORMALIZE_COUNT_CLAIMS_H

#include <stddef.h>

/* The count claimed at p, a word's start in the comment text base (prev:
 * the block's line before it, or NULL): its length, with *key set to
 * "spec.num_tokens", "load.concurrency" or "load.batch_per_rank" (static
 * strings) and *value to the count; 0 when p states none, or its sentence
 * (which may begin on prev) weighs it ("above conc 16", "if concurrency
 * 64"), or it is one of several ("conc 1/2/4", "concurrency 64-256"). */
size_t sl_count_claim(const char *base, const char *p, const char *prev, const char **key, long *value);

#endif
