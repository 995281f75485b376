/* fuzz_check: the input is a launch script, checked with every rule and
 * reported in each of the six formats (tty, gcc, json, sarif, github,
 * checkstyle), one of them through --output into a scratch file; inline
 * `# servelint disable=` comments take part as the input writes them, and
 * one run adds --set binds and a severity threshold. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fz_setup();
	fz_write("launch.sh", data, size);
	const char *s = fz_path("launch.sh");
	static const char *const formats[] = {"tty", "gcc", "json", "sarif", "github", "checkstyle"};
	for (size_t i = 0; i < sizeof formats / sizeof *formats; i++)
		fz_run(sl_cmd_check, "check", "--no-config", "--color", i ? "never" : "always", "--format",
		       formats[i], s, NULL);
	fz_run(sl_cmd_check, "check", "--no-config", "--format", "sarif", "--output", fz_path("report.sarif"),
	       "--format", "checkstyle", "--severity", "warning", "--set", "MODEL=/m", "--set", "TP=8", s, NULL);
	unlink(fz_path("report.sarif"));
	return 0;
}
