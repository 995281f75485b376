/*
 * cache.c (entry): the parse-once cache of entries read from git, by object
 * id (see entry.h). Slots in use are never touched; idle ones are kept,
 * most recently used last, up to IDLE_MAX, and renamed when asked for
 * under another name (the same content at another revision or path)
 * when the renaming leaves its files' names as they are: the reading
 * writes them into messages ("set after the command that reads it at
 * x.sh:57"), so that a script of a folder of many, named as its entry,
 * is read again under another script's name.
 */
#include "entry.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Idle entries kept for reuse. A log needs one (the side a commit shares
 * with the next older one); the rest only spares re-parsing an entry that
 * comes back, as after a revert. Each costs its texts and model. */
#define IDLE_MAX 64

typedef struct id_node {
	char id[SL_GIT_ID_SIZE];
	struct id_node *next;            /* in its bucket */
	struct sl_cache_slot *slots;     /* entries read with this id */
} id_node;

struct sl_cache_slot {
	struct sl_cache_slot *next;      /* in its node */
	struct sl_cache_slot *lru_prev, *lru_next;  /* idle list, while refs == 0 */
	id_node *node;                   /* NULL for an uncached one */
	sl_entry *entry;
	sl_model *model;
	unsigned refs;
	void *memo;                      /* sl_entry_cached_set_memo's, freed by memo_free */
	void (*memo_free)(void *);
	unsigned long long serial;       /* this reading's, never another's (pair memos' key) */
	struct pair_memo *pairs;         /* sl_entry_cached_set_pair_memo's, with this as a */
	size_t npairs, pcap;
};

struct pair_memo {
	unsigned long long b;            /* the other reading's serial */
	void *memo;
	void (*free_fn)(void *);
};

struct sl_entry_cache {
	const sl_grammars *gs;
	id_node **buckets;
	size_t nbuckets, nids;
	struct sl_cache_slot *idle_head, *idle_tail;
	size_t nidle;
	size_t lookups, parsed;
	unsigned long long serials;      /* given so far */
};

static size_t hash(const char *id, size_t n)
{
	size_t h = 2166136261u; /* FNV-1a */
	for (; *id; id++)
		h = (h ^ (unsigned char)*id) * 16777619u;
	return h & (n - 1);
}

sl_entry_cache *sl_entry_cache_new(const sl_grammars *gs)
{
	sl_entry_cache *c = sl_calloc(1, sizeof *c);
	c->gs = gs;
	c->nbuckets = 256;
	c->buckets = sl_calloc(c->nbuckets, sizeof *c->buckets);
	return c;
}

static void grow(sl_entry_cache *c)
{
	size_t n = c->nbuckets * 2;
	id_node **b = sl_calloc(n, sizeof *b);
	for (size_t i = 0; i < c->nbuckets; i++)
		for (id_node *x = c->buckets[i], *next; x; x = next) {
			next = x->next;
			size_t k = hash(x->id, n);
			x->next = b[k];
			b[k] = x;
		}
	free(c->buckets);
	c->buckets = b;
	c->nbuckets = n;
}

static id_node *node_for(sl_entry_cache *c, const char *id)
{
	size_t k = hash(id, c->nbuckets);
	for (id_node *x = c->buckets[k]; x; x = x->next)
		if (!strcmp(x->id, id))
			return x;
	if (c->nids + 1 > c->nbuckets * 2) {
		grow(c);
		k = hash(id, c->nbuckets);
	}
	id_node *x = sl_calloc(1, sizeof *x);
	memcpy(x->id, id, SL_GIT_ID_SIZE);
	x->next = c->buckets[k];
	c->buckets[k] = x;
	c->nids++;
	return x;
}

static void idle_unlink(sl_entry_cache *c, struct sl_cache_slot *s)
{
	if (s->lru_prev)
		s->lru_prev->lru_next = s->lru_next;
	else
		c->idle_head = s->lru_next;
	if (s->lru_next)
		s->lru_next->lru_prev = s->lru_prev;
	else
		c->idle_tail = s->lru_prev;
	s->lru_prev = s->lru_next = NULL;
	c->nidle--;
}

static void slot_free(struct sl_cache_slot *s)
{
	if (s->memo_free)
		s->memo_free(s->memo); /* may point into the model and entry: first */
	for (size_t i = 0; i < s->npairs; i++)
		s->pairs[i].free_fn(s->pairs[i].memo);
	free(s->pairs);
	sl_model_free(s->model); /* points into the entry: first */
	sl_entry_free(s->entry);
	free(s);
}

static void evict(sl_entry_cache *c, struct sl_cache_slot *s)
{
	idle_unlink(c, s);
	struct sl_cache_slot **p = &s->node->slots;
	while (*p != s)
		p = &(*p)->next;
	*p = s->next;
	slot_free(s);
}

/* A YAML file read as an entry of its own (a changed file in a folder with
 * no entry): an engine config is read alone (sl_entry_input_alone); any
 * other stays what it is, an entry of no service ("not an entry"). */
static void alone(const char *name, sl_entry **e)
{
	sl_entry *x = *e, *a = NULL;
	if (!x->script || x->nfiles || x->metadata || !sl_entry_is_yaml_name(x->script->name) ||
	    sl_source_is_manifest(x->script))
		return;
	sl_error ignored = {0};
	if (!sl_entry_input_alone(name, x->script->text, x->script->len, &a, &ignored) && a) {
		sl_entry_free(x);
		*e = a;
	}
	sl_error_clear(&ignored);
}

int sl_entry_cache_get(sl_entry_cache *c, const char *spec, sl_entry_cached *h, sl_error *err)
{
	memset(h, 0, sizeof *h);
	c->lookups++;
	char id[SL_GIT_ID_SIZE];
	int rc = sl_git_object_id(spec, id, err);
	if (rc)
		return rc;
	id_node *node = node_for(c, id);
	/* the same name first; else an idle one, renamed */
	struct sl_cache_slot *s = NULL;
	for (struct sl_cache_slot *x = node->slots; x && !s; x = x->next)
		if (!strcmp(x->entry->path, spec))
			s = x;
	/* (only when the files keep their names: the reading's messages
	 * name them, and a script of a folder of many is named as its
	 * entry) */
	for (struct sl_cache_slot *x = node->slots; x && !s; x = x->next)
		if (!x->refs && sl_entry_rename_keeps_names(x->entry, spec))
			s = x;
	if (s) {
		if (!s->refs)
			idle_unlink(c, s);
		if (strcmp(s->entry->path, spec))
			sl_entry_rename(s->entry, spec);
	} else {
		sl_entry *e = NULL;
		if ((rc = sl_entry_from_git(spec, &e, err)))
			return rc;
		alone(spec, &e);
		c->parsed++;
		sl_model *m = NULL;
		s = sl_calloc(1, sizeof *s);
		s->serial = ++c->serials;
		s->entry = e;
		if ((rc = sl_normalize_entry(e, c->gs, &m, err))) {
			/* not cached: a failure is told each time with its own name */
			s->refs = 1;
			h->entry = e;
			h->slot = s;
			return rc;
		}
		s->model = m;
		s->node = node;
		s->next = node->slots;
		node->slots = s;
	}
	s->refs++;
	h->entry = s->entry;
	h->model = s->model;
	h->slot = s;
	return SL_OK;
}

int sl_entry_cache_get_worktree(sl_entry_cache *c, const char *path, sl_entry_cached *h, sl_error *err)
{
	memset(h, 0, sizeof *h);
	c->lookups++;
	char *top = sl_git_workdir();
	if (!top) {
		sl_error_set(err, path, 0, 0, "not in the working tree of a git repository");
		return SL_ERR_INPUT;
	}
	sl_buf disk = {0};
	sl_buf_printf(&disk, "%s%s", top, path);
	free(top);
	sl_entry *e = NULL;
	int rc = sl_entry_load(disk.data, &e, err);
	sl_buf_free(&disk);
	if (rc)
		return rc;
	sl_entry_rename(e, path);  /* named by its repository path */
	alone(path, &e);
	c->parsed++;
	/* never cached: a file on disk has no object id */
	struct sl_cache_slot *s = sl_calloc(1, sizeof *s);
	s->serial = ++c->serials;
	s->entry = e;
	s->refs = 1;
	h->entry = e;
	h->slot = s;
	if ((rc = sl_normalize_entry(e, c->gs, &s->model, err)))
		return rc;
	h->model = s->model;
	return SL_OK;
}

void sl_entry_cache_release(sl_entry_cache *c, sl_entry_cached *h)
{
	struct sl_cache_slot *s = h->slot;
	memset(h, 0, sizeof *h);
	if (!s || --s->refs)
		return;
	if (!s->node) {
		slot_free(s);
		return;
	}
	s->lru_prev = c->idle_tail;
	if (c->idle_tail)
		c->idle_tail->lru_next = s;
	else
		c->idle_head = s;
	c->idle_tail = s;
	c->nidle++;
	while (c->nidle > IDLE_MAX)
		evict(c, c->idle_head);
}

void *sl_entry_cached_memo(const sl_entry_cached *h)
{
	return h->slot ? h->slot->memo : NULL;
}

void sl_entry_cached_set_memo(sl_entry_cached *h, void *memo, void (*free_fn)(void *))
{
	struct sl_cache_slot *s = h->slot;
	if (s->memo_free)
		s->memo_free(s->memo);
	s->memo = memo;
	s->memo_free = free_fn;
}

void *sl_entry_cached_pair_memo(const sl_entry_cached *a, const sl_entry_cached *b)
{
	if (!a->slot || !b->slot)
		return NULL;
	for (size_t i = 0; i < a->slot->npairs; i++)
		if (a->slot->pairs[i].b == b->slot->serial)
			return a->slot->pairs[i].memo;
	return NULL;
}

void sl_entry_cached_set_pair_memo(sl_entry_cached *a, const sl_entry_cached *b, void *memo, void (*free_fn)(void *))
{
	struct sl_cache_slot *s = a->slot;
	struct pair_memo m = {b->slot->serial, memo, free_fn};
	SL_PUSH(s->pairs, s->npairs, s->pcap, m);
}

void sl_entry_cache_stats(const sl_entry_cache *c, size_t *lookups, size_t *parsed, size_t *ids)
{
	*lookups = c->lookups;
	*parsed = c->parsed;
	*ids = c->nids;
}

void sl_entry_cache_print_stats(const char *cmd, const sl_entry_cache *c)
{
	size_t lookups, parsed, ids;
	sl_entry_cache_stats(c, &lookups, &parsed, &ids);
	fprintf(stderr, "servelint %s: %zu entry lookup%s, %zu distinct object%s, %zu parsed\n", cmd, lookups,
		lookups == 1 ? "" : "s", ids, ids == 1 ? "" : "s", parsed);
}

void sl_entry_cache_free(sl_entry_cache *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nbuckets; i++)
		for (id_node *x = c->buckets[i], *next; x; x = next) {
			next = x->next;
			for (struct sl_cache_slot *s = x->slots, *sn; s; s = sn) {
				sn = s->next;
				slot_free(s);
			}
			free(x);
		}
	free(c->buckets);
	free(c);
}
