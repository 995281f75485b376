/*
 * claims.h (normalize, internal): what the metadata and the header comments
 * say (sl_claim), read by claims.c once the services are known.
 */
#ifndef SL_NORMALIZE_CLAIMS_H
#define SL_NORMALIZE_CLAIMS_H

#include "internal.h"

void sl_extract_claims(sl_ctx *c, const sl_script *s);

#endif
