/*
 * relevant.c: which variables of a script the served model may read, a
 * def-use walk over its syntax tree. A conditional whose alternatives
 * assign only variables outside that set (a result dir, a log path, the
 * command string of the benchmark client) and otherwise only run commands
 * is no decision about what is served (variants.c lets it be probed and
 * fixed like a stateless one, entry/variants.c), so it does not multiply
 * the variants.
 *
 * A variable is relevant when
 * - a command that may serve, launch or configure reads it: any command but
 *   the read-only tools of harnesses (echo, mkdir, sleep, grep, ...) writing
 *   nowhere but a log or /dev; a call of the script's functions, an unknown
 *   program, a computed name, a here-document or redirection into a file
 *   that is not a log all count (its words, prefix assignments, redirections);
 * - it is exported (services run with the exports as their env), or named
 *   as the environment's variables are (CUDA_*, NCCL_*, VLLM_*, PATH...:
 *   inherited, they are exported without the script saying so), where a
 *   command that may serve can start after it: an export written after the
 *   last such command in the text, in no loop or function body (which may
 *   run again, or anywhere), reaches no server (`export
 *   SWEBENCH_AGENT_WORKERS=32` beside the eval run after the server is up);
 * - a relevant variable's assignment reads it (X=...$Y..., X+=, for X in $Y,
 *   ${X:=$Y}, arithmetic that assigns), or a condition around such an
 *   assignment or such a command reads it (control dependence: `if [ "$A" ]`
 *   around `ARGS+=(--foo)` makes A relevant), or around an exit, return,
 *   break or continue (whether a server starts at all).
 * It is flow-insensitive (every assignment of a name anywhere counts, in the
 * script and its function bodies), so it over-approximates: what it calls
 * irrelevant, no engine command of any variant can read. What it cannot
 * follow makes every variable relevant (the analysis then decides nothing):
 * eval, `${!X}` and namerefs, `set -a`, `set --`, `let`, a file sourced that
 * may be read in place (its statements read variables this walk does not
 * see), and nesting deeper than it walks.
 */
#include "internal.h"

#include <strings.h>

#define MAX_DEPTH 200  /* syntax nesting walked; deeper: everything relevant */

struct sh_relevance {
	char **names;        /* interned; owned */
	unsigned char *rel;  /* per name */
	size_t n, cap, rel_cap;
	size_t *slots;       /* name -> index + 1 */
	size_t nslots;
	struct dep { size_t from, to; } *deps;  /* from relevant => to relevant */
	size_t ndeps, dcap;
	size_t *ctx;         /* names the enclosing conditions read */
	size_t nctx, ctx_cap;
	TSSymbol *kinds;     /* collect(): the kind of each node on the path walked */
	size_t nkinds, kinds_cap;
	size_t *tmp;         /* reads being collected */
	size_t ntmp, tmp_cap;
	int all;
	const char *text;
	char **fns;          /* the names of the functions the tree defines; owned */
	size_t nfns, fns_cap;
	/* exports (and env-like assignments) met, decided after the walk:
	 * relevant when a command that may serve starts after them */
	struct late { size_t name, off; int inside; } *late;
	size_t nlate, late_cap;
	size_t last_serve;   /* the start of the last command that may serve, + 1; 0: none */
	unsigned inside;     /* loop and function bodies around the node walked */
};

/* name is exported (or env-like) at off: relevant when it may reach a
 * server (close_deps). */
static void exported_at(struct sh_relevance *r, size_t name, size_t off)
{
	struct late l = {name, off, r->inside > 0};
	SL_PUSH(r->late, r->nlate, r->late_cap, l);
}

/* A command that may serve starts at off. */
static void serves_at(struct sh_relevance *r, size_t off)
{
	if (off + 1 > r->last_serve)
		r->last_serve = off + 1;
}

static size_t hash(const char *s, size_t n)
{
	size_t h = 1469598103934665603u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211u;
	return h;
}

static void rehash(struct sh_relevance *r)
{
	free(r->slots);
	r->nslots = r->nslots ? r->nslots * 2 : 64;
	r->slots = sl_calloc(r->nslots, sizeof *r->slots);
	for (size_t i = 0; i < r->n; i++) {
		size_t h = hash(r->names[i], strlen(r->names[i])) & (r->nslots - 1);
		while (r->slots[h])
			h = (h + 1) & (r->nslots - 1);
		r->slots[h] = i + 1;
	}
}

/* The index of a name, added when new. */
static size_t intern(struct sh_relevance *r, const char *s, size_t n)
{
	if (!r->nslots || (r->n + 1) * 2 > r->nslots)
		rehash(r);
	size_t h = hash(s, n) & (r->nslots - 1);
	while (r->slots[h]) {
		const char *x = r->names[r->slots[h] - 1];
		if (strlen(x) == n && !memcmp(x, s, n))
			return r->slots[h] - 1;
		h = (h + 1) & (r->nslots - 1);
	}
	SL_PUSH(r->names, r->n, r->cap, sl_strndup(s, n));
	sl_grow((void **)&r->rel, &r->rel_cap, r->n, 1);
	r->rel[r->n - 1] = 0;
	r->slots[h] = r->n;
	return r->n - 1;
}

static int lookup(const struct sh_relevance *r, const char *s, size_t n, size_t *out)
{
	if (!r->nslots)
		return 0;
	size_t h = hash(s, n) & (r->nslots - 1);
	while (r->slots[h]) {
		const char *x = r->names[r->slots[h] - 1];
		if (strlen(x) == n && !memcmp(x, s, n)) {
			*out = r->slots[h] - 1;
			return 1;
		}
		h = (h + 1) & (r->nslots - 1);
	}
	return 0;
}

/* Whether [s, s+n) holds the bytes of w. */
static int holds(const char *s, size_t n, const char *w)
{
	size_t k = strlen(w);
	for (size_t i = 0; i + k <= n; i++)
		if (!memcmp(s + i, w, k))
			return 1;
	return 0;
}

static const char *txt(const struct sh_relevance *r, TSNode n, size_t *len)
{
	*len = ts_node_end_byte(n) - ts_node_start_byte(n);
	return r->text + ts_node_start_byte(n);
}

/* The positional parameters ($1, $@, $#...) are one name. */
#define POSITIONAL "@"

/* The name a variable_name or special_variable_name node reads. */
static size_t name_of(struct sh_relevance *r, TSNode n)
{
	size_t len;
	const char *s = txt(r, n, &len);
	if (ts_node_symbol(n) == sh_sym.special_variable_name || (len && s[0] >= '0' && s[0] <= '9'))
		return intern(r, POSITIONAL, 1);
	return intern(r, s, len);
}

/* Whether a variable_name whose parent is of kind k, reached under field
 * (NULL for none), is a name written, not read: an assignment's lhs,
 * `local X`, `export X`, `unset X`, `for X in`. (The parent is told by the
 * walk: ts_node_parent walks down from the root each time.) */
static int is_written_name(TSSymbol k, const char *field)
{
	if (k == sh_sym.variable_assignment)
		return field && !strcmp(field, "name");
	if (k == sh_sym.declaration_command || k == sh_sym.unset_command)
		return 1;
	if (k == sh_sym.for_statement)
		return field && !strcmp(field, "variable");
	return 0;
}

/* Adds to r->tmp the names node's subtree reads. */
static void collect(struct sh_relevance *r, TSNode node)
{
	TSTreeCursor c = ts_tree_cursor_new(node);
	size_t depth = 0;
	r->nkinds = 0;
	SL_PUSH(r->kinds, r->nkinds, r->kinds_cap, ts_node_symbol(node));
	for (;;) {
		TSNode x = ts_tree_cursor_current_node(&c);
		TSSymbol k = ts_node_symbol(x);
		if ((k == sh_sym.variable_name || k == sh_sym.special_variable_name) &&
		    !(depth && is_written_name(r->kinds[depth - 1], ts_tree_cursor_current_field_name(&c)))) {
			size_t i = name_of(r, x);
			SL_PUSH(r->tmp, r->ntmp, r->tmp_cap, i);
		} else if (k == sh_sym.expansion) {
			size_t len;
			const char *s = txt(r, x, &len);
			if (len > 2 && s[2] == '!')
				r->all = 1;  /* ${!X}: whatever X names */
		} else if (k == sh_sym.simple_expansion) {
			size_t len;
			const char *s = txt(r, x, &len);
			if (len == 2 && s[1] >= '0' && s[1] <= '9') {
				size_t i = intern(r, POSITIONAL, 1);
				SL_PUSH(r->tmp, r->ntmp, r->tmp_cap, i);
			}
		}
		if (ts_tree_cursor_goto_first_child(&c)) {
			depth++;
			r->nkinds = depth;
			SL_PUSH(r->kinds, r->nkinds, r->kinds_cap, ts_node_symbol(ts_tree_cursor_current_node(&c)));
			continue;
		}
		int more = 0;
		while (!(more = ts_tree_cursor_goto_next_sibling(&c))) {
			if (!ts_tree_cursor_goto_parent(&c))
				break;
			depth--;
		}
		if (!more)
			break;
		r->kinds[depth] = ts_node_symbol(ts_tree_cursor_current_node(&c));
	}
	ts_tree_cursor_delete(&c);
}

/* collect() of a word a redirection holds for its command (redirect.c) */
static void collect_word(void *r, TSNode word)
{
	collect(r, word);
}

/* The reads collected since mark, with the enclosing conditions' names,
 * made relevant (a command that may serve reads them). */
static void seed(struct sh_relevance *r, size_t mark)
{
	for (size_t i = mark; i < r->ntmp; i++)
		r->rel[r->tmp[i]] = 1;
	for (size_t i = 0; i < r->nctx; i++)
		r->rel[r->ctx[i]] = 1;
	r->ntmp = mark;
}

/* `to` is written from the reads collected since mark and the conditions. */
static void depend(struct sh_relevance *r, size_t to, size_t mark)
{
	for (size_t i = mark; i < r->ntmp; i++) {
		struct dep d = {to, r->tmp[i]};
		SL_PUSH(r->deps, r->ndeps, r->dcap, d);
	}
	for (size_t i = 0; i < r->nctx; i++) {
		struct dep d = {to, r->ctx[i]};
		SL_PUSH(r->deps, r->ndeps, r->dcap, d);
	}
	r->ntmp = mark;
}

static int word_is(const struct sh_relevance *r, TSNode n, const char *w)
{
	size_t len;
	const char *s = txt(r, n, &len);
	return len == strlen(w) && !memcmp(s, w, len);
}

/* A destination text that only logs (or is a descriptor or /dev). */
static int log_only(const char *s, size_t n)
{
	while (n && (*s == '"' || *s == '\'')) {
		s++;
		n--;
	}
	if (!n || *s == '&' || (*s >= '0' && *s <= '9' && n == 1) || (n >= 5 && !memcmp(s, "/dev/", 5)))
		return 1;
	for (size_t i = 0; i + 3 <= n; i++)
		if (!strncasecmp(s + i, "log", 3))
			return 1;
	return 0;
}

/* The read-only tools of harnesses: what they read serves nothing (their
 * output redirected into a file that is not a log is another matter,
 * redirected() below). */
int sh_harness_tool(const char *s, size_t n)
{
	static const char *const names[] = {
		"echo", "printf", "mkdir", "sleep", "ls", "cat", "wait", "kill", "pkill", "true", "false", ":",
		"date", "nvidia-smi", "rocm-smi", "amd-smi", "grep", "egrep", "head", "tail", "wc", "sort",
		"uniq", "cut", "tr", "du", "df", "sync", "ps", "pgrep", "hostname", "whoami", "id", "uname",
		"nproc", "lscpu", "free", "shift", "[", "test", "tee",
		"touch", "curl", "basename", "dirname", "realpath", "readlink", "which", "type", "command",
		"jq", "set",
	};
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (strlen(names[i]) == n && !memcmp(names[i], s, n))
			return 1;
	return 0;
}

int sl_shell_client_name(const char *s, size_t n)
{
	static const char *const clients[] = {"bench", "eval", "client", "test", "wait", "load", "warmup",
					      "profile", "run_", "replay"};
	for (size_t i = 0; i < sizeof clients / sizeof *clients; i++)
		if (holds(s, n, clients[i]))
			return 1;
	return 0;
}

/* Whether the script's tree defines a function of this name. */
static int defined(const struct sh_relevance *r, const char *s, size_t n)
{
	for (size_t i = 0; i < r->nfns; i++)
		if (strlen(r->fns[i]) == n && !memcmp(r->fns[i], s, n))
			return 1;
	return 0;
}

/* Whether a simple command may serve or configure what is served; sets
 * r->all for what the walk cannot follow. A program the script does not
 * define whose name says it is a client, an evaluator or a wait
 * (run_benchmark_serving, wait_for_server_ready, run_eval: the functions
 * of a harness library that is not read) is never an engine to normalize
 * (sl_shell_client_name), whatever its arguments. */
static int may_serve(struct sh_relevance *r, TSNode cmd)
{
	TSNode nm = ts_node_child_by_field_id(cmd, sh_sym.f.name);
	if (ts_node_is_null(nm))
		return 0;  /* assignments alone */
	if (ts_node_named_child_count(nm) == 1 &&
	    ts_node_symbol(ts_node_named_child(nm, 0)) == sh_sym.arithmetic_expansion)
		return 0;  /* (( N > 1 )): a test (what it writes: scan()) */
	if (ts_node_named_child_count(nm) != 1 || strcmp(ts_node_type(ts_node_named_child(nm, 0)), "word"))
		return 1;  /* a computed name: anything */
	size_t n;
	const char *s = txt(r, nm, &n);
	uint32_t k = ts_node_named_child_count(cmd);
	if ((n == 4 && !memcmp(s, "eval", 4)) || (n == 3 && !memcmp(s, "let", 3))) {
		r->all = 1;
		return 1;
	}
	if ((n == 6 && !memcmp(s, "source", 6)) || (n == 1 && s[0] == '.')) {
		/* a file that may be read in place (a *.sh of the script's folder,
		 * source.c): its statements read what this walk does not see */
		for (uint32_t i = 0; i < k; i++) {
			TSNode a = ts_node_named_child(cmd, i);
			if (ts_node_eq(a, nm) || ts_node_symbol(a) == sh_sym.variable_assignment)
				continue;
			size_t al;
			const char *at = txt(r, a, &al);
			while (al && (at[al - 1] == '"' || at[al - 1] == '\''))
				al--;
			int slashes = 0;
			for (size_t q = 0; q < al; q++)
				if (at[q] == '$' || at[q] == ')')
					slashes = 0;
				else if (at[q] == '/')
					slashes++;
			int far = al && (at[0] == '/' || holds(at, al, "../") || slashes > 1);
			if (!far && al >= 3 && !memcmp(at + al - 3, ".sh", 3))
				r->all = 1;
			break;
		}
		return 0;
	}
	if (n == 3 && !memcmp(s, "set", 3))
		for (uint32_t i = 0; i < k; i++) {
			TSNode a = ts_node_named_child(cmd, i);
			if (word_is(r, a, "--") || word_is(r, a, "-a") || word_is(r, a, "allexport"))
				r->all = 1;
		}
	/* exit, return, break, continue: whether what follows runs at all
	 * (their conditions decide whether a server starts) */
	if ((n == 4 && !memcmp(s, "exit", 4)) || (n == 6 && !memcmp(s, "return", 6)) ||
	    (n == 5 && !memcmp(s, "break", 5)) || (n == 8 && !memcmp(s, "continue", 8)))
		return 1;
	if (!sh_harness_tool(s, n))
		return defined(r, s, n) || !sl_shell_client_name(s, n);
	if ((n == 6 && !memcmp(s, "printf", 6)) || (n == 4 && !memcmp(s, "curl", 4)) ||
	    (n == 3 && !memcmp(s, "tee", 3))) {
		/* printf -v assigns; curl -o and tee write files */
		for (uint32_t i = 0; i < k; i++) {
			TSNode a = ts_node_named_child(cmd, i);
			if (ts_node_eq(a, nm))
				continue;
			size_t al;
			const char *at = txt(r, a, &al);
			if (n == 3 && al && at[0] != '-' && !log_only(at, al))
				return 1;
			if (n != 3 && (word_is(r, a, "-v") || word_is(r, a, "-o") || word_is(r, a, "--output")))
				return 1;
		}
	}
	return 0;
}

/* Whether a command is exit, return, break or continue: it decides whether
 * what follows runs, and starts nothing itself. */
static int ends_control(const struct sh_relevance *r, TSNode cmd)
{
	TSNode nm = ts_node_child_by_field_id(cmd, sh_sym.f.name);
	return !ts_node_is_null(nm) && (word_is(r, nm, "exit") || word_is(r, nm, "return") ||
					word_is(r, nm, "break") || word_is(r, nm, "continue"));
}

/* Whether the redirections of a redirected statement write a file that is
 * not a log (a config a service may read), or feed it a here-document (the
 * text of a file, `cat <<EOF > cfg.yaml`, or of a program's input). */
static int redirected(struct sh_relevance *r, TSNode st)
{
	uint32_t k = ts_node_named_child_count(st);
	for (uint32_t i = 0; i < k; i++) {
		TSNode x = ts_node_named_child(st, i);
		if (ts_node_symbol(x) == sh_sym.heredoc_redirect)
			return 1;  /* `cat <<EOF >> $CONFIG` (its file_redirect is inside) */
		if (ts_node_symbol(x) != sh_sym.file_redirect)
			continue;
		size_t n;
		const char *s = txt(r, x, &n);
		size_t p = 0;
		while (p < n && ((s[p] >= '0' && s[p] <= '9') || s[p] == '&'))
			p++;
		if (p >= n || s[p] != '>')
			continue;  /* input */
		while (p < n && (s[p] == '>' || s[p] == '|' || s[p] == '&' || s[p] == ' ' || s[p] == '\t'))
			p++;
		if (!log_only(s + p, n - p))
			return 1;
	}
	return 0;
}

/* Whether arithmetic text assigns (=, +=, ++, --; not ==, !=, <=, >=). */
int sh_arith_writes(const char *s, size_t len)
{
	for (size_t i = 0; i + 1 < len; i++)
		if ((s[i] == '+' && s[i + 1] == '+') || (s[i] == '-' && s[i + 1] == '-') ||
		    (s[i] == '=' && s[i + 1] != '=' && (!i || !strchr("=!<>", s[i - 1]))))
			return 1;
	return 0;
}

/* Arithmetic text [a, b) that assigns: every name in it is written from
 * every other and from the conditions (which one is written is not told
 * apart: it over-approximates). */
/* Pushes on r->tmp every name of arithmetic text [a, b). */
static void idents(struct sh_relevance *r, size_t a, size_t b)
{
	for (size_t i = a; i < b;) {
		char ch = r->text[i];
		if (ch == '_' || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z')) {
			size_t j = i;
			while (j < b && (r->text[j] == '_' || (r->text[j] >= 'a' && r->text[j] <= 'z') ||
					 (r->text[j] >= 'A' && r->text[j] <= 'Z') || (r->text[j] >= '0' && r->text[j] <= '9')))
				j++;
			size_t x = intern(r, r->text + i, j - i);
			SL_PUSH(r->tmp, r->ntmp, r->tmp_cap, x);
			i = j;
		} else if (ch >= '0' && ch <= '9') {
			while (i < b && ((r->text[i] >= '0' && r->text[i] <= '9') || r->text[i] == 'x' ||
					 (r->text[i] >= 'a' && r->text[i] <= 'f') || (r->text[i] >= 'A' && r->text[i] <= 'F')))
				i++;
		} else {
			i++;
		}
	}
}

static void arith_writes(struct sh_relevance *r, size_t a, size_t b)
{
	if (!sh_arith_writes(r->text + a, b - a))
		return;
	size_t mark = r->ntmp;
	idents(r, a, b);
	size_t end = r->ntmp;
	for (size_t i = mark; i < end; i++) {
		for (size_t q = mark; q < end; q++) {
			struct dep d = {r->tmp[i], r->tmp[q]};
			SL_PUSH(r->deps, r->ndeps, r->dcap, d);
		}
		for (size_t q = 0; q < r->nctx; q++) {
			struct dep d = {r->tmp[i], r->ctx[q]};
			SL_PUSH(r->deps, r->ndeps, r->dcap, d);
		}
	}
	r->ntmp = mark;
}

static void scan(struct sh_relevance *r, TSNode node, unsigned depth);

/* The children [from, to) of node, through a cursor (ts_node_child(i)
 * walks from the first child each time: quadratic over a long script). */
static void scan_kids(struct sh_relevance *r, TSNode node, uint32_t from, uint32_t to, unsigned depth)
{
	TSTreeCursor c = ts_tree_cursor_new(node);
	if (ts_tree_cursor_goto_first_child(&c)) {
		uint32_t i = 0;
		do {
			if (i >= to || r->all)
				break;
			TSNode x = ts_tree_cursor_current_node(&c);
			if (i >= from && ts_node_is_named(x))
				scan(r, x, depth + 1);
			i++;
		} while (ts_tree_cursor_goto_next_sibling(&c));
	}
	ts_tree_cursor_delete(&c);
}

/* Scans [from, to) of node under the reads of its children [cfrom, cto)
 * as a condition. */
static void guarded(struct sh_relevance *r, TSNode node, uint32_t cfrom, uint32_t cto, uint32_t from,
		    uint32_t to, unsigned depth)
{
	scan_kids(r, node, cfrom, cto, depth);
	size_t mark = r->ntmp, saved = r->nctx;
	for (uint32_t i = cfrom; i < cto; i++)
		collect(r, ts_node_child(node, i));
	for (size_t i = mark; i < r->ntmp; i++)
		SL_PUSH(r->ctx, r->nctx, r->ctx_cap, r->tmp[i]);
	r->ntmp = mark;
	scan_kids(r, node, from, to, depth);
	r->nctx = saved;
}

/* Names the environment the script runs in may export already (an engine's
 * or its runtime's variables): assigned without `export`, the servers still
 * see the new value in bash, whatever the model says. */
static int env_like(const char *s, size_t n)
{
	static const char *const prefixes[] = {
		"CUDA_", "NCCL_", "VLLM_", "SGLANG_", "SGL_", "TRTLLM_", "TLLM_", "HF_", "HUGGING", "TORCH",
		"PYTORCH_", "OMP_", "NVIDIA_", "ROCR_", "HIP_", "HSA_", "AMD_", "GLOO_", "UCX_", "MC_",
		"LMCACHE_", "DYN_", "NIXL_", "TRANSFORMERS_", "TOKENIZERS_", "MOONCAKE_", "LD_", "PYTHON",
		"TRITON_", "DG_", "FLASHINFER_", "AITER_", "MORI_", "RCCL_", "NVSHMEM_", "UCC_", "MPI",
		"OMPI_", "PMIX_", "SLURM_", "XDG_", "TMPDIR", "HOME", "PATH", "LANG", "LC_",
	};
	for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++) {
		size_t k = strlen(prefixes[i]);
		if (n >= k && !memcmp(s, prefixes[i], k))
			return 1;
	}
	return 0;
}

static void assignment(struct sh_relevance *r, TSNode a, int exported)
{
	TSNode lhs = ts_node_named_child(a, 0);
	int indexed = 0;
	if (!ts_node_is_null(lhs) && ts_node_symbol(lhs) == sh_sym.subscript) {
		lhs = ts_node_child_by_field_id(lhs, sh_sym.f.name);
		indexed = 1;
	}
	if (ts_node_is_null(lhs) || ts_node_symbol(lhs) != sh_sym.variable_name)
		return;
	size_t to = name_of(r, lhs), mark = r->ntmp;
	size_t ll;
	const char *ls = txt(r, lhs, &ll);
	if (exported || env_like(ls, ll))
		exported_at(r, to, ts_node_start_byte(a));
	collect(r, a);  /* the value (and an index) */
	size_t len;
	const char *s = txt(r, a, &len);
	if (indexed || holds(s, len, "+="))
		SL_PUSH(r->tmp, r->ntmp, r->tmp_cap, to);
	depend(r, to, mark);
}

static void scan(struct sh_relevance *r, TSNode node, unsigned depth)
{
	if (r->all)
		return;
	if (depth > MAX_DEPTH) {
		r->all = 1;
		return;
	}
	TSSymbol k = ts_node_symbol(node);
	uint32_t n = ts_node_child_count(node);
	if (k == sh_sym.if_statement || k == sh_sym.elif_clause) {
		/* if/elif COND then BODY: the condition is what comes before `then` */
		uint32_t then = 1;
		while (then < n && strcmp(ts_node_type(ts_node_child(node, then)), "then"))
			then++;
		guarded(r, node, 1, then, then, n, depth);
	} else if (k == sh_sym.while_statement) {
		uint32_t body = 0;
		while (body < n && ts_node_symbol(ts_node_child(node, body)) != sh_sym.do_group)
			body++;
		r->inside++;
		guarded(r, node, 0, body, body, n, depth);
		r->inside--;
	} else if (k == sh_sym.for_statement || k == sh_sym.c_style_for_statement) {
		r->inside++;
		uint32_t body = 0;
		while (body < n && ts_node_symbol(ts_node_child(node, body)) != sh_sym.do_group &&
		       ts_node_symbol(ts_node_child(node, body)) != sh_sym.compound_statement)
			body++;
		TSNode var = ts_node_child_by_field_id(node, sh_sym.f.variable);
		if (k == sh_sym.for_statement && !ts_node_is_null(var)) {
			size_t to = name_of(r, var), mark = r->ntmp;
			int listed = 0;
			for (uint32_t i = 0; i < body; i++) {
				TSNode c = ts_node_child(node, i);
				if (!ts_node_eq(c, var) && ts_node_is_named(c)) {
					collect(r, c);
					listed = 1;
				}
			}
			if (!listed)  /* for X; do: the positional parameters */
				SL_PUSH(r->tmp, r->ntmp, r->tmp_cap, intern(r, POSITIONAL, 1));
			depend(r, to, mark);
		} else if (k == sh_sym.c_style_for_statement && body) {
			/* (( i = 0; i < N; i++ )): its names are words, not variable_name */
			size_t hb = ts_node_start_byte(node), he = ts_node_end_byte(ts_node_child(node, body - 1));
			arith_writes(r, hb, he);
			/* the body runs as its names say */
			size_t mark = r->ntmp, saved = r->nctx;
			idents(r, hb, he);
			for (size_t i = mark; i < r->ntmp; i++)
				SL_PUSH(r->ctx, r->nctx, r->ctx_cap, r->tmp[i]);
			r->ntmp = mark;
			scan_kids(r, node, body, n, depth);
			r->nctx = saved;
			r->inside--;
			return;
		}
		guarded(r, node, 0, body, body, n, depth);
		r->inside--;
	} else if (k == sh_sym.case_statement) {
		/* the value and every pattern decide which item runs */
		size_t mark = r->ntmp, saved = r->nctx;
		TSNode val = ts_node_child_by_field_id(node, sh_sym.f.value);
		if (!ts_node_is_null(val))
			collect(r, val);
		for (uint32_t i = 0; i < n; i++) {
			TSNode it = ts_node_child(node, i);
			if (ts_node_symbol(it) != sh_sym.case_item)
				continue;
			uint32_t c = ts_node_child_count(it);
			for (uint32_t q = 0; q < c && strcmp(ts_node_type(ts_node_child(it, q)), ")"); q++)
				collect(r, ts_node_child(it, q));
		}
		for (size_t i = mark; i < r->ntmp; i++)
			SL_PUSH(r->ctx, r->nctx, r->ctx_cap, r->tmp[i]);
		r->ntmp = mark;
		for (uint32_t i = 0; i < n && !r->all; i++) {
			TSNode it = ts_node_child(node, i);
			if (ts_node_symbol(it) == sh_sym.case_item)
				scan_kids(r, it, 0, ts_node_child_count(it), depth + 1);
		}
		r->nctx = saved;
	} else if (k == sh_sym.list) {
		/* a && b, a || b: b runs as a says */
		uint32_t op = 0;
		while (op < n && ts_node_is_named(ts_node_child(node, op)))
			op++;
		guarded(r, node, 0, op, op, n, depth);
	} else if (k == sh_sym.function_definition) {
		/* the body runs where it is called: a call is a command that may
		 * serve (its conditions count there) */
		size_t saved = r->nctx;
		r->nctx = 0;
		r->inside++;
		scan_kids(r, node, 0, n, depth);
		r->inside--;
		r->nctx = saved;
	} else if (k == sh_sym.redirected_statement) {
		TSNode body = ts_node_child_by_field_id(node, sh_sym.f.body);
		/* a here-document is a file's text, or a program's input */
		int serves = redirected(r, node) ||
			     (!ts_node_is_null(body) && ts_node_symbol(body) == sh_sym.command && may_serve(r, body));
		if (serves) {
			/* its words, and where it reads and writes but a log: the
			 * served model has no stdout */
			size_t mark = r->ntmp;
			for (uint32_t i = 0; i < ts_node_named_child_count(node); i++) {
				TSNode x = ts_node_named_child(node, i);
				if (ts_node_symbol(x) == sh_sym.file_redirect) {
					/* the target a log, but not the command's words
					 * written after it (`> $LOG --tp $TP`) */
					TSNode tg = sh_redirect_target(x);
					size_t xl;
					const char *xs = ts_node_is_null(tg) ? txt(r, x, &xl) : txt(r, tg, &xl);
					size_t p = 0;
					while (ts_node_is_null(tg) && p < xl && strchr("0123456789&>|< \t", xs[p]))
						p++;
					if (p < xl && log_only(xs + p, xl - p)) {
						sh_redirect_words(x, collect_word, r);
						continue;
					}
				}
				collect(r, x);
			}
			seed(r, mark);
			serves_at(r, ts_node_start_byte(node));
		}
		if (!ts_node_is_null(body) && ts_node_symbol(body) == sh_sym.command) {
			/* what its words run ($(...)) and assign: the command's own
			 * reads are counted above */
			uint32_t bn = ts_node_child_count(body);
			for (uint32_t i = 0; i < bn && !r->all; i++) {
				TSNode c = ts_node_child(body, i);
				if (ts_node_is_named(c) && ts_node_symbol(c) != sh_sym.variable_assignment)
					scan(r, c, depth + 1);
			}
		} else {
			scan_kids(r, node, 0, n, depth);
		}
	} else if (k == sh_sym.command) {
		if (may_serve(r, node)) {
			size_t mark = r->ntmp;
			collect(r, node);
			seed(r, mark);
			if (!ends_control(r, node))
				serves_at(r, ts_node_start_byte(node));
		}
		/* prefix assignments are the command's env (read above when it
		 * may serve), not the script's variables */
		for (uint32_t i = 0; i < n && !r->all; i++) {
			TSNode c = ts_node_child(node, i);
			if (ts_node_is_named(c) && ts_node_symbol(c) != sh_sym.variable_assignment)
				scan(r, c, depth + 1);
		}
	} else if (k == sh_sym.declaration_command) {
		/* export/declare -x: the services' env; -n: a nameref */
		int exported = ts_node_child_count(node) && word_is(r, ts_node_child(node, 0), "export");
		for (uint32_t i = 0; i < n; i++) {
			TSNode c = ts_node_child(node, i);
			size_t len;
			const char *s = txt(r, c, &len);
			if (len >= 2 && s[0] == '-' && s[1] != '-') {
				exported |= memchr(s, 'x', len) != NULL;
				if (memchr(s, 'n', len))
					r->all = 1;
			}
		}
		for (uint32_t i = 0; i < n && !r->all; i++) {
			TSNode c = ts_node_child(node, i);
			if (ts_node_symbol(c) == sh_sym.variable_assignment) {
				assignment(r, c, exported);
				scan_kids(r, c, 0, ts_node_child_count(c), depth + 1);
			} else if (ts_node_symbol(c) == sh_sym.variable_name && exported) {
				exported_at(r, name_of(r, c), ts_node_start_byte(c));
			} else if (ts_node_is_named(c)) {
				scan(r, c, depth + 1);
			}
		}
	} else if (k == sh_sym.variable_assignment) {
		assignment(r, node, 0);
		scan_kids(r, node, 0, n, depth);
	} else if (k == sh_sym.expansion) {
		/* ${X:=d} / ${X=d} assign X */
		size_t len;
		const char *s = txt(r, node, &len);
		TSNode v = ts_node_named_child(node, 0);
		if (!ts_node_is_null(v) && ts_node_symbol(v) == sh_sym.variable_name) {
			size_t vl;
			const char *vs = txt(r, v, &vl);
			const char *after = vs + vl, *end = s + len;
			if (after < end && (*after == '=' || (*after == ':' && after + 1 < end && after[1] == '='))) {
				size_t to = name_of(r, v), mark = r->ntmp;
				collect(r, node);
				depend(r, to, mark);
			}
		}
		scan_kids(r, node, 0, n, depth);
	} else if (k == sh_sym.arithmetic_expansion ||
		   (k == sh_sym.test_command && ts_node_end_byte(node) - ts_node_start_byte(node) > 2 &&
		    !memcmp(r->text + ts_node_start_byte(node), "((", 2))) {
		/* $(( X = Y )), (( i++ )) (a test_command of words to this grammar) */
		arith_writes(r, ts_node_start_byte(node), ts_node_end_byte(node));
		scan_kids(r, node, 0, n, depth);
	} else {
		scan_kids(r, node, 0, n, depth);
	}
}

/* The relevant set closed over the dependences, the exports that may
 * reach a server first. */
static void close_deps(struct sh_relevance *r)
{
	for (size_t i = 0; i < r->nlate; i++)
		if (r->late[i].inside || r->late[i].off + 1 < r->last_serve)
			r->rel[r->late[i].name] = 1;
	int grew = 1;
	while (grew) {
		grew = 0;
		for (size_t i = 0; i < r->ndeps; i++)
			if (r->rel[r->deps[i].from] && !r->rel[r->deps[i].to]) {
				r->rel[r->deps[i].to] = 1;
				grew = 1;
			}
	}
}

/* Every reading of a script finds the same (it depends on the text
 * alone): found once per cache, which the readings of an entry share. */
const struct sh_relevance *sh_relevance(walker *w)
{
	if (w->rel)
		return w->rel;
	if (w->cache && w->cache->rel && w->cache->text == w->v.text && w->cache->len == w->v.len)
		return w->cache->rel;
	struct sh_relevance *r = sl_calloc(1, sizeof *r);
	r->text = w->v.text;
	TSTreeCursor c = ts_tree_cursor_new(w->root);
	for (;;) {
		TSNode x = ts_tree_cursor_current_node(&c);
		if (ts_node_symbol(x) == sh_sym.function_definition) {
			TSNode nm = ts_node_child_by_field_id(x, sh_sym.f.name);
			if (!ts_node_is_null(nm)) {
				size_t len;
				const char *t = txt(r, nm, &len);
				SL_PUSH(r->fns, r->nfns, r->fns_cap, sl_strndup(t, len));
			}
		}
		if (!sh_cursor_next(&c))
			break;
	}
	ts_tree_cursor_delete(&c);
	scan(r, w->root, 0);
	close_deps(r);
	if (w->cache && !w->cache->rel) {
		w->cache->rel = r;  /* the cache's from here on */
		w->cache->text = w->v.text;
		w->cache->len = w->v.len;
	} else {
		w->rel = r;
	}
	return r;
}

int sh_relevant(const struct sh_relevance *r, const char *name, size_t n)
{
	size_t i;
	if (r->all)
		return 1;
	return lookup(r, name, n, &i) && r->rel[i];
}

void sh_relevance_free(struct sh_relevance *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->n; i++)
		free(r->names[i]);
	free(r->names);
	free(r->rel);
	free(r->slots);
	free(r->deps);
	free(r->ctx);
	free(r->tmp);
	free(r->kinds);
	free(r->late);
	for (size_t i = 0; i < r->nfns; i++)
		free(r->fns[i]);
	free(r->fns);
	free(r);
}
