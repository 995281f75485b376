/* fuzz_page: the input is a published catalogue page (scraped text). It is
 * split into entries (sl_page_split), shown as `show PAGE` does, and imported
 * for real with `import --out` into a scratch folder that is emptied after
 * each input (and --dry-run). Nothing may be written outside the scratch
 * folder: the folder around it is checked to hold only what this target put
 * there. */
#include "fuzz.h"

static int only_ours(void)
{
	DIR *d = opendir(fz_root);
	if (!d)
		return 0;
	struct dirent *e;
	int ok = 1;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && strcmp(e->d_name, "page.txt") &&
		    strcmp(e->d_name, "out"))
			ok = 0;
	closedir(d);
	return ok;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fz_setup();
	fz_write("page.txt", data, size);
	const char *p = fz_path("page.txt");
	const char *out = fz_path("out");
	fz_run(sl_cmd_show, "show", "--format", "json", p, NULL);
	fz_run(sl_cmd_import, "import", "--dry-run", p, NULL);
	fz_run(sl_cmd_import, "import", "--out", out, p, NULL);
	if (!only_ours()) {
		fprintf(stderr, "fuzz_page: import wrote outside --out (%s)\n", fz_root);
		abort();
	}
	fz_rm_rf(out);
	return 0;
}
