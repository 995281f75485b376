/*
 * internal.h: what the files of src/parse/shell/ share, the reader of launch
 * scripts behind sl_shell_parse (../parse.h is the interface; nothing here
 * is seen outside this folder).
 *
 * Launch scripts into commands, with tree-sitter-bash.
 *
 * It walks the syntax tree statement by statement, keeping a table of shell
 * variables as assignments and exports happen, so that "$MODEL_PATH" in a
 * later command expands to what the script set, with origins pointing at the
 * assignment. Nothing is ever executed and nothing is read from the process
 * environment: a variable the script does not set stays symbolic ($X).
 *
 * `for v in a b c; do ...; done` is unrolled (each command once per value,
 * sharing its `stmt`), which is how later stages count replicas.
 *
 * Placeholders such as <host-path> are not shell: unquoted, bash would read
 * them as redirections. The parser is given a copy of the text in which the
 * angle brackets of such placeholders are replaced (same length, so offsets
 * agree), while every value is read from the original text.
 */
#ifndef SL_PARSE_SHELL_INTERNAL_H
#define SL_PARSE_SHELL_INTERNAL_H

#include "../parse.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <tree_sitter/api.h>

const TSLanguage *tree_sitter_bash(void);

/* Node kinds by symbol id: comparing ids, not type names, on the hot path. */
struct sh_symbols {
	int ready;
	/* the grammar's field ids the walk asks children by, found once:
	 * ts_node_child_by_field_name scanned the field names at each call
	 * (3% of a harness's check) */
	struct {
		TSFieldId alternative, body, condition, consequence, descriptor, destination, index, left, name, operator, right, value, variable;
	} f;
	TSSymbol ansi_c_string;
	TSSymbol arithmetic_expansion;
	TSSymbol c_style_for_statement;
	TSSymbol case_statement;
	TSSymbol command;
	TSSymbol command_name;
	TSSymbol command_substitution;
	TSSymbol comment;
	TSSymbol compound_statement;
	TSSymbol concatenation;
	TSSymbol declaration_command;
	TSSymbol do_group;
	TSSymbol expansion;
	TSSymbol file_redirect;
	TSSymbol for_statement;
	TSSymbol function_definition;
	TSSymbol heredoc_redirect;
	TSSymbol herestring_redirect;
	TSSymbol if_statement;
	TSSymbol list;
	TSSymbol pipeline;
	TSSymbol process_substitution;
	TSSymbol program;
	TSSymbol raw_string;
	TSSymbol redirected_statement;
	TSSymbol simple_expansion;
	TSSymbol special_variable_name;
	TSSymbol string;
	TSSymbol string_content;
	TSSymbol subscript;
	TSSymbol array;
	TSSymbol number;
	TSSymbol binary_expression;
	TSSymbol unary_expression;
	TSSymbol parenthesized_expression;
	TSSymbol ternary_expression;
	TSSymbol heredoc_body;
	TSSymbol heredoc_start;
	TSSymbol elif_clause;
	TSSymbol else_clause;
	TSSymbol case_item;
	TSSymbol test_command;
	TSSymbol subshell;
	TSSymbol variable_assignment;
	TSSymbol variable_name;
	TSSymbol unset_command;
	TSSymbol while_statement;
	TSSymbol word;
	TSSymbol translated_string;
	TSSymbol brace_expression;
};
extern _Thread_local struct sh_symbols sh_sym;

/* The text being parsed: the file itself, or the value of a word (bash -c). */
typedef struct {
	const sl_source *src;
	const char *text;
	size_t len;
	const uint32_t *map;   /* NULL: text is src->text; else view offset -> source offset,
	                        * or sh_shifted: offset base + i (a sourced file's whole text) */
	int symbolic;          /* the word read (eval, bash -c) holds an unknown expansion */
	uint32_t base;         /* with map sh_shifted */
} view;

/* The map of a view whose offsets are its file's, shifted by the view's base:
 * a sourced file read in place (source.c). A table of one offset per byte
 * was filled and freed at every `source` of every reading (a 90 KB
 * library sourced 56 times: 35 M instructions). Not NULL, so that a view
 * of it is not the script's own text wherever that is asked (`v->map`). */
extern const uint32_t sh_shifted[1];

/* The elements of an array variable, beside its entry in vartab. */
typedef struct {
	sl_word *elems;   /* owned */
	size_t n;
	int is_array;
	int unset;        /* 1: a positional parameter a function call ends (the caller's,
			   * unknown); 2: `unset NAME` ran (known to be unset: expands empty) */
} varr;

/* Variables in order of assignment: the newest entry of a name is its value
 * (a loop or a reassignment pushes a new one). arr[i] goes with items[i].
 * slots is an open-addressing hash of each name to its newest entry (index
 * + 1; 0 is empty), so that reading a variable costs O(1), not a scan of
 * every assignment so far. The exports in effect are kept as one shared set
 * (in the script's export_sets), made anew only when an exported variable
 * changed since: a command costs O(1), not a copy of every export. */
typedef struct {
	sl_assign *items;
	varr *arr;
	size_t n, cap, arr_cap;
	size_t *slots;
	size_t nslots, used;
	int exports_changed;     /* since the newest of the script's export sets was made */
	size_t export_sets_cap;
	int odd_names;           /* a name of more than one byte not all [A-Za-z0-9_]: sh_stale
	                          * scans the assignments instead of asking the hash */
} vartab;

typedef struct walker walker;
#define SH_KIDSETS 8
/* The i-th child pushed by sh_kids() at base kb (see walker.c). */
#define KID(i) (w->pool[kb + (i)])

struct walker {
	view v;
	sl_script *s;
	size_t cmd_cap, com_cap, asg_cap, note_cap, note_off_cap, in_cap, fn_cap, hd_cap, break_cap;
	vartab vars;
	const sl_binds *binds;   /* --set values; not owned, may be NULL */
	const unsigned *choice;  /* alternatives to follow at undecided conditionals */
	size_t nchoice, pt_cap;
	const struct sl_choice_at *at;  /* alternatives by place, before choice */
	size_t nat;
	size_t *pt_vars;          /* per point of s->points: vars.n when it was met */
	size_t pt_vars_cap;
	unsigned subshell;       /* inside ( ... ): `exit` leaves only the subshell */
	unsigned in_list;        /* inside a && b || c: `|| exit 1` may not run */
	unsigned in_while;       /* inside a loop followed turn by turn (a while, an unrolled for): `break` ends the turn */
	int broke;               /* its `break` ran: the rest of the turn is skipped */
	/* reads of variables not set yet in a command's words (sh_walk_command),
	 * pending until the script sets the variable (export_after_use) */
	struct sh_read { char *name; uint32_t off, cmd; } *reads;
	size_t nreads, reads_cap;
	int in_argv;             /* evaluating a command's words */
	uint32_t argv_cmd;       /* that command's start (source offset) */
	unsigned in_background;  /* inside a statement run with & (`( a ) &`, `a | tee x &`, `f &`) */
	int arith_bound;         /* the arithmetic being evaluated read a --set value */
	size_t defaults_used;    /* ${X:-d} expansions that used d for an unknown X, so far */
	const uint32_t *fixed;   /* conditionals (offsets) read at their first alternative, no point */
	size_t nfixed;
	size_t expanded;         /* bytes of all words built: bounded, whatever the script */
	size_t fields;           /* words handed to commands (sh_eval_fields): bounded too */
	struct fn { char *name; TSNode body; view v; } *fns;  /* functions defined so far, with the
							 * text they are written in (a sourced file's) */
	/* files read by `source` (source.c): each one's tree and view, kept to
	 * the end of the reading (its functions are called later); and the
	 * real paths being sourced now (the script's, then nested ones) */
	struct sh_sourced { TSTree *tree; view v; } *sourced;
	size_t nsourced, sourced_cap;
	char **sourcing;
	size_t nsourcing, sourcing_cap;
	size_t nfns, fns_cap;
	unsigned calls;          /* function calls being walked */
	/* work done in all, against the SL_MAX_* bounds of ../parse.h */
	size_t iterations_total, calls_total, steps, exported_total;
	sl_error *err;
	int failed;
	unsigned depth;
	/* loop context while walking a for body */
	const char *loop_var;
	const sl_word *loop_value;
	unsigned iteration, iterations;
	uint32_t head;
	int in_head;
	TSNode *pool;            /* stack of children being iterated (see sh_kids) */
	size_t pool_n, pool_cap;
	TSTreeCursor cur;        /* reused by sh_kids(): a new cursor allocates */
	int have_cur;
	/* the children of the nodes sh_child() was asked of last, newest first */
	struct sh_kidset { TSNode node; TSNode *kids; uint32_t n; size_t cap; } kidsets[SH_KIDSETS];
	unsigned nkidsets;
	TSNode root;             /* the script's own tree (null for a view of a word) */
	struct sh_relevance *rel;  /* what relevant.c found in it, made when first asked; owned
				    * (unless cache took it) */
	sl_shell_cache *cache;   /* sl_shell_opts' cache; not owned, may be NULL */
};

static inline uint32_t sh_src_off(const view *v, size_t i)
{
	if (i > v->len)
		i = v->len;
	if (!v->map)
		return (uint32_t)i;
	return v->map == sh_shifted ? v->base + (uint32_t)i : v->map[i];
}

/*
 * A word being built. Bytes that came from an unquoted expansion are marked
 * in ifs[]: blanks among them separate words (bash's word splitting).
 * brk[] holds forced word boundaries: between the elements of "${A[@]}".
 */
typedef struct {
	sl_buf b;
	uint32_t *offs;
	size_t cap;
	unsigned flags;
	unsigned char *ifs;      /* per byte: 1 when splittable */
	size_t ifs_cap;
	int splitting;           /* bytes added now are splittable */
	size_t *brk;             /* byte indexes where a new word starts */
	size_t nbrk, brk_cap;
	int overflow;            /* past SL_MAX_WORD_BYTES: the rest was not added */
	int none;                /* held "${A[@]}" of no elements: an empty word vanishes */
	struct wb_elem {         /* array elements added whole: [from, to) and their word's span */
		size_t from, to;
		uint32_t start, end;
	} *els;
	size_t nels, els_cap;
} wbuild;

/* symbols.c */
void sh_symbols_init(void);

/* walker.c */
size_t sh_kids(walker *w, TSNode node, int named, uint32_t *count);
TSNode sh_child(walker *w, TSNode node, uint32_t i);
void sh_kidsets_free(walker *w);
/* Where NODE's text starts: its start byte past any blanks. Inside a
 * double-quoted string, tree-sitter-bash gives the `$`, `${`, `$(`, `$((`
 * or backquote token of an expansion that follows blanks those blanks
 * (`"$A $C"` has no string_content: $C's node starts at the blank), so
 * the blanks are the string's, not the expansion's. */
size_t sh_node_start(const walker *w, TSNode node);
/* The next node of a pre-order walk with cursor c (its first child, else
 * the next sibling of it or of an ancestor); 0 when the walk is over. */
int sh_cursor_next(TSTreeCursor *c);
void sh_fail_at(walker *w, size_t view_off, const char *fmt, const char *arg);
void sh_note(walker *w, TSNode node, const char *what);
/* A structure that changes what runs, at source offset off (once per place
 * and kind: loop iterations and function calls walk it again). */
void sh_break(walker *w, const char *kind, uint32_t off, const char *msg);
/* The same, naming the command it concerns (sl_shell_break.cmd). */
void sh_break_cmd(walker *w, const char *kind, uint32_t off, uint32_t cmd, const char *msg);

/* word.c */
void sh_wb_add(wbuild *wb, const char *s, size_t n, const uint32_t *offs);
void sh_wb_add_view(wbuild *wb, const view *v, size_t i, size_t n);
void sh_wb_add_at(wbuild *wb, const char *s, size_t n, uint32_t off);
void sh_wb_break(wbuild *wb);
void sh_wb_discard(wbuild *wb);
void sh_wb_finish(wbuild *wb, sl_word *out, uint32_t start, uint32_t end);
void sh_add_number(wbuild *wb, long long v, uint32_t at);
void sh_join_words(sl_word *dst, const sl_word *v, size_t n, uint32_t at);
void sh_words_copy(sl_word **dst, size_t *n, size_t *cap, const sl_word *src, size_t k);
void sh_word_concat(sl_word *dst, const sl_word *a, const sl_word *b);

/* vars.c */
const sl_assign *sh_var_get(const walker *w, const char *name, size_t n);
/* The index in w->vars of the newest assignment of a name (an unset too),
 * or (size_t)-1: the table only grows, so it is the largest. */
size_t sh_var_newest(const walker *w, const char *name, size_t n);

const varr *sh_var_array(const walker *w, const char *name, size_t n);
const char *sh_bound(const walker *w, const char *name, size_t n);
sl_script_input *sh_record_input(walker *w, const char *name, size_t n, size_t view_off,
				 const char *val);
void sh_var_set(walker *w, const char *name, const sl_word *value, uint32_t start,
		int exported);
void sh_var_set_array(walker *w, const char *name, sl_word *elems, size_t n, uint32_t start,
		      int exported);
void sh_var_unset(walker *w, const char *name);
/* `unset NAME`: the name is known to be unset after it (empty, its
 * ${NAME-default} taken, no --set value), whatever the caller gave. */
void sh_var_clear(walker *w, const char *name);
/* Whether the newest entry of a name is such an `unset`. */
int sh_var_cleared(const walker *w, const char *name, size_t n);
/* What the script cannot tell (a loop not read, a file sourced): name
 * becomes unknown after at, spelled $NAME (an input, recorded at
 * view_off), or its --set value when bound. */
void sh_var_forget(walker *w, const char *name, uint32_t at, size_t view_off);
const struct sl_export_set *sh_exports(walker *w);
void sh_vars_free(walker *w);
void sh_reads_free(walker *w);

/* expand.c */
void sh_add_unescaped(walker *w, wbuild *wb, size_t a, size_t b, int in_dq);
void sh_eval_node(walker *w, TSNode node, wbuild *wb, int in_dq);

/* arith.c */
int sh_parse_ll(const char *s, size_t n, long long *out);
void sh_eval_arith(walker *w, TSNode node, wbuild *wb);
/* An integer literal or a variable's (`N`, `$N`, `${N}`) known value: 0, or
 * 1 when unknown. at: the view offset it is read at. */
int sh_arith_operand(walker *w, const char *s, size_t n, size_t at, long long *out);

/* fields.c */
void sh_eval_word(walker *w, TSNode node, sl_word *out);
void sh_eval_fields(walker *w, TSNode node, sl_word **v, size_t *n, size_t *cap);

/* assign.c */
void sh_do_assign(walker *w, TSNode node, int exported);
void sh_assign_from_node(walker *w, TSNode node, sl_assign *out);
void sh_walk_declaration(walker *w, TSNode node);
void sh_walk_unset(walker *w, TSNode node);

/* command.c: stmt is the redirected statement whose body node is (its
 * redirections may hold more of the command's words), or NULL */
void sh_walk_command(walker *w, TSNode node, const TSNode *stmt, int background);

/* redirect.c */
/* The target a file_redirect names (`> log`: log), or a null node. */
TSNode sh_redirect_target(TSNode r);
/* Calls f(ctx, word) for each word, in order, that redirect r (a
 * file_redirect or heredoc_redirect) holds but bash reads as an argument
 * of the command: after a file_redirect's target, on a here-document's line. */
typedef void (*sh_word_fn)(void *ctx, TSNode word);
void sh_redirect_words(TSNode r, sh_word_fn f, void *ctx);

/* functions.c */
void sh_walk_call(walker *w, const struct fn *f, const sl_word *args, size_t n, TSNode call);
void sh_walk_shift(walker *w, const sl_word *argv, size_t argc, TSNode call);
/* source.c: `source FILE` / `. FILE` (c is the command just pushed) */
void sh_walk_source(walker *w, const sl_command *c, TSNode node);
void sh_define_function(walker *w, TSNode node);

/* heredoc.c */
void sh_capture_heredocs(walker *w, TSNode stmt);

/* cond.c */
int sh_cond_word(walker *w, TSNode n, sl_word *out);
int sh_cond_value(walker *w, TSNode n, unsigned depth);

/* implied.c */
/* The condition an alternative's label tests ("if C (line N)", "elif C
 * (line N)": C, its length in *len), or NULL for a fallback or a case
 * pattern. */
const char *sh_label_cond(const char *l, size_t *len);
/* Whether the script assigned a variable label reads since point i of
 * the reading was met. */
int sh_stale(const walker *w, size_t i, const char *label);
/* What the decisions taken so far say of alternative k of the n labelled
 * ones (each tried in turn, the earlier known not to run): 1 it runs, 0
 * it does not, -1 not known. */
int sh_implied(const walker *w, char *const *labels, unsigned n, unsigned k);

/* variants.c */
char *sh_label_text(walker *w, size_t a, size_t b, const char *prefix);
/* -2: none read, see variants.c */
int sh_pick_alternative(walker *w, TSNode node, char **labels, unsigned na, int stateless);
int sh_stateless(walker *w, TSNode holder, uint32_t from, uint32_t to);
/* The same, but for plain assignments of variables that no command that
 * may serve reads (relevant.c): they are let through. */
int sh_unread_by_engines(walker *w, TSNode holder, uint32_t from, uint32_t to);

/* cache.c: what every reading of one script's text finds the same, kept
 * across the readings that share an sl_shell_cache: the relevance
 * (relevant.c) and the syntax tree (driver.c), each for the text it was
 * made from (compared by address and length: the entry's own text). */
struct sl_shell_cache {
	const char *text;    /* the script's text the relevance was found in */
	size_t len;
	struct sh_relevance *rel;
	/* trees of the texts read (the script, the other scripts of its
	 * group, the files they source): each parsed without a syntax error
	 * and its nesting checked; owned */
	struct sh_cached_tree { const char *text; size_t len; TSTree *tree; } *trees;
	size_t ntrees, trees_cap;
	/* the children of the nodes of those trees the readings asked for
	 * (sh_children): every reading walks much of the same tree, and a
	 * tree-sitter cursor's steps were a third of a reading of a script
	 * sourcing a 2,300-line library. An open-addressing hash of nodes
	 * (slots: index + 1 into kidsets, 0 empty); all children in one
	 * array, at most SH_MEMO_KIDS of them. */
	unsigned readings;   /* of a script's own text with this cache, so far */
	/* what the readings ask again of the nodes of those trees, each
	 * reading walking much of the same tree: the children of a node
	 * (sh_cache_children: a tree-sitter cursor's steps were a third of a
	 * reading of a script sourcing a 2,300-line library), the names a
	 * conditional's branch assigns (sh_cache_assigned: a fifth of a
	 * harness whose library has case tables). Each an open-addressing
	 * hash of nodes to a run [at, at + n) of an array. */
	struct sh_memo {
		struct sh_memo_set { TSNode node; size_t at; uint32_t n; } *sets;
		size_t nsets, sets_cap;
		size_t *slots, nslots;  /* index + 1 into sets, 0 empty */
	} kid_memo, name_memo;
	TSNode *kids;            /* kid_memo's runs, at most SH_MEMO_KIDS */
	size_t nkids, kids_cap;
	char **names;            /* name_memo's runs; owned */
	size_t nnames, names_cap;
	/* the entry's YAML files, parsed at the first reading that reads
	 * them (sl_shell_cache_yaml): a harness's folder of several scripts
	 * read 395 times parsed its models.yaml 395 times, a third of the
	 * check; owned */
	struct sh_cached_yaml { const sl_source *src; sl_yaml_doc *doc; } *yamls;
	size_t nyamls, yamls_cap;
	/* the trees of strings read as scripts (bash -c "..."), by their
	 * text, which each reading holds in a copy of its own: a harness's
	 * 20 KB string parsed in each of 181 readings was a sixth of its
	 * check; text and tree owned */
	struct sh_word_tree { char *text; size_t len; uint64_t hash; TSTree *tree; } *words;
	size_t nwords, words_cap, word_bytes;
};
#define SH_MEMO_KIDS ((size_t)1 << 19)  /* 16 MB of nodes */
/* memo.c: what c keeps of its trees' nodes, freed (not c itself). */
void sh_cache_memo_free(sl_shell_cache *c);
/* The variable names the assignments within node write, in the order
 * they are first written, when the cache kept them (*n of them: NULL when
 * it did not), or after sh_cache_keep_assigned. */
char *const *sh_cache_assigned(const sl_shell_cache *c, TSNode node, uint32_t *n);
/* Keeps names[0..n) (copied) as node's (see sh_cache_assigned): 1, or 0
 * when the cache does not keep them (as for sh_cache_children). */
int sh_cache_keep_assigned(sl_shell_cache *c, TSNode node, char *const *names, size_t n);
/* The children of node (the cache's when its tree is cached: *n of them),
 * or NULL when it does not keep them (not a cached tree, full, or the
 * first reading: most entries are read once, and keeping them then cost
 * more than it saved). The array holds until the next call. */
const TSNode *sh_cache_children(sl_shell_cache *c, TSNode node, TSTreeCursor *cur, int *have_cur,
				uint32_t *n);
/* The tree cached for text, or NULL (c may be NULL). */
TSTree *sh_cache_tree(const sl_shell_cache *c, const char *text, size_t len);
/* Keeps tree (of text, read without error) in c, which takes it: 1; 0
 * when c is NULL or full (the caller then deletes it). */
int sh_cache_keep_tree(sl_shell_cache *c, const char *text, size_t len, TSTree *tree);
/* The same for a string read as a script, by its text (compared, not its
 * address: a reading's string is gone when the next is made). */
TSTree *sh_cache_word_tree(const sl_shell_cache *c, const char *text, size_t len);
int sh_cache_keep_word_tree(sl_shell_cache *c, const char *text, size_t len, TSTree *tree);

/* shared.c: the trees of sourced files, shared by the entries of a run
 * (by their text). A copy of the tree kept for text (the caller owns
 * it), or NULL. */
TSTree *sh_shared_tree(const char *text, size_t len);
/* Keeps a copy of tree (of text, read without a syntax error) for the
 * entries read next, unless full; the caller keeps its own. */
void sh_shared_keep(const char *text, size_t len, const TSTree *tree);

/* relevant.c: the variables of the script's own tree that a command that
 * may serve reads, directly or through other variables, exports and
 * conditions (made once per reading, kept by the walker). */
struct sh_relevance;
const struct sh_relevance *sh_relevance(walker *w);
int sh_relevant(const struct sh_relevance *r, const char *name, size_t n);
/* Whether a command name is one of the read-only tools of harnesses (echo,
 * sleep, grep, curl, ...): what it reads serves nothing. */
int sh_harness_tool(const char *s, size_t n);
void sh_relevance_free(struct sh_relevance *r);
/* Whether arithmetic text assigns (=, +=, ++, --; not ==, !=, <=, >=). */
int sh_arith_writes(const char *s, size_t len);

/* control.c */
void sh_walk_for(walker *w, TSNode node);
void sh_walk_c_for(walker *w, TSNode node);
void sh_walk_if(walker *w, TSNode node);
void sh_walk_case(walker *w, TSNode node);
void sh_walk_while(walker *w, TSNode node);

/* comments.c */
void sh_walk_comment(walker *w, TSNode node);
void sh_build_blocks(sl_script *s);
int sh_compare_comments(const void *a, const void *b);

/* statement.c */
void sh_walk_children(walker *w, TSNode node);
void sh_walk_statement(walker *w, TSNode node, int background);

/* errors.c */
void sh_report_syntax_error(walker *w, TSNode root);
int sh_check_nesting(walker *w, TSNode root);

#endif
