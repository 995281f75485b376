/*
 * naming.h (cmd, internal): the names `servelint import` gives entries
 * (import.c), for the commands that label entries as import would name
 * them (audit's report on a published page).
 */
#ifndef SL_CMD_NAMING_H
#define SL_CMD_NAMING_H

#include "model/model.h"

/* MODEL/SYSTEM/VARIANT, as import names the entry's folder before telling
 * same-named entries apart: the model heading and system slugged, the
 * variant from the model (engine, mode, replicas and parallelism,
 * speculative decoding). NULL when the model runs no engine. Caller frees. */
char *sl_cmd_import_name(const sl_model *m, const char *model, const char *system);
/* Same names told apart as import does: by image date, else a setting
 * catalogues vary (mns256, mem0.9), else -1, -2 in order; names[i] (owned,
 * may be NULL) is replaced in place; models[i] is the entry's model. */
void sl_cmd_import_tell_apart(char **names, const sl_model *const *models, size_t n);

#endif
