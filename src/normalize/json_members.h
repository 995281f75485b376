/*
 * json_members.h (normalize, internal): a JSON flag value into one setting
 * per member (json_members.c), for flags.c.
 */
#ifndef SL_NORMALIZE_JSON_MEMBERS_H
#define SL_NORMALIZE_JSON_MEMBERS_H

#include "internal.h"

/* The canonical key the grammar maps f's member (a dotted path) to
 * (`json_keys`), or NULL: the key is then f's key and the path. Points into f. */
const char *sl_json_member_key(const sl_flag *f, const char *member);
/* The members of obj, f's value as word w holds it, into settings of b
 * with flags added to each; h the holes of a value the script does not
 * know whole (sl_json_parse_holes), or NULL; g the grammar f is of, whose
 * engine's member facts the members get (or NULL). obj stays the caller's. */
void sl_json_spread(sl_build *b, const sl_grammar *g, const sl_flag *f, json_t *obj, const sl_word *w,
		    const sl_source *src, unsigned flags, const sl_json_holes *h);

#endif
