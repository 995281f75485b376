/*
 * group.h (normalize, internal): an entry of several scripts made one
 * model (group.c), for normalize.c, which reads each script.
 */
#ifndef SL_NORMALIZE_GROUP_H
#define SL_NORMALIZE_GROUP_H

#include "internal.h"

/* Moves what the model of one more script of the group (script) holds
 * into m, and frees it. */
void sl_group_merge(sl_model *m, sl_model *from, const sl_source *script);
/* Names the services of the whole group (role, or role-1, role-2...). */
void sl_group_rename(sl_model *m);
void sl_group_run_free(sl_group_run *g);

#endif
