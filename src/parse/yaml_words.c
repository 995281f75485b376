/*
 * yaml_words.c: commands built from YAML nodes, what k8s.c (manifests)
 * and recipe.c (deployment recipes) share: a scalar as a word keeping the
 * place of each of its characters, a word the file implies (every
 * character at one place), an env of the command (a later name replacing
 * an earlier one), and a note of the script at a place.
 */
#include "parse.h"
#include "yaml_words.h"

#include <stdlib.h>
#include <string.h>

/* ---- words with their places -------------------------------------------- */

/* The offset where a scalar's text begins: after a quote; for a block
 * scalar (| or >), the first content line after the indicator. */
size_t sl_yaml_content_start(const sl_source *src, const sl_yaml_node *n, int *block_indent)
{
	size_t off = sl_source_offset(src, n->line, n->col);
	*block_indent = -1;
	if (n->style == 2 || n->style == 3) /* single or double quoted */
		return off + 1 <= src->len ? off + 1 : off;
	if (n->style == 4 || n->style == 5) { /* literal or folded */
		while (off < src->len && src->text[off] != '\n')
			off++;
		if (off < src->len)
			off++;
		/* the indentation of the first line that is not blank */
		size_t p = off;
		for (;;) {
			size_t q = p;
			while (q < src->len && src->text[q] == ' ')
				q++;
			if (q < src->len && src->text[q] == '\n') {
				p = q + 1;
				continue;
			}
			*block_indent = (int)(q - p);
			break;
		}
		return off;
	}
	return off;
}

/* Walks the scalar's text and the source side by side: equal characters
 * map to each other; a line break in the source stands for the newline or
 * the space YAML folded it into; anything else (an escape) maps to where
 * the walk stands. Indentation at the start of a source line is skipped. */
static void map_offsets(const sl_source *src, const sl_yaml_node *n, sl_word *w)
{
	int indent;
	size_t s = sl_yaml_content_start(src, n, &indent), i = 0;
	int line_start = indent >= 0;
	w->offs = sl_calloc(w->len + 1, sizeof *w->offs);
	while (i < w->len) {
		if (line_start) {
			int k = 0;
			while (s < src->len && (src->text[s] == ' ' || src->text[s] == '\t') && (indent < 0 || k < indent)) {
				s++;
				k++;
			}
			line_start = 0;
		}
		char t = w->text[i], c = s < src->len ? src->text[s] : '\0';
		w->offs[i] = (uint32_t)(s < src->len ? s : src->len);
		if (t == c) {
			s++;
			i++;
			if (c == '\n')
				line_start = 1;
		} else if (c == '\n' && (t == ' ' || t == '\n')) {
			s++;
			i++;
			line_start = 1;
		} else if (c == '\n' || c == '\0') {
			i++; /* text the source does not have here (a folded blank) */
		} else {
			s++; /* an escape or quote doubling: the source has more */
			if (s - w->offs[i] > 8) { /* far off: give up aligning, stay */
				s = w->offs[i];
				i++;
			}
		}
	}
	w->offs[w->len] = (uint32_t)(s < src->len ? s : src->len);
	/* the span as written: quotes (and a block's indicator) included */
	w->start = (uint32_t)sl_source_offset(src, n->line, n->col);
	w->end = (uint32_t)(s < src->len ? s : src->len);
	if (n->style == 2 || n->style == 3)
		w->end += w->end < src->len;
}

void sl_k8s_word(const sl_source *src, const sl_yaml_node *n, sl_word *w)
{
	memset(w, 0, sizeof *w);
	w->text = sl_strndup(n->value ? n->value : "", n->len);
	w->len = n->len;
	map_offsets(src, n, w);
	if (!n->plain)
		w->flags |= SL_WORD_QUOTED;
	size_t at;
	if (sl_find_placeholder(w->text, w->len, &at))
		w->flags |= SL_WORD_PLACEHOLDER;
}

/* ---- containers ---------------------------------------------------------- */

void sl_yaml_implied_word(sl_word *w, const char *text, uint32_t off, uint32_t end)
{
	memset(w, 0, sizeof *w);
	w->len = strlen(text);
	w->text = sl_strdup(text);
	w->offs = sl_malloc((w->len + 1) * sizeof *w->offs);
	for (size_t i = 0; i <= w->len; i++)
		w->offs[i] = off;
	w->start = off;
	w->end = end;
}

void sl_yaml_env_put(sl_assign **as, size_t *n, size_t *cap, sl_assign a)
{
	size_t k = 0;
	while (k < *n && strcmp((*as)[k].name, a.name))
		k++;
	if (k < *n) {
		free((*as)[k].name);
		sl_word_free(&(*as)[k].value);
		(*as)[k] = a;
	} else {
		SL_PUSH(*as, *n, *cap, a);
	}
}

void sl_yaml_note(sl_script *s, uint32_t off, char *msg)
{
	size_t cap = s->nnotes;
	sl_grow((void **)&s->notes, &cap, s->nnotes + 1, sizeof *s->notes);
	cap = s->nnotes;
	sl_grow((void **)&s->note_offs, &cap, s->nnotes + 1, sizeof *s->note_offs);
	s->notes[s->nnotes] = msg;
	s->note_offs[s->nnotes++] = off;
}

const char *sl_yaml_scalar(const sl_yaml_node *n)
{
	return n && n->kind == SL_YAML_SCALAR ? n->value : NULL;
}

uint32_t sl_yaml_at(const sl_source *src, const sl_yaml_node *n)
{
	return (uint32_t)sl_source_offset(src, n->line, n->col);
}

int sl_yaml_script_start(const sl_source *src, sl_script **out, sl_k8s_workload **ws, size_t *nws,
			 sl_yaml_doc **doc, sl_script **s, sl_error *err)
{
	*out = NULL;
	*ws = NULL;
	*nws = 0;
	*doc = NULL;
	*s = NULL;
	int rc = sl_yaml_load(src, doc, err);
	if (rc)
		return rc;
	*s = sl_calloc(1, sizeof **s);
	(*s)->src = src;
	return SL_OK;
}
