

/*
 * import.c (cmd): `servelint import PAGE... --out DIR`: published catalogue
 * pages into entry folders.
 *
 * Every entry of every page is split, read and normalized before anything
 * is written, and each folder is written under a temporary name and renamed
 * into place, so a page that cannot be split leaves no half entry behind.
 * Folders are named <model>/<system>/<variant> from the model itself: the
 * engine, the serving mode, each role's replicas and parallelism, and the
 * speculative decoding, so the same page always gives the same names.
 */
#define _GNU_SOURCE /* renameat2 */
#include "cmd.h"
#include "options.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml.h>

#include "entry/entry.h"
#include "normalize/normalize.h"
#include "report/report.h"

typedef struct {
	const sl_source *page;
	sl_page_entry pe;
	sl_entry *entry;
	sl_model *model;
	char *model_slug, *system_slug, *variant;
	char *system_name;
} item;

static void usage(FILE *f)
{
	fputs("usage: servelint import (--out DIR | --dry-run) PAGE...\n"
	      "\n"
	      "Splits published catalogue pages (scraped page text) into entry folders\n"
	      "DIR/<model>/<system>/<variant>/: launch.sh, the YAML files the page embeds,\n"
	      "metadata.txt (the page's lines about the entry, verbatim) and metadata.yaml\n"
	      "(what the page states, structured).\n"
	      "\n"
	      "  -o, --out DIR   where to write (created if missing)\n"
	      "  -n, --dry-run   list the folders, write nothing\n"
	      "      --version   servelint's version\n"
	      "  -h, --help      this help\n"
	      "\n"
	      "Exit status: 0 on success, 2 when a page cannot be split or an entry\n"
	      "cannot be read (nothing is written then) or a folder already exists,\n"
	      "3 usage.\n",
	      f);
}

/* Same-named entries told apart (their variant lengthened), as every
 * command that names entries the import way does (entry.h). */
static void disambiguate(item *items, size_t n)
{
	char **names = sl_calloc(n + 1, sizeof *names);
	const sl_model **models = sl_calloc(n + 1, sizeof *models);
	for (size_t i = 0; i < n; i++) {
		sl_buf b = {0};
		sl_buf_printf(&b, "%s/%s/%s", items[i].model_slug, items[i].system_slug, items[i].variant);
		names[i] = sl_buf_detach(&b);
		models[i] = items[i].model;
	}
	sl_entry_import_tell_apart(names, models, n);
	for (size_t i = 0; i < n; i++) {
		free(items[i].variant);
		items[i].variant = sl_strdup(strrchr(names[i], '/') + 1);
		free(names[i]);
	}
	free(names);
	free(models);
}

static int emit_scalar(yaml_emitter_t *em, const char *s, int plain_ok)
{
	yaml_event_t ev;
	/* a string that reads as a number stays a string: quoted, tag implicit */
	yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)s, (int)strlen(s), plain_ok, 1,
				     plain_ok ? YAML_ANY_SCALAR_STYLE : YAML_DOUBLE_QUOTED_SCALAR_STYLE);
	return yaml_emitter_emit(em, &ev);
}

static int emit_json(yaml_emitter_t *em, json_t *v)
{
	yaml_event_t ev;
	if (json_is_array(v)) {
		yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1, YAML_FLOW_SEQUENCE_STYLE);
		if (!yaml_emitter_emit(em, &ev))
			return 0;
		size_t i;
		json_t *x;
		json_array_foreach(v, i, x)
			if (!emit_json(em, x))
				return 0;
		yaml_sequence_end_event_initialize(&ev);
		return yaml_emitter_emit(em, &ev);
	}
	if (json_is_string(v)) {
		/* strings that would read as numbers or bools stay strings */
		const char *s = json_string_value(v);
		long long ll;
		double d;
		int typed = !sl_parse_int(s, &ll) || !sl_parse_double(s, &d) || !strcmp(s, "true") ||
			    !strcmp(s, "false") || !strcmp(s, "null") || !*s;
		return emit_scalar(em, s, !typed);
	}
	char *t = json_dumps(v, JSON_ENCODE_ANY | JSON_REAL_PRECISION(15));
	int ok = emit_scalar(em, t ? t : "null", 1);
	free(t);
	return ok;
}

static void add_yaml(sl_buf *b, const char *data, size_t n)
{
	sl_buf_add(b, data, n);
}

static int yaml_to_buf(void *b, unsigned char *data, size_t n)
{
	add_yaml(b, (const char *)data, n);
	return 1;
}

/* metadata.yaml: what the page states about the entry, as written by libyaml */
static int metadata_yaml(const item *it, sl_buf *out)
{
	yaml_emitter_t em;
	yaml_event_t ev;
	if (!yaml_emitter_initialize(&em))
		return -1;
	yaml_emitter_set_output(&em, yaml_to_buf, out);
	yaml_emitter_set_unicode(&em, 1);
	int ok = 1;
	yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING);
	ok = ok && yaml_emitter_emit(&em, &ev);
	yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1);
	ok = ok && yaml_emitter_emit(&em, &ev);
	yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1, YAML_BLOCK_MAPPING_STYLE);
	ok = ok && yaml_emitter_emit(&em, &ev);
	char line[32];
	snprintf(line, sizeof line, "%u", it->pe.first);
	const char *page = strrchr(it->page->path, '/');
	page = page ? page + 1 : it->page->path;
	ok = ok && emit_scalar(&em, "page", 1) && emit_scalar(&em, page, 1);
	ok = ok && emit_scalar(&em, "line", 1) && emit_scalar(&em, line, 1);
	if (it->pe.model)
		ok = ok && emit_scalar(&em, "model", 1) && emit_scalar(&em, it->pe.model, 1);
	if (it->system_name)
		ok = ok && emit_scalar(&em, "system", 1) && emit_scalar(&em, it->system_name, 1);
	/* entry-wide claims, then per role */
	const sl_model *m = it->model;
	for (size_t i = 0; i < m->nclaims && ok; i++) {
		const sl_claim *k = &m->claims[i];
		if (strcmp(k->from, "metadata") || k->role || !strcmp(k->key, "system"))
			continue;
		ok = emit_scalar(&em, k->key, 1) && emit_json(&em, k->value);
	}
	static const char *const roles[] = {"prefill", "decode"};
	for (size_t r = 0; r < 2 && ok; r++) {
		int any = 0;
		for (size_t i = 0; i < m->nclaims; i++)
			any |= !strcmp(m->claims[i].from, "metadata") && m->claims[i].role &&
			       !strcmp(m->claims[i].role, roles[r]);
		if (!any)
			continue;
		ok = emit_scalar(&em, roles[r], 1);
		yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1, YAML_BLOCK_MAPPING_STYLE);
		ok = ok && yaml_emitter_emit(&em, &ev);
		for (size_t i = 0; i < m->nclaims && ok; i++) {
			const sl_claim *k = &m->claims[i];
			if (!strcmp(k->from, "metadata") && k->role && !strcmp(k->role, roles[r]))
				ok = emit_scalar(&em, k->key, 1) && emit_json(&em, k->value);
		}
		yaml_mapping_end_event_initialize(&ev);
		ok = ok && yaml_emitter_emit(&em, &ev);
	}
	yaml_mapping_end_event_initialize(&ev);
	ok = ok && yaml_emitter_emit(&em, &ev);
	yaml_document_end_event_initialize(&ev, 1);
	ok = ok && yaml_emitter_emit(&em, &ev);
	yaml_stream_end_event_initialize(&ev);
	ok = ok && yaml_emitter_emit(&em, &ev);
	if (!ok)
		fprintf(stderr, "servelint import: writing metadata.yaml: %s\n",
			em.problem ? em.problem : "emitter error");
	yaml_emitter_delete(&em);
	return ok ? 0 : -1;
}

/* The note of a section header: "(topology; hosts/ports omitted)" */
static char *section_note(const sl_source *page, const sl_source *part)
{
	size_t len;
	const char *h = sl_source_line(page, part->line_base, &len);
	const char *open = memchr(h, '(', len);
	const char *close = open ? memchr(open, ')', len - (size_t)(open - h)) : NULL;
	return open && close ? sl_strndup(open + 1, (size_t)(close - open - 1)) : NULL;
}

/* ---- writing -------------------------------------------------------------------- */

/* Why s cannot be one folder or file name taken from page text, or NULL:
 * a name is one path component, never `.` or `..`, never hidden (a leading
 * dot: import's own temporary folders start with one), without control
 * characters, and short enough for any file system. */
static const char *bad_component(const char *s)
{
	if (!*s)
		return "is empty";
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '/' || *p == '\\')
			return "holds a slash";
		if (*p < 0x20 || *p == 0x7f)
			return "holds a control character";
	}
	if (!strcmp(s, ".") || !strcmp(s, ".."))
		return "names a folder itself, not a new one";
	if (*s == '.')
		return "starts with a dot (a hidden name)";
	if (strlen(s) > 200)
		return "is longer than 200 bytes";
	return NULL;
}

/* A file in folder dfd that did not exist: never through a link. */
static int write_file(int dfd, const char *shown, const char *name, const char *data, size_t len)
{
	int fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
	int ok = fd >= 0;
	for (size_t off = 0; ok && off < len;) {
		ssize_t k = write(fd, data + off, len - off);
		if (k < 0 && errno == EINTR)
			continue;
		ok = k > 0;
		off += ok ? (size_t)k : 0;
	}
	if (fd >= 0 && close(fd))
		ok = 0;
	if (!ok)
		fprintf(stderr, "servelint import: %s/%s: %s\n", shown, name, strerror(errno));
	return ok ? 0 : -1;
}

/* A folder in dfd (made when missing, never a link followed); its fd, or -1. */
static int open_dir(int dfd, const char *shown, const char *name, int *made)
{
	*made = 0;
	if (mkdirat(dfd, name, 0777) == 0)
		*made = 1;
	else if (errno != EEXIST) {
		fprintf(stderr, "servelint import: %s/%s: %s\n", shown, name, strerror(errno));
		return -1;
	}
	int fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		struct stat st;
		int link = fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode);
		fprintf(stderr, "servelint import: %s/%s: %s\n", shown, name,
			link ? "is a symbolic link (import follows none)" : strerror(e));
	}
	return fd;
}

/* Removes what import made in a temporary folder: name in dfd and all below. */
static void remove_tree(int dfd, const char *name)
{
	int fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		unlinkat(dfd, name, 0);
		return;
	}
	DIR *d = fdopendir(fd);
	if (!d) {
		close(fd);
		return;
	}
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, cap = 0;
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			SL_PUSH(names, n, cap, sl_strdup(de->d_name));
	for (size_t i = 0; i < n; i++) {
		remove_tree(dirfd(d), names[i]);
		free(names[i]);
	}
	free(names);
	closedir(d);
	unlinkat(dfd, name, AT_REMOVEDIR);
}

/* rename that never replaces what is there */
static int rename_new(int from_dfd, const char *from, int to_dfd, const char *to)
{
#ifdef RENAME_NOREPLACE
	if (renameat2(from_dfd, from, to_dfd, to, RENAME_NOREPLACE) == 0)
		return 0;
	if (errno != EINVAL && errno != ENOSYS)
		return -1;
#endif
	struct stat st;
	if (fstatat(to_dfd, to, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		errno = EEXIST;
		return -1;
	}
	return renameat(from_dfd, from, to_dfd, to);
}

/* The entry's folder, in the import's temporary folder tmpfd: its files,
 * then metadata.txt and metadata.yaml. */
static int write_entry(const item *it, int tmpfd, const char *shown)
{
	sl_buf txt = {0}, yml = {0}, where = {0};
	const sl_entry *e = it->entry;
	int rc = -1, mfd = -1, sfd = -1, vfd = -1, made;
	sl_buf_printf(&where, "%s/%s/%s/%s", shown, it->model_slug, it->system_slug, it->variant);
	if ((mfd = open_dir(tmpfd, shown, it->model_slug, &made)) < 0 ||
	    (sfd = open_dir(mfd, shown, it->system_slug, &made)) < 0)
		goto out;
	if (mkdirat(sfd, it->variant, 0777)) {
		fprintf(stderr, "servelint import: %s: %s\n", where.data,
			errno == EEXIST ? "two entries of the pages give this folder" : strerror(errno));
		goto out;
	}
	if ((vfd = openat(sfd, it->variant, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
		goto out;
	if (write_file(vfd, where.data, "launch.sh", e->script->text, e->script->len))
		goto out;
	for (size_t i = 0; i < e->nfiles; i++)
		if (write_file(vfd, where.data, e->files[i]->section, e->files[i]->text, e->files[i]->len))
			goto out;
	const char *page = strrchr(it->page->path, '/');
	sl_buf_printf(&txt, "Page: %s line %u\n", page ? page + 1 : it->page->path, it->pe.first);
	/* the page's lines about the entry, verbatim, blank lines left out */
	for (const char *q = e->metadata ? e->metadata->text : NULL; q && *q;) {
		const char *nl = strchr(q, '\n');
		size_t l = nl ? (size_t)(nl - q) : strlen(q);
		if (l && strspn(q, " \t\r") < l) {
			sl_buf_add(&txt, q, l);
			sl_buf_putc(&txt, '\n');
		}
		q += l + (nl != NULL);
	}
	for (size_t i = 0; i < e->nfiles; i++) {
		char *note = section_note(it->page, e->files[i]);
		if (note)
			sl_buf_printf(&txt, "Section %s: %s\n", e->files[i]->section, note);
		free(note);
	}
	if (write_file(vfd, where.data, "metadata.txt", txt.data, txt.len) || metadata_yaml(it, &yml) ||
	    write_file(vfd, where.data, "metadata.yaml", yml.data, yml.len))
		goto out;
	rc = 0;
out:
	if (vfd >= 0)
		close(vfd);
	if (sfd >= 0)
		close(sfd);
	if (mfd >= 0)
		close(mfd);
	sl_buf_free(&where);
	sl_buf_free(&txt);
	sl_buf_free(&yml);
	return rc;
}

static int mkdirs(const char *path)
{
	char *p = sl_strdup(path);
	for (char *q = p + 1; *q; q++)
		if (*q == '/') {
			*q = '\0';
			if (mkdir(p, 0777) && errno != EEXIST) {
				free(p);
				return -1;
			}
			*q = '/';
		}
	int rc = mkdir(p, 0777) && errno != EEXIST ? -1 : 0;
	free(p);
	return rc;
}

/* One entry moved from the temporary folder into --out, and the folders
 * made for it there: what a rollback undoes. */
typedef struct moved {
	int from_fd, to_fd;    /* the system folders, in the temporary folder and in --out */
	const char *variant;
} moved;

/*
 * Every entry of the import, all or nothing. The entries are written into a
 * temporary folder on the same file system as --out: beside it when --out
 * does not exist (then renamed into place as a whole), else inside it (then
 * each entry folder renamed into place; when one cannot be, those already
 * moved are moved back). Nothing is written through a link, and nothing is
 * replaced.
 */
static int write_all(const item *items, size_t n, const char *out_arg)
{
	char *out = sl_strdup(out_arg);
	for (size_t l = strlen(out); l > 1 && out[l - 1] == '/'; l--)
		out[l - 1] = '\0';
	struct stat st;
	int fresh = stat(out, &st) != 0;
	if (fresh && errno != ENOENT) {
		fprintf(stderr, "servelint import: %s: %s\n", out, strerror(errno));
		free(out);
		return -1;
	}
	if (!fresh && !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "servelint import: %s: not a folder\n", out);
		free(out);
		return -1;
	}
	sl_buf tmp = {0};
	if (fresh) {
		char *slash = strrchr(out, '/');
		if (slash && slash != out) {
			*slash = '\0';
			if (mkdirs(out)) {
				fprintf(stderr, "servelint import: %s: %s\n", out, strerror(errno));
				free(out);
				return -1;
			}
			*slash = '/';
			sl_buf_printf(&tmp, "%.*s/.%s.import-XXXXXX", (int)(slash - out), out, slash + 1);
		} else {
			sl_buf_printf(&tmp, "%s.%s.import-XXXXXX", slash ? "/" : "", slash ? slash + 1 : out);
		}
	} else {
		sl_buf_printf(&tmp, "%s/.servelint-import-XXXXXX", out);
	}
	int rc = -1, tmpfd = -1, outfd = -1;
	moved *mv = sl_calloc(n + 1, sizeof *mv);
	size_t nmv = 0;
	int *made = sl_calloc(2 * n + 1, sizeof *made); /* fds of folders made in --out, then their names */
	const char **made_name = sl_calloc(2 * n + 1, sizeof *made_name);
	int *made_in = sl_calloc(2 * n + 1, sizeof *made_in);
	size_t nmade = 0;
	if (!mkdtemp(tmp.data)) {
		fprintf(stderr, "servelint import: %s: %s\n", tmp.data, strerror(errno));
		goto out;
	}
	if ((tmpfd = open(tmp.data, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0) {
		fprintf(stderr, "servelint import: %s: %s\n", tmp.data, strerror(errno));
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		if (write_entry(&items[i], tmpfd, out))
			goto out;
	if (fresh) {
		/* mkdtemp made it 0700: the folder gets the mode mkdir would give */
		mode_t um = umask(0);
		umask(um);
		if (fchmod(tmpfd, 0777 & ~um) || rename_new(AT_FDCWD, tmp.data, AT_FDCWD, out)) {
			fprintf(stderr, "servelint import: %s: %s\n", out, strerror(errno));
			goto out;
		}
		rc = 0;
		goto out;
	}
	if ((outfd = open(out, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
		fprintf(stderr, "servelint import: %s: %s\n", out, strerror(errno));
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		const item *it = &items[i];
		int m, tm = -1, ts = -1, om = -1, os = -1;
		tm = openat(tmpfd, it->model_slug, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		ts = tm < 0 ? -1 : openat(tm, it->system_slug, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		om = open_dir(outfd, out, it->model_slug, &m);
		if (om >= 0 && m) {
			made[nmade] = outfd;
			made_name[nmade++] = it->model_slug;
		}
		os = om < 0 ? -1 : open_dir(om, out, it->system_slug, &m);
		if (os >= 0 && m) {
			made[nmade] = dup(om);
			made_in[nmade] = 1;
			made_name[nmade++] = it->system_slug;
		}
		if (tm >= 0)
			close(tm);
		if (om >= 0)
			close(om);
		if (ts < 0 || os < 0 || rename_new(ts, it->variant, os, it->variant)) {
			if (os >= 0)
				fprintf(stderr, "servelint import: %s/%s/%s/%s: %s\n", out, it->model_slug,
					it->system_slug, it->variant, strerror(errno));
			if (ts >= 0)
				close(ts);
			if (os >= 0)
				close(os);
			goto out;
		}
		mv[nmv].from_fd = ts;
		mv[nmv].to_fd = os;
		mv[nmv++].variant = it->variant;
	}
	rc = 0;
out:
	if (rc) {
		/* back out: the entries moved, then the folders made, last first */
		for (size_t i = nmv; i-- > 0;)
			renameat(mv[i].to_fd, mv[i].variant, mv[i].from_fd, mv[i].variant);
		for (size_t i = nmade; i-- > 0;)
			unlinkat(made[i], made_name[i], AT_REMOVEDIR);
	}
	for (size_t i = 0; i < nmv; i++) {
		close(mv[i].from_fd);
		close(mv[i].to_fd);
	}
	for (size_t i = 0; i < nmade; i++)
		if (made_in[i])
			close(made[i]);
	/* the temporary folder goes in every case (renamed away when fresh and done) */
	if (tmpfd >= 0)
		close(tmpfd);
	if (tmp.data && !(fresh && rc == 0)) {
		char *slash = strrchr(tmp.data, '/');
		if (slash) {
			*slash = '\0';
			int pfd = open(slash == tmp.data ? "/" : tmp.data, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			if (pfd >= 0) {
				remove_tree(pfd, slash + 1);
				close(pfd);
			}
		} else {
			remove_tree(AT_FDCWD, tmp.data);
		}
	}
	if (outfd >= 0)
		close(outfd);
	free(mv);
	free(made);
	free(made_name);
	free(made_in);
	sl_buf_free(&tmp);
	free(out);
	return rc;
}

/* Every name the page gives a folder or file: one safe path component, or
 * the page is refused at the place of the name. */
static int check_names(const item *it, const sl_claim *sys, const sl_page_entry *pe)
{
	const char *path = it->page->path, *why;
	if ((why = bad_component(it->model_slug))) {
		fprintf(stderr, "%s:%u:1: the model heading `%s` gives the folder name `%s`, which %s\n", path,
			pe->model_line ? pe->model_line : pe->first, pe->model, it->model_slug, why);
		return -1;
	}
	if ((why = bad_component(it->system_slug))) {
		unsigned line = 0, col = 0;
		if (sys)
			sl_origin_pos(&sys->origin, &line, &col);
		else if (pe->heading && !strcmp(pe->heading, it->system_name))
			line = pe->heading_line;
		fprintf(stderr, "%s:%u:%u: the system `%s` gives the folder name `%s`, which %s\n", path,
			line ? line : pe->first, line ? (col ? col : 1) : 1, it->system_name, it->system_slug, why);
		return -1;
	}
	if ((why = bad_component(it->variant))) {
		fprintf(stderr, "%s:%u:1: this entry gives the folder name `%s`, which %s\n", path, pe->first,
			it->variant, why);
		return -1;
	}
	for (size_t i = 0; i < it->entry->nfiles; i++) {
		const sl_source *f = it->entry->files[i];
		why = bad_component(f->section);
		if (!why && (!strcmp(f->section, "metadata.yaml") || !strcmp(f->section, "metadata.txt")))
			why = "is the name of a file import writes";
		if (why) {
			/* the header line: `# ---------------- NAME ...` */
			size_t len;
			const char *h = sl_source_line(it->page, f->line_base, &len);
			const char *at = h ? strstr(h, f->section) : NULL;
			fprintf(stderr, "%s:%u:%u: the section file name `%s` %s; import writes only plain file names\n",
				path, f->line_base, at && (size_t)(at - h) < len ? (unsigned)(at - h) + 1 : 1,
				f->section, why);
			return -1;
		}
	}
	return 0;
}

int sl_cmd_import(int argc, char **argv)
{
	static const struct option opts[] = {
		SL_OPTS_COMMON,
		{"out", required_argument, NULL, 'o'},
		{"dry-run", no_argument, NULL, 'n'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *out = NULL;
	int dry = 0, c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:nh", opts, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'n': dry = 1; break;
		case SL_OPT_VERSION: return sl_cmd_version();
		case 'h': usage(stdout); return SL_EXIT_OK;
		default: usage(stderr); return SL_EXIT_USAGE;
		}
	}
	if ((!out && !dry) || optind >= argc) {
		fprintf(stderr, "servelint import: %s\n", optind >= argc ? "no page given" : "--out DIR is required");
		usage(stderr);
		return SL_EXIT_USAGE;
	}
	sl_error err = {0};
	sl_grammars *gs;
	if (sl_normalize_grammars_load(&gs, &err)) {
		sl_error_print(&err, "servelint");
		sl_error_clear(&err);
		return SL_EXIT_ERROR;
	}
	sl_source **pages = sl_calloc((size_t)(argc - optind), sizeof *pages);
	size_t npages = 0;
	item *items = NULL;
	size_t n = 0, cap = 0;
	int failed = 0;
	for (int a = optind; a < argc && !failed; a++) {
		sl_source *page;
		sl_page_entry *pes;
		size_t npe;
		if (sl_source_load(argv[a], &page, &err) || (pages[npages++] = page, 0) ||
		    sl_page_split(page, &pes, &npe, &err)) {
			sl_error_print(&err, "servelint");
			failed = 1;
			break;
		}
		const char *prev_system = NULL;
		for (size_t k = 0; k < npe && !failed; k++) {
			item it;
			memset(&it, 0, sizeof it);
			it.page = page;
			it.pe = pes[k];
			size_t a0 = page->lines[pes[k].first - 1];
			size_t b0 = pes[k].last < page->nlines ? page->lines[pes[k].last] : page->len;
			if (sl_entry_from_memory(page->path, page->text + a0, b0 - a0, pes[k].first - 1,
						 &it.entry, &err) ||
			    sl_normalize_entry(it.entry, gs, &it.model, &err)) {
				sl_error_print(&err, "servelint");
				failed = 1;
			} else if (!pes[k].model) {
				fprintf(stderr, "%s:%u:1: no model heading above this entry\n", page->path,
					pes[k].first);
				failed = 1;
			} else {
				const sl_claim *sys = sl_entry_metadata_claim(it.model, "system", NULL);
				const char *sname = sys ? json_string_value(sys->value)
						    : prev_system ? prev_system : pes[k].heading;
				if (!sname) {
					fprintf(stderr, "%s:%u:1: no system named for this entry\n", page->path,
						pes[k].first);
					failed = 1;
				} else {
					it.system_name = sl_strdup(sname);
					prev_system = it.system_name;
					it.model_slug = sl_entry_model_slug(pes[k].model);
					it.system_slug = sl_entry_slug(sname);
					it.variant = sl_entry_variant_name(it.model);
					/* the page's text is written as it is (check reports
					 * SL1004 there); said, since the name cannot tell */
					for (size_t q = 0; it.variant && q < it.model->nnotes; q++) {
						const sl_note *no = &it.model->notes[q];
						unsigned l = 0, c = 0;
						if (!sl_starts_with(no->msg, "invalid JSON") || !no->origin.src)
							continue;
						sl_origin_pos(&no->origin, &l, &c);
						fprintf(stderr, "%s:%u:%u: warning: %s; the entry is written as the page has "
							"it, named without its speculative decoding\n",
							no->origin.src->path, l, c, no->msg);
					}
					if (!it.variant) {
						fprintf(stderr, "%s:%u:1: no engine command in this entry\n",
							page->path, pes[k].first);
						failed = 1;
					} else if (check_names(&it, sys, &pes[k])) {
						failed = 1;
					}
				}
			}
			/* the page entry's strings now belong to the item */
			pes[k].model = pes[k].heading = NULL;
			SL_PUSH(items, n, cap, it);
		}
		sl_page_entries_free(pes, npe);
	}
	if (!failed)
		disambiguate(items, n);
	/* nothing is written unless every entry was read and no folder exists */
	for (size_t i = 0; i < n && !failed && !dry; i++) {
		sl_buf d = {0};
		struct stat st;
		sl_buf_printf(&d, "%s/%s/%s/%s", out, items[i].model_slug, items[i].system_slug,
			      items[i].variant);
		if (lstat(d.data, &st) == 0) {
			fprintf(stderr, "servelint import: %s already exists\n", d.data);
			failed = 1;
		}
		sl_buf_free(&d);
	}
	for (size_t i = 0; i < n && !failed && dry; i++)
		printf("%s/%s/%s\t%s:%u\n", items[i].model_slug, items[i].system_slug, items[i].variant,
		       items[i].page->path, items[i].pe.first);
	if (!failed && !dry && write_all(items, n, out))
		failed = 1;
	for (size_t i = 0; i < n; i++) {
		sl_model_free(items[i].model);
		sl_entry_free(items[i].entry);
		free(items[i].pe.model);
		free(items[i].pe.heading);
		free(items[i].model_slug);
		free(items[i].system_slug);
		free(items[i].variant);
		free(items[i].system_name);
	}
	free(items);
	for (size_t i = 0; i < npages; i++)
		sl_source_free(pages[i]);
	free(pages);
	sl_normalize_grammars_free(gs);
	sl_error_clear(&err);
	return failed ? SL_EXIT_ERROR : SL_EXIT_OK;
}
