/*
 * recent_blobs.c: the blobs read last, kept for the next reader of the
 * same id (gt_blob_lookup). libgit2 caches no blob (its object cache
 * holds trees and commits), and a revision walk reads one blob twice in
 * a row: an entry's object id scans its scripts for the files they
 * source (sourced.c), then the entry is read (read.c); and the files an
 * entry's versions share (its YAML, unchanged in most commits) are read
 * again for each version parsed. `log` of 1,000 commits
 * (bench/log_history.sh): 2,540 blob reads, 110.8 M of its 1,114 M
 * instructions. A few blobs, not a cache of every one: a walk over a
 * tree of distinct blobs reads each once, and keeping them would grow
 * with the tree.
 */
#include "internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* The last RECENT blobs read, oldest replaced first; each holds a
 * reference of its own. Under a lock: check -j's threads read entries at
 * revisions. */
#define RECENT 8

static pthread_mutex_t recent_lock = PTHREAD_MUTEX_INITIALIZER;
static git_blob *recent[RECENT];
static git_oid recent_blob_ids[RECENT];
static unsigned next_slot;
static int registered;

static void recent_free(void)
{
	for (unsigned i = 0; i < RECENT; i++) {
		git_blob_free(recent[i]);
		recent[i] = NULL;
	}
}

int gt_blob_lookup(git_blob **out, git_repository *repo, const git_oid *id)
{
	*out = NULL;
	pthread_mutex_lock(&recent_lock);
	for (unsigned i = 0; i < RECENT; i++)
		if (recent[i] && !memcmp(recent_blob_ids[i].id, id->id, GIT_OID_RAWSZ) &&
		    git_blob_owner(recent[i]) == repo && !git_blob_dup(out, recent[i])) {
			pthread_mutex_unlock(&recent_lock);
			return 0;
		}
	pthread_mutex_unlock(&recent_lock);
	int rc = git_blob_lookup(out, repo, id);
	if (rc)
		return rc;
	git_blob *keep = NULL;
	if (git_blob_dup(&keep, *out))
		return 0;
	pthread_mutex_lock(&recent_lock);
	if (!registered) {
		registered = 1;
		atexit(recent_free);
	}
	unsigned k = next_slot++ % RECENT;
	git_blob_free(recent[k]);
	recent[k] = keep;
	recent_blob_ids[k] = *id;
	pthread_mutex_unlock(&recent_lock);
	return 0;
}
