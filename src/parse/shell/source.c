/*
 * source.c: `source FILE` and `. FILE`. A *.sh script named by a path the
 * script fixes (`. ./env.sh`, `source common.sh`, `source
 * ../benchmark_lib.sh`, `source "$(dirname "$0")/../../lib.sh"`, `source
 * "$SCRIPT_DIR/../env.sh"` with SCRIPT_DIR the script's folder as harnesses
 * compute it) is read in place when it is found inside the input's root
 * (sl_source_link says where that is, and refuses what lies outside it):
 * its assignments, exports and functions are the script's from there on,
 * and every value taken from it is placed in it (the file is linked to the
 * script's source, and its offsets are the link's). A bare path and `$0`'s
 * folder are the script's folder; `${BASH_SOURCE[0]}`'s is that of the
 * file being read. Sourced files nest at most MAX_DEPTH deep, and a file
 * sourcing one being sourced, or the script itself (a cycle), is refused
 * with a note (nothing becomes unknown: what it sets, it has set already).
 *
 * Any other file (an unknown or absolute path, outside the root, missing,
 * a loop of symbolic links, a folder, unreadable, too large, not text, a
 * syntax error, a script from standard input) is not read: whatever it
 * may assign is unknown after it, so every variable the script knew
 * before it is spelled $NAME from there on (or takes its --set value),
 * never kept at a value the file may have replaced, and a note of kind
 * source_not_read (check's SL0003) at the command names the file, why,
 * and the variables. Assignments after the
 * command are read as usual.
 */
#include "internal.h"


#define LISTED 8      /* names the note lists before "and N more" */
#define MAX_DEPTH 8   /* sourced files within sourced files */

static int is_name(const char *s)
{
	if (!(*s == '_' || (*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z')))
		return 0;
	for (; *s; s++)
		if (!(*s == '_' || (*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') ||
		      (*s >= '0' && *s <= '9')))
			return 0;
	return 1;
}

static int by_index(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return x < y ? -1 : x > y;
}

/* "the file", or the file's path from the script's folder, `.` and `..`
 * taken out (link.c), when the word names it otherwise
 * (`$(dirname "$0")/../lib/./x/../env.sh` is ../lib/env.sh), onto b. */
static void named(sl_buf *b, const sl_command *c, const char *file)
{
	if (file && (c->argc < 2 || strcmp(file, c->argv[1].text)))
		sl_buf_puts(b, file);
	else
		sl_buf_puts(b, "the file");
}

/* The file is not read: every variable known before it is unknown after. */
static void forget_all(walker *w, const sl_command *c, TSNode node, const char *file, const char *why)
{
	uint32_t at = c->start;
	/* the newest entry of each name set and not unset, in assignment order */
	size_t *idx = NULL, n = 0;
	if (w->vars.nslots)
		idx = sl_calloc(w->vars.nslots, sizeof *idx);
	for (size_t i = 0; i < w->vars.nslots; i++) {
		size_t e = w->vars.slots[i];
		if (e && !w->vars.arr[e - 1].unset && is_name(w->vars.items[e - 1].name))
			idx[n++] = e - 1;
	}
	if (n)
		qsort(idx, n, sizeof *idx, by_index);
	char **names = sl_calloc(n + 1, sizeof *names);
	for (size_t i = 0; i < n; i++)
		names[i] = sl_strdup(w->vars.items[idx[i]].name);
	free(idx);

	sl_buf b = {0};
	sl_buf_printf(&b, "`%s %s`: ", c->argv[0].text, c->argc > 1 ? c->argv[1].text : "");
	named(&b, c, file);
	sl_buf_printf(&b, " is not read (%s)", why);
	for (size_t i = 0; i < n; i++) {
		if (i < LISTED)
			sl_buf_printf(&b, "%s`%s`", i ? ", " : "; unknown after it, since it may set them "
							       "(bind with --set NAME=VALUE): ", names[i]);
		else if (i == LISTED)
			sl_buf_printf(&b, " and %zu more", n - LISTED);
		sh_var_forget(w, names[i], at, ts_node_start_byte(node));
		free(names[i]);
	}
	free(names);
	/* a note of its kind: check reports it (SL0003), so an entry read only
	 * in part never reads as clean */
	sh_break(w, "source_not_read", sh_src_off(&w->v, ts_node_start_byte(node)), b.data);
	sl_buf_free(&b);
}

/* The length of a leading `$( ... )` of t that computes the script's
 * folder (`$(dirname "$0")`, `$(cd "$(dirname "${BASH_SOURCE[0]}")" &&
 * pwd)`, `$(realpath $(dirname $0))`): its closing parenthesis + 1, or 0. */
static size_t script_dir_prefix(const char *t)
{
	if (strncmp(t, "$(", 2))
		return 0;
	int depth = 0;
	size_t i = 0;
	for (; t[i]; i++) {
		if (t[i] == '(')
			depth++;
		else if (t[i] == ')' && --depth == 0)
			break;
	}
	if (!t[i])
		return 0;
	char *in = sl_strndup(t, i + 1);
	int ok = strstr(in, "dirname") && (strstr(in, "$0") || strstr(in, "BASH_SOURCE")) && !strpbrk(in, ";|`");
	free(in);
	return ok ? i + 1 : 0;
}

/* The path of the script sourced, relative to the folder it is named
 * from (*own: the file being read, for `${BASH_SOURCE[0]}`'s folder; else
 * the script's, for `$0`'s and for a bare path, the folder harnesses run
 * from), or NULL with *why. Whether it is inside the input's root is
 * sl_source_link's to say, once the file is found. */
static char *sourced_path(const sl_word *a, int *own, const char **why)
{
	const char *t = a->text;
	size_t skip = script_dir_prefix(t);
	*own = 0;
	if (skip) {
		char *in = sl_strndup(t, skip);
		*own = strstr(in, "BASH_SOURCE") != NULL;
		free(in);
		t += skip;
		if (*t != '/') {
			*why = "its path is not a file of the script's folder";
			return NULL;
		}
		t++;
	} else if (a->flags & (SL_WORD_SYMBOLIC | SL_WORD_PLACEHOLDER)) {
		*why = "its path depends on what the script cannot know";
		return NULL;
	} else if (*t == '/') {
		*why = "an absolute path, outside the entry";
		return NULL;
	}
	if (strpbrk(t, "$`<>*?")) {
		*why = "its path depends on what the script cannot know";
		return NULL;
	}
	if (!sl_ends_with(t, ".sh")) {
		*why = "not a shell script (*.sh)";
		return NULL;
	}
	return sl_strdup(t);
}

/* The file linked to the script at path (one being sourced now). */
static const sl_source *linked(const sl_source *s, const char *path)
{
	for (size_t i = 0; i < s->nlinks; i++)
		if (!strcmp(s->links[i].src->path, path))
			return s->links[i].src;
	return s;
}

/* Reads the script at name (sourced_path's; own: from the folder of the
 * file read now) in place: 0; -1 with *why (the reason, kept in buf) when
 * it is not read; 1 with *why when it is refused but nothing is unknown
 * after it. *file (the caller's): the file's path from the script's
 * folder, as places name it, when it is known. */
static int read_in_place(walker *w, const char *name, int own, const char **why, sl_buf *buf, char **file)
{
	sl_error e = {0};
	uint32_t base;
	const sl_source *from = own && w->nsourcing ? linked(w->v.src, w->sourcing[w->nsourcing - 1]) : NULL;
	const sl_source *f = sl_source_link(w->v.src, from, name, &base, &e);
	if (!f) {
		if (e.file)
			*file = sl_strdup(e.file);
		sl_buf_puts(buf, e.msg ? e.msg : "it cannot be read");
		*why = buf->data;
		sl_error_clear(&e);
		return -1;
	}
	*file = sl_strdup(f->name);
	for (size_t i = 0; i <= w->nsourcing; i++)
		if (!strcmp(i < w->nsourcing ? w->sourcing[i] : w->v.src->path, f->path)) {
			/* what it sets, it has set already (bash would recurse
			 * until it fails): nothing is forgotten */
			*why = "it is being sourced already: a cycle, refused";
			return 1;
		}
	if (w->nsourcing >= MAX_DEPTH) {
		*why = "sourced files nest deeper than 8";
		return -1;
	}
	if (f->nlines > SL_MAX_COMMENT_RUN) {
		*why = "it has more lines than the parser takes";
		return -1;
	}
	/* parsed once for the readings that share the cache (cache.c), and
	 * once for the entries of the run that source the same text
	 * (shared.c) */
	TSTree *tree = sh_cache_tree(w->cache, f->text, f->len);
	int cached = tree != NULL;
	if (!tree && (tree = sh_shared_tree(f->text, f->len)) == NULL) {
		TSParser *parser = ts_parser_new();
		ts_parser_set_language(parser, tree_sitter_bash());
		tree = ts_parser_parse_string(parser, NULL, f->text, (uint32_t)f->len);
		ts_parser_delete(parser);
		if (ts_node_has_error(ts_tree_root_node(tree))) {
			ts_tree_delete(tree);
			*why = "it has a syntax error";
			return -1;
		}
		sh_shared_keep(f->text, f->len, tree);
	}
	if (!cached)
		cached = sh_cache_keep_tree(w->cache, f->text, f->len, tree);
	TSNode root = ts_tree_root_node(tree);
	/* its text is a view of its own, offsets from base; kept (with its
	 * tree, unless the cache holds it) to the end of the reading, since
	 * its functions may be called after it */
	struct sh_sourced sd = {cached ? NULL : tree, {0}};
	sd.v.src = w->v.src;
	sd.v.text = f->text;
	sd.v.len = f->len;
	sd.v.map = sh_shifted;
	sd.v.base = base;
	SL_PUSH(w->sourced, w->nsourced, w->sourced_cap, sd);
	SL_PUSH(w->sourcing, w->nsourcing, w->sourcing_cap, sl_strdup(f->path));
	view saved = w->v;
	w->v = sd.v;
	sh_walk_statement(w, root, 0);
	w->v = saved;
	free(w->sourcing[--w->nsourcing]);
	return 0;
}

void sh_walk_source(walker *w, const sl_command *c, TSNode node)
{
	const char *why = "";
	sl_buf buf = {0};
	int own = 0;
	char *name = sourced_path(&c->argv[1], &own, &why);
	/* the command's words are the script's: copied, as walking the file adds commands */
	sl_command cc;
	memset(&cc, 0, sizeof cc);
	sl_word words[2];
	sl_word_copy(&words[0], &c->argv[0]);
	sl_word_copy(&words[1], &c->argv[1]);
	cc.argv = words;
	cc.argc = 2;
	cc.start = c->start;
	char *file = NULL;
	int rc = name ? read_in_place(w, name, own, &why, &buf, &file) : -1;
	if (rc < 0) {
		forget_all(w, &cc, node, file, why);
	} else if (rc > 0) {
		sl_buf b = {0};
		sl_buf_printf(&b, "`%s %s`: ", cc.argv[0].text, cc.argv[1].text);
		named(&b, &cc, file);
		sl_buf_printf(&b, " is not read again (%s)", why);
		sh_note(w, node, b.data);
		sl_buf_free(&b);
	}
	free(file);
	sl_word_free(&words[0]);
	sl_word_free(&words[1]);
	sl_buf_free(&buf);
	free(name);
}
