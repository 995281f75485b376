/* fuzz_k8s: the input is a Kubernetes manifest (Deployment, StatefulSet,
 * Pod, Job, LeaderWorkerSet, DynamoGraphDeployment). It is read by
 * sl_k8s_parse, then used as an entry: shown (tty and json), planned as
 * `run --dry-run` does, and checked. */
#include "fuzz.h"
#include "parse/parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fz_setup();
	sl_source *src = NULL;
	sl_error err = {0};
	if (!sl_source_from_memory("deploy.yaml", (const char *)data, size, &src, &err)) {
		sl_script *s = NULL;
		sl_k8s_workload *ws = NULL;
		size_t nws = 0;
		if (!sl_k8s_parse(src, &s, &ws, &nws, &err)) {
			sl_k8s_workloads_free(ws, nws);
			sl_script_free(s);
		}
		sl_source_free(src);
	}
	sl_error_clear(&err);
	fz_mkdirs("k8s");
	fz_write("k8s/deploy.yaml", data, size);
	const char *e = fz_path("k8s");
	const char *f = fz_path("k8s/deploy.yaml");
	fz_run(sl_cmd_show, "show", "--color", "never", f, NULL);
	fz_run(sl_cmd_show, "show", "--format", "json", e, NULL);
	fz_run(sl_cmd_run, "run", "--dry-run", "--format", "json", "--set", "MODEL_ID=/m", f, NULL);
	fz_run(sl_cmd_check, "check", "--no-config", "--format", "json", f, NULL);
	return 0;
}
