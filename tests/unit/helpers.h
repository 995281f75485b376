/* helpers.h: building entries from strings for the unit tests. */
#ifndef SL_TEST_HELPERS_H
#define SL_TEST_HELPERS_H

#include <stdarg.h>
#include <stdio.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "source/source.h"
#include "normalize/normalize.h"

/* The engine grammars, for a group's setup; NULL (and the error printed)
 * when they cannot be loaded. */
static inline sl_grammars *grammars_or_null(void)
{
	sl_grammars *gs = NULL;
	sl_error err = {0};
	if (sl_normalize_grammars_load(&gs, &err))
		fprintf(stderr, "%s:%u:%u: %s\n", err.file, err.line, err.col, err.msg);
	sl_error_clear(&err);
	return gs;
}

static inline sl_entry *entry_from(const char *text)
{
	sl_error err = {0};
	sl_entry *e = calloc(1, sizeof *e);
	e->path = strdup("test.sh");
	int rc = sl_source_from_memory("test.sh", text, strlen(text), &e->script, &err);
	if (rc) {
		fprintf(stderr, "%s\n", err.msg);
		sl_error_clear(&err);
	}
	assert_int_equal(rc, 0);
	return e;
}

/* 1-based line:col of a source offset, as "L:C" in a static buffer. */
static inline const char *pos_of(const sl_source *s, size_t off)
{
	static char buf[32];
	unsigned l, c;
	sl_source_pos(s, off, &l, &c);
	snprintf(buf, sizeof buf, "%u:%u", l, c);
	return buf;
}

#endif
