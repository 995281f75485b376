/* models_dir.c (plan): the catalogue's models/ folder at or above an
 * entry, and the config.json in it for a model: the walk up the entry's
 * parents (up to the git repository's top, never to the file system's
 * root), with what each folder holds asked of the disk once per run.
 *
 * Why a cache: every entry's plan walks its parents, and the entries of a
 * catalogue share them; asking each level again (an opendir of models/
 * and a stat of .git per level, per entry) was most of the failed system
 * calls of `show` and `check` (issue 18). A folder's answer (the names in
 * its models/, whether it holds .git) is kept by its path as given; the
 * threads of check -j share it under one lock. It holds at most
 * FACTS_MAX folders, then starts again empty: a cache of every folder grew
 * with the catalogue (each entry's own folder was one more, 9.6 MB of
 * audit's peak and 8 MB of check's at 69,440 entries; issue 18: peak
 * memory flat in the catalogue's size). Entries come in discovery's
 * order and share the parents of those just before them, so starting
 * again costs the shared parents' system calls once per FACTS_MAX; an
 * entry folder whose own listing shows neither models/ nor .git is not
 * asked at all (sl_plan_catalogue_config). */
#include "plan.h"

#include <dirent.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "../util/util.h"

typedef struct dir_facts {
	char *dir;
	struct dir_facts *next;  /* in its bucket */
	char **models;           /* dir/models's names in readdir order (the first match wins) */
	size_t nmodels;
	int top;                 /* dir/.git exists: the repository's top folder */
} dir_facts;

enum { FACTS_MAX = 4096 };

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static dir_facts **g_buckets;
static size_t g_nbuckets, g_n;

static size_t hash(const char *s, size_t n)
{
	size_t h = 2166136261u; /* FNV-1a */
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h & (n - 1);
}

/* every folder's facts freed, the buckets kept (empty) */
static void facts_drop(void)
{
	for (size_t i = 0; i < g_nbuckets; i++) {
		for (dir_facts *x = g_buckets[i], *next; x; x = next) {
			next = x->next;
			for (size_t k = 0; k < x->nmodels; k++)
				free(x->models[k]);
			free(x->models);
			free(x->dir);
			free(x);
		}
		g_buckets[i] = NULL;
	}
	g_n = 0;
}

static void facts_clear(void)
{
	facts_drop();
	free(g_buckets);
	g_buckets = NULL;
	g_nbuckets = g_n = 0;
}

static void grow(void)
{
	size_t n = g_nbuckets ? g_nbuckets * 2 : 256;
	dir_facts **b = sl_calloc(n, sizeof *b);
	for (size_t i = 0; i < g_nbuckets; i++)
		for (dir_facts *x = g_buckets[i], *next; x; x = next) {
			next = x->next;
			size_t k = hash(x->dir, n);
			x->next = b[k];
			b[k] = x;
		}
	if (!g_buckets)
		atexit(facts_clear);
	free(g_buckets);
	g_buckets = b;
	g_nbuckets = n;
}

/* What DIR holds, read once; g_lock held. */
static const dir_facts *facts_of(const char *dir)
{
	if (g_nbuckets) {
		for (dir_facts *x = g_buckets[hash(dir, g_nbuckets)]; x; x = x->next)
			if (!strcmp(x->dir, dir))
				return x;
	}
	if (g_n >= FACTS_MAX)
		facts_drop();  /* no facts returned earlier are held by then: the caller's walk asks anew */
	if (g_n + 1 > g_nbuckets * 2)
		grow();
	dir_facts *f = sl_calloc(1, sizeof *f);
	f->dir = sl_strdup(dir);
	sl_buf p = {0};
	sl_buf_printf(&p, "%s/models", dir);
	DIR *d = opendir(p.data);
	size_t cap = 0;
	struct dirent *de;
	while (d && (de = readdir(d)))
		SL_PUSH(f->models, f->nmodels, cap, sl_strdup(de->d_name));
	if (d)
		closedir(d);
	sl_buf_free(&p);
	struct stat st;
	sl_buf g = {0};
	sl_buf_printf(&g, "%s/.git", dir);
	f->top = !stat(g.data, &st);
	sl_buf_free(&g);
	size_t k = hash(dir, g_nbuckets);
	f->next = g_buckets[k];
	g_buckets[k] = f;
	g_n++;
	return f;
}

/* dir/models/<name>/config.json or dir/models/<name>.json, name matched
 * without case; caller frees. The file is looked at each time (only a
 * folder whose models/ has the name gets here). */
static char *config_in(const dir_facts *f, const char *name)
{
	size_t nl = strlen(name);
	char *found = NULL;
	for (size_t i = 0; i < f->nmodels && !found; i++) {
		const char *m = f->models[i];
		struct stat st;
		sl_buf p = {0};
		if (!strcasecmp(m, name)) {
			sl_buf_printf(&p, "%s/models/%s/config.json", f->dir, m);
			if (!stat(p.data, &st) && S_ISREG(st.st_mode))
				found = sl_buf_detach(&p);
		} else if (strlen(m) == nl + 5 && !strncasecmp(m, name, nl) && !strcmp(m + nl, ".json")) {
			sl_buf_printf(&p, "%s/models/%s", f->dir, m);
			if (!stat(p.data, &st) && S_ISREG(st.st_mode))
				found = sl_buf_detach(&p);
		}
		sl_buf_free(&p);
	}
	return found;
}

char *sl_plan_catalogue_config(const sl_entry *e, const char *name)
{
	struct stat st;
	const char *entry_path = e->path;
	if (!entry_path || !*entry_path || strchr(entry_path, ':'))
		return NULL;  /* REV:path and page:LINE are not folders here */
	char *dir = sl_strdup(entry_path);
	size_t n = strlen(dir);
	while (n > 1 && dir[n - 1] == '/')
		dir[--n] = '\0';
	/* a folder the entry's loading listed, with neither models/ nor
	 * .git: nothing to find there and no top to stop at, so the walk
	 * starts at its parent without asking the disk (three system calls
	 * an entry, none of them shared with another entry) */
	int skip = e->listed && !e->has_models && !e->has_git && strcmp(dir, ".") && strcmp(dir, "/");
	if (skip) {
		char *sl = strrchr(dir, '/');
		if (sl == dir)
			dir[1] = '\0';
		else if (sl)
			*sl = '\0';
		else
			strcpy(dir, ".");
	} else if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		char *sl = strrchr(dir, '/');
		if (sl)
			*sl = '\0';
		else
			strcpy(dir, ".");
	}
	char *found = NULL;
	pthread_mutex_lock(&g_lock);
	for (int depth = skip; depth < 16 && !found && strcmp(dir, "/"); depth++) {
		const dir_facts *f = facts_of(dir);
		found = config_in(f, name);
		char *sl = strrchr(dir, '/');
		/* up to the repository's top, never to the file system's */
		if (found || f->top || !strcmp(dir, "."))
			break;
		if (sl == dir)
			dir[1] = '\0';
		else if (sl)
			*sl = '\0';
		else
			strcpy(dir, ".");
	}
	pthread_mutex_unlock(&g_lock);
	free(dir);
	return found;
}
