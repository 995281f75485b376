/*
 * structure.h (normalize, internal): the breaks of a script's structure
 * seen across its commands once their services are known (structure.c).
 */
#ifndef SL_NORMALIZE_STRUCTURE_H
#define SL_NORMALIZE_STRUCTURE_H

#include "internal.h"

/* Notes of kind foreground_before_services: a server started in the
 * foreground with services after it, which do not start while it runs. */
void sl_structure_services(sl_ctx *c, const sl_script *s);

/* Notes of kind export_after_use: a variable the script sets after a
 * service's command read it (the reader's breaks of that kind, kept when
 * the command that read it is a service's). */
void sl_structure_reads(sl_ctx *c, const sl_script *s, const sl_source *src);

#endif
