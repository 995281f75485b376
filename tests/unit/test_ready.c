/* test_ready.c: the YAML compiled at build time (cmake/yaml_ready.c) is the
 * source tree's files, and each tree is the one sl_yaml_load makes of its
 * text, node for node (kind, text, style, tag, place, children). */
#include "helpers.h"
#include "parse/parse.h"

#include <dirent.h>

extern const sl_yaml_ready sl_grammar_ready[], sl_rule_ready[], sl_hardware_ready[], sl_models_ready[];

static void same_node(const sl_yaml_node *a, const sl_yaml_node *b, const char *file)
{
	if (!a || !b) {
		assert_ptr_equal(a, b);
		return;
	}
	if (a->kind != b->kind || a->len != b->len || a->plain != b->plain || a->style != b->style ||
	    a->line != b->line || a->col != b->col || a->n != b->n)
		fail_msg("%s:%u:%u: the compiled node differs", file, a->line, a->col);
	assert_true(!a->value == !b->value);
	if (a->value)
		assert_memory_equal(a->value, b->value, a->len + 1);
	assert_true(!a->tag == !b->tag);
	if (a->tag)
		assert_string_equal(a->tag, b->tag);
	for (size_t i = 0; a->kind != SL_YAML_SCALAR && i < a->n; i++) {
		if (a->kind == SL_YAML_MAP)
			same_node(a->keys[i], b->keys[i], file);
		same_node(a->items[i], b->items[i], file);
	}
}

/* TABLE against the YAML files of DIR (under the source tree) */
static void same_table(const sl_yaml_ready *table, const char *dir)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", SL_SOURCE_DIR, dir);
	DIR *d = opendir(path);
	assert_non_null(d);
	size_t files = 0, n = 0;
	struct dirent *de;
	while ((de = readdir(d)))
		files += sl_ends_with(de->d_name, ".yaml");
	closedir(d);
	for (; table[n].name; n++) {
		const sl_yaml_ready *r = &table[n];
		if (n)
			assert_true(strcmp(table[n - 1].name, r->name) < 0);  /* name order, as loaded */
		snprintf(path, sizeof path, "%s/%s/%s", SL_SOURCE_DIR, dir, r->name);
		sl_error err = {0};
		sl_source *src = NULL;
		sl_yaml_doc *doc = NULL;
		if (sl_source_load(path, &src, &err) || sl_yaml_load(src, &doc, &err))
			fail_msg("%s: %s", path, err.msg);
		/* the text built in is the file's */
		assert_int_equal(r->len, src->len);
		assert_memory_equal(r->data, src->text, src->len);
		assert_int_equal(r->ndocs, doc->ndocs);
		for (size_t k = 0; k < doc->ndocs; k++)
			same_node(doc->roots[k], r->roots[k], path);
		sl_yaml_doc *rd = NULL;
		assert_int_equal(sl_yaml_load_ready(r, src, &rd), 0);
		assert_ptr_equal(rd->root, doc->ndocs ? r->roots[0] : NULL);
		sl_yaml_free(rd);  /* the document only: the nodes are static */
		sl_yaml_free(doc);
		sl_source_free(src);
	}
	assert_int_equal(n, files);
	assert_true(n > 0);
}

static void test_grammars(void **st)
{
	(void)st;
	same_table(sl_grammar_ready, "grammars/engines");
}

static void test_rules(void **st)
{
	(void)st;
	same_table(sl_rule_ready, "rules");
}

static void test_facts(void **st)
{
	(void)st;
	same_table(sl_hardware_ready, "grammars/hardware");
	same_table(sl_models_ready, "grammars/models");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grammars),
		cmocka_unit_test(test_rules),
		cmocka_unit_test(test_facts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
