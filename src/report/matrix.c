/*
 * matrix.c (report): N entries side by side as terminal text, markdown,
 * CSV (RFC 4180 quoting) and JSON (jansson). Rows whose values differ come
 * first as a table; the keys the same everywhere are told once below it,
 * or in the table too with `all`.
 */
#include "report.h"

#include <stdlib.h>
#include <string.h>

/* A cell as text: strings bare, other values as compact JSON; "-" when
 * absent; "(default) V" when the engine's default applies unwritten. */
static char *cell_text(const sl_cell *c)
{
	if (!c->value)
		return sl_strdup("-");
	char *v = json_is_string(c->value) && *json_string_value(c->value)
			  ? sl_strdup(json_string_value(c->value))
			  : json_dumps(c->value, JSON_COMPACT | JSON_ENCODE_ANY | JSON_REAL_PRECISION(15));
	if (!v)
		v = sl_strdup("?");
	if (!c->implicit)
		return v;
	sl_buf b = {0};
	sl_buf_printf(&b, "%s (default)", v);
	free(v);
	return sl_buf_detach(&b);
}

static char *row_name(const sl_matrix_row *r)
{
	sl_buf b = {0};
	sl_buf_printf(&b, "%s%s%s", r->service, *r->service ? " " : "", r->key);
	return sl_buf_detach(&b);
}

/* display width of UTF-8 text: code points (the values are ASCII but for
 * an odd comment-borne name) */
static size_t width(const char *s)
{
	size_t w = 0;
	for (; *s; s++)
		w += ((unsigned char)*s & 0xC0) != 0x80;
	return w;
}

static void pad(FILE *f, const char *s, size_t w)
{
	fputs(s, f);
	for (size_t k = width(s); k < w; k++)
		fputc(' ', f);
}

static int tty(FILE *f, const sl_matrix *m, char *const *names, int all, int color)
{
	size_t nc = m->ncols, *w = sl_calloc(nc + 1, sizeof *w), nsame = 0;
	char ***text = sl_calloc(m->nrows + 1, sizeof *text), **rn = sl_calloc(m->nrows + 1, sizeof *rn);
	for (size_t c = 0; c < nc; c++)
		w[c + 1] = width(names[c]);
	for (size_t r = 0; r < m->nrows; r++) {
		rn[r] = row_name(&m->rows[r]);
		text[r] = sl_calloc(nc, sizeof(char *));
		for (size_t c = 0; c < nc; c++)
			text[r][c] = cell_text(&m->rows[r].cells[c]);
		if (!m->rows[r].differs && !all) {
			nsame++;
			continue;
		}
		if (width(rn[r]) > w[0])
			w[0] = width(rn[r]);
		for (size_t c = 0; c < nc; c++)
			if (width(text[r][c]) > w[c + 1])
				w[c + 1] = width(text[r][c]);
	}
	int shown = 0;
	for (size_t r = 0; r < m->nrows; r++)
		shown += m->rows[r].differs || all;
	if (shown) {
		pad(f, "", w[0]);
		for (size_t c = 0; c < nc; c++) {
			fputs("  ", f);
			fputs(color ? "\033[1m" : "", f);
			pad(f, names[c], c + 1 < nc ? w[c + 1] : 0);
			fputs(color ? "\033[0m" : "", f);
		}
		fputc('\n', f);
		for (size_t r = 0; r < m->nrows; r++) {
			if (!m->rows[r].differs && !all)
				continue;
			pad(f, rn[r], w[0]);
			for (size_t c = 0; c < nc; c++) {
				fputs("  ", f);
				pad(f, text[r][c], c + 1 < nc ? w[c + 1] : 0);
			}
			fputc('\n', f);
		}
	} else {
		if (nc == 2)
			fputs("no difference between the two entries\n", f);
		else
			fprintf(f, "no difference between the %zu entries\n", nc);
	}
	if (nsame) {
		char all_n[32];
		snprintf(all_n, sizeof all_n, nc == 2 ? "both entries" : "all %zu entries", nc);
		fprintf(f, "%ssame in %s (%zu key%s):%s\n", color ? "\033[1m" : "", all_n, nsame,
			nsame == 1 ? "" : "s", color ? "\033[0m" : "");
		for (size_t r = 0; r < m->nrows; r++)
			if (!m->rows[r].differs)
				fprintf(f, "  %s: %s\n", rn[r], text[r][0]);
	}
	for (size_t r = 0; r < m->nrows; r++) {
		for (size_t c = 0; c < nc; c++)
			free(text[r][c]);
		free(text[r]);
		free(rn[r]);
	}
	free(text);
	free(rn);
	free(w);
	return ferror(f) ? -1 : 0;
}

/* a markdown table cell: pipes escaped, code-spanned */
static void md_cell(FILE *f, const char *s)
{
	fputs(" `", f);
	for (; *s; s++) {
		if (*s == '|')
			fputc('\\', f);
		fputc(*s == '`' ? '\'' : *s, f);
	}
	fputs("` |", f);
}

static int markdown(FILE *f, const sl_matrix *m, char *const *names, int all)
{
	size_t nsame = 0;
	fputs("| key |", f);
	for (size_t c = 0; c < m->ncols; c++)
		md_cell(f, names[c]);
	fputs("\n|---|", f);
	for (size_t c = 0; c < m->ncols; c++)
		fputs("---|", f);
	fputc('\n', f);
	for (size_t r = 0; r < m->nrows; r++) {
		if (!m->rows[r].differs && !all) {
			nsame++;
			continue;
		}
		char *rn = row_name(&m->rows[r]);
		fputc('|', f);
		md_cell(f, rn);
		free(rn);
		for (size_t c = 0; c < m->ncols; c++) {
			char *t = cell_text(&m->rows[r].cells[c]);
			md_cell(f, t);
			free(t);
		}
		fputc('\n', f);
	}
	if (nsame) {
		char all_n[32];
		snprintf(all_n, sizeof all_n, m->ncols == 2 ? "both entries" : "all %zu entries", m->ncols);
		fprintf(f, "\n<details><summary>Same in %s (%zu key%s)</summary>\n\n", all_n, nsame,
			nsame == 1 ? "" : "s");
		for (size_t r = 0; r < m->nrows; r++) {
			if (m->rows[r].differs)
				continue;
			char *rn = row_name(&m->rows[r]), *t = cell_text(&m->rows[r].cells[0]);
			fprintf(f, "- `%s`: `%s`\n", rn, t);
			free(rn);
			free(t);
		}
		fputs("\n</details>\n", f);
	}
	return ferror(f) ? -1 : 0;
}

static void csv_field(FILE *f, const char *s, int last)
{
	if (strpbrk(s, ",\"\r\n")) {
		fputc('"', f);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', f);
			fputc(*s, f);
		}
		fputc('"', f);
	} else {
		fputs(s, f);
	}
	fputs(last ? "\r\n" : ",", f);
}

static int csv(FILE *f, const sl_matrix *m, char *const *names, int all)
{
	csv_field(f, "service", 0);
	csv_field(f, "key", 0);
	csv_field(f, "differs", !m->ncols);
	for (size_t c = 0; c < m->ncols; c++)
		csv_field(f, names[c], c + 1 == m->ncols);
	for (size_t r = 0; r < m->nrows; r++) {
		const sl_matrix_row *w = &m->rows[r];
		if (!w->differs && !all)
			continue;
		csv_field(f, w->service, 0);
		csv_field(f, w->key, 0);
		csv_field(f, w->differs ? "yes" : "no", !m->ncols);
		for (size_t c = 0; c < m->ncols; c++) {
			char *t = cell_text(&w->cells[c]);
			csv_field(f, t, c + 1 == m->ncols);
			free(t);
		}
	}
	return ferror(f) ? -1 : 0;
}

static json_t *place(const sl_origin *o)
{
	unsigned l, c;
	if (!o->src)
		return json_null();
	sl_origin_pos(o, &l, &c);
	return json_pack("{s:s, s:i, s:i}", "file", o->src->path, "line", (json_int_t)l, "col", (json_int_t)c);
}

static int json(FILE *f, const sl_matrix *m, char *const *names, int all)
{
	json_t *en = json_array(), *rows = json_array(), *same = json_array();
	for (size_t c = 0; c < m->ncols; c++)
		json_array_append_new(en, json_string(names[c]));
	for (size_t r = 0; r < m->nrows; r++) {
		const sl_matrix_row *w = &m->rows[r];
		if (!w->differs && !all) {
			json_t *row = json_pack("{s:s, s:s}", "service", w->service, "key", w->key);
			sl_report_key_facts(row, w->key);
			json_object_set_new(row, "value", w->cells[0].value ? json_incref(w->cells[0].value) : json_null());
			json_array_append_new(same, row);
			continue;
		}
		json_t *cells = json_array();
		for (size_t c = 0; c < m->ncols; c++) {
			const sl_cell *x = &w->cells[c];
			json_array_append_new(cells, json_pack("{s:O?, s:b, s:o}", "value", x->value, "implicit",
							       x->implicit, "origin", place(&x->at)));
		}
		json_t *row = json_pack("{s:s, s:s}", "service", w->service, "key", w->key);
		sl_report_key_facts(row, w->key);
		json_object_set_new(row, "differs", json_boolean(w->differs));
		json_object_set_new(row, "cells", cells);
		json_array_append_new(rows, row);
	}
	json_t *doc = sl_report_json_doc(json_pack("{s:o, s:o, s:o}", "entries", en, "rows", rows, "same", same));
	int rc = json_dumpf(doc, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15));
	fputc('\n', f);
	json_decref(doc);
	return rc || ferror(f) ? -1 : 0;
}

int sl_report_matrix(FILE *f, const char *format, const sl_matrix *m, char *const *names, int all, int color)
{
	if (!strcmp(format, "json"))
		return json(f, m, names, all);
	if (!strcmp(format, "csv"))
		return csv(f, m, names, all);
	if (!strcmp(format, "markdown"))
		return markdown(f, m, names, all);
	return tty(f, m, names, all, color);
}
