/* fuzz_diff: the input is two launch scripts separated by a line "#####"
 * (without one, the input against itself with one command added). They are
 * diffed (tty, markdown, json; with --ignore and --only), put side by side
 * in a matrix (tty, markdown, csv, json), and audited as a catalogue of two
 * entries (tty, json, markdown, sarif and --html). */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fz_setup();
	const uint8_t *st[2];
	size_t ln[2];
	size_t n = fz_split(data, size, st, ln, 2);
	fz_mkdirs("cat/m/a");
	fz_mkdirs("cat/m/b");
	fz_write("cat/m/a/launch.sh", st[0], ln[0]);
	if (n == 2) {
		fz_write("cat/m/b/launch.sh", st[1], ln[1]);
	} else {
		static const char more[] = "\nvllm serve /m --max-num-seqs 7\n";
		uint8_t *b = malloc(size + sizeof more);
		memcpy(b, data, size);
		memcpy(b + size, more, sizeof more - 1);
		fz_write("cat/m/b/launch.sh", b, size + sizeof more - 1);
		free(b);
	}
	const char *a = fz_path("cat/m/a"), *b = fz_path("cat/m/b"), *cat = fz_path("cat");
	fz_run(sl_cmd_diff, "diff", "--color", "always", a, b, NULL);
	fz_run(sl_cmd_diff, "diff", "--format", "markdown", "--exit-code", a, b, NULL);
	fz_run(sl_cmd_diff, "diff", "--format", "json", "--ignore", "*.port", "--ignore", "env.*", a, b, NULL);
	fz_run(sl_cmd_diff, "diff", "--only", "model*", "--only", "*parallel*", a, b, NULL);
	static const char *const mfmt[] = {"tty", "markdown", "csv", "json"};
	for (size_t i = 0; i < 4; i++)
		fz_run(sl_cmd_matrix, "matrix", "--format", mfmt[i], i ? "--exit-code" : "--all", a, b, NULL);
	static const char *const afmt[] = {"tty", "json", "markdown", "sarif"};
	for (size_t i = 0; i < 4; i++)
		fz_run(sl_cmd_audit, "audit", "--no-config", "--format", afmt[i], cat, NULL);
	fz_run(sl_cmd_audit, "audit", "--no-config", "--html", fz_path("audit.html"), cat, NULL);
	unlink(fz_path("audit.html"));
	return 0;
}
