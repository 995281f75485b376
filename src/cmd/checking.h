/*
 * checking.h (cmd, internal): one entry checked, for check and audit.
 */
#ifndef SL_CMD_CHECKING_H
#define SL_CMD_CHECKING_H

#include "config.h"
#include "normalize/normalize.h"

/* Checks every variant of ENTRY, appending to fs. *model is the first
 * variant's model (NULL when the script could not be read: an input error
 * that is a finding becomes one, any other is printed and -1 returned);
 * the other variants' models are appended to *extra. The findings point
 * into the models and the entry: keep them until the findings are freed. */
int sl_cmd_check_entry(sl_entry *entry, const sl_grammars *gs, const sl_rules *rules, const sl_binds *binds,
		       const sl_cmd_config *cfg, sl_findings *fs, sl_model **model, sl_model ***extra, size_t *nextra,
		       size_t *xcap);

#endif
