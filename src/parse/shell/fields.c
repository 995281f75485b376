/*
 * fields.c: finished words from word nodes, either one word or the fields
 * bash hands a command (word splitting), each charged against the script's
 * budget of expanded text, which is what keeps A="$A$A" doubling bounded.
 */
#include "internal.h"

#define MAX_EXPANDED ((size_t)256 << 20)

static void too_long(walker *w, TSNode node)
{
	sh_fail_at(w, ts_node_start_byte(node), "a word longer than the limit of %s bytes after expansion",
		"1048576");
}

/* Counts a built word against the script's budget of expanded text. */
static void spend(walker *w, TSNode node, size_t n)
{
	w->expanded += n;
	if (w->expanded > MAX_EXPANDED)
		sh_fail_at(w, ts_node_start_byte(node),
			"expansions larger than the limit of %s bytes in all", "268435456");
}

/* Counts n more fields against the script's bound on them: 0, or -1 past
 * it (told once, at node). */
static int count_fields(walker *w, TSNode node, size_t n)
{
	w->fields += n;
	if (w->fields <= SL_MAX_FIELDS)
		return 0;
	if (!w->failed)
		sh_fail_at(w, ts_node_start_byte(node), "more words after expansion than the limit of %s in all",
			   "1000000");
	return -1;
}

void sh_eval_word(walker *w, TSNode node, sl_word *out)
{
	wbuild wb = {0};
	sh_eval_node(w, node, &wb, 0);
	if (wb.overflow)
		too_long(w, node);
	spend(w, node, wb.b.len);
	size_t a = ts_node_start_byte(node), b = ts_node_end_byte(node);
	/* the end is just past the word's last byte: mapping the end offset
	 * itself would, inside `bash -c "..."`, land past the closing quote */
	sh_wb_finish(&wb, out, sh_src_off(&w->v, a), b > a ? sh_src_off(&w->v, b - 1) + 1 : sh_src_off(&w->v, b));
}

/* Whether a field of a symbolic word holds the unknown part. */
static int field_symbolic(const char *s, size_t n)
{
	return memchr(s, '$', n) || memchr(s, '`', n);
}

/* One field [from, to) of a split word. A field that is a whole array
 * element keeps that element's span (where "$MODEL" is written in the
 * array), not that of its value. */
static void push_field(sl_word **v, size_t *n, size_t *cap, const sl_word *whole, size_t from,
		       size_t to, const struct wb_elem *els, size_t nels, size_t *cursor)
{
	sl_word f;
	sl_word_slice(&f, whole, from, to);
	if (!field_symbolic(f.text, f.len))
		f.flags &= ~(unsigned)SL_WORD_SYMBOLIC;
	/* fields and elements both come in order: one pass over the elements */
	while (*cursor < nels && els[*cursor].to <= from && !(els[*cursor].from == from && els[*cursor].to == to))
		(*cursor)++;
	if (*cursor < nels && els[*cursor].from == from && els[*cursor].to == to) {
		f.start = els[*cursor].start;
		f.end = els[*cursor].end;
	}
	SL_PUSH(*v, *n, *cap, f);
}

/* Whether c is a brace expression, or a word holding one (gpu{0..3}). */
static int holds_brace(TSNode c)
{
	if (ts_node_symbol(c) == sh_sym.brace_expression)
		return 1;
	if (ts_node_symbol(c) != sh_sym.concatenation)
		return 0;
	uint32_t n = ts_node_named_child_count(c);
	for (uint32_t i = 0; i < n; i++)
		if (ts_node_symbol(ts_node_named_child(c, i)) == sh_sym.brace_expression)
			return 1;
	return 0;
}

/* A number of a brace expression: its value (digits only, as the grammar
 * has them; leading zeros pad, {000..3}), *big set past 18 digits after
 * them or 20 in all (the width a field may be padded to). */
static long long brace_number(const walker *w, TSNode x, size_t *len, int *padded, int *big)
{
	size_t a = ts_node_start_byte(x), b = ts_node_end_byte(x);
	*len = b - a;
	*padded |= *len > 1 && w->v.text[a] == '0';
	size_t z = a;
	while (z + 1 < b && w->v.text[z] == '0')
		z++;
	if (b - z > 18 || *len > 20) {
		*big = 1;
		return 0;
	}
	long long v = 0;
	for (size_t i = z; i < b; i++)
		v = v * 10 + (w->v.text[i] - '0');
	return v;
}

/*
 * `{0..3}`, which bash expands before anything else into one word per
 * number (bash(1), Brace Expansion: {3..0} counts down, {00..03} pads to
 * the wider end): `for i in {0..3}` runs its body four times (Dynamo's
 * vllm/launch/dep.sh starts a worker per GPU so). Each field has the
 * expression's place. More values than a loop may have is the loop's
 * limit, told so. Plain text around it (gpu{0..3}) goes with each
 * number; quotes, expansions or globs around it, or two of them, leave
 * the word unknown, never the literal braces.
 */
static void brace_fields(walker *w, TSNode node, sl_word **v, size_t *n, size_t *cap)
{
	size_t a = ts_node_start_byte(node), b = ts_node_end_byte(node);
	uint32_t start = sh_src_off(&w->v, a), end = b > a ? sh_src_off(&w->v, b - 1) + 1 : start;
	/* gpu{0..1}: plain text around one expression is each number's
	 * prefix and suffix; anything else around it leaves the word unknown */
	TSNode brace = node;
	size_t pa = a, pb = a, sa = b, sb = b;
	int plain = 1;
	if (ts_node_symbol(node) == sh_sym.concatenation) {
		uint32_t k = ts_node_named_child_count(node), nb = 0;
		for (uint32_t i = 0; i < k; i++)
			if (ts_node_symbol(ts_node_named_child(node, i)) == sh_sym.brace_expression) {
				brace = ts_node_named_child(node, i);
				nb++;
			}
		pb = ts_node_start_byte(brace);
		sa = ts_node_end_byte(brace);
		for (size_t i = pa; i < sb && plain; i++)
			if ((i < pb || i >= sa) && strchr("$`'\"\\{}*?[", w->v.text[i]))
				plain = 0;
		plain &= nb == 1;
	}
	if (!plain || ts_node_named_child_count(brace) != 2) {
		wbuild wb = {0};
		sh_wb_add_view(&wb, &w->v, a, b - a);
		wb.flags |= SL_WORD_SYMBOLIC;
		sl_word whole;
		sh_wb_finish(&wb, &whole, start, end);
		SL_PUSH(*v, *n, *cap, whole);
		return;
	}
	size_t l1, l2;
	int padded = 0, big = 0;
	long long lo = brace_number(w, ts_node_named_child(brace, 0), &l1, &padded, &big);
	long long hi = brace_number(w, ts_node_named_child(brace, 1), &l2, &padded, &big);
	long long count = (hi >= lo ? hi - lo : lo - hi) + 1;
	if (big) {
		sh_fail_at(w, a, "a brace expansion of numbers longer than %s", "18 digits (20 with leading zeros)");
		return;
	}
	if (count > SL_MAX_LOOP_ITERATIONS) {
		sh_fail_at(w, a, "a brace expansion of more than %s values", "1024");
		return;
	}
	int width = padded ? (int)(l1 > l2 ? l1 : l2) : 0;
	for (long long k = 0; k < count; k++) {
		char num[32];
		int len = snprintf(num, sizeof num, "%0*lld", width, hi >= lo ? lo + k : lo - k);
		wbuild wb = {0};
		sh_wb_add_view(&wb, &w->v, pa, pb - pa);
		sh_wb_add_at(&wb, num, (size_t)len, sh_src_off(&w->v, pb));
		sh_wb_add_view(&wb, &w->v, sa, sb - sa);
		sl_word f;
		sh_wb_finish(&wb, &f, start, end);
		spend(w, node, (pb - pa) + (size_t)len + (sb - sa));
		SL_PUSH(*v, *n, *cap, f);
	}
}

/*
 * A word as bash hands it to a command: unquoted expansions split at blanks
 * into several words ($OFFLOAD_ARGS gives each flag its own word, each with
 * the offsets where the variable's value is written), "${A[@]}" gives one
 * word per element, and an unquoted empty expansion gives no word at all.
 * Inside an unknown value kept as written, $(...) and ${...} are not split.
 */
static void eval_fields(walker *w, TSNode node, sl_word **v, size_t *n, size_t *cap);

void sh_eval_fields(walker *w, TSNode node, sl_word **v, size_t *n, size_t *cap)
{
	size_t before = *n;
	eval_fields(w, node, v, n, cap);
	count_fields(w, node, *n - before);
}

static void eval_fields(walker *w, TSNode node, sl_word **v, size_t *n, size_t *cap)
{
	if (holds_brace(node)) {
		brace_fields(w, node, v, n, cap);
		return;
	}
	wbuild wb = {0};
	sh_eval_node(w, node, &wb, 0);
	if (wb.overflow)
		too_long(w, node);
	spend(w, node, wb.b.len);
	size_t a = ts_node_start_byte(node), b = ts_node_end_byte(node);
	size_t len = wb.b.len, nbrk = wb.nbrk;
	unsigned char *ifs = wb.ifs;
	size_t *brk = wb.brk;
	struct wb_elem *els = wb.els;
	size_t nels = wb.nels;
	int none = wb.none;
	wb.ifs = NULL;
	wb.brk = NULL;
	wb.els = NULL;
	sl_word whole;
	sh_wb_finish(&wb, &whole, sh_src_off(&w->v, a), b > a ? sh_src_off(&w->v, b - 1) + 1 : sh_src_off(&w->v, b));
	int split = nbrk > 0;
	for (size_t i = 0; i < len && !split; i++)
		split = ifs[i] && strchr(" \t\n", whole.text[i]);
	if (!split) {
		if (whole.len || ((whole.flags & SL_WORD_QUOTED) && !none))
			SL_PUSH(*v, *n, *cap, whole);
		else
			sl_word_free(&whole);
		free(ifs);
		free(brk);
		free(els);
		return;
	}
	size_t nfields = 0, from = 0, bi = 0, cursor = 0;
	int depth = 0, in_field = 0;
	for (size_t i = 0; i <= len; i++) {
		int cut = i == len;
		while (bi < nbrk && brk[bi] < i)
			bi++;
		int forced = bi < nbrk && brk[bi] == i;
		if (!cut && ifs[i] && (whole.flags & SL_WORD_SYMBOLIC)) {
			char ch = whole.text[i];
			if (ch == '$' && i + 1 < len && (whole.text[i + 1] == '(' || whole.text[i + 1] == '{'))
				depth++;
			else if ((ch == ')' || ch == '}') && depth > 0)
				depth--;
		}
		int blank = !cut && ifs[i] && depth == 0 && strchr(" \t\n", whole.text[i]);
		if (forced && in_field) {
			push_field(v, n, cap, &whole, from, i, els, nels, &cursor);
			nfields++;
			in_field = 0;
		}
		if (cut || blank) {
			if (in_field) {
				push_field(v, n, cap, &whole, from, i, els, nels, &cursor);
				nfields++;
				in_field = 0;
			}
			continue;
		}
		if (!in_field) {
			in_field = 1;
			from = i;
		}
	}
	if (!nfields && (whole.flags & SL_WORD_QUOTED)) {
		sl_word e;
		sl_word_slice(&e, &whole, 0, 0);
		SL_PUSH(*v, *n, *cap, e);
	}
	sl_word_free(&whole);
	free(ifs);
	free(brk);
	free(els);
}
