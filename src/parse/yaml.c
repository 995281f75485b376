/*
 * yaml.c: YAML files into a small node tree, with libyaml.
 *
 * libyaml's document loader resolves anchors and aliases into shared node
 * ids; copying the document into our own tree expands them, which is where
 * the explicit SL_YAML_MAX_NODES limit stops alias bombs. Duplicate keys are
 * refused here, once, so no later stage has to guess which value wins.
 */
#include "parse.h"

#include <stdlib.h>
#include <string.h>
#include <yaml.h>

typedef struct {
	yaml_document_t *doc;
	const sl_source *src;
	sl_error *err;
	size_t count;
	int failed;
} loader;

static void yfail(loader *L, yaml_mark_t m, const char *msg, const char *arg)
{
	if (L->failed)
		return;
	L->failed = 1;
	sl_error_set(L->err, L->src->path, (unsigned)m.line + 1 + L->src->line_base,
		     (unsigned)m.column + 1, msg, arg);
}

static void node_free(sl_yaml_node *n)
{
	if (!n)
		return;
	for (size_t i = 0; i < n->n; i++) {
		if (n->keys)
			node_free(n->keys[i]);
		node_free(n->items[i]);
	}
	free(n->keys);
	free(n->items);
	free(n->value);
	free(n->tag);
	free(n);
}

static sl_yaml_node *convert(loader *L, yaml_node_t *y, unsigned depth)
{
	if (L->failed || !y)
		return NULL;
	if (depth > SL_YAML_MAX_DEPTH) {
		yfail(L, y->start_mark, "YAML nesting deeper than the limit of %s levels", "64");
		return NULL;
	}
	if (++L->count > SL_YAML_MAX_NODES) {
		yfail(L, y->start_mark, "YAML expands to more than %s nodes (alias expansion limit)",
		      "200000");
		return NULL;
	}
	sl_yaml_node *n = sl_calloc(1, sizeof *n);
	/* libyaml marks are 0-based, and columns count characters */
	n->line = (unsigned)y->start_mark.line + 1;
	n->col = (unsigned)y->start_mark.column + 1;
	n->tag = y->tag ? sl_strdup((const char *)y->tag) : NULL;
	switch (y->type) {
	case YAML_SCALAR_NODE:
		n->kind = SL_YAML_SCALAR;
		n->value = sl_strndup((const char *)y->data.scalar.value, y->data.scalar.length);
		n->len = y->data.scalar.length;
		n->plain = y->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
		n->style = (int)y->data.scalar.style;
		break;
	case YAML_SEQUENCE_NODE: {
		n->kind = SL_YAML_SEQ;
		n->style = (int)y->data.sequence.style;
		size_t k = (size_t)(y->data.sequence.items.top - y->data.sequence.items.start);
		n->items = sl_calloc(k, sizeof *n->items);
		for (size_t i = 0; i < k && !L->failed; i++) {
			n->items[i] = convert(L, yaml_document_get_node(L->doc, y->data.sequence.items.start[i]), depth + 1);
			n->n = i + 1;
		}
		break;
	}
	case YAML_MAPPING_NODE: {
		n->kind = SL_YAML_MAP;
		n->style = (int)y->data.mapping.style;
		size_t k = (size_t)(y->data.mapping.pairs.top - y->data.mapping.pairs.start);
		n->keys = sl_calloc(k, sizeof *n->keys);
		n->items = sl_calloc(k, sizeof *n->items);
		for (size_t i = 0; i < k && !L->failed; i++) {
			yaml_node_pair_t *p = &y->data.mapping.pairs.start[i];
			yaml_node_t *kn = yaml_document_get_node(L->doc, p->key);
			n->keys[i] = convert(L, kn, depth + 1);
			n->items[i] = convert(L, yaml_document_get_node(L->doc, p->value), depth + 1);
			n->n = i + 1;
			if (L->failed)
				break;
			if (n->keys[i]->kind != SL_YAML_SCALAR) {
				yfail(L, kn->start_mark, "YAML mapping key is not a scalar%s", "");
				break;
			}
			for (size_t j = 0; j < i; j++)
				if (!strcmp(n->keys[j]->value, n->keys[i]->value)) {
					yfail(L, kn->start_mark, "duplicate YAML key `%s`", n->keys[i]->value);
					break;
				}
		}
		break;
	}
	default:
		break;
	}
	return n;
}

int sl_yaml_load(const sl_source *src, sl_yaml_doc **out, sl_error *err)
{
	*out = NULL;
	yaml_parser_t p;
	yaml_parser_initialize(&p);
	yaml_parser_set_input_string(&p, (const unsigned char *)src->text, src->len);
	sl_yaml_doc *d = sl_calloc(1, sizeof *d);
	d->src = src;
	loader L = {NULL, src, err, 0, 0};
	size_t cap = 0;
	for (;;) {
		yaml_document_t doc;
		if (!yaml_parser_load(&p, &doc)) {
			sl_error_set(err, src->path, (unsigned)p.problem_mark.line + 1 + src->line_base,
				     (unsigned)p.problem_mark.column + 1, "YAML: %s%s%s",
				     p.problem ? p.problem : "syntax error",
				     p.context ? " " : "", p.context ? p.context : "");
			L.failed = 1;
			break;
		}
		yaml_node_t *root = yaml_document_get_root_node(&doc);
		if (!root) {  /* end of the stream */
			yaml_document_delete(&doc);
			break;
		}
		L.doc = &doc;
		sl_yaml_node *n = convert(&L, root, 0);
		yaml_document_delete(&doc);
		SL_PUSH(d->roots, d->ndocs, cap, n);
		if (L.failed)
			break;
	}
	yaml_parser_delete(&p);
	d->root = d->ndocs ? d->roots[0] : NULL;
	if (L.failed) {
		sl_yaml_free(d);
		return SL_ERR_INPUT;
	}
	*out = d;
	return SL_OK;
}

void sl_yaml_free(sl_yaml_doc *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->ndocs; i++)
		node_free(d->roots[i]);
	free(d->roots);
	free(d);
}

const sl_yaml_node *sl_yaml_get(const sl_yaml_node *map, const char *key)
{
	if (!map || map->kind != SL_YAML_MAP)
		return NULL;
	for (size_t i = 0; i < map->n; i++)
		if (map->keys[i] && !strcmp(map->keys[i]->value, key))
			return map->items[i];
	return NULL;
}

int sl_yaml_is_null(const sl_yaml_node *n)
{
	return !n || (n->kind == SL_YAML_SCALAR && n->plain &&
		      (n->len == 0 || !strcmp(n->value, "null") || !strcmp(n->value, "~") ||
		       !strcmp(n->value, "Null") || !strcmp(n->value, "NULL")));
}

json_t *sl_yaml_to_json(const sl_yaml_node *n)
{
	long long i;
	double d;
	if (!n)
		return json_null();
	switch (n->kind) {
	case SL_YAML_MAP: {
		json_t *o = json_object();
		for (size_t k = 0; k < n->n; k++)
			json_object_set_new(o, n->keys[k]->value, sl_yaml_to_json(n->items[k]));
		return o;
	}
	case SL_YAML_SEQ: {
		json_t *a = json_array();
		for (size_t k = 0; k < n->n; k++)
			json_array_append_new(a, sl_yaml_to_json(n->items[k]));
		return a;
	}
	default:
		if (!n->plain)
			return json_string(n->value);
		if (sl_yaml_is_null(n))
			return json_null();
		if (!strcmp(n->value, "true") || !strcmp(n->value, "True") || !strcmp(n->value, "TRUE"))
			return json_true();
		if (!strcmp(n->value, "false") || !strcmp(n->value, "False") || !strcmp(n->value, "FALSE"))
			return json_false();
		if (!sl_parse_int(n->value, &i))
			return json_integer(i);
		if (!sl_parse_double(n->value, &d))
			return json_real(d);
		return json_string(n->value);
	}
}
