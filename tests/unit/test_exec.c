/* test_exec.c: run plans from models, and the statistics of timings. */
#include "helpers.h"
#include "exec/exec.h"
#include "normalize/normalize.h"

static sl_grammars *gs;

static int setup(void **st)
{
	(void)st;
	return (gs = grammars_or_null()) ? 0 : -1;
}

static int teardown(void **st)
{
	(void)st;
	sl_normalize_grammars_free(gs);
	return 0;
}

/* The plan of a script with the given --set values; rc is what
 * sl_exec_plan returned, err its message. */
typedef struct {
	sl_entry *e;
	sl_model *m;
	sl_plan p;
	int rc;
	sl_error err;
} planned;

static planned plan_of(const char *text, char **sets, size_t nsets, char **svcs, size_t nsvcs, int native)
{
	planned x;
	memset(&x, 0, sizeof x);
	x.e = entry_from(text);
	assert_int_equal(sl_normalize_entry(x.e, gs, &x.m, &x.err), 0);
	sl_plan_opts o = {svcs, nsvcs, sets, nsets, native, NULL, 0};
	x.rc = sl_exec_plan(x.m, &o, &x.p, &x.err);
	return x;
}

static void done(planned *x)
{
	sl_exec_plan_free(&x->p);
	sl_model_free(x->m);
	sl_entry_free(x->e);
	sl_error_clear(&x->err);
}

static void placeholders_fill_argv_elements(void **st)
{
	(void)st;
	char *sets[] = {"host-path=/data", "<8 GPUs>=0,1,2,3,4,5,6,7"};
	planned x = plan_of("CUDA_VISIBLE_DEVICES=<8 GPUs> vllm serve m --download-dir <host-path>/hf --port 9000\n",
			    sets, 2, NULL, 0, 0);
	assert_int_equal(x.rc, 0);
	assert_int_equal(x.p.n, 1);
	assert_string_equal(x.p.procs[0].argv[4], "/data/hf");
	assert_string_equal(x.p.procs[0].env[0], "CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7");
	assert_int_equal(x.p.procs[0].ready, SL_READY_HTTP);
	assert_string_equal(x.p.procs[0].url, "http://127.0.0.1:9000/health");
	done(&x);
}

static void unresolved_placeholder_is_located(void **st)
{
	(void)st;
	planned x = plan_of("# a comment\nvllm serve <model-path>\n", NULL, 0, NULL, 0, 0);
	assert_int_equal(x.rc, SL_ERR_INPUT);
	assert_int_equal(x.err.line, 2);
	assert_int_equal(x.err.col, 1);
	assert_non_null(strstr(x.err.msg, "placeholder <model-path> has no value"));
	done(&x);
}

static void variables_from_set_only_whole_names(void **st)
{
	(void)st;
	char *sets[] = {"TP=4"};
	planned x = plan_of("vllm serve m --tensor-parallel-size $TP --port ${SL_TEST_UNSET_PORT}\n", sets, 1, NULL, 0,
			    0);
	assert_int_equal(x.rc, SL_ERR_INPUT);
	assert_non_null(strstr(x.err.msg, "$SL_TEST_UNSET_PORT is not set"));
	done(&x);
	char *sets2[] = {"TP=4", "SL_TEST_UNSET_PORT=9100"};
	x = plan_of("vllm serve m --tensor-parallel-size $TP --port ${SL_TEST_UNSET_PORT}\n", sets2, 2, NULL, 0, 0);
	assert_int_equal(x.rc, 0);
	assert_string_equal(x.p.procs[0].argv[4], "4");
	assert_string_equal(x.p.procs[0].url, "http://127.0.0.1:9100/health");
	done(&x);
	/* what the shell computes cannot be guessed */
	x = plan_of("vllm serve m --tensor-parallel-size $(nproc)\n", NULL, 0, NULL, 0, 0);
	assert_int_equal(x.rc, SL_ERR_INPUT);
	assert_non_null(strstr(x.err.msg, "computed by the shell"));
	done(&x);
}

static void stages_order_and_replicas(void **st)
{
	(void)st;
	const char *script = "for g in 1 2; do\n"
			     "  CUDA_VISIBLE_DEVICES=$g python3 -m dynamo.vllm --model m --disaggregation-mode decode &\n"
			     "done\n"
			     "python3 -m dynamo.frontend --http-port 8100 &\n"
			     "etcd --listen-client-urls http://0.0.0.0:2400 &\n";
	planned x = plan_of(script, NULL, 0, NULL, 0, 0);
	assert_int_equal(x.rc, 0);
	assert_int_equal(x.p.n, 4);
	assert_string_equal(x.p.procs[0].name, "etcd");
	assert_int_equal(x.p.procs[0].port, 2400);
	assert_string_equal(x.p.procs[1].name, "frontend");
	assert_string_equal(x.p.procs[2].name, "decode");
	assert_string_equal(x.p.procs[3].name, "decode#2");
	assert_string_equal(x.p.procs[3].env[0], "CUDA_VISIBLE_DEVICES=2");
	assert_int_equal(x.p.procs[3].ready, SL_READY_FRONTEND);
	assert_string_equal(x.p.procs[3].url, "http://127.0.0.1:8100/v1/models");
	done(&x);
	char *svcs[] = {"decode#2", "frontend"};
	x = plan_of(script, NULL, 0, svcs, 2, 0);
	assert_int_equal(x.rc, 0);
	assert_int_equal(x.p.n, 2);
	assert_string_equal(x.p.procs[0].name, "frontend");
	assert_string_equal(x.p.procs[1].name, "decode#2");
	done(&x);
	char *alone[] = {"decode"};
	x = plan_of(script, NULL, 0, alone, 1, 0);
	assert_int_equal(x.rc, SL_ERR_INPUT); /* no frontend to tell readiness */
	done(&x);
}

static void docker_native_maps_volumes_back(void **st)
{
	(void)st;
	const char *script = "docker run --gpus all -v /srv/w:/w -e HF_HOME=/w/hf img:1 \\\n"
			     "  vllm serve /w/model --port 9200\n";
	planned x = plan_of(script, NULL, 0, NULL, 0, 0);
	assert_int_equal(x.rc, 0);
	assert_int_equal(x.p.needs_docker, 1);
	assert_string_equal(x.p.procs[0].argv[0], "docker");
	done(&x);
	x = plan_of(script, NULL, 0, NULL, 0, 1);
	assert_int_equal(x.rc, 0);
	assert_int_equal(x.p.needs_docker, 0);
	assert_string_equal(x.p.procs[0].argv[0], "vllm");
	assert_string_equal(x.p.procs[0].argv[2], "/srv/w/model");
	assert_string_equal(x.p.procs[0].env[0], "HF_HOME=/srv/w/hf");
	done(&x);
}

/* Only arguments after the image, run natively: the entrypoint docker.yaml
 * lists for it starts them (vllm/vllm-tpu's assumed, with a note); an
 * image only guessed to be vLLM from its name, or not known, has none. */
static void docker_native_image_entrypoint(void **st)
{
	(void)st;
	static const char *const images[] = {"vllm/vllm-openai:v0.31.0", "docker.io/vllm/vllm-openai-rocm:v0.31.0",
					      "vllm/vllm-tpu:nightly", "myorg/vllm-custom:1", "acme/server:1"};
	for (size_t i = 0; i < sizeof images / sizeof *images; i++) {
		sl_buf b = {0};
		sl_buf_printf(&b, "docker run --rm %s --model org/m --port 9100\n", images[i]);
		planned x = plan_of(b.data, NULL, 0, NULL, 0, 1);
		sl_buf_free(&b);
		if (i < 3) {
			assert_int_equal(x.rc, 0);
			assert_int_equal(x.p.procs[0].argc, 6);
			assert_string_equal(x.p.procs[0].argv[0], "vllm");
			assert_string_equal(x.p.procs[0].argv[1], "serve");
			assert_string_equal(x.p.procs[0].argv[2], "--model");
			assert_int_equal(x.p.nnotes, i == 2);
			if (i == 2)
				assert_non_null(strstr(x.p.notes[0], "the entrypoint of image `vllm/vllm-tpu:nightly` is assumed"));
		} else {
			assert_int_equal(x.rc, SL_ERR_INPUT);
			assert_non_null(strstr(x.err.msg, "the image's entrypoint is not known"));
		}
		done(&x);
	}
}

static void one_port_twice_is_refused(void **st)
{
	(void)st;
	/* both left to vLLM's default port 8000: the second could not start */
	planned x = plan_of("vllm serve a &\nvllm serve b --max-num-seqs 8\n", NULL, 0, NULL, 0, 0);
	assert_int_equal(x.rc, SL_ERR_INPUT);
	assert_non_null(strstr(x.err.msg, "both serve on port 8000"));
	done(&x);
	x = plan_of("vllm serve a &\nvllm serve b --port 8001\n", NULL, 0, NULL, 0, 0);
	assert_int_equal(x.rc, 0);
	done(&x);
}

static void stats_as_hyperfine(void **st)
{
	(void)st;
	double v[] = {3, 1, 2, 10};
	sl_stats s;
	sl_exec_stats(v, 4, &s);
	assert_float_equal(s.mean, 4.0, 1e-12);
	assert_float_equal(s.median, 2.5, 1e-12);
	assert_float_equal(s.min, 1, 0);
	assert_float_equal(s.max, 10, 0);
	/* sample standard deviation: sqrt(((−1)²+(−3)²+(−2)²+6²)/3) = sqrt(50/3) */
	assert_float_equal(s.stddev, 4.08248290463863, 1e-9);
	double one = 7;
	sl_exec_stats(&one, 1, &s);
	assert_float_equal(s.stddev, 0, 0);
	assert_float_equal(s.median, 7, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(placeholders_fill_argv_elements),
		cmocka_unit_test(unresolved_placeholder_is_located),
		cmocka_unit_test(variables_from_set_only_whole_names),
		cmocka_unit_test(stages_order_and_replicas),
		cmocka_unit_test(docker_native_maps_volumes_back),
		cmocka_unit_test(docker_native_image_entrypoint),
		cmocka_unit_test(one_port_twice_is_refused),
		cmocka_unit_test(stats_as_hyperfine),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
