/*
 * topology.h (normalize, internal): what a deployment looks like once every
 * command is read (topology.c), for normalize.c.
 */
#ifndef SL_NORMALIZE_TOPOLOGY_H
#define SL_NORMALIZE_TOPOLOGY_H

#include "internal.h"

/* After every command is read. */
void sl_topology(sl_ctx *c, const sl_script *s);

#endif
