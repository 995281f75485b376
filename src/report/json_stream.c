/*
 * json_stream.c (report): a JSON document written with jansson one element
 * of its array at a time (sl_json_stream, report.h): check's findings and
 * SARIF's results are written as each entry's are handed back, then freed,
 * so that no more than one entry's values are held (issue 18: memory flat
 * in the input's size), and the bytes are those of the whole document's
 * one dump.
 *
 * The document is dumped once with two stand-ins in its array: what comes
 * before the first is the head, between them the separator, after the
 * second the tail; a document of no element is dumped whole at the end
 * (not at the start: SARIF's document, its rules, is 4.5 M instructions a
 * dump). An element is dumped alone, with the same flags: jansson
 * indents a value at depth d as it indents it at depth 0 with d indents
 * more after each newline (strings never hold a raw newline: it is
 * escaped), so those spaces, the head's after its last newline, go after
 * each newline of the element's dump.
 */
#include "report.h"

#include <stdlib.h>
#include <string.h>

struct sl_json_stream {
	size_t flags;
	json_t *doc;         /* a reference: dumped at the end when no element was added */
	char *head, *sep, *tail;
	const char *indent;  /* the element's depth: in head, after its last newline */
	size_t nindent;
	size_t added;
	sl_buf dump;         /* one element's dump, reused */
};

/* A stand-in no document holds: jansson escapes the control characters. */
#define STAND_IN "\x01servelint-stream\x01"

sl_json_stream *sl_json_stream_new(json_t *doc, json_t *arr, size_t flags)
{
	if (!json_is_array(arr) || json_array_size(arr))
		return NULL;
	json_array_append_new(arr, json_string(STAND_IN));
	json_array_append_new(arr, json_string(STAND_IN));
	char *two = json_dumps(doc, flags);
	json_array_clear(arr);
	json_t *one = json_string(STAND_IN);
	char *mark = json_dumps(one, JSON_ENCODE_ANY);
	json_decref(one);
	char *a = two && mark ? strstr(two, mark) : NULL;
	char *b = a ? strstr(a + strlen(mark), mark) : NULL;
	if (!b) {
		free(two);
		free(mark);
		return NULL;
	}
	sl_json_stream *s = sl_calloc(1, sizeof *s);
	s->flags = flags;
	s->doc = json_incref(doc);
	s->head = sl_strndup(two, (size_t)(a - two));
	s->sep = sl_strndup(a + strlen(mark), (size_t)(b - a - strlen(mark)));
	s->tail = sl_strdup(b + strlen(mark));
	const char *nl = strrchr(s->head, '\n');
	s->indent = nl ? nl + 1 : "";
	s->nindent = strlen(s->indent);
	free(two);
	free(mark);
	return s;
}

static int to_buf(const char *data, size_t n, void *ud)
{
	sl_buf_add(ud, data, n);
	return 0;
}

int sl_json_stream_add(sl_json_stream *s, FILE *f, json_t *v)
{
	s->dump.len = 0;
	if (!v || json_dump_callback(v, to_buf, &s->dump, s->flags | JSON_ENCODE_ANY))
		return -1;
	fputs(s->added++ ? s->sep : s->head, f);
	const char *p = s->dump.data, *end = p + s->dump.len;
	for (const char *nl; (nl = memchr(p, '\n', (size_t)(end - p))); p = nl + 1) {
		fwrite(p, 1, (size_t)(nl + 1 - p), f);
		fwrite(s->indent, 1, s->nindent, f);
	}
	fwrite(p, 1, (size_t)(end - p), f);
	return ferror(f) ? -1 : 0;
}

int sl_json_stream_end(sl_json_stream *s, FILE *f)
{
	if (s->added)
		fputs(s->tail, f);
	else if (json_dumpf(s->doc, f, s->flags))
		return -1;
	return ferror(f) ? -1 : 0;
}

void sl_json_stream_free(sl_json_stream *s)
{
	if (!s)
		return;
	json_decref(s->doc);
	free(s->head);
	free(s->sep);
	free(s->tail);
	sl_buf_free(&s->dump);
	free(s);
}
