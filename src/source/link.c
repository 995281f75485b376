/*
 * link.c: the files a script sources (`source ../benchmark_lib.sh`), linked
 * to the script's source: where each is found, what bounds it (the input's
 * root: nothing outside it is read), why one cannot be read, and the
 * offsets that place a byte of either.
 *
 * A sourced path is relative to the folder of the file that sources it
 * (the shell stage says which: the script's, or a sourced file's for
 * `${BASH_SOURCE[0]}`); its name is that folder joined with it, `.` and
 * `..` taken out by the letter, so that it reads as the script's own path
 * does in every message (`benchmarks/benchmark_lib.sh`, not
 * `benchmarks/single_node/../benchmark_lib.sh`).
 *
 * On disk, the input's root is the top of the git working tree around the
 * script (a folder holding `.git`), else the current folder when the
 * script is under it, else the script's own folder; the file read must
 * be under it once every symbolic link is resolved (realpath), and is read
 * from that resolved path, so that a link swapped after the check cannot
 * lead out. At a revision (the script's offers), a file is read only when
 * offered: the repository's files, found there by the same name. Uses
 * source.c (which places an offset of a link, sl_source_at, on its own).
 */
#include "internal.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* dir joined with rel, `.` and `..` resolved by the letter (a leading
 * `..` of a relative path is kept, one at the top of an absolute path
 * dropped). Caller frees. */
static char *join_lexical(const char *dir, const char *rel)
{
	char *all = join(dir, rel);
	int abs = all[0] == '/';
	char **parts = NULL;
	size_t n = 0, cap = 0;
	for (char *save = NULL, *t = strtok_r(all, "/", &save); t; t = strtok_r(NULL, "/", &save)) {
		if (!strcmp(t, "."))
			continue;
		if (!strcmp(t, "..")) {
			if (n && strcmp(parts[n - 1], ".."))
				n--;
			else if (!abs)
				SL_PUSH(parts, n, cap, t);
			continue;
		}
		SL_PUSH(parts, n, cap, t);
	}
	sl_buf b = {0};
	if (abs)
		sl_buf_putc(&b, '/');
	for (size_t i = 0; i < n; i++)
		sl_buf_printf(&b, "%s%s", i ? "/" : "", parts[i]);
	if (!b.len)
		sl_buf_putc(&b, '.');
	free(parts);
	free(all);
	return sl_buf_detach(&b);
}

/* The folder part of path ("" for a bare name), with its slash. Caller frees. */
static char *folder_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? sl_strndup(path, (size_t)(slash - path) + 1) : sl_strdup("");
}

/* Whether real path p is root or under it. */
static int under(const char *p, const char *root)
{
	size_t n = strlen(root);
	if (n == 1 && root[0] == '/')
		return 1;
	return !strncmp(p, root, n) && (p[n] == '/' || !p[n]);
}

/* The input's root of the script at path (see the top): a real path, or
 * NULL when the script's folder cannot be resolved. Caller frees. */
static char *find_root(const char *path)
{
	char *dir = folder_of(path);
	char *real = realpath(*dir ? dir : ".", NULL);
	free(dir);
	if (!real)
		return NULL;
	for (char *d = sl_strdup(real);;) {
		char *git = join(d, ".git");
		struct stat st;
		int found = !lstat(git, &st);
		free(git);
		if (found) {
			free(real);
			return d;
		}
		char *slash = strrchr(d, '/');
		if (!slash || slash == d) {
			free(d);
			break;
		}
		*slash = '\0';
	}
	char *cwd = realpath(".", NULL);
	if (cwd && under(real, cwd)) {
		free(real);
		return cwd;
	}
	free(cwd);
	return real;
}

/* Why path cannot be opened, in words (errno e of realpath or stat). */
static const char *open_failure(int e)
{
	switch (e) {
	case ENOENT:
	case ENOTDIR:
		return "not found";
	case ELOOP:
		return "a loop of symbolic links (ELOOP)";
	case EACCES:
		return "cannot be read: permission denied";
	default:
		return strerror(e);
	}
}

/* The file at name read from disk inside s's root: 0 and *f (named key
 * in places, its path from the script's folder, as the script's own name
 * is its path from there), or an error in err. */
static int load_inside(sl_source *s, const char *name, const char *key, sl_source **f, sl_error *err)
{
	if (!s->root)
		s->root = find_root(s->path);
	if (!s->root) {
		sl_error_set(err, name, 0, 0, "the script's folder cannot be resolved");
		return -1;
	}
	struct stat st;
	/* outside by the letter (there or not), or once its links are resolved */
	char *cwd = realpath(".", NULL);
	char *lex = cwd && name[0] != '/' ? join_lexical(cwd, name) : sl_strdup(name);
	free(cwd);
	char *real = under(lex, s->root) ? realpath(name, NULL) : NULL;
	if (!real && under(lex, s->root)) {
		sl_error_set(err, name, 0, 0, "%s", open_failure(errno));
		free(lex);
		return -1;
	}
	int rc = -1;
	if (!real || !under(real, s->root))
		sl_error_set(err, name, 0, 0, "outside the input's root (the git working tree around the "
			     "script, else the current folder)");
	else if (stat(real, &st))
		sl_error_set(err, name, 0, 0, "%s", open_failure(errno));
	else if (S_ISDIR(st.st_mode))
		sl_error_set(err, name, 0, 0, "a folder, not a file");
	else if (!S_ISREG(st.st_mode))
		sl_error_set(err, name, 0, 0, "not a regular file");
	else if (access(real, R_OK))
		sl_error_set(err, name, 0, 0, "%s", open_failure(errno));
	else if ((rc = sl_source_load(real, f, err)) != SL_OK) {
		if (err) {  /* named as the script names it, not by its real path */
			free(err->file);
			err->file = sl_strdup(name);
		}
	} else {
		free((*f)->path);
		free((*f)->name);
		(*f)->path = sl_strdup(name);
		(*f)->name = sl_strdup(key);
	}
	free(lex);
	free(real);
	return rc ? -1 : 0;
}

/* The length of the `REV:` that starts the paths of a script read at a
 * revision (its names keep it; its folders are the tree's), or 0. */
static size_t rev_prefix(const sl_source *s)
{
	const char *colon = s->offered ? strchr(s->path, ':') : NULL;
	if (!colon || memchr(s->path, '/', (size_t)(colon - s->path)))
		return 0;
	return (size_t)(colon - s->path) + 1;
}

const sl_source *sl_source_link(const sl_source *s, const sl_source *from, const char *rel, uint32_t *base,
				sl_error *err)
{
	sl_source *m = (sl_source *)s;  /* its links and root only: the text never changes */
	const char *fkey = "";          /* from's offer name: a path from s's folder */
	for (size_t i = 0; from && i < m->nlinks; i++)
		if (m->links[i].src == from && m->links[i].key)
			fkey = m->links[i].key;
	if (!from)
		from = s;
	size_t pre = rev_prefix(s);
	char *dir = folder_of(from->path + (strlen(from->path) >= pre ? pre : 0));
	char *joined = join_lexical(dir, rel);
	free(dir);
	sl_buf nb = {0};
	sl_buf_add(&nb, s->path, pre);
	sl_buf_puts(&nb, joined);
	free(joined);
	char *name = sl_buf_detach(&nb);
	for (size_t i = 0; i < m->nlinks; i++)
		if (!strcmp(m->links[i].src->path, name)) {
			*base = m->links[i].base;
			free(name);
			return m->links[i].src;
		}
	sl_source *f = NULL;
	char *kd = folder_of(fkey);
	char *key = join_lexical(kd, rel);  /* its path from s's folder */
	free(kd);
	struct stat st;
	if (m->nlinks >= SL_MAX_ENTRY_FILES) {
		sl_error_set(err, name, 0, 0, "more than %u files sourced", SL_MAX_ENTRY_FILES);
	} else if (!sl_ends_with(rel, ".sh")) {
		sl_error_set(err, name, 0, 0, "not a shell script (*.sh)");
	} else if (s->offered) {
		/* at a revision: the file offered by that path from the
		 * script's folder (the repository's files, as on disk) */
		size_t i = 0;
		while (i < s->noffers && strcmp(s->offers[i].name, key))
			i++;
		if (i == s->noffers)
			sl_error_set(err, name, 0, 0,
				     strchr(key, '/') ? "not found in the revision's tree" : "not found beside the script");
		else if (sl_source_from_memory(name, s->offers[i].text, s->offers[i].len, &f, err) == SL_OK) {
			free(f->name);
			f->name = sl_strdup(key);
		}
	} else if (stat(s->path, &st) || !S_ISREG(st.st_mode)) {
		sl_error_set(err, name, 0, 0, "the script is not read from disk");
	} else {
		load_inside(m, name, key, &f, err);
	}
	free(name);
	if (!f) {
		/* named in the message as in places: from the script's folder */
		if (err) {
			free(err->file);
			err->file = key;
		} else {
			free(key);
		}
		return NULL;
	}
	if (!f)
		return NULL;
	/* after the script and every earlier link, a byte apart */
	uint64_t b = (uint64_t)m->len + 1;
	if (m->nlinks)
		b = (uint64_t)m->links[m->nlinks - 1].base + m->links[m->nlinks - 1].src->len + 1;
	if (b + f->len + 1 > UINT32_MAX) {
		sl_error_set(err, f->path, 0, 0, "sourced files past the offset limit");
		sl_source_free(f);
		free(key);
		return NULL;
	}
	m->links = sl_realloc(m->links, (m->nlinks + 1) * sizeof *m->links);
	m->links[m->nlinks].src = f;
	m->links[m->nlinks].base = (uint32_t)b;
	m->links[m->nlinks].key = key;
	m->nlinks++;
	*base = (uint32_t)b;
	return f;
}


/* The word of text at *i (shell quotes taken off, `$( )` and `${ }` kept
 * whole), *i moved past it; NULL at a line's end or a separator. */
static char *next_word(const char *t, size_t len, size_t *i)
{
	while (*i < len && (t[*i] == ' ' || t[*i] == '\t'))
		(*i)++;
	sl_buf b = {0};
	char q = 0;
	int depth = 0;
	for (; *i < len; (*i)++) {
		char c = t[*i];
		if (c == '\n' && !q)
			break;
		if (q) {
			if (c == q && !depth)
				q = 0;
			else
				sl_buf_putc(&b, c);
			continue;
		}
		if (c == '"' || c == '\'') {
			if (depth)
				sl_buf_putc(&b, c);
			else
				q = c;
			continue;
		}
		if (c == '(' || c == '{')
			depth++;
		else if ((c == ')' || c == '}') && depth)
			depth--;
		else if (!depth && strchr(" \t;&|)<>", c))
			break;
		sl_buf_putc(&b, c);
	}
	return sl_buf_detach(&b);
}

/* w with its leading script folder part (`$(dirname "$0")/`,
 * `${SCRIPT_DIR}/`, `$DIR/`) taken off: a fixed *.sh path, or NULL. */
static const char *fixed_part(const char *w)
{
	const char *t = w;
	if (t[0] == '$') {
		if (t[1] == '(' || t[1] == '{') {
			int depth = 0;
			for (; *t; t++)
				if (*t == '(' || *t == '{')
					depth++;
				else if ((*t == ')' || *t == '}') && --depth == 0)
					break;
			if (!*t)
				return NULL;
			t++;
		} else {
			for (t++; *t == '_' || (*t >= 'A' && *t <= 'Z') || (*t >= 'a' && *t <= 'z') ||
				  (*t >= '0' && *t <= '9');
			     t++)
				;
		}
		if (*t != '/')
			return NULL;
		t++;
	} else if (*t == '/') {
		return NULL;
	}
	if (!*t || strpbrk(t, "$`*?") || !sl_ends_with(t, ".sh"))
		return NULL;
	return t;
}

/* The offset of the first c of t[from, len), or len. */
static size_t next_of(const char *t, size_t len, size_t from, char c)
{
	const char *p = from < len ? memchr(t + from, c, len - from) : NULL;
	return p ? (size_t)(p - t) : len;
}

size_t sl_source_sourced_paths(const char *t, size_t len, char ***out)
{
	size_t n = 0, cap = 0;
	*out = NULL;
	/* the next 's' and '.' from i on (len: none) */
	size_t ns = next_of(t, len, 0, 's'), nd = next_of(t, len, 0, '.');
	for (size_t i = 0; i < len; i++) {
		/* only `source` and `.` start a command read here: the other
		 * bytes are passed over before the test of what precedes (a
		 * strchr per byte was 253 M instructions of the 2,199 M of a
		 * `log` of 1,000 commits, bench/log_history.sh), by memchr
		 * (a test per byte was 158 M of the 1,480 M of `review
		 * HEAD~1 HEAD` over 10,000 entries of distinct blobs, whose
		 * search for the scripts that source a changed file scans
		 * every script) */
		if (ns < i)
			ns = next_of(t, len, i, 's');
		if (nd < i)
			nd = next_of(t, len, i, '.');
		i = ns < nd ? ns : nd;
		if (i >= len)
			break;
		int at_start = !i || strchr(" \t\n;&|({", t[i - 1]);
		size_t k = !at_start ? 0 : !strncmp(t + i, "source", 6) && i + 6 < len ? 6 : t[i] == '.' ? 1 : 0;
		if (!k || i + k >= len || (t[i + k] != ' ' && t[i + k] != '\t'))
			continue;
		i += k;
		char *w = next_word(t, len, &i);
		const char *p = fixed_part(w);
		if (p)
			SL_PUSH(*out, n, cap, sl_strdup(p));
		free(w);
		if (i)
			i--;
	}
	return n;
}

char *sl_source_join(const char *dir, const char *rel)
{
	return join_lexical(dir, rel);
}

void sl_source_place(sl_buf *b, const sl_source *s, size_t off, size_t here, int with_col)
{
	uint32_t o = off > UINT32_MAX ? UINT32_MAX : (uint32_t)off, h = here > UINT32_MAX ? UINT32_MAX : (uint32_t)here;
	const sl_source *f = sl_source_at(s, &o), *hf = sl_source_at(s, &h);
	unsigned line, col;
	sl_source_pos(s, off, &line, &col);
	if (f == hf) {
		if (with_col)
			sl_buf_printf(b, "line %u, column %u", line, col);
		else
			sl_buf_printf(b, "line %u", line);
	} else if (with_col) {
		sl_buf_printf(b, "%s:%u:%u", f->name, line, col);
	} else {
		sl_buf_printf(b, "%s:%u", f->name, line);
	}
}
