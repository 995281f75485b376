/*
 * heredoc.c: here-documents that write files (`cat > config.yml <<EOF`).
 * Launch scripts often write the engine's YAML config this way, so the body
 * becomes a file of the entry, expanded as bash would, with offsets into the
 * script.
 */
#include "internal.h"

/* The file a `>` or `>>` redirect (of standard output) names, or NULL;
 * *append is set for `>>`. */
static char *redirect_target(walker *w, TSNode r, int *append)
{
	TSNode fd = ts_node_child_by_field_id(r, sh_sym.f.descriptor);
	if (!ts_node_is_null(fd)) {
		size_t fa = ts_node_start_byte(fd), fb = ts_node_end_byte(fd);
		if (fb - fa != 1 || w->v.text[fa] != '1')
			return NULL;
	}
	uint32_t k = ts_node_child_count(r);
	int out = 0;
	for (uint32_t i = 0; i < k; i++) {
		TSNode c = ts_node_child(r, i);
		if (!ts_node_is_named(c)) {
			const char *op = ts_node_type(c);
			out |= !strcmp(op, ">") || !strcmp(op, ">>") || !strcmp(op, ">|");
			if (!strcmp(op, ">>"))
				*append = 1;
		}
	}
	TSNode dst = ts_node_child_by_field_id(r, sh_sym.f.destination);
	if (!out || ts_node_is_null(dst))
		return NULL;
	sl_word d;
	sh_eval_word(w, dst, &d);
	char *t = sl_strndup(d.text, d.len);
	sl_word_free(&d);
	return t;
}

/* The body of a here-document: expanded like a double-quoted string
 * (without its \" rule) unless the delimiter is quoted; `<<-` drops the
 * leading tabs of every line. The bytes each unknown expansion gave are
 * recorded in d->spans (a YAML reader may have to step over them). */
static void heredoc_body(walker *w, TSNode body, int quoted, int strip, sl_word *out,
			 sl_heredoc *d)
{
	size_t a = ts_node_start_byte(body), b = ts_node_end_byte(body);
	wbuild wb = {0};
	size_t span_cap = 0;
	if (quoted) {
		sh_wb_add_view(&wb, &w->v, a, b - a);
	} else {
		uint32_t nc;
		size_t kb = sh_kids(w, body, 1, &nc);
		size_t pos = a;
		for (uint32_t i = 0; i < nc && !w->failed; i++) {
			TSNode c = KID(i);
			size_t ca = ts_node_start_byte(c), cb = ts_node_end_byte(c);
			if (ca > pos)
				sh_add_unescaped(w, &wb, pos, ca, 2);
			if (!strcmp(ts_node_type(c), "heredoc_content"))
				sh_add_unescaped(w, &wb, ca, cb, 2);
			else {
				unsigned had = wb.flags & SL_WORD_SYMBOLIC;
				size_t from = wb.b.len;
				wb.flags &= ~(unsigned)SL_WORD_SYMBOLIC;
				sh_eval_node(w, c, &wb, 2);
				if ((wb.flags & SL_WORD_SYMBOLIC) && wb.b.len > from) {
					SL_PUSH(d->spans, d->nspans, span_cap, (uint32_t)from);
					SL_PUSH(d->spans, d->nspans, span_cap, (uint32_t)wb.b.len);
				}
				wb.flags |= had;
			}
			pos = cb;
		}
		w->pool_n = kb;
		if (b > pos)
			sh_add_unescaped(w, &wb, pos, b, 2);
	}
	sl_word full;
	sh_wb_finish(&wb, &full, sh_src_off(&w->v, a), sh_src_off(&w->v, b));
	if (!strip) {
		*out = full;
		return;
	}
	wbuild st = {0};
	int bol = 1;
	size_t *kept = sl_malloc((full.len + 1) * sizeof *kept);  /* old index -> new */
	for (size_t i = 0; i < full.len; i++) {
		kept[i] = st.b.len;
		if (bol && full.text[i] == '\t')
			continue;
		bol = full.text[i] == '\n';
		sh_wb_add(&st, full.text + i, 1, full.offs + i);
	}
	kept[full.len] = st.b.len;
	for (size_t i = 0; i < d->nspans; i++)
		d->spans[i] = (uint32_t)kept[d->spans[i]];
	free(kept);
	st.flags = full.flags;
	sh_wb_finish(&st, out, full.start, full.end);
	sl_word_free(&full);
}

/*
 * `cat > FILE <<EOF`, `cat <<EOF > FILE`, `tee FILE <<EOF`: the text
 * becomes a file of the entry under FILE's name. Other uses of a
 * here-document (feeding a program's standard input) write no file.
 */
void sh_capture_heredocs(walker *w, TSNode stmt)
{
	TSNode body = ts_node_child_by_field_id(stmt, sh_sym.f.body);
	if (ts_node_is_null(body) || ts_node_symbol(body) != sh_sym.command)
		return;
	TSNode name = ts_node_child_by_field_id(body, sh_sym.f.name);
	if (ts_node_is_null(name))
		return;
	size_t na = ts_node_start_byte(name), nb = ts_node_end_byte(name);
	int is_cat = nb - na == 3 && !memcmp(w->v.text + na, "cat", 3);
	int is_tee = nb - na == 3 && !memcmp(w->v.text + na, "tee", 3);
	if (!is_cat && !is_tee)
		return;
	char *target = NULL;
	int append = 0;
	if (is_tee) {
		/* tee [-a] FILE */
		uint32_t k = ts_node_named_child_count(body);
		for (uint32_t i = 1; i < k && !target; i++) {
			TSNode c = ts_node_named_child(body, i);
			sl_word d;
			sh_eval_word(w, c, &d);
			if (d.len == 2 && !memcmp(d.text, "-a", 2))
				append = 1;
			else if (d.len && d.text[0] != '-')
				target = sl_strndup(d.text, d.len);
			sl_word_free(&d);
		}
	} else if (ts_node_named_child_count(body) > 1) {
		return;   /* cat FILE... <<EOF: the here-document is not what is written */
	}
	uint32_t k = ts_node_child_count(stmt);
	for (uint32_t i = 0; i < k && !target; i++) {
		TSNode c = ts_node_child(stmt, i);
		if (!strcmp(ts_node_type(c), "file_redirect"))
			target = redirect_target(w, c, &append);
	}
	for (uint32_t i = 0; i < k && !w->failed; i++) {
		TSNode h = ts_node_child(stmt, i);
		if (strcmp(ts_node_type(h), "heredoc_redirect"))
			continue;
		TSNode hb = {0}, hs = {0};
		int have_b = 0, have_s = 0, strip = 0;
		uint32_t hk = ts_node_child_count(h);
		for (uint32_t j = 0; j < hk; j++) {
			TSNode c = ts_node_child(h, j);
			const char *ct = ts_node_type(c);
			if (!strcmp(ct, "heredoc_body"))
				hb = c, have_b = 1;
			else if (!strcmp(ct, "heredoc_start"))
				hs = c, have_s = 1;
			else if (!strcmp(ct, "<<-"))
				strip = 1;
			else if (!strcmp(ct, "file_redirect") && !target)
				target = redirect_target(w, c, &append);
		}
		if (!target || !have_s)
			break;
		size_t sa = ts_node_start_byte(hs), sb = ts_node_end_byte(hs);
		int quoted = memchr(w->v.text + sa, '\'', sb - sa) || memchr(w->v.text + sa, '"', sb - sa) ||
			     memchr(w->v.text + sa, '\\', sb - sa);
		sl_heredoc d;
		memset(&d, 0, sizeof d);
		d.target = target;
		target = NULL;
		d.start = sh_src_off(&w->v, ts_node_start_byte(h));
		if (have_b) {
			heredoc_body(w, hb, quoted, strip, &d.body, &d);
			d.body_start = sh_src_off(&w->v, ts_node_start_byte(hb));
		} else {
			wbuild e = {0};
			sh_wb_finish(&e, &d.body, sh_src_off(&w->v, sb), sh_src_off(&w->v, sb));
			d.body_start = sh_src_off(&w->v, sb);
		}
		d.symbolic = (d.body.flags & SL_WORD_SYMBOLIC) != 0;
		d.strip_tabs = strip;
		d.append = append;
		SL_PUSH(w->s->heredocs, w->s->nheredocs, w->hd_cap, d);
		break;
	}
	free(target);
}
