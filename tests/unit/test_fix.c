/* test_fix.c: the fix stage's refusals that a whole run of `check` cannot
 * reach (src/check/fix.c): a file changed between its entry's reading and
 * the fixing, and between the fixing's reading and its writing; two fixes
 * of the same text; a fix made whole or not at all; insertions at one
 * place in their findings' order. */
#include "helpers.h"

#include <unistd.h>

#include "check/check.h"

static const char *const script = "vllm serve org/m --max-num-seqs 64 --max-num-seqs 64\n";

/* A file of text in a fresh folder; its path (static). */
static const char *write_tmp(const char *text)
{
	static char path[64];
	char dir[] = "/tmp/sl_fix_XXXXXX";
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/launch.sh", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

static char *read_all(const char *path)
{
	char *t = NULL;
	size_t n;
	sl_error err = {0};
	assert_int_equal(sl_read_file(path, 1 << 20, &t, &n, &err), 0);
	return t;
}

static void clean(const char *path)
{
	char dir[64];
	snprintf(dir, sizeof dir, "%s", path);
	unlink(path);
	*strrchr(dir, '/') = 0;
	rmdir(dir);
}

/* One finding of rule r with a fix of one edit: src's [off, off+len) becomes text. */
static void add_fix(sl_findings *fs, const sl_rule *r, const sl_source *src, uint32_t off, uint32_t len,
		    const char *text)
{
	sl_finding f;
	memset(&f, 0, sizeof f);
	f.rule = r;
	f.severity = SL_SEV_STYLE;
	f.message = strdup("repeated");
	f.where.src = src;
	f.where.off = off;
	f.fix = strdup("delete");
	f.edits = calloc(1, sizeof *f.edits);
	f.edits[0].src = src;
	f.edits[0].off = off;
	f.edits[0].len = len;
	f.edits[0].text = strdup(text);
	f.nedits = 1;
	SL_PUSH(fs->v, fs->n, fs->cap, f);
}

static void test_changed_before_fixing(void **state)
{
	(void)state;
	sl_rules *rules;
	sl_error err = {0};
	assert_int_equal(sl_rules_load(&rules, &err), 0);
	const sl_rule *r = sl_rules_find(rules, "SL1003");
	const char *path = write_tmp(script);
	sl_source *src;
	assert_int_equal(sl_source_load(path, &src, &err), 0);
	/* the file is edited after check read it */
	FILE *f = fopen(path, "w");
	fputs("vllm serve org/m --max-num-seqs 32 --max-num-seqs 64\n", f);
	fclose(f);
	sl_findings fs = {0};
	add_fix(&fs, r, src, 34, 18, "");
	sl_fixes fx;
	FILE *notes = tmpfile();
	assert_int_equal(sl_fix_collect(&fs, SL_SEV_STYLE, NULL, 0, notes, &fx), -1);
	assert_int_equal(fx.n, 0);
	assert_int_equal(fx.nfixed, 0);
	assert_int_equal(fs.v[0].fixed, 0);
	fclose(notes);
	sl_fixes_free(&fx);
	sl_findings_free(&fs);
	sl_source_free(src);
	clean(path);
	sl_rules_free(rules);
}

static void test_changed_before_writing(void **state)
{
	(void)state;
	sl_rules *rules;
	sl_error err = {0};
	assert_int_equal(sl_rules_load(&rules, &err), 0);
	const sl_rule *r = sl_rules_find(rules, "SL1003");
	const char *path = write_tmp(script);
	sl_source *src;
	assert_int_equal(sl_source_load(path, &src, &err), 0);
	sl_findings fs = {0};
	add_fix(&fs, r, src, 34, 18, "");
	/* a second fix of overlapping text waits; the same one again is the same fix */
	add_fix(&fs, r, src, 40, 4, "xx");
	add_fix(&fs, r, src, 34, 18, "");
	sl_fixes fx;
	FILE *notes = tmpfile();
	assert_int_equal(sl_fix_collect(&fs, SL_SEV_STYLE, NULL, 0, notes, &fx), 0);
	assert_int_equal(fx.n, 1);
	assert_int_equal(fx.nfixed, 2);
	assert_int_equal(fx.nskipped, 1);
	assert_int_equal(fs.v[1].fixed, 0);
	assert_string_equal(fx.v[0].new, "vllm serve org/m --max-num-seqs 64\n");
	/* the file is edited after the fixes were made: nothing is written */
	const char *edited = "# edited\nvllm serve org/m --max-num-seqs 64 --max-num-seqs 64\n";
	FILE *f = fopen(path, "w");
	fputs(edited, f);
	fclose(f);
	assert_int_equal(sl_fix_apply(&fx, &fs, notes), -1);
	char *now = read_all(path);
	assert_string_equal(now, edited);
	free(now);
	assert_int_equal(fs.v[0].fixed, 0);
	/* and when it is not edited, it is written whole */
	f = fopen(path, "w");
	fputs(script, f);
	fclose(f);
	fs.v[0].fixed = 1;
	assert_int_equal(sl_fix_apply(&fx, &fs, notes), 0);
	now = read_all(path);
	assert_string_equal(now, "vllm serve org/m --max-num-seqs 64\n");
	free(now);
	fclose(notes);
	sl_fixes_free(&fx);
	sl_findings_free(&fs);
	sl_source_free(src);
	clean(path);
	sl_rules_free(rules);
}

/* A move's insertions: several at one place go in the order of their
 * findings (not of a sort's whim); one that falls inside another fix's
 * replacement waits, and a fix of two edits, one of which waits, is not
 * made at all. */
static void test_insertions(void **state)
{
	(void)state;
	sl_rules *rules;
	sl_error err = {0};
	assert_int_equal(sl_rules_load(&rules, &err), 0);
	const sl_rule *r = sl_rules_find(rules, "SL1010");
	const char *path = write_tmp("a b c\n");
	sl_source *src;
	assert_int_equal(sl_source_load(path, &src, &err), 0);
	sl_findings fs = {0};
	add_fix(&fs, r, src, 5, 0, " z");
	add_fix(&fs, r, src, 5, 0, " x");
	add_fix(&fs, r, src, 5, 0, " y");
	add_fix(&fs, r, src, 2, 3, "B C");
	/* an insertion inside the B C replacement, with a deletion elsewhere;
	 * one at its start (before or after it?) */
	add_fix(&fs, r, src, 3, 0, "!");
	fs.v[4].edits = realloc(fs.v[4].edits, 2 * sizeof *fs.v[4].edits);
	fs.v[4].edits[1] = (sl_edit){src, 0, 2, strdup("")};
	fs.v[4].nedits = 2;
	add_fix(&fs, r, src, 2, 0, "?");
	sl_fixes fx;
	FILE *notes = tmpfile();
	assert_int_equal(sl_fix_collect(&fs, SL_SEV_STYLE, NULL, 0, notes, &fx), 0);
	assert_int_equal(fx.n, 1);
	assert_int_equal(fx.nfixed, 4);
	assert_int_equal(fx.nskipped, 2);
	assert_int_equal(fs.v[4].fixed, 0);
	assert_int_equal(fs.v[5].fixed, 0);
	assert_string_equal(fx.v[0].new, "a B C z x y\n");
	fclose(notes);
	sl_fixes_free(&fx);
	sl_findings_free(&fs);
	sl_source_free(src);
	clean(path);
	sl_rules_free(rules);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_changed_before_fixing),
		cmocka_unit_test(test_changed_before_writing),
		cmocka_unit_test(test_insertions),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
