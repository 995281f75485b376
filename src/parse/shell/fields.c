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

/*
 * A word as bash hands it to a command: unquoted expansions split at blanks
 * into several words ($OFFLOAD_ARGS gives each flag its own word, each with
 * the offsets where the variable's value is written), "${A[@]}" gives one
 * word per element, and an unquoted empty expansion gives no word at all.
 * Inside an unknown value kept as written, $(...) and ${...} are not split.
 */
void sh_eval_fields(walker *w, TSNode node, sl_word **v, size_t *n, size_t *cap)
{
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
