/*
 * inputs.h (cmd, internal): what a PATH argument names. An entry folder, a
 * launch script, an entry in catalogue form, or a whole published page
 * (several "Submitted by" lines), whose entries are then read one by one,
 * each named page:LINE.
 */
#ifndef SL_CMD_INPUTS_H
#define SL_CMD_INPUTS_H

#include "source/source.h"

typedef struct sl_input {
	const char *path;       /* not owned */
	sl_source *file;        /* a regular file, loaded once; owned until handed over */
	sl_page_entry *pes;     /* a page's entries, or NULL */
	size_t npe, next;
	int done;
} sl_input;

/* Opens PATH; fails (with err) only when a file cannot be read. */
int sl_input_open(sl_input *in, const char *path, sl_error *err);
/* The next entry: 1 with *out (caller frees), 0 when there are no more,
 * -1 when it cannot be read (err says why; the next call goes on). */
int sl_input_next(sl_input *in, sl_entry **out, sl_error *err);
void sl_input_close(sl_input *in);
/* sl_input_open and sl_input_next for the commands that go on past an
 * entry they cannot read (check, audit): the error is printed
 * (`servelint: file:line:col: ...`) and *failed set; next returns 1 with
 * *out, or 0 at the end, never -1. */
int sl_input_open_told(sl_input *in, const char *path, int *failed);
int sl_input_next_told(sl_input *in, sl_entry **out, int *failed);

/* One entry named on the command line: a folder or file, - for standard
 * input, or REV:path from the git repository around the current directory
 * (when no such file exists and the name has a colon). */
int sl_input_load_one(const char *spec, sl_entry **out, sl_error *err);
/* How many entries the regular file PATH holds (a published page holds
 * many); 1 for anything else (a folder, stdin, REV:path). Commands that
 * take one entry refuse a page rather than read its first. */
size_t sl_input_count(const char *path);

/* PATH as entries: an entry (folder with launch.sh, or a file) is pushed
 * onto *out as it is; a folder that is not one is searched for them (folders
 * holding launch.sh, loose *.sh files, Kubernetes or Dynamo manifests), in
 * name order. A PATH that is not
 * there is pushed too (loading says why). */
void sl_input_discover(const char *path, char ***out, size_t *n, size_t *cap, unsigned depth);

#endif
