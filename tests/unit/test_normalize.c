/* test_normalize.c: flags, launchers and topology into the model. */
#include "helpers.h"
#include "normalize/normalize.h"
#include "normalize/grammar.h"
#include "entry/entry.h"

#include <unistd.h>

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

typedef struct {
	sl_entry *e;
	sl_model *m;
} fixture;

static fixture model_of(const char *text)
{
	fixture f;
	f.e = entry_from(text);
	sl_error err = {0};
	int rc = sl_normalize_entry(f.e, gs, &f.m, &err);
	if (rc)
		fprintf(stderr, "%s:%u:%u: %s\n", err.file, err.line, err.col, err.msg);
	assert_int_equal(rc, 0);
	return f;
}

static void done(fixture *f)
{
	sl_model_free(f->m);
	sl_entry_free(f->e);
}

static long long int_of(const sl_service *s, const char *key)
{
	const sl_setting *st = sl_service_get(s, key);
	if (!st || !json_is_integer(st->value))
		fail_msg("no integer setting %s", key);
	return (long long)json_integer_value(st->value);
}

static const char *str_of(const sl_service *s, const char *key)
{
	const sl_setting *st = sl_service_get(s, key);
	if (!st || !json_is_string(st->value))
		fail_msg("no string setting %s", key);
	return json_string_value(st->value);
}

static const char *note_with(const sl_model *m, const char *needle)
{
	for (size_t i = 0; i < m->nnotes; i++)
		if (strstr(m->notes[i].msg, needle))
			return m->notes[i].msg;
	return NULL;
}

static void test_vllm_spellings(void **st)
{
	(void)st;
	/* the same setting in the four spellings vLLM's parser accepts */
	const char *forms[] = {"--tensor-parallel-size 4", "--tensor-parallel-size=4", "-tp 4",
			       "--tensor_parallel_size 4"};
	for (size_t i = 0; i < 4; i++) {
		char text[128];
		snprintf(text, sizeof text, "vllm serve org/m %s\n", forms[i]);
		fixture f = model_of(text);
		assert_int_equal(f.m->nservices, 1);
		const sl_service *s = &f.m->services[0];
		assert_string_equal(s->engine, "vllm");
		assert_string_equal(s->role, "aggregated");
		assert_int_equal(int_of(s, "parallel.tensor"), 4);
		assert_string_equal(str_of(s, "model"), "org/m");
		assert_int_equal(f.m->nnotes, 0);
		done(&f);
	}
}

static void test_vllm_values(void **st)
{
	(void)st;
	fixture f = model_of("vllm serve m --numa-bind-nodes 0 0 1 1 --max-model-len 32k \\\n"
			     "  --no-enable-prefix-caching --gpu-memory-utilization 0.9 \\\n"
			     "  --speculative-config '{\"method\":\"mtp\",\"num_speculative_tokens\":3}' \\\n"
			     "  --kv-transfer-config.kv_role kv_consumer\n");
	const sl_service *s = &f.m->services[0];
	const sl_setting *nb = sl_service_get(s, "vllm.numa_bind_nodes");
	assert_non_null(nb);
	assert_true(json_is_array(nb->value));
	assert_int_equal(json_array_size(nb->value), 4);
	assert_int_equal(int_of(s, "limits.max_model_len"), 32000);
	const sl_setting *pc = sl_service_get(s, "cache.prefix_caching");
	if (!pc)
		pc = sl_service_get(s, "vllm.enable_prefix_caching");
	assert_non_null(pc);
	assert_true(json_is_false(pc->value));
	assert_true(pc->flags & SL_SET_NEGATED);
	assert_string_equal(str_of(s, "spec.method"), "mtp");
	assert_int_equal(int_of(s, "spec.num_tokens"), 3);
	/* the member's origin is the member itself, line 3 */
	const sl_setting *nt = sl_service_get(s, "spec.num_tokens");
	assert_string_equal(pos_of(f.e->script, nt->origin.off), "3:41");
	const sl_setting *role = sl_service_get(s, "kv.transfer.role");
	assert_string_equal(role->via, "dotted");
	/* a consumer KV role makes a decode worker */
	assert_string_equal(s->role, "decode");
	done(&f);
}

/* A JSON value the script knows in part: its known members are settings
 * (the KV role makes the worker's role), each unknown one is symbolic,
 * named by its text. */
static void test_json_with_holes(void **st)
{
	(void)st;
	fixture f = model_of("host_ip=$(hostname -i)\n"
			     "vllm serve m --port 8100 --kv-transfer-config "
			     "'{\"kv_connector\":\"NixlConnector\",\"kv_role\":\"kv_producer\",\"kv_ip\":\"'\"${host_ip}\"'\"}' &\n"
			     "vllm serve m --port 8200 --kv-transfer-config \"{\\\"kv_role\\\":\\\"kv_consumer\\\",\\\"kv_port\\\":$PORT}\" \\\n"
			     "  --speculative-config.model \"$DRAFT\" --hf-overrides '{\"'$K'\":1}'\n");
	assert_int_equal(f.m->nservices, 2);
	const sl_service *p = &f.m->services[0], *d = &f.m->services[1];
	assert_string_equal(p->role, "prefill");
	assert_string_equal(str_of(p, "kv.transfer.connector"), "NixlConnector");
	const sl_setting *ip = sl_service_get(p, "kv.transfer.kv_ip");
	assert_non_null(ip);
	assert_string_equal(json_string_value(ip->value), "$(hostname -i)");
	assert_true(ip->flags & SL_SET_SYMBOLIC);
	assert_false(sl_service_get(p, "kv.transfer.role")->flags & SL_SET_SYMBOLIC);
	/* no setting keeps the flag whole */
	assert_null(sl_service_get(p, "kv.transfer"));
	assert_string_equal(d->role, "decode");
	const sl_setting *port = sl_service_get(d, "kv.transfer.kv_port");
	assert_string_equal(json_string_value(port->value), "$PORT");
	assert_true(port->flags & SL_SET_SYMBOLIC);
	assert_string_equal(port->origin.raw, "\"kv_port\":$PORT");
	/* vLLM's dotted member with an unknown value keeps its member's key */
	const sl_setting *dm = sl_service_get(d, "spec.draft_model");
	assert_non_null(dm);
	assert_true(dm->flags & SL_SET_SYMBOLIC);
	assert_null(sl_service_get(d, "spec"));
	/* a member whose name is unknown: symbolic whole, not an unknown member */
	const sl_setting *k = sl_service_get(d, "vllm.hf_overrides.$K");
	assert_non_null(k);
	assert_true(k->flags & SL_SET_SYMBOLIC);
	assert_false(k->flags & SL_SET_UNKNOWN);
	assert_string_equal(json_string_value(k->value), "\"$K\":1");
	done(&f);
	/* a hole that stands for members: the flag unknown whole, as before */
	f = model_of("vllm serve m --kv-transfer-config \"{\\\"kv_role\\\":\\\"kv_consumer\\\",$MORE}\"\n");
	const sl_setting *kv = sl_service_get(&f.m->services[0], "kv.transfer");
	assert_non_null(kv);
	assert_true(kv->flags & SL_SET_SYMBOLIC);
	assert_null(sl_service_get(&f.m->services[0], "kv.transfer.role"));
	assert_null(note_with(f.m, "invalid JSON"));
	done(&f);
}

static void test_duplicate_flag_keeps_both(void **st)
{
	(void)st;
	fixture f = model_of("vllm serve m --max-num-seqs 64 --max-num-seqs=128\n");
	const sl_service *s = &f.m->services[0];
	size_t n = 0;
	for (size_t i = 0; i < s->nsettings; i++)
		if (!strcmp(s->settings[i].key, "limits.max_seqs")) {
			n++;
			if (json_integer_value(s->settings[i].value) == 64)
				assert_true(s->settings[i].flags & SL_SET_OVERRIDDEN);
		}
	assert_int_equal(n, 2);
	assert_int_equal(int_of(s, "limits.max_seqs"), 128);
	done(&f);
}

static void test_unknown_flag_suggests(void **st)
{
	(void)st;
	fixture f = model_of("vllm serve m --tensor-paralel-size 2 --max-num-seqs 8\n");
	const sl_service *s = &f.m->services[0];
	assert_int_equal(s->settings[1].flags & SL_SET_UNKNOWN, SL_SET_UNKNOWN);
	assert_string_equal(json_string_value(s->settings[1].value), "2");
	assert_int_equal(int_of(s, "limits.max_seqs"), 8);
	const char *n = note_with(f.m, "unknown flag `--tensor-paralel-size`");
	assert_non_null(n);
	assert_non_null(strstr(n, "did you mean `--tensor-parallel-size`"));
	done(&f);
}

/* sl_nearest: the nearest name within a third of the name's length, the
 * first of equals; the bounded distance (band, letter counts) must give the
 * same answer as the whole table would. */
static void test_nearest_bounded(void **st)
{
	(void)st;
	char *names[] = {"max_num_tokens", "max_batch_size", "max_seq_len", "kv_cache_config",
			 "max_num_tokenz", "tensor_parallel_size"};
	size_t n = sizeof names / sizeof *names;
	assert_string_equal(sl_nearest("max_num_tokens", names, n), "max_num_tokens");
	/* distance 1 to both max_num_tokens and max_num_tokenz: the first */
	assert_string_equal(sl_nearest("max_num_tokenx", names, n), "max_num_tokens");
	assert_string_equal(sl_nearest("tensor_paralel_size", names, n), "tensor_parallel_size");
	/* a transposition is two edits; "max_bacth_size" (14) allows 5 */
	assert_string_equal(sl_nearest("max_bacth_size", names, n), "max_batch_size");
	/* past a third of the name: nothing */
	assert_null(sl_nearest("kv_cfg", names, n));
	assert_null(sl_nearest("", names, n));
	assert_null(sl_nearest("commands.serve.options.backend.type", names, n));
	/* same letters, wrong order: the letter counts allow it, the band decides */
	char *anag[] = {"abcdefgh"};
	assert_null(sl_nearest("hgfedcba", anag, 1));
	assert_string_equal(sl_nearest("abcdefhg", anag, 1), "abcdefgh");
	/* longer than the table's 64 columns: never a suggestion, never a read past */
	char longn[100];
	memset(longn, 'a', 99);
	longn[99] = 0;
	char *lng[] = {longn};
	assert_null(sl_nearest(longn, lng, 1));
}

static void test_sglang_abbreviation(void **st)
{
	(void)st;
	fixture f = model_of("python3 -m sglang.launch_server --model-path m --tp 4 --ep-size 4 "
			     "--speculative-algorithm EAGLE --speculative-num-draft-tokens 2\n");
	const sl_service *s = &f.m->services[0];
	assert_string_equal(s->engine, "sglang");
	assert_int_equal(int_of(s, "parallel.tensor"), 4);
	assert_true(sl_service_get(s, "parallel.tensor")->flags & SL_SET_ABBREV);
	assert_int_equal(int_of(s, "parallel.expert"), 4);
	assert_int_equal(int_of(s, "spec.num_draft_tokens"), 2);
	done(&f);
}

static void test_docker_unwrap(void **st)
{
	(void)st;
	fixture f = model_of("docker run -d --gpus '\"device=0,1\"' --ipc=host -v /a:/b:ro \\\n"
			     "  -e HF_HOME=/cache --env CUDA_VISIBLE_DEVICES=2,3 --entrypoint vllm \\\n"
			     "  vllm/vllm-openai:v0.31.0@sha256:abc serve m --port 8001\n");
	assert_int_equal(f.m->nservices, 1);
	const sl_service *s = &f.m->services[0];
	assert_string_equal(s->engine, "vllm");
	assert_string_equal(s->version, "0.31.0");
	assert_int_equal(int_of(s, "server.port"), 8001);
	assert_int_equal(s->nenv, 2);
	assert_string_equal(s->env[0].via, "docker");
	/* the visible-devices variable is more precise than --gpus */
	assert_int_equal(s->gpus, 2);
	assert_string_equal(s->gpus_from, "CUDA_VISIBLE_DEVICES");
	assert_string_equal(json_string_value(json_array_get(s->gpu_devices, 0)), "2");
	json_t *img = json_object_get(s->wrappers[0].detail, "image");
	assert_string_equal(json_string_value(img), "vllm/vllm-openai:v0.31.0@sha256:abc");
	done(&f);

	f = model_of("docker run --gpus '\"device=<4 GPUs>\"' img:tag vllm serve m\n");
	assert_int_equal(f.m->services[0].gpus, 4);
	assert_null(f.m->services[0].version);
	done(&f);
}

static void test_bash_c_in_docker(void **st)
{
	(void)st;
	fixture f = model_of("docker run --entrypoint bash img \\\n"
			     "  -c \"exec vllm serve m \\\n"
			     "    --attention-config '{\\\"indexer_kv_dtype\\\":\\\"mxfp4\\\"}' --block-size 128\"\n");
	assert_int_equal(f.m->nservices, 1);
	const sl_service *s = &f.m->services[0];
	assert_int_equal(int_of(s, "kv.block_size"), 128);
	const sl_setting *a = NULL;
	for (size_t i = 0; i < s->nsettings; i++)
		if (strstr(s->settings[i].key, "indexer_kv_dtype"))
			a = &s->settings[i];
	assert_non_null(a);
	assert_string_equal(json_string_value(a->value), "mxfp4");
	/* an escaped quote is written where its backslash is */
	assert_string_equal(pos_of(f.e->script, a->origin.off), "3:26");
	assert_string_equal(pos_of(f.e->script, sl_service_get(s, "kv.block_size")->origin.off), "3:59");
	done(&f);
}

static void test_topology(void **st)
{
	(void)st;
	fixture f = model_of(
		"#!/bin/bash\nset -u\nexport ETCD_ENDPOINTS=http://localhost:2379\nMODEL=org/m\n"
		"etcd --data-dir /tmp/etcd &\nsleep 4\n\n"
		"# Prefill worker\nCUDA_VISIBLE_DEVICES=0 python3 -m dynamo.vllm --model \"$MODEL\" "
		"--disaggregation-mode prefill &\n\n"
		"for g in 1 2 3; do\n  CUDA_VISIBLE_DEVICES=$g python3 -m dynamo.vllm --model \"$MODEL\" "
		"--disaggregation-mode decode &\ndone\n\n"
		"# Worker environment (runs TP=2 per worker):\n#   VLLM_FOO_BAR=1 PYTHONUNBUFFERED=1\n\n"
		"# prefill x2:\nmpirun -n 4 trtllm-llmapi-launch python3 -m dynamo.trtllm --model m\n"
		"python3 -m dynamo.frontend --http-port 8000\n");
	sl_model *m = f.m;
	assert_int_equal(m->nservices, 5);
	assert_string_equal(m->services[0].role, "etcd");
	assert_true(m->services[0].background);
	const sl_service *p = &m->services[1];
	assert_string_equal(p->name, "prefill-1");
	assert_string_equal(str_of(p, "model"), "org/m");
	assert_int_equal(p->gpus, 1);
	const sl_service *d = &m->services[2];
	assert_string_equal(d->role, "decode");
	assert_int_equal(d->replicas, 3);
	assert_string_equal(d->replicas_from, "for loop");
	assert_int_equal(json_array_size(d->gpu_devices), 3);
	assert_string_equal(json_string_value(json_array_get(json_array_get(d->gpu_devices, 2), 0)), "3");
	const sl_service *t = &m->services[3];
	assert_string_equal(t->engine, "dynamo-trtllm");
	assert_string_equal(t->role, "prefill");
	assert_string_equal(t->role_from, "comment");
	assert_int_equal(t->replicas, 2);
	assert_int_equal(t->gpus, 4);
	assert_string_equal(t->gpus_from, "mpirun -n");
	assert_string_equal(m->services[4].role, "frontend");
	/* the comment env reaches workers only; a listing line may hold any
	 * NAME, while TP=2 in a sentence is prose */
	int found = 0;
	for (size_t i = 0; i < d->nenv; i++) {
		if (!strcmp(d->env[i].name, "VLLM_FOO_BAR") || !strcmp(d->env[i].name, "PYTHONUNBUFFERED"))
			found += !strcmp(d->env[i].via, "comment");
		assert_string_not_equal(d->env[i].name, "TP");
	}
	assert_int_equal(found, 2);
	/* the loop's CUDA_VISIBLE_DEVICES differs per replica: kept as written */
	int per = 0;
	for (size_t i = 0; i < d->nenv; i++)
		if (!strcmp(d->env[i].name, "CUDA_VISIBLE_DEVICES")) {
			assert_string_equal(d->env[i].value, "$g");
			per = (d->env[i].flags & SL_SET_PER_REPLICA) != 0;
		}
	assert_true(per);
	/* a value through a variable records where the value is written */
	const sl_setting *mdl = sl_service_get(p, "model");
	assert_string_equal(pos_of(f.e->script, mdl->value_origin.off), "4:7");
	assert_string_equal(mdl->origin.raw, "--model \"$MODEL\"");
	for (size_t i = 0; i < m->services[4].nenv; i++)
		assert_string_not_equal(m->services[4].env[i].name, "VLLM_FOO_BAR");
	/* the one note: mpirun runs in the foreground, so the frontend after
	 * it does not start while it serves */
	assert_int_equal(m->nnotes, 1);
	assert_string_equal(m->notes[0].kind, "foreground_before_services");
	assert_string_equal(pos_of(f.e->script, m->notes[0].origin.off), "19:68");
	done(&f);
}

/* Normalizing reads past a flag's invalid JSON (a note at the bad
 * character, the value kept as text), for check to report it beside the
 * entry's other findings; every other command gets the error. */
static void test_invalid_json_is_an_error(void **st)
{
	(void)st;
	sl_entry *e = entry_from("vllm serve m \\\n  --speculative-config '{\"method\": mtp}'\n");
	sl_model *m = NULL;
	sl_error err = {0};
	assert_int_equal(sl_normalize_entry(e, gs, &m, &err), 0);
	assert_non_null(m);
	size_t k = 0;
	while (k < m->nnotes && !strstr(m->notes[k].msg, "invalid JSON"))
		k++;
	assert_true(k < m->nnotes);
	unsigned line, col;
	sl_origin_pos(&m->notes[k].origin, &line, &col);
	assert_int_equal(line, 2);
	assert_int_equal(col, 36);
	sl_model_free(m);
	sl_model **ms = NULL;
	size_t n = 0;
	assert_int_not_equal(sl_entry_models(e, gs, NULL, 0, &ms, &n, &err), 0);
	assert_int_equal(err.line, 2);
	assert_int_equal(err.col, 36);
	assert_non_null(strstr(err.msg, "invalid JSON"));
	sl_error_clear(&err);
	sl_entry_free(e);
}

/* Lines [a, b] (1-based) of a file into a new temporary file; returns its path. */
static char *page_slice(const char *page, unsigned a, unsigned b)
{
	char path[] = "/tmp/servelint-test-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *in = fopen(page, "r"), *out = fdopen(fd, "w");
	assert_non_null(in);
	char line[8192];
	for (unsigned n = 1; fgets(line, sizeof line, in); n++)
		if (n >= a && n <= b)
			fputs(line, out);
	fclose(in);
	fclose(out);
	return strdup(path);
}

static fixture model_at(const char *path)
{
	fixture f;
	sl_error err = {0};
	int rc = sl_entry_load(path, &f.e, &err);
	if (!rc)
		rc = sl_normalize_entry(f.e, gs, &f.m, &err);
	if (rc)
		fprintf(stderr, "%s:%u:%u: %s\n", err.file, err.line, err.col, err.msg);
	assert_int_equal(rc, 0);
	return f;
}

/* An entry as a folder and as the published text (script, embedded YAML
 * sections, metadata lines) gives the same model; only places differ. */
static void test_catalogue_form_equals_folder(void **st)
{
	(void)st;
	char *txt = page_slice(SL_SOURCE_DIR "/corpus/pages/002_527771f1a7637570.txt", 407, 533);
	fixture a = model_at(SL_SOURCE_DIR "/corpus/deepseek-v4-pro/b300-x8/trtllm-disagg-1p-dep4-1d-dep4-mtp3");
	fixture b = model_at(txt);
	assert_int_equal(b.e->nfiles, 3);
	assert_non_null(b.e->metadata);
	assert_non_null(sl_entry_file(b.e, "server_config.yaml"));
	assert_int_equal(a.m->nservices, b.m->nservices);
	size_t yaml_settings = 0;
	for (size_t i = 0; i < a.m->nservices; i++) {
		const sl_service *x = &a.m->services[i], *y = &b.m->services[i];
		assert_string_equal(x->name, y->name);
		assert_int_equal(x->replicas, y->replicas);
		assert_int_equal(x->nsettings, y->nsettings);
		for (size_t k = 0; k < x->nsettings; k++) {
			assert_string_equal(x->settings[k].key, y->settings[k].key);
			assert_true(json_equal(x->settings[k].value, y->settings[k].value));
			assert_int_equal(x->settings[k].flags, y->settings[k].flags);
			if (!strcmp(x->settings[k].via, "file"))
				yaml_settings++;
		}
	}
	assert_true(yaml_settings > 60);
	/* places are those of the published text: ctx_config.yaml's first key is on line 73 */
	const sl_setting *tp = sl_service_get(&b.m->services[1], "parallel.tensor");
	assert_string_equal(tp->via, "file");
	assert_string_equal(pos_of(tp->origin.src, tp->origin.off), "73:1");
	assert_int_equal(a.m->nnotes, b.m->nnotes);
	done(&a);
	done(&b);
	unlink(txt);
	free(txt);
}

/* TensorRT-LLM's YAML overrides its command line; a docker -v mount maps
 * the container path to the entry's file; a topology file sets replicas. */
static void test_engine_yaml(void **st)
{
	(void)st;
	fixture f = model_at(SL_SOURCE_DIR "/corpus/gpt-oss-120b/b200-sxm-x8/trtllm-tp1-eagle3-3");
	const sl_service *s = &f.m->services[0];
	assert_string_equal(str_of(s, "spec.method"), "Eagle3");
	assert_int_equal(int_of(s, "spec.num_tokens"), 3);
	assert_int_equal(int_of(s, "limits.max_seqs"), 256);
	const sl_setting *mf = sl_service_get(s, "memory.kv_free_fraction");
	assert_true(json_is_real(mf->value));
	assert_string_equal(pos_of(mf->origin.src, mf->origin.off), "11:3");
	done(&f);

	f = model_at(SL_SOURCE_DIR "/corpus/deepseek-v4-pro/gb300-nvl72/dynamo-trtllm-disagg-6p-dep4-1d-dep8-mtp3");
	const sl_service *pre = NULL, *dec = NULL;
	for (size_t i = 0; i < f.m->nservices; i++) {
		if (!strcmp(f.m->services[i].role, "prefill"))
			pre = &f.m->services[i];
		if (!strcmp(f.m->services[i].role, "decode"))
			dec = &f.m->services[i];
	}
	assert_int_equal(pre->replicas, 6);
	assert_string_equal(pre->replicas_from, "server_config.yaml");
	assert_int_equal(dec->replicas, 1);
	assert_int_equal(int_of(dec, "parallel.tensor"), 8);
	assert_int_equal(int_of(pre, "parallel.tensor"), 4);
	assert_int_equal(int_of(dec, "spec.num_tokens"), 3);
	/* kv.block_size from the worker env (DYN_KV_BLOCK_SIZE=128, a comment) */
	assert_int_equal(int_of(pre, "kv.block_size"), 128);
	done(&f);
}

static void test_config_file_precedence(void **st)
{
	(void)st;
	char dir[] = "/tmp/servelint-entry-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char p[256];
	snprintf(p, sizeof p, "%s/launch.sh", dir);
	FILE *f = fopen(p, "w");
	fputs("trtllm-serve m --max_batch_size 8 --config c.yaml\n", f);
	fclose(f);
	snprintf(p, sizeof p, "%s/c.yaml", dir);
	f = fopen(p, "w");
	fputs("max_batch_size: 16\nno_such_key: 1\n", f);
	fclose(f);
	fixture x = model_at(dir);
	const sl_service *s = &x.m->services[0];
	/* the file wins for TensorRT-LLM, and both places are kept */
	assert_int_equal(int_of(s, "limits.max_seqs"), 16);
	size_t n = 0;
	for (size_t i = 0; i < s->nsettings; i++)
		n += !strcmp(s->settings[i].key, "limits.max_seqs");
	assert_int_equal(n, 2);
	assert_non_null(note_with(x.m, "unknown key `no_such_key` in c.yaml"));
	done(&x);
	unlink(p);
	snprintf(p, sizeof p, "%s/launch.sh", dir);
	unlink(p);
	rmdir(dir);
}

/* What a review found, each now held: the container does not inherit the
 * shell's env; a loop over an unquoted variable splits; a setting that
 * follows the loop variable is per replica; a repeated JSON flag replaces
 * the whole value; a heading inside a comment block sets its own scope. */
static void test_review_cases(void **st)
{
	(void)st;
	fixture f = model_of("export CUDA_VISIBLE_DEVICES=0,1\nexport HF_TOKEN=abc\n"
			     "FOO=2 docker run --gpus all -e HF_TOKEN img vllm serve m\n");
	const sl_service *s = &f.m->services[0];
	assert_int_equal(s->gpus, -2);
	assert_int_equal(s->nenv, 1);
	assert_string_equal(s->env[0].name, "HF_TOKEN");
	assert_string_equal(s->env[0].value, "abc");
	done(&f);

	f = model_of("GPUS=\"0 1 2\"\nfor g in $GPUS; do\n  CUDA_VISIBLE_DEVICES=$g vllm serve m --port 900$g &\ndone\n");
	s = &f.m->services[0];
	assert_int_equal(s->replicas, 3);
	const sl_setting *port = sl_service_get(s, "server.port");
	assert_true(port->flags & SL_SET_PER_REPLICA);
	assert_int_equal(json_array_size(port->value), 3);
	assert_int_equal(json_integer_value(json_array_get(port->value, 2)), 9002);
	done(&f);

	f = model_of("vllm serve m --speculative-config '{\"method\":\"eagle\",\"num_speculative_tokens\":3}' "
		     "--speculative-config '{\"method\":\"ngram\"}'\n");
	s = &f.m->services[0];
	assert_null(sl_service_get(s, "spec.num_tokens"));
	assert_string_equal(str_of(s, "spec.method"), "ngram");
	done(&f);

	f = model_of("# Frontend environment:\n#   FOO=1\n# Worker environment (prefill and decode):\n#   BAR=2\n\n"
		     "python3 -m dynamo.vllm --model m --disaggregation-mode prefill &\n"
		     "python3 -m dynamo.frontend\n");
	assert_int_equal(f.m->services[0].nenv, 1);
	assert_string_equal(f.m->services[0].env[0].name, "BAR");
	assert_int_equal(f.m->services[1].nenv, 1);
	assert_string_equal(f.m->services[1].env[0].name, "FOO");
	done(&f);

	/* vLLM's image runs its server when given only flags */
	f = model_of("docker run vllm/vllm-openai:v0.31.0 --model m --max-num-seqs 8\n");
	assert_int_equal(f.m->nservices, 1);
	assert_int_equal(int_of(&f.m->services[0], "limits.max_seqs"), 8);
	assert_string_equal(f.m->services[0].version, "0.31.0");
	done(&f);
}

/* The engine of a config YAML alone, from its keys (alone.c): exact names,
 * a clear majority, never a guess. */
static const char *engine_of(const char *yaml, char **why)
{
	sl_source *src = NULL;
	sl_error err = {0};
	assert_int_equal(sl_source_from_memory("c.yaml", yaml, strlen(yaml), &src, &err), 0);
	const char *engine = NULL;
	*why = NULL;
	int rc = sl_normalize_config_engine(gs, src, &engine, why);
	sl_source_free(src);
	assert_true(rc == 0 ? engine != NULL && *why == NULL : engine == NULL && *why != NULL);
	return engine;
}

static void test_config_engine(void **st)
{
	(void)st;
	char *why;
	assert_string_equal(engine_of("backend: pytorch\nenable_attention_dp: true\nkv_cache_config:\n  dtype: fp8\n", &why),
			    "trtllm");
	assert_string_equal(engine_of("tensor-parallel-size: 4\nmax-num-seqs: 64\nkv-cache-dtype: fp8\n", &why), "vllm");
	assert_string_equal(engine_of("model-path: org/m\nmem-fraction-static: 0.8\n", &why), "sglang");
	assert_string_equal(engine_of("context_servers:\n  num_instances: 1\n", &why), "trtllm-disagg");
	/* one key all three know: undecided, the counts said */
	assert_null(engine_of("tensor_parallel_size: 4\n", &why));
	assert_non_null(strstr(why, "1 TensorRT-LLM LlmArgs key, 1 vLLM flag, 1 SGLang flag"));
	free(why);
	/* fewer than half known: undecided */
	assert_null(engine_of("max-num-seqs: 8\nfoo: 1\nbar: 2\n", &why));
	free(why);
	/* a prefix of a flag is no flag's name */
	assert_null(engine_of("max-num: 8\n", &why));
	free(why);
	assert_null(engine_of("- a\n- b\n", &why));
	assert_non_null(strstr(why, "not a mapping"));
	free(why);
	assert_null(engine_of("a: [1,\n", &why));
	assert_non_null(strstr(why, "does not parse"));
	free(why);
}

/* the order releases are judged in (util.c sl_version_cmp): a release
 * candidate before its release, 1.3 the same as 1.3.0, a shorter version
 * standing for those that start with it, .postN not compared */
/* util's sl_buf_printf: its own path for plain text, %s and %u gives what
 * vsnprintf gives (places are "FILE:%u" and "line %u") */
static void test_buf_printf(void **st)
{
	(void)st;
	const unsigned us[] = {0, 7, 10, 4294967295u};
	for (size_t i = 0; i < sizeof us / sizeof us[0]; i++) {
		char want[64];
		snprintf(want, sizeof want, "%s:%u, line %u%%s", "lib.sh", us[i], us[i] / 3);
		sl_buf b = {0};
		sl_buf_puts(&b, "at ");
		sl_buf_printf(&b, "%s:%u, line %u", "lib.sh", us[i], us[i] / 3);
		sl_buf_printf(&b, "%s", "%s");
		char full[80];
		snprintf(full, sizeof full, "at %s", want);
		assert_string_equal(b.data, full);
		sl_buf_free(&b);
	}
	sl_buf b = {0};
	sl_buf_printf(&b, "%u%s%u", 12u, "-", 0u);  /* the fast path */
	sl_buf_printf(&b, " %d", -3);                 /* vsnprintf's */
	assert_string_equal(b.data, "12-0 -3");
	sl_buf_free(&b);
}

static void test_version_order(void **st)
{
	(void)st;
	assert_int_equal(sl_version_cmp("0.8.5", "0.10.1"), -1);
	assert_int_equal(sl_version_cmp("1.3.0rc3", "1.3.0rc24"), -1);
	assert_int_equal(sl_version_cmp("1.3.0rc24", "1.3"), -1);
	assert_int_equal(sl_version_cmp("1.3", "1.3.0rc3"), 1);
	assert_int_equal(sl_version_cmp("1.3.0", "1.3"), 0);
	assert_int_equal(sl_version_cmp("1.3.0rc3", "1.2.0"), 1);
	assert_int_equal(sl_version_cmp("1.3.1", "1.3.0rc3"), 1);
	assert_int_equal(sl_version_cmp("0.10", "0.10.1"), 0);
	assert_int_equal(sl_version_cmp("0.4.6.post1", "0.4.6"), 0);
	assert_int_equal(sl_version_cmp("0.9.0.dev2025", "0.9.0"), -1);
	assert_int_equal(sl_version_cmp("latest", "1.3"), 0);
}

/* A grammar's include_choices that cannot be read is refused where it is
 * written: a grammar without include:, an entry without add:/only:, both */
static void test_include_choices_refused(void **st)
{
	(void)st;
	static const struct { const char *yaml; unsigned line; const char *msg; } cases[] = {
		{"engine: w\ninclude_choices:\n  - flag: --mode\n    add: [x]\n", 3, "includes none"},
		{"engine: w\ninclude: [v]\ninclude_choices:\n  - flag: --mode\n    since: \"1.0\"\n", 4, "`add:` or `only:`"},
		{"engine: w\ninclude: [v]\ninclude_choices:\n  - flag: --mode\n    add: [x]\n    only: [y]\n", 4, "`add:` or `only:`"},
		{"engine: w\ninclude: [v]\ninclude_choices:\n  - add: [x]\n", 4, "names its `flag`"},
		{"engine: w\ninclude: [v]\ninclude_choices:\n  - flag: --mode\n    add: [[x]]\n", 5, "plain value"},
	};
	char dir[] = "/tmp/sl-grammar-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char path[64];
	snprintf(path, sizeof path, "%s/w.yaml", dir);
	setenv("SERVELINT_GRAMMARS", dir, 1);
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		FILE *f = fopen(path, "w");
		assert_non_null(f);
		fputs(cases[i].yaml, f);
		fclose(f);
		sl_grammars *g = NULL;
		sl_error err = {0};
		assert_int_not_equal(sl_normalize_grammars_load(&g, &err), 0);
		assert_null(g);
		if (!strstr(err.msg, cases[i].msg) || err.line != cases[i].line)
			fail_msg("case %zu: %s:%u:%u: %s", i, err.file, err.line, err.col, err.msg);
		sl_error_clear(&err);
	}
	unsetenv("SERVELINT_GRAMMARS");
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vllm_spellings),
		cmocka_unit_test(test_vllm_values),
		cmocka_unit_test(test_json_with_holes),
		cmocka_unit_test(test_duplicate_flag_keeps_both),
		cmocka_unit_test(test_unknown_flag_suggests),
		cmocka_unit_test(test_nearest_bounded),
		cmocka_unit_test(test_sglang_abbreviation),
		cmocka_unit_test(test_docker_unwrap),
		cmocka_unit_test(test_bash_c_in_docker),
		cmocka_unit_test(test_topology),
		cmocka_unit_test(test_invalid_json_is_an_error),
		cmocka_unit_test(test_catalogue_form_equals_folder),
		cmocka_unit_test(test_engine_yaml),
		cmocka_unit_test(test_config_file_precedence),
		cmocka_unit_test(test_review_cases),
		cmocka_unit_test(test_config_engine),
		cmocka_unit_test(test_version_order),
		cmocka_unit_test(test_buf_printf),
		cmocka_unit_test(test_include_choices_refused),
	};
	return cmocka_run_group_tests_name("normalize", tests, setup, teardown);
}
