/*
 * driver.c: the parse driver, behind sl_shell_parse and its variants: the
 * text prepared for tree-sitter (placeholders masked), one parser per thread,
 * the tree of a script read again taken from its cache (cache.c), a walker
 * made and torn down per reading, and scripts freed.
 */
#include "internal.h"

#include <pthread.h>

/* One parser per thread, reused: creating one per script costs more than
 * parsing a typical launch script. A thread other than the main one (the
 * jobs of check -j) deletes its parser when it ends; the main thread's
 * lives as long as the process. */
static pthread_key_t parser_key;
static pthread_once_t parser_key_once = PTHREAD_ONCE_INIT;

static void parser_end(void *p)
{
	ts_parser_delete(p);
}

static void parser_key_make(void)
{
	pthread_key_create(&parser_key, parser_end);
}

static TSParser *thread_parser(void)
{
	static _Thread_local TSParser *p;
	if (!p) {
		p = ts_parser_new();
		ts_parser_set_language(p, tree_sitter_bash());
		pthread_once(&parser_key_once, parser_key_make);
		pthread_setspecific(parser_key, p);
	}
	return p;
}

/*
 * The first comment line past SL_MAX_COMMENT_RUN in a run of comment lines
 * (blank lines do not end a run; any other line does), as an offset into
 * the view, or (size_t)-1 when there is none. libtree-sitter 0.20.7
 * corrupts its heap when one node has 65,535 children, and the comments
 * between two statements are all children of the node around them, with
 * the statements (and braces) beside them: measured with the bare parse
 * (bench/ts_parse_baseline), N comment lines then a command crash from
 * N = 65,534, a command, N comments and a command from 65,533, N comments
 * at the end of the file from 65,535. Lines of a here-document or a quoted
 * string that start with `#` are counted too: a run that long is refused
 * wherever it is (docs/limits.md).
 */
static size_t comment_run_past_limit(const view *v)
{
	size_t run = 0;
	for (size_t i = 0; i < v->len;) {
		size_t j = i;
		while (j < v->len && (v->text[j] == ' ' || v->text[j] == '\t' || v->text[j] == '\r' ||
				      v->text[j] == '\f' || v->text[j] == '\v'))
			j++;
		if (j < v->len && v->text[j] == '#') {
			if (++run > SL_MAX_COMMENT_RUN)
				return j;
		} else if (j < v->len && v->text[j] != '\n') {
			run = 0;
		}
		const char *nl = memchr(v->text + j, '\n', v->len - j);
		i = nl ? (size_t)(nl - v->text) + 1 : v->len;
	}
	return (size_t)-1;
}

/* In a string read again as a script (`eval "$CMD"`, `bash -c "$CMD"`), a
 * `$(...)` is the text of a value the outer shell computed and we never
 * do: bash would see its value (an address, a count) where this text sits,
 * so the quotes inside it (awk '/src/ {print $7}') must not open or close
 * the quotes of the string around it. Inside the substitution each quote
 * and what it quotes is masked (same length, so offsets agree); its own
 * parentheses outside quotes stay, balanced. Returns the end of the span. */
static size_t mask_substitution(char *t, size_t len, size_t i)
{
	unsigned depth = 0;
	for (size_t k = i + 1; k < len; k++) {
		char ch = t[k];
		if (ch == '(') {
			depth++;
		} else if (ch == ')') {
			if (--depth == 0)
				return k + 1;
		} else if (ch == '\\' && k + 1 < len) {
			t[k] = '_';
			if (t[k + 1] != '\n')
				t[k + 1] = '_';
			k++;
		} else if (ch == '\'' || ch == '"' || ch == '`') {
			size_t e = k + 1;
			while (e < len && t[e] != ch)
				e += (ch != '\'' && t[e] == '\\' && e + 1 < len) ? 2 : 1;
			if (e >= len)
				return len; /* unbalanced: the parser says so */
			for (size_t q = k; q <= e; q++)
				if (t[q] != '\n')
					t[q] = '_';
			k = e;
		}
	}
	return len;
}

static void mask_substitutions(char *t, size_t len)
{
	for (size_t i = 0; i + 1 < len;) {
		if (t[i] == '$' && t[i + 1] == '(' && !(i + 2 < len && t[i + 2] == '('))
			i = mask_substitution(t, len, i);
		else
			i++;
	}
}

/* The text as tree-sitter is given it: placeholders masked, a last
 * backslash-newline a blank (same length, so offsets agree), and in a
 * string read again, the insides of its command substitutions (above).
 * Caller frees. */
static char *masked_text(const view *v)
{
	/* Protect placeholders from being read as redirections (see top). */
	char *masked = sl_strndup(v->text, v->len);
	for (size_t i = 0; i < v->len;) {
		size_t at, n = sl_find_placeholder(masked + i, v->len - i, &at);
		if (!n)
			break;
		/* only unspaced placeholders matter outside quotes; inside quotes
		 * bash reads < and > literally anyway, so masking is harmless */
		masked[i + at] = '_';
		masked[i + at + n - 1] = '_';
		for (size_t k = i + at; k < i + at + n; k++)
			if (masked[k] == ' ')
				masked[k] = '_';
		i += at + n;
	}
	if (v->map)
		mask_substitutions(masked, v->len);
	/* A backslash-newline just before the end of the text continues onto
	 * nothing: bash ends the command there, tree-sitter-bash calls it an
	 * error. Read it as a blank (same length, so offsets agree). */
	{
		size_t e = v->len;
		while (e > 0 && (masked[e - 1] == '\n' || masked[e - 1] == '\r' || masked[e - 1] == ' ' ||
				 masked[e - 1] == '\t'))
			e--;
		if (e > 0 && masked[e - 1] == '\\' && (e < 2 || masked[e - 2] != '\\'))
			masked[e - 1] = ' ';
	}
	return masked;
}

/* words: for a string read as a script (a view with a map), the cache
 * that keeps its tree by its text; the walk itself is given none (what the
 * cache keeps of the script's own reading is not the string's) */
static int parse_view(const view *v, const sl_shell_opts *opts, sl_shell_cache *words, sl_script **out,
		      sl_error *err)
{
	*out = NULL;
	sh_symbols_init();
	/* the script's own text, read again (an entry's variants and probes):
	 * its tree from the cache, parsed and checked once; a string of it
	 * (bash -c "...") likewise, by its text */
	sl_shell_cache *cache = opts && !v->map ? opts->cache : NULL;
	TSTree *tree = words ? sh_cache_word_tree(words, v->text, v->len) : sh_cache_tree(cache, v->text, v->len);
	int cached = tree != NULL;
	size_t too_many = (size_t)-1;
	TSNode root = {0};
	if (tree) {
		root = ts_tree_root_node(tree);
	} else if ((too_many = comment_run_past_limit(v)) == (size_t)-1) {
		/* input that would crash the parser never reaches it */
		char *masked = masked_text(v);
		TSParser *p = thread_parser();
		ts_parser_reset(p);
		tree = ts_parser_parse_string(p, NULL, masked, (uint32_t)v->len);
		root = ts_tree_root_node(tree);
		free(masked);
	}

	sl_script *s = sl_calloc(1, sizeof *s);
	s->src = v->src;
	walker w;
	memset(&w, 0, sizeof w);
	w.v = *v;
	w.s = s;
	w.err = err;
	if (opts) {
		w.binds = opts->binds;
		w.choice = opts->choice;
		w.nchoice = opts->nchoice;
		w.fixed = opts->fixed;
		w.nfixed = opts->nfixed;
		w.cache = opts->cache;
		if (w.cache && !v->map)
			w.cache->readings++;
		w.at = opts->at;
		w.nat = opts->nat;
	}
	if (!tree)
		sh_fail_at(&w, too_many, "more than %s comment lines in a row: the limit (docs/limits.md); "
			   "put a statement between them", "65000");
	else if (!cached && ts_node_has_error(root))
		sh_report_syntax_error(&w, root);
	else if (cached || !sh_check_nesting(&w, root)) {
		if (!v->map)
			w.root = root;
		/* kept before the walk: a failure of the walk is this reading's */
		cached = cached || (words ? sh_cache_keep_word_tree(words, v->text, v->len, tree)
					  : sh_cache_keep_tree(cache, v->text, v->len, tree));
		sh_walk_statement(&w, root, 0);
	}
	sh_relevance_free(w.rel);
	sh_vars_free(&w);
	sh_reads_free(&w);
	free(w.pt_vars);
	for (size_t i = 0; i < w.nfns; i++)
		free(w.fns[i].name);
	free(w.fns);
	for (size_t i = 0; i < w.nsourced; i++) {
		if (w.sourced[i].tree)  /* NULL: the cache's */
			ts_tree_delete(w.sourced[i].tree);
	}
	free(w.sourced);
	for (size_t i = 0; i < w.nsourcing; i++)
		free(w.sourcing[i]);
	free(w.sourcing);
	free(w.pool);
	sh_kidsets_free(&w);
	if (w.have_cur)
		ts_tree_cursor_delete(&w.cur);
	if (tree && !cached)
		ts_tree_delete(tree);
	if (w.failed) {
		sl_script_free(s);
		return SL_ERR_INPUT;
	}
	if (s->ncomments)
		qsort(s->comments, s->ncomments, sizeof *s->comments, sh_compare_comments);
	sh_build_blocks(s);
	*out = s;
	return SL_OK;
}

int sl_shell_parse(const sl_source *src, sl_script **out, sl_error *err)
{
	return sl_shell_parse_with(src, NULL, out, err);
}

int sl_shell_parse_with(const sl_source *src, const sl_shell_opts *opts, sl_script **out,
			sl_error *err)
{
	view v = {src, src->text, src->len, NULL, 0, 0};
	return parse_view(&v, opts, NULL, out, err);
}

int sl_shell_parse_word(const sl_source *src, const sl_word *w, sl_shell_cache *cache, sl_script **out,
			sl_error *err)
{
	view v = {src, w->text, w->len, w->offs, (w->flags & SL_WORD_SYMBOLIC) != 0, 0};
	return parse_view(&v, NULL, cache, out, err);
}

static void free_assign(sl_assign *a)
{
	free(a->name);
	sl_word_free(&a->value);
}

void sl_script_free(sl_script *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->ncmds; i++) {
		sl_command *c = &s->cmds[i];
		for (size_t k = 0; k < c->argc; k++)
			sl_word_free(&c->argv[k]);
		free(c->argv);
		for (size_t k = 0; k < c->nprefix; k++)
			free_assign(&c->prefix[k]);
		free(c->prefix);
		/* c->exported is one of export_sets, freed below */
		free(c->loop_var);
		sl_word_free(&c->loop_value);
	}
	free(s->cmds);
	for (size_t i = 0; i < s->nexport_sets; i++) {
		for (size_t k = 0; k < s->export_sets[i].n; k++)
			free_assign(&s->export_sets[i].items[k]);
		free(s->export_sets[i].items);
	}
	free(s->export_sets);
	for (size_t i = 0; i < s->ncomments; i++)
		free(s->comments[i].text);
	free(s->comments);
	free(s->blocks);
	for (size_t i = 0; i < s->nassigns; i++)
		free_assign(&s->assigns[i]);
	free(s->assigns);
	for (size_t i = 0; i < s->nnotes; i++)
		free(s->notes[i]);
	for (size_t i = 0; i < s->nbreaks; i++)
		free(s->breaks[i].msg);
	free(s->breaks);
	for (size_t i = 0; i < s->ninputs; i++) {
		free(s->inputs[i].name);
		free(s->inputs[i].value);
	}
	free(s->inputs);
	for (size_t i = 0; i < s->nheredocs; i++) {
		free(s->heredocs[i].target);
		sl_word_free(&s->heredocs[i].body);
		free(s->heredocs[i].spans);
	}
	free(s->heredocs);
	for (size_t i = 0; i < s->npoints; i++) {
		for (unsigned k = 0; k < s->points[i].n; k++)
			free(s->points[i].labels[k]);
		free(s->points[i].labels);
	}
	free(s->points);
	for (size_t i = 0; i < s->nfunctions; i++)
		free(s->functions[i]);
	free(s->functions);
	free(s->notes);
	free(s->note_offs);
	free(s);
}
