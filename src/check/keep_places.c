/*
 * keep_places.c (check): an entry's places moved into kept copies of
 * their lines, so that its sources can be freed (sl_check_keep_places,
 * check.h): audit frees each entry once it is checked and summarized, and
 * its findings and catalogue summary outlive it (issue 18: peak memory
 * flat in the catalogue's size).
 */
#include "check.h"

#include <stdlib.h>

int sl_check_keep_places(const sl_entry *e, sl_findings *fs, size_t first, size_t end, sl_catalogue_summary *sum,
			 sl_source ***kept, size_t *nkept, size_t *nown)
{
	if (sl_check_suppresses(e))
		return -1;
	sl_source_keep *k = sl_source_keep_new();
	sl_findings_places(fs, first, end, sl_source_keep_mark, k);
	sl_catalogue_summary_places(sum, sl_source_keep_mark, k);
	size_t n;
	if (sl_source_keep_ok(k)) {
		free(sl_source_keep_done(k, &n));
		return -1;
	}
	sl_findings_places(fs, first, end, sl_source_keep_move, k);
	sl_catalogue_summary_places(sum, sl_source_keep_move, k);
	/* the copies of the sources an entry is found by, first */
	const sl_source *own[SL_MAX_ENTRY_FILES + 3];
	size_t no = 0;
	const sl_source *c;
	if (e->script && (c = sl_source_keep_copy(k, e->script)))
		own[no++] = c;
	if (e->metadata && (c = sl_source_keep_copy(k, e->metadata)))
		own[no++] = c;
	for (size_t i = 0; i < e->nfiles && no < sizeof own / sizeof *own; i++)
		if (e->files[i] && (c = sl_source_keep_copy(k, e->files[i])))
			own[no++] = c;
	sl_source **all = sl_source_keep_done(k, &n);
	sl_source **v = sl_calloc(n + 1, sizeof *v);
	size_t nv = 0;
	for (size_t i = 0; i < no; i++)
		v[nv++] = (sl_source *)own[i];
	for (size_t i = 0; i < n; i++) {
		size_t j = 0;
		while (j < no && own[j] != all[i])
			j++;
		if (j == no)
			v[nv++] = all[i];
	}
	free(all);
	*kept = v;
	*nkept = nv;
	*nown = no;
	return 0;
}
