/* input.c (entry): PATH arguments into entries (see entry.h). */
#include "entry.h"

#include <dirent.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Standard input as one text, within the limit of a file. */
static int read_stdin(sl_source **out, sl_error *err)
{
	sl_buf b = {0};
	char chunk[65536];
	size_t n;
	*out = NULL;
	while ((n = fread(chunk, 1, sizeof chunk, stdin)) > 0) {
		if (b.len + n > SL_MAX_FILE_BYTES) {
			sl_buf_free(&b);
			sl_error_set(err, "-", 0, 0, "standard input is larger than the limit of %u bytes",
				     SL_MAX_FILE_BYTES);
			return SL_ERR_INPUT;
		}
		sl_buf_add(&b, chunk, n);
	}
	int rc = sl_source_from_memory("-", b.data ? b.data : "", b.len, out, err);
	sl_buf_free(&b);
	return rc;
}

/* PATH as servelint names a page's entry, page.txt:LINE: the page's
 * length of name (the part before the colon) when that is a regular file
 * and LINE a number; else 0. */
static size_t page_line_spec(const char *path, unsigned *line)
{
	const char *colon = strrchr(path, ':');
	if (!colon || colon == path || !colon[1] || strspn(colon + 1, "0123456789") != strlen(colon + 1))
		return 0;
	char *file = sl_strndup(path, (size_t)(colon - path));
	struct stat st;
	int reg = stat(file, &st) == 0 && S_ISREG(st.st_mode);
	free(file);
	*line = (unsigned)strtoul(colon + 1, NULL, 10);
	return reg ? (size_t)(colon - path) : 0;
}

/* Keeps only the page's entry that starts at LINE; an error naming the
 * lines its entries start at when none does. */
static int pick_page_entry(sl_entry_input *in, const char *spec, unsigned line, sl_error *err)
{
	size_t k = 0;
	while (k < in->npe && in->pes[k].first != line)
		k++;
	if (k == in->npe) {
		sl_buf b = {0};
		for (size_t i = 0; i < in->npe && i < 12; i++)
			sl_buf_printf(&b, "%s%u", i ? ", " : "", in->pes[i].first);
		sl_error_set(err, spec, 0, 0, "no entry of %s starts at line %u%s%s%s", in->path, line,
			     in->npe ? " (its entries start at lines " : "", b.data ? b.data : "",
			     in->npe > 12 ? ", ...)" : in->npe ? ")" : "");
		sl_buf_free(&b);
		in->done = 1;
		return SL_ERR_INPUT;
	}
	sl_page_entry keep = in->pes[k];
	in->pes[k] = in->pes[0];
	in->pes[0] = keep;
	for (size_t i = 1; i < in->npe; i++) {
		free(in->pes[i].model);
		free(in->pes[i].heading);
	}
	in->npe = 1;
	return SL_OK;
}

/* A failed open holds nothing (callers need not close it) and gives no entry. */
static int open_failed(sl_entry_input *in, const char *path, int rc)
{
	sl_entry_input_close(in);
	in->path = path;
	in->done = 1;
	return rc;
}

int sl_entry_input_open(sl_entry_input *in, const char *path, sl_error *err)
{
	memset(in, 0, sizeof *in);
	in->path = path;
	struct stat st;
	unsigned line = 0;
	size_t plen = 0;
	int rc;
	if (!strcmp(path, "-")) {
		rc = read_stdin(&in->file, err);  /* a script, an entry or a page */
	} else {
		/* one stat says what PATH is (issue 18: it was asked three times) */
		int there = stat(path, &st) == 0;
		if (!there && (plen = page_line_spec(path, &line)) != 0) {
			in->owner = sl_strndup(path, plen);  /* page.txt:LINE: one entry of the page */
			in->path = in->owner;
		} else if (!there || !S_ISREG(st.st_mode)) {
			in->folder = there && S_ISDIR(st.st_mode);
			return SL_OK;  /* a folder, or nothing: sl_entry_load says which */
		} else if ((in->owner = sl_entry_input_owner_of(path, &in->owned)) != NULL) {
			in->path = in->owner;  /* a file of an entry folder: the folder */
			return SL_OK;
		}
		rc = sl_source_load(in->path, &in->file, err);
	}
	if (!rc && !plen)
		rc = sl_entry_input_alone(in->path, in->file->text, in->file->len, &in->alone, err);
	if (rc)
		return open_failed(in, path, rc);
	if (in->alone)
		return SL_OK; /* an engine config file alone: its entry is made */
	/* a page has several "Submitted by" lines; an entry at most one */
	const char *sb = strstr(in->file->text, "\nSubmitted by ");
	if (sb && strstr(sb + 1, "\nSubmitted by ") &&
	    (sl_page_split(in->file, &in->pes, &in->npe, NULL) != SL_OK || in->npe < 2)) {
		sl_page_entries_free(in->pes, in->npe);
		in->pes = NULL;
		in->npe = 0;
	}
	if (plen && (rc = pick_page_entry(in, path, line, err)) != 0)
		return open_failed(in, path, rc);
	return SL_OK;
}

static void strip_dot_source(sl_source *s)
{
	if (s && !strncmp(s->path, "./", 2))
		memmove(s->path, s->path + 2, strlen(s->path + 2) + 1);
}

/* The folder `.`'s entry names its files without `./`. */
static void strip_dot(sl_entry *e)
{
	strip_dot_source(e->script);
	for (size_t i = 0; i < e->nfiles; i++)
		strip_dot_source(e->files[i]);
	strip_dot_source(e->metadata);
}

int sl_entry_input_next(sl_entry_input *in, sl_entry **out, sl_error *err)
{
	*out = NULL;
	if (in->done)
		return 0;
	if (in->npe) {
		if (in->next >= in->npe) {
			in->done = 1;
			return 0;
		}
		const sl_page_entry *pe = &in->pes[in->next++];
		const sl_source *p = in->file;
		size_t a = p->lines[pe->first - 1];
		size_t b = pe->last < p->nlines ? p->lines[pe->last] : p->len;
		if (sl_entry_from_memory(in->path, p->text + a, b - a, pe->first - 1, out, err))
			return -1;
		sl_buf name = {0};
		sl_buf_printf(&name, "%s:%u", in->path, pe->first);
		free((*out)->path);
		(*out)->path = sl_buf_detach(&name);
		return 1;
	}
	in->done = 1;
	if (in->alone) {
		*out = in->alone;
		in->alone = NULL;
		return 1;
	}
	int rc;
	if (in->file && sl_ends_with(in->path, ".sh")) {
		/* a script may be one of a group: stated in .servelint.yaml, or
		 * found in its folder (sl_entry_load) */
		sl_source_free(in->file);
		in->file = NULL;
		int g = sl_entry_load_stated(in->path, out, err);
		if (g)
			return g < 0 ? -1 : 1;
		rc = sl_entry_load(in->path, out, err);
	} else if (in->file) {
		rc = sl_entry_from_source(in->path, in->file, out, err);
		in->file = NULL;  /* the entry owns it now */
	} else {
		if (in->owned) {
			/* the folder's entry, as open read it to find the owner */
			*out = in->owned;
			in->owned = NULL;
			rc = SL_OK;
		} else {
			rc = in->folder ? sl_entry_load_folder(in->path, out, err) : sl_entry_load(in->path, out, err);
		}
		if (!rc && in->owner && !strcmp(in->owner, "."))
			strip_dot(*out);  /* `gen_config.yaml` given: its places as given */
	}
	return rc ? -1 : 1;
}

void sl_entry_input_close(sl_entry_input *in)
{
	free(in->owner);
	sl_entry_free(in->owned);
	sl_entry_free(in->alone);
	sl_page_entries_free(in->pes, in->npe);
	sl_source_free(in->file);
	memset(in, 0, sizeof *in);
}

int sl_entry_input_load_one(const char *spec, sl_entry **out, sl_error *err)
{
	struct stat st;
	unsigned line;
	*out = NULL;
	if (!strcmp(spec, "-"))
		return sl_entry_from_stdin(out, err);
	if (stat(spec, &st) != 0 && strchr(spec, ':') && !page_line_spec(spec, &line)) {
		/* REV:path; a file of an entry folder at REV is that folder */
		char *owner = sl_entry_input_owner_git(spec);
		int rc = sl_entry_from_git(owner ? owner : spec, out, err);
		free(owner);
		if (!rc && !owner && !(*out)->nfiles && !(*out)->metadata) {
			/* a YAML file no entry names: read alone as an engine config */
			sl_entry *a = NULL;
			rc = sl_entry_input_alone(spec, (*out)->script->text, (*out)->script->len, &a, err);
			if (rc || a) {
				sl_entry_free(*out);
				*out = a;
			}
		}
		return rc;
	}
	if (stat(spec, &st) == 0 && S_ISREG(st.st_mode)) {
		int g = sl_entry_load_stated(spec, out, err);  /* a group .servelint.yaml states */
		if (g)
			return g < 0 ? g : SL_OK;
	}
	if (stat(spec, &st) == 0 && S_ISDIR(st.st_mode))
		return sl_entry_load(spec, out, err);
	/* a file: alone, of an entry folder, or one entry of a page */
	sl_entry_input in;
	int rc = sl_entry_input_open(&in, spec, err);
	int got = rc ? 0 : sl_entry_input_next(&in, out, err);
	if (!rc && got != 1) {
		if (got == 0)
			sl_error_set(err, spec, 0, 0, "no entry");
		rc = SL_ERR_INPUT;
	}
	sl_entry_input_close(&in);
	return rc;
}

/* The real folders one discovery has searched, by device and inode: a
 * symlink to a folder already seen (a loop, `ln -s . again`) is not
 * searched twice, so three links to `.` cost three looks, not 3^16. */
typedef struct seen_dirs {
	dev_t *dev;
	ino_t *ino;
	size_t n, cap, icap;
} seen_dirs;

static int seen_before(seen_dirs *v, const struct stat *st)
{
	for (size_t i = 0; i < v->n; i++)
		if (v->dev[i] == st->st_dev && v->ino[i] == st->st_ino)
			return 1;
	size_t c = v->cap;
	sl_grow((void **)&v->dev, &v->cap, v->n + 1, sizeof *v->dev);
	sl_grow((void **)&v->ino, &c, v->n + 1, sizeof *v->ino);
	v->dev[v->n] = st->st_dev;
	v->ino[v->n++] = st->st_ino;
	return 0;
}

/* What the caller knows of PATH before discover looks: nothing (a
 * command-line argument), that it is a folder (its parent's readdir said
 * so: d_type DT_DIR, never a link), or its stat. */
enum { KNOWN_NOTHING, KNOWN_DIR, KNOWN_STAT };

/* A folder's names (dot files aside), each with its readdir d_type, in
 * name order (so reports are stable); -1 when it cannot be listed. */
typedef struct dir_list {
	char **names;
	unsigned char *types;
	size_t n;
} dir_list;

static int list_dir(const char *path, dir_list *l)
{
	memset(l, 0, sizeof *l);
	DIR *d = opendir(path);
	if (!d)
		return -1;
	size_t cap = 0, tcap = 0;
	struct dirent *de;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.') {
			size_t n = l->n;
			SL_PUSH(l->types, n, tcap, de->d_type);
			SL_PUSH(l->names, l->n, cap, sl_strdup(de->d_name));
		}
	closedir(d);
	for (size_t i = 0; i < l->n; i++)
		for (size_t j = i + 1; j < l->n; j++)
			if (strcmp(l->names[j], l->names[i]) < 0) {
				char *t = l->names[i];
				unsigned char k = l->types[i];
				l->names[i] = l->names[j];
				l->types[i] = l->types[j];
				l->names[j] = t;
				l->types[j] = k;
			}
	return 0;
}

static void list_free(dir_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->names[i]);
	free(l->names);
	free(l->types);
}

/* Whether a folder so listed may be one of several scripts (no launch.sh,
 * two *.sh or more): only then are its groups worth reading
 * (sl_source_folder_groups reads every script and YAML file of it). */
static int may_be_many(const dir_list *l, size_t *nsh)
{
	int launch = 0;
	*nsh = 0;
	for (size_t i = 0; i < l->n; i++) {
		launch |= !strcmp(l->names[i], "launch.sh");
		*nsh += sl_ends_with(l->names[i], ".sh");
	}
	return !launch && *nsh > 1;
}

/* Where discover puts what it finds: an array (SL_PUSH), or a function
 * called with each path as it is found (check -j starts on the first
 * entries while discovery goes on). */
typedef struct sink {
	char ***out;
	size_t *n, *cap;
	void (*found)(void *ud, char *path);
	void *ud;
} sink;

static void sink_push(sink *s, char *path)
{
	if (s->found)
		s->found(s->ud, path);
	else
		SL_PUSH(*s->out, *s->n, *s->cap, path);
}

static void discover(const char *path, sink *out, unsigned depth, seen_dirs *seen, int known, const struct stat *given)
{
	struct stat st, lst;
	sl_buf ls = {0};
	sl_buf_printf(&ls, "%s/launch.sh", path);
	int exists, dir, have_st = 0;
	if (known == KNOWN_DIR) {
		exists = dir = 1;
	} else {
		if (known == KNOWN_STAT)
			st = *given;
		exists = known == KNOWN_STAT || stat(path, &st) == 0;
		dir = exists && S_ISDIR(st.st_mode);
		have_st = exists;
	}
	int entry = exists && (!dir || stat(ls.data, &lst) == 0);
	sl_buf_free(&ls);
	if (entry || !dir) {
		/* an entry, or something that is not there: loading says why */
		if (entry || depth == 0)
			sink_push(out, sl_strdup(path));
		return;
	}
	if (depth > 16)
		return;
	/* a folder known from its parent's listing: its device and inode now */
	if (!have_st && stat(path, &st) != 0)
		return;
	if (seen_before(seen, &st))
		return;
	/* a folder of several scripts: an entry per group of them, named by
	 * its first script (stated in .servelint.yaml, else found). Listed
	 * once (issue 18: the groups' reading listed it twice more) */
	dir_list l;
	if (list_dir(path, &l))
		return;  /* no groups either: they would read the same folder */
	sl_group *gs = NULL, *st_gs = NULL;
	size_t ng = 0, nst = 0, nsh;
	char *st_base = NULL;
	sl_error ignored = {0};
	int many = may_be_many(&l, &nsh) && sl_source_folder_groups(path, &gs, &ng);
	if (many && sl_entry_stated_groups(path, &st_gs, &nst, &st_base, &ignored) == SL_OK)
		for (size_t k = 0; k < nst; k++) {
			sl_buf p = {0};
			sl_buf_printf(&p, "%s/%s", st_base, st_gs[k].names[0]);
			char *dir = sl_strdup(p.data);
			*strrchr(dir, '/') = '\0';
			char a[PATH_MAX], b[PATH_MAX];
			if (realpath(dir, a) && realpath(path, b) && !strcmp(a, b))
				sink_push(out, sl_buf_detach(&p));
			else
				sl_buf_free(&p);
			free(dir);
		}
	sl_error_clear(&ignored);
	for (size_t i = 0; i < l.n; i++) {
		const char *name = l.names[i];
		sl_buf p = {0};
		/* `corpus/` and `corpus` give the same names (no `corpus//x`) */
		sl_buf_printf(&p, "%s%s%s", path, sl_ends_with(path, "/") ? "" : "/", name);
		int in_group = 0, lead = 0;
		for (size_t k = 0; many && k < ng; k++)
			for (size_t q = 0; q < gs[k].n; q++)
				if (!strcmp(gs[k].names[q], name)) {
					in_group = 1;
					lead |= q == 0;
				}
		int stated = nst ? sl_entry_stated_lead(st_gs, nst, st_base, p.data) : 0;
		/* d_type spares a stat: a folder (not a link) or a regular file is
		 * what stat would say; a link or an unknown type is stat'ed */
		int is_dir = l.types[i] == DT_DIR, is_reg = l.types[i] == DT_REG;
		int st_ok = 0;
		if (!is_dir && !is_reg) {
			st_ok = stat(p.data, &st) == 0;
			is_dir = st_ok && S_ISDIR(st.st_mode);
		}
		if (is_dir)
			discover(p.data, out, depth + 1, seen, st_ok ? KNOWN_STAT : KNOWN_DIR, &st);
		else if (stated || (in_group && !lead))
			; /* a file of a group, which its first script names */
		else if (sl_ends_with(name, ".sh") && (is_reg || st_ok))
			sink_push(out, sl_strdup(p.data));  /* a script there: an entry */
		else if (sl_ends_with(name, ".sh") && lstat(p.data, &lst) == 0)
			/* a *.sh that cannot be read (a dangling link): loading says
			 * so, instead of a silent skip */
			sink_push(out, sl_strdup(p.data));
		else if (sl_ends_with(name, ".yaml") || sl_ends_with(name, ".yml")) {
			/* a Kubernetes or Dynamo manifest outside an entry folder is one */
			sl_source *src = NULL;
			sl_error ignored = {0};
			if (!sl_source_load(p.data, &src, &ignored) && sl_source_is_manifest(src))
				sink_push(out, sl_strdup(p.data));
			sl_error_clear(&ignored);
			sl_source_free(src);
		}
		sl_buf_free(&p);
	}
	list_free(&l);
	sl_source_groups_free(gs, ng);
	sl_source_groups_free(st_gs, nst);
	free(st_base);
}

int sl_entry_input_is_many(const char *path)
{
	struct stat st;
	if (stat(path, &st) || !S_ISDIR(st.st_mode))
		return 0;
	/* one listing answers for a folder with launch.sh or one script (an
	 * entry folder): its groups and its YAML files are not read */
	dir_list l;
	if (list_dir(path, &l))
		return 0;
	size_t nsh, nman = 0;
	int maybe = may_be_many(&l, &nsh);
	if (maybe) {
		sl_group *gs = NULL;
		size_t ng = 0;
		int many = sl_source_folder_groups(path, &gs, &ng);
		sl_source_groups_free(gs, ng);
		if (many) {
			list_free(&l);
			return 1;
		}
	}
	for (size_t i = 0; !nsh && i < l.n; i++)
		if (sl_ends_with(l.names[i], ".yaml") || sl_ends_with(l.names[i], ".yml")) {
			sl_buf p = {0};
			sl_buf_printf(&p, "%s/%s", path, l.names[i]);
			sl_source *src = NULL;
			sl_error ignored = {0};
			if (!sl_source_load(p.data, &src, &ignored) && sl_source_is_manifest(src))
				nman++;
			sl_error_clear(&ignored);
			sl_source_free(src);
			sl_buf_free(&p);
		}
	list_free(&l);
	return !nsh && nman > 1;
}

/* A folder that is not itself an entry is searched for entries: folders
 * holding launch.sh, loose *.sh files, and Kubernetes or Dynamo manifests;
 * each real folder once. */
void sl_entry_input_discover(const char *path, char ***out, size_t *n, size_t *cap, unsigned depth)
{
	seen_dirs seen = {0};
	sink s = {out, n, cap, NULL, NULL};
	discover(path, &s, depth, &seen, KNOWN_NOTHING, NULL);
	free(seen.dev);
	free(seen.ino);
}

void sl_entry_input_discover_each(const char *path, void (*found)(void *ud, char *path), void *ud)
{
	seen_dirs seen = {0};
	sink s = {NULL, NULL, NULL, found, ud};
	discover(path, &s, 0, &seen, KNOWN_NOTHING, NULL);
	free(seen.dev);
	free(seen.ino);
}

/* How many entries a regular file holds (a published page holds many);
 * 1 for anything else. */
size_t sl_entry_input_count(const char *path)
{
	struct stat st;
	if (stat(path, &st) || !S_ISREG(st.st_mode))
		return 1;
	sl_entry_input in;
	sl_error err = {0};
	size_t n = 0;
	if (!sl_entry_input_open(&in, path, &err)) {
		sl_entry *e = NULL;
		int k;
		while ((k = sl_entry_input_next(&in, &e, &err)) != 0) {
			n += k > 0;
			sl_entry_free(e);
			e = NULL;
			sl_error_clear(&err);
		}
		sl_entry_input_close(&in);
	}
	sl_error_clear(&err);
	return n ? n : 1;
}

int sl_entry_input_open_told(sl_entry_input *in, const char *path, int *failed)
{
	sl_error err = {0};
	if (!sl_entry_input_open(in, path, &err))
		return 0;
	sl_error_print(&err, "servelint");
	sl_error_clear(&err);
	*failed = 1;
	return -1;
}

int sl_entry_input_next_told(sl_entry_input *in, sl_entry **out, int *failed)
{
	sl_error err = {0};
	int got;
	while ((got = sl_entry_input_next(in, out, &err)) < 0) {
		sl_error_print(&err, "servelint");
		sl_error_clear(&err);
		*failed = 1;
	}
	return got;
}
