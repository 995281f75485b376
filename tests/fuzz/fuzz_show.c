/* fuzz_show: the input is a launch script. It is read as `show` reads it
 * (tty and json, with and without --set binds, every variant and the first
 * one alone) and planned as `run --dry-run` does (plain and --native), so the
 * whole way from the shell reader to the models and the exec plan is fuzzed. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fz_setup();
	fz_write("launch.sh", data, size);
	const char *s = fz_path("launch.sh");
	fz_run(sl_cmd_show, "show", "--color", "never", s, NULL);
	fz_run(sl_cmd_show, "show", "--format", "json", s, NULL);
	fz_run(sl_cmd_show, "show", "--format", "json", "--set", "MODEL=/models/m", "--set", "TP=4",
	       "--set", "PORT=8000", "--set", "host-path=/data", "--variant", "1", s, NULL);
	fz_run(sl_cmd_run, "run", "--dry-run", "--set", "model-path=/m", "--set", "MODEL=/m", s, NULL);
	fz_run(sl_cmd_run, "run", "--dry-run", "--native", "--format", "json", "--set", "host-path=/data", s, NULL);
	return 0;
}
