/*
 * normalize.c: from a parsed script to services. It owns unwrapping: each
 * launcher is peeled off in turn (recording what it contributes: env, GPUs,
 * image, ranks) until an engine command remains, whose arguments flags.c reads,
 * then has the rest done in order: topology.c (roles, replicas, GPUs, config
 * files), claims.c (what the text says of itself). The top of the stage: it
 * uses flags.c, topology.c, claims.c, config.c (freeing its files), build.c
 * and grammar.c, and no file of the stage uses it.
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "claims.h"
#include "config.h"
#include "flags.h"
#include "structure.h"
#include "topology.h"
#include "group.h"

int sl_normalize_grammars_load(sl_grammars **out, sl_error *err)
{
	return sl_grammars_load(out, err);
}

void sl_normalize_grammars_free(sl_grammars *gs)
{
	sl_grammars_free(gs);
}

static const char *base(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

static int is_python(const char *s)
{
	return !strcmp(s, "python") || !strcmp(s, "python3") ||
	       (sl_starts_with(s, "python3.") && s[8] >= '0' && s[8] <= '9');
}

/* Commands that set no part of a deployment: scripts use them around the
 * launch commands, and naming them as unknown would only be noise. */
static int is_plumbing(const char *s)
{
	static const char *const names[] = {
		"sleep", "set", "wait", "cd", "echo", "mkdir", "rm", "cp", "mv", "true", "false",
		"source", ".", "ulimit", "trap", "cat", "printf", "unset", "shift", "exit", "kill", "break",
		"continue", "return",
		"pkill", "tee", "touch", "ln", "chmod", "nvidia-smi", "date", "curl", "until",
		"ray", "hostname", "ls", "pwd", ":", "wget", "pip", "pip3", "huggingface-cli",
	};
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (!strcmp(s, names[i]))
			return 1;
	return 0;
}

/*
 * A command servelint does not know that takes a model and a port is a
 * server all the same (an engine of its own, a fork): it is kept as an
 * unknown engine rather than dropped. Benchmark clients and evaluators take
 * both too; their names and their load flags tell them apart.
 */
static int serves_model(sl_word *const *argv, size_t n, const char *name)
{
	static const char *const clients[] = {"bench", "eval", "client", "test", "wait", "load", "warmup",
					      "profile", "run_", "replay", NULL};
	static const char *const load[] = {"--num-prompts", "--max-concurrency", "--request-rate",
					   "--dataset-name", "--dataset-path", "--backend", "--endpoint",
					   "--input-len", "--output-len", "--result-filename", "--tasks", NULL};
	for (size_t i = 0; clients[i]; i++)
		if (strstr(name, clients[i]))
			return 0;
	int model = 0, port = 0;
	for (size_t i = 0; i < n; i++) {
		const char *t = argv[i]->text;
		for (size_t k = 0; load[k]; k++)
			if (sl_starts_with(t, load[k]))
				return 0;
		model |= !strcmp(t, "--model") || sl_starts_with(t, "--model=") || !strcmp(t, "--model-path") ||
			 sl_starts_with(t, "--model-path=");
		port |= !strcmp(t, "--port") || sl_starts_with(t, "--port=");
	}
	return model && port;
}

/*
 * What a container image runs when it is given only flags: its entry in
 * docker.yaml's `images:` (by repository, whatever the registry and tag),
 * else an engine its name says (`myorg/vllm-custom`: *guessed set), else
 * NULL. "command": the entrypoint runs the command it is given.
 */
static const char *image_runs(const sl_grammar *docker, const char *image, const char **prog,
			      int *guessed)
{
	size_t n = strcspn(image, "@"), from = 0;
	for (size_t i = 0; i < n; i++)
		if (image[i] == '/')
			from = i;
	for (size_t i = from; i < n; i++)
		if (image[i] == ':') {
			n = i;  /* the tag */
			break;
		}
	*guessed = 0;
	size_t k;
	json_t *e;
	json_array_foreach(docker->images, k, e) {
		const char *im = json_string_value(json_object_get(e, "image"));
		size_t l = im ? strlen(im) : 0;
		if (!l || l > n || strncmp(image + n - l, im, l) || (l < n && image[n - l - 1] != '/'))
			continue;
		const char *p = json_string_value(json_object_get(e, "program"));
		*prog = p ? p : im;
		return json_string_value(json_object_get(e, "runs"));
	}
	static const char *const names[][3] = {
		{"vllm", "vllm", "vllm serve"}, {"sglang", "sglang", "sglang serve"},
		{"tensorrt", "trtllm", "trtllm-serve"}, {"trtllm", "trtllm", "trtllm-serve"},
	};
	char *repo = sl_strndup(image, n);
	const char *r = NULL;
	for (size_t i = 0; i < sizeof names / sizeof *names && !r; i++)
		if (strstr(repo, names[i][0])) {
			r = names[i][1];
			*prog = names[i][2];
			*guessed = 1;
		}
	free(repo);
	return r;
}

static const struct { const char *module, *grammar; int positionals; } modules[] = {
	{"vllm.entrypoints.openai.api_server", "vllm", 0},
	{"vllm.entrypoints.api_server", "vllm", 0},
	{"sglang.launch_server", "sglang", 0},
	{"dynamo.frontend", "dynamo-frontend", 0},
	{"dynamo.vllm", "dynamo-vllm", 0},
	{"dynamo.sglang", "dynamo-sglang", 0},
	{"dynamo.trtllm", "dynamo-trtllm", 0},
};

static void set_env_from(sl_build *b, const sl_assign *a, size_t n, const char *via,
			 const sl_source *src)
{
	for (size_t i = 0; i < n; i++) {
		unsigned f = 0;
		if (a[i].value.flags & SL_WORD_SYMBOLIC)
			f |= SL_SET_SYMBOLIC;
		if (a[i].value.flags & SL_WORD_PLACEHOLDER)
			f |= SL_SET_PLACEHOLDER;
		if (a[i].value.flags & SL_WORD_BOUND)
			f |= SL_SET_BOUND;
		/* raw: NAME=value as written, when it sits on one line */
		sl_buf raw = {0};
		uint32_t e = a[i].value.end;
		if (e > a[i].start && e <= src->len && !memchr(src->text + a[i].start, '\n', e - a[i].start))
			sl_buf_add(&raw, src->text + a[i].start, e - a[i].start);
		else
			sl_buf_printf(&raw, "%s=%s", a[i].name, a[i].value.text);
		sl_build_env(b, a[i].name, a[i].value.text, f, via, src, a[i].start, raw.data);
		sl_buf_free(&raw);
	}
}

static int engine_found(sl_ctx *c, sl_build *b, const char *gid, const char *program,
			sl_word *const *argv, size_t argc, size_t first, size_t args_at,
			int positionals)
{
	const sl_grammar *g = sl_grammar_find(c->gs, gid);
	if (!g) {
		sl_note_add(c, c->entry->script, argv[first]->start,
			    "no grammar for engine `%s` (grammars/engines/%s.yaml)", gid, gid);
		return 0;
	}
	b->grammar = g;
	b->engine_word = argv[first];
	b->svc.engine = sl_strdup(g->id);
	if (g->health)
		b->svc.health = json_deep_copy(g->health);
	b->svc.program = sl_strdup(program);
	sl_origin_set(&b->svc.command_origin, c->entry->script, argv[first]->start, program);
	b->svc.argv = json_array();
	for (size_t i = first; i < argc; i++)
		json_array_append_new(b->svc.argv, json_stringn(argv[i]->text, argv[i]->len));
	if (sl_parse_engine_args(c, b, g, argv + args_at, argc - args_at, positionals))
		return -1;
	return 1;
}

/* Forgets the env entries [from, n) (env -i clears all: from 0). */
static void drop_env(sl_build *b, size_t from)
{
	for (size_t q = from; q < b->svc.nenv; q++) {
		free(b->svc.env[q].name);
		free(b->svc.env[q].value);
		sl_origin_clear(&b->svc.env[q].origin);
	}
	if (from < b->svc.nenv)
		b->svc.nenv = from;
}

/* Forgets the env entries before index `upto`, keeping those after. */
static void drop_env_before(sl_build *b, size_t upto)
{
	for (size_t q = 0; q < upto && q < b->svc.nenv; q++) {
		free(b->svc.env[q].name);
		free(b->svc.env[q].value);
		sl_origin_clear(&b->svc.env[q].origin);
	}
	if (upto > b->svc.nenv)
		upto = b->svc.nenv;
	if (upto)
		memmove(b->svc.env, b->svc.env + upto, (b->svc.nenv - upto) * sizeof *b->svc.env);
	b->svc.nenv -= upto;
}

static int unwrap(sl_ctx *c, sl_build *b, sl_word *const *argv, size_t argc, unsigned depth);

/* The string of `bash -c "..."` or `eval "$CMD"` read as a script of its
 * own (origins mapped back into the file): its first engine command. */
static int run_string(sl_ctx *c, sl_build *b, const sl_word *str, unsigned depth)
{
	const sl_source *src = c->entry->script;
	sl_script *in;
	if (sl_shell_parse_word(src, str, &in, c->err)) {
		c->failed = 1;
		return -1;
	}
	SL_PUSH(c->inner, c->ninner, c->inner_cap, in);
	sl_note_breaks(c, in, src);
	int found = 0;
	for (size_t j = 0; j < in->ncmds && !found; j++) {
		const sl_command *ic = &in->cmds[j];
		size_t mark = b->svc.nenv;
		set_env_from(b, ic->exported, ic->nexported, "export", src);
		set_env_from(b, ic->prefix, ic->nprefix, "inline", src);
		sl_word **nargv = sl_calloc(ic->argc + 1, sizeof *nargv);
		for (size_t q = 0; q < ic->argc; q++)
			nargv[q] = &ic->argv[q];
		found = unwrap(c, b, nargv, ic->argc, depth + 1);
		free(nargv);
		if (found < 0)
			return -1;
		if (!found)  /* env of a command that was not the engine does not apply */
			drop_env(b, mark);
	}
	return found;
}

/* `bash inner.sh`, `./inner.sh`: when inner.sh is another script of the
 * entry's group, what this command gives it (docker's env and GPUs, the
 * exports) is kept for it, and it is read as a script of its own. */
static int hand_off(sl_ctx *c, sl_build *b, const char *path)
{
	const char *name = base(path);
	if (!c->group || !sl_ends_with(name, ".sh"))
		return 0;
	int ours = 0;
	for (size_t i = 0; i < c->entry->nscripts && !ours; i++)
		ours = !strcmp(c->entry->scripts[i]->name, name);
	if (!ours)
		return 0;
	for (size_t i = 0; i < c->group->n; i++)
		if (!strcmp(c->group->v[i].script, name))
			return 1; /* the first command that runs it gives its launchers */
	sl_handoff h;
	memset(&h, 0, sizeof h);
	h.script = sl_strdup(name);
	h.svc = b->svc;
	memset(&b->svc, 0, sizeof b->svc);
	SL_PUSH(c->group->v, c->group->n, c->group->cap, h);
	return 1;
}

/* A service of a script another runs starts with what that command gave it. */
static void handed(sl_ctx *c, sl_build *b)
{
	for (size_t i = 0; c->group && i < c->group->n; i++) {
		const sl_service *o = &c->group->v[i].svc;
		if (strcmp(c->group->v[i].script, c->entry->script->name))
			continue;
		for (size_t k = 0; k < o->nwrappers; k++)
			sl_build_wrapper(b, o->wrappers[k].kind, json_deep_copy(o->wrappers[k].detail),
					 o->wrappers[k].origin.src, o->wrappers[k].origin.off, o->wrappers[k].origin.raw);
		for (size_t k = 0; k < o->nenv; k++)
			sl_build_env(b, o->env[k].name, o->env[k].value, o->env[k].flags, o->env[k].via,
				     o->env[k].origin.src, o->env[k].origin.off, o->env[k].origin.raw);
		return;
	}
}

/* Returns 1 when an engine command was found, 0 when not, -1 on error. */
static int unwrap(sl_ctx *c, sl_build *b, sl_word *const *argv, size_t argc, unsigned depth)
{
	const sl_source *src = c->entry->script;
	if (depth > SL_MAX_NESTING) {
		sl_error_set(c->err, src->path, 0, 0, "launchers nested deeper than %d", SL_MAX_NESTING);
		c->failed = 1;
		return -1;
	}
	size_t i = 0;
	while (i < argc) {
		const sl_word *w = argv[i];
		if (w->flags & SL_WORD_SYMBOLIC) {
			sl_note_add(c, src, w->start, "command name `%s` depends on an unknown value",
				    w->text);
			return 0;
		}
		const char *a0 = base(w->text);
		const char *a1 = i + 1 < argc ? argv[i + 1]->text : "";
		if (!strcmp(a0, "exec") || !strcmp(a0, "nohup") || !strcmp(a0, "time") ||
		    !strcmp(a0, "trtllm-llmapi-launch")) {
			sl_build_wrapper(b, a0, NULL, src, w->start, w->text);
			i++;
			continue;
		}
		if (!strcmp(a0, "env")) {
			json_t *det = json_object();
			i++;
			while (i < argc && argv[i]->text[0] == '-') {
				/* env -i: the command starts with an empty environment */
				if (!strcmp(argv[i]->text, "-i") || !strcmp(argv[i]->text, "--ignore-environment") ||
				    !strcmp(argv[i]->text, "-")) {
					drop_env(b, 0);
					json_object_set_new(det, "ignore_environment", json_true());
				}
				i++;
			}
			sl_build_wrapper(b, "env", det, src, w->start, w->text);
			while (i < argc && strchr(argv[i]->text, '=') && argv[i]->text[0] != '=') {
				const sl_word *e = argv[i];
				const char *eq = strchr(e->text, '=');
				char *nm = sl_strndup(e->text, (size_t)(eq - e->text));
				sl_build_env(b, nm, eq + 1, 0, "env", src, e->start, e->text);
				free(nm);
				i++;
			}
			continue;
		}
		if ((!strcmp(a0, "docker") || !strcmp(a0, "podman")) && !strcmp(a1, "run")) {
			const sl_grammar *g = sl_grammar_find(c->gs, "docker");
			if (!g) {
				sl_note_add(c, src, w->start, "no grammar for docker run");
				return 0;
			}
			/* the container does not inherit the launching shell's
			 * environment: only what -e/--env pass in (read first, since
			 * `-e NAME` takes NAME's value from that shell) */
			size_t host_env = b->svc.nenv;
			sl_word ep;
			size_t k = i + 2 + sl_parse_launcher_args(c, b, g, argv + i + 2, argc - i - 2, &ep);
			drop_env_before(b, host_env);
			sl_wrapper *wr = &b->svc.wrappers[b->svc.nwrappers - 1];
			wr->origin.off = w->start;
			if (k >= argc) {
				sl_note_add(c, src, w->start, "docker run without an image");
				sl_word_free(&ep);
				return 0;
			}
			json_object_set_new(wr->detail, "image", json_string(argv[k]->text));
			/* keys starting with '_' are internal: where the image is written */
			json_object_set_new(wr->detail, "_image_at", json_integer(argv[k]->start));
			size_t rest = argc - (k + 1);
			sl_word **nargv = sl_calloc(rest + 1, sizeof *nargv);
			size_t nn = 0;
			if (ep.len)
				nargv[nn++] = &ep;
			for (size_t j = k + 1; j < argc; j++)
				nargv[nn++] = argv[j];
			int rc = 0;
			/* only flags after the image: the image's entrypoint runs them
			 * (`docker run vllm/vllm-openai:TAG --model m` is `vllm serve`) */
			const char *runs = NULL, *prog = NULL;
			int guessed = 0;
			if (!ep.len && (nn == 0 || nargv[0]->text[0] == '-'))
				runs = image_runs(g, argv[k]->text, &prog, &guessed);
			if (runs && strcmp(runs, "command")) {
				if (guessed)
					sl_note_add(c, src, argv[k]->start,
						    "the entrypoint of image `%s` is not known: assumed to be %s (its name says so)",
						    argv[k]->text, prog);
				rc = engine_found(c, b, runs, prog, argv, argc, k, k + 1, 1);
			} else if (runs && nn) {
				sl_note_add(c, src, argv[k]->start,
					    "image `%s` runs the command it is given, and is given only flags: engine unknown (write the engine's command after the image)",
					    argv[k]->text);
			} else if (!ep.len && nn && nargv[0]->text[0] == '-' &&
				   serves_model(nargv, nn, argv[k]->text)) {
				sl_note_add(c, src, argv[k]->start,
					    "image `%s` is given only flags, with --model and --port: its entrypoint "
					    "is read as an unknown engine", argv[k]->text);
				rc = engine_found(c, b, "unknown", argv[k]->text, argv, argc, k, k + 1, 0);
			} else if (nn == 0 || (!ep.len && nargv[0]->text[0] == '-'))
				sl_note_add(c, src, argv[k]->start,
					    "docker image `%s` runs its %s: engine unknown", argv[k]->text,
					    nn ? "entrypoint with these flags" : "default command");
			else
				rc = unwrap(c, b, nargv, nn, depth + 1);
			free(nargv);
			sl_word_free(&ep);
			return rc;
		}
		if (!strcmp(a0, "mpirun") || !strcmp(a0, "mpiexec")) {
			const sl_grammar *g = sl_grammar_find(c->gs, "mpirun");
			if (!g) {
				sl_note_add(c, src, w->start, "no grammar for mpirun");
				return 0;
			}
			sl_word ep;
			size_t k = i + 1 + sl_parse_launcher_args(c, b, g, argv + i + 1, argc - i - 1, &ep);
			sl_word_free(&ep);
			b->svc.wrappers[b->svc.nwrappers - 1].origin.off = w->start;
			i = k;
			continue;
		}
		if ((!strcmp(a0, "bash") || !strcmp(a0, "sh") || !strcmp(a0, "zsh"))) {
			size_t k = i + 1;
			while (k < argc && argv[k]->text[0] == '-' && strcmp(argv[k]->text, "-c"))
				k++;
			if (k + 1 >= argc || strcmp(argv[k]->text, "-c")) {
				if (k < argc && hand_off(c, b, argv[k]->text))
					return 0;
				sl_note_add(c, src, w->start, "`%s` runs a script file: not analysed", a0);
				return 0;
			}
			sl_build_wrapper(b, "bash -c", NULL, src, w->start, NULL);
			return run_string(c, b, argv[k + 1], depth);
		}
		if (!strcmp(a0, "eval")) {
			/* `eval "$CMD"`: the string is read as a script, as bash -c does */
			if (i + 2 != argc) {
				sl_note_add(c, src, w->start, "`eval` of %s: not analysed",
					    i + 1 == argc ? "nothing" : "several words");
				return 0;
			}
			sl_build_wrapper(b, "eval", NULL, src, w->start, NULL);
			return run_string(c, b, argv[i + 1], depth);
		}
		if (is_python(a0)) {
			size_t k = i + 1;
			while (k < argc && argv[k]->text[0] == '-' && strcmp(argv[k]->text, "-m"))
				k += !strcmp(argv[k]->text, "-X") || !strcmp(argv[k]->text, "-W") ? 2 : 1;
			if (k + 1 < argc && !strcmp(argv[k]->text, "-m")) {
				const char *mod = argv[k + 1]->text;
				for (size_t q = 0; q < sizeof modules / sizeof *modules; q++)
					if (!strcmp(mod, modules[q].module)) {
						sl_buf prog = {0};
						sl_buf_printf(&prog, "%s -m %s", a0, mod);
						int rc = engine_found(c, b, modules[q].grammar, prog.data, argv,
								      argc, i, k + 2, modules[q].positionals);
						sl_buf_free(&prog);
						return rc;
					}
				const sl_grammar *mg = sl_grammar_by_program(c->gs, mod, 1);
				if (mg) {
					sl_buf prog = {0};
					sl_buf_printf(&prog, "%s -m %s", a0, mod);
					int rc = engine_found(c, b, mg->id, prog.data, argv, argc, i, k + 2, 0);
					sl_buf_free(&prog);
					return rc;
				}
				if (serves_model(argv + k + 2, argc - k - 2, mod)) {
					sl_buf prog = {0};
					sl_buf_printf(&prog, "%s -m %s", a0, mod);
					sl_note_add(c, src, argv[k + 1]->start,
						    "python module `%s` takes --model and --port: read as an unknown engine",
						    mod);
					int rc = engine_found(c, b, "unknown", prog.data, argv, argc, i, k + 2, 0);
					sl_buf_free(&prog);
					return rc;
				}
				sl_note_add(c, src, argv[k + 1]->start,
					    "python module `%s` is not an engine servelint knows", mod);
				return 0;
			}
			sl_note_add(c, src, w->start, "python script: not an engine servelint knows");
			return 0;
		}
		if (!strcmp(a0, "vllm") || !strcmp(a0, "sglang")) {
			if (strcmp(a1, "serve")) {
				sl_note_add(c, src, w->start, "`%s %s` is not a serving command", a0, a1);
				return 0;
			}
			char prog[32];
			snprintf(prog, sizeof prog, "%s serve", a0);
			return engine_found(c, b, a0, prog, argv, argc, i, i + 2, 1);
		}
		if (!strcmp(a0, "trtllm-serve")) {
			if (!strcmp(a1, "disaggregated"))
				return engine_found(c, b, "trtllm-disagg", "trtllm-serve disaggregated",
						    argv, argc, i, i + 2, 0);
			if (!strcmp(a1, "serve"))
				return engine_found(c, b, "trtllm", "trtllm-serve serve", argv, argc, i,
						    i + 2, 1);
			return engine_found(c, b, "trtllm", "trtllm-serve", argv, argc, i, i + 1, 1);
		}
		if (!strcmp(a0, "etcd"))
			return engine_found(c, b, "etcd", "etcd", argv, argc, i, i + 1, 0);
		if (hand_off(c, b, w->text))
			return 0; /* `./inner.sh`: a script of the group, read as its own */
		if ((!strcmp(a0, "source") || !strcmp(a0, ".")) && i + 1 < argc && hand_off(c, b, argv[i + 1]->text))
			return 0; /* `source start.sh`: the same */
		const sl_grammar *pg = sl_grammar_by_program(c->gs, a0, 0);
		if (pg)
			return engine_found(c, b, pg->id, a0, argv, argc, i, i + 1, 0);
		int own = 0;  /* a function the script defines (wait_for_server) */
		for (size_t q = 0; b->script && q < b->script->nfunctions && !own; q++)
			own = !strcmp(b->script->functions[q], w->text);
		if (!own && !is_plumbing(a0) && serves_model(argv + i + 1, argc - i - 1, a0)) {
			sl_note_add(c, src, w->start, "`%s` takes --model and --port: read as an unknown engine", a0);
			return engine_found(c, b, "unknown", a0, argv, argc, i, i + 1, 0);
		}
		if (!is_plumbing(a0) && !own)
			sl_note_add(c, src, w->start, "command `%s` is not an engine or launcher servelint knows",
				    a0);
		return 0;
	}
	return 0;
}

/*
 * Each here-document file becomes a source of the model: the script's path,
 * the written file's name as its section (as a catalogue-form section is),
 * and the script's line numbers and columns (the tabs `<<-` removes are
 * counted back). Columns after an expansion on the same line are those of
 * the expanded text ($TP written as 8 shortens the line).
 */
static void sl_written_load(sl_ctx *c)
{
	const sl_script *s = c->script;
	const sl_source *script = c->entry->script;
	if (!s->nheredocs)
		return;
	c->model->files = sl_calloc(s->nheredocs, sizeof *c->model->files);
	c->written = sl_calloc(s->nheredocs, sizeof *c->written);
	for (size_t i = 0; i < s->nheredocs; i++) {
		const sl_heredoc *h = &s->heredocs[i];
		sl_source *src;
		sl_error e = {0};
		if (sl_source_from_memory(script->path, h->body.text, h->body.len, &src, &e)) {
			sl_note_add(c, script, h->start, "here-document for `%s` is empty", h->target);
			sl_error_clear(&e);
			continue;
		}
		unsigned line, col;
		sl_source_pos(script, h->body_start, &line, &col);
		src->line_base = line - 1;
		src->section = sl_strdup(h->target);
		if (h->strip_tabs) {
			/* the tabs `<<-` removed, line by line, so columns are the script's */
			src->col_shift = sl_calloc(src->nlines, sizeof *src->col_shift);
			for (size_t k = 0; k < src->nlines; k++) {
				size_t len;
				const char *t = sl_source_line(script, line + (unsigned)k, &len);
				unsigned n = 0;
				while (n < len && t[n] == '\t')
					n++;
				src->col_shift[k] = n;
			}
		}
		c->model->files[c->model->nfiles++] = src;
		c->written[c->nwritten].src = src;
		c->written[c->nwritten].hd = h;
		c->nwritten++;
	}
}

static void build_free(sl_build *b)
{
	/* hand the service to a throwaway model for freeing */
	sl_model tmp;
	memset(&tmp, 0, sizeof tmp);
	sl_service *s = sl_malloc(sizeof *s);
	*s = b->svc;
	tmp.services = s;
	tmp.nservices = 1;
	sl_model *m = sl_malloc(sizeof *m);
	*m = tmp;
	sl_model_free(m);
	memset(b, 0, sizeof *b);
}

/* What `run` starts for a command: its words as written (expanded, quotes
 * removed) and the variables it gets (exported ones, then its inline ones). */
static json_t *launch_of(const sl_command *cmd, const sl_word *engine)
{
	json_t *argv = json_array(), *env = json_array();
	for (size_t i = 0; i < cmd->argc; i++)
		json_array_append_new(argv, json_stringn(cmd->argv[i].text, cmd->argv[i].len));
	for (size_t i = 0; i < cmd->nexported; i++)
		json_array_append_new(env, json_pack("[s, s%, b]", cmd->exported[i].name, cmd->exported[i].value.text,
						     cmd->exported[i].value.len,
						     (cmd->exported[i].value.flags & SL_WORD_SYMBOLIC) != 0));
	for (size_t i = 0; i < cmd->nprefix; i++)
		json_array_append_new(env, json_pack("[s, s%, b]", cmd->prefix[i].name, cmd->prefix[i].value.text,
						     cmd->prefix[i].value.len,
						     (cmd->prefix[i].value.flags & SL_WORD_SYMBOLIC) != 0));
	/* words whose value the shell computes when it runs ($X, $(..)): kept
	 * as written, and run can only take them from --set or its environment */
	json_t *sym = json_array();
	for (size_t i = 0; i < cmd->argc; i++)
		if (cmd->argv[i].flags & SL_WORD_SYMBOLIC)
			json_array_append_new(sym, json_integer((json_int_t)i));
	json_int_t at = engine >= cmd->argv && engine < cmd->argv + cmd->argc ? (json_int_t)(engine - cmd->argv) : -1;
	return json_pack("{s:o, s:o, s:I, s:o, s:I}", "argv", argv, "env", env, "engine_at", at, "symbolic", sym,
			 "at", (json_int_t)cmd->start);
}

int sl_normalize_entry(const sl_entry *e, const sl_grammars *gs, sl_model **out, sl_error *err)
{
	int rc = sl_normalize_entry_with(e, gs, NULL, out, err);
	if (!rc && (*out)->variant) {
		/* callers that take one model (matrix, log, review) get the first
		 * alternative of each undecided if/case: say so */
		sl_note n;
		memset(&n, 0, sizeof n);
		sl_buf b = {0};
		sl_buf_printf(&b, "the script has conditionals this reading cannot decide; it assumes %s "
			      "(servelint show lists every variant)", (*out)->variant);
		n.msg = sl_buf_detach(&b);
		sl_origin_set(&n.origin, e->script, 0, NULL);
		size_t cap = (*out)->nnotes;
		SL_PUSH((*out)->notes, (*out)->nnotes, cap, n);
	}
	return rc;
}

int sl_normalize_entry_with(const sl_entry *e, const sl_grammars *gs, const sl_shell_opts *opts,
			    sl_model **out, sl_error *err)
{
	*out = NULL;
	sl_script *s;
	if (sl_source_is_manifest(e->script))
		return sl_normalize_entry_script(e, gs, NULL, out, err);
	int rc = sl_shell_parse_with(e->script, opts, &s, err);
	return rc ? rc : sl_normalize_entry_script(e, gs, s, out, err);
}

static int normalize_one(const sl_entry *e, const sl_grammars *gs, sl_script *s, sl_group_run *grp,
			 sl_model **out, sl_error *err)
{
	*out = NULL;
	sl_k8s_workload *ws = NULL;
	size_t nws = 0;
	int rc = SL_OK;
	if (!s) {
		rc = sl_source_is_recipe(e->script)     ? sl_recipe_parse(e->script, &s, &ws, &nws, err)
		     : sl_source_is_manifest(e->script) ? sl_k8s_parse(e->script, &s, &ws, &nws, err)
						       : sl_shell_parse_with(e->script, NULL, &s, err);
		if (rc)
			return rc;
	}
	sl_ctx c;
	memset(&c, 0, sizeof c);
	c.ws = ws;
	c.group = grp;
	c.entry = e;
	c.gs = gs;
	c.err = err;
	c.model = sl_calloc(1, sizeof *c.model);
	c.model->entry = e;
	c.model->variant = sl_script_variant_label(s);
	c.model->variant_index = 1;
	c.model->nvariants = 1;
	c.script = s;
	for (size_t i = 0; i < s->nnotes; i++)
		sl_note_add(&c, e->script, s->note_offs[i], "%s", s->notes[i]);
	sl_note_breaks(&c, s, e->script);
	/* DOS line ends: read as LF here, but not by bash */
	const char *cr = ws ? NULL : memchr(e->script->text, '\r', e->script->len);
	if (cr && (size_t)(cr - e->script->text) + 1 < e->script->len && cr[1] == '\n')
		sl_note_add(&c, e->script, (uint32_t)(cr - e->script->text),
			    "the script has DOS line ends (CR LF): servelint reads them as LF, but bash reads each CR as part of "
			    "the line's last word (`8000\\r`), and a `\\` before CR LF does not continue the line");
	if (s->ninputs) {
		c.model->inputs = sl_calloc(s->ninputs, sizeof *c.model->inputs);
		for (size_t i = 0; i < s->ninputs; i++) {
			sl_model_input *in = &c.model->inputs[i];
			in->name = sl_strdup(s->inputs[i].name);
			in->value = s->inputs[i].value ? sl_strdup(s->inputs[i].value) : NULL;
			in->defaulted = s->inputs[i].defaulted;
			sl_origin_set(&in->origin, e->script, s->inputs[i].off, NULL);
		}
		c.model->ninputs = s->ninputs;
	}
	sl_written_load(&c);
	for (size_t i = 0; i < s->ncmds && !c.failed; i++) {
		const sl_command *cmd = &s->cmds[i];
		sl_build b;
		memset(&b, 0, sizeof b);
		b.cmd = cmd;
		b.script = s;
		b.svc.replicas = 1;
		b.svc.gpus = -1;
		b.svc.background = cmd->background;
		handed(&c, &b);
		set_env_from(&b, cmd->exported, cmd->nexported, "export", e->script);
		int recipe = ws && strstr(ws[i].kind, "recipe");
		set_env_from(&b, cmd->prefix, cmd->nprefix, recipe ? "recipe" : ws ? "kubernetes" : "inline", e->script);
		if (ws) {
			const sl_k8s_workload *w = &ws[i];
			json_t *d = json_pack("{s:s}", "kind", w->kind);
			if (w->name)
				json_object_set_new(d, "name", json_string(w->name));
			if (w->container)
				json_object_set_new(d, "container", json_string(w->container));
			if (w->image)
				json_object_set_new(d, "image", json_string(w->image));
			if (w->component)
				json_object_set_new(d, "componentType", json_string(w->component));
			if (w->sub_component)
				json_object_set_new(d, "subComponentType", json_string(w->sub_component));
			sl_build_wrapper(&b, recipe ? "recipe" : "kubernetes", d, e->script, cmd->start, w->kind);
		}
		sl_word **argv = sl_calloc(cmd->argc + 1, sizeof *argv);
		for (size_t k = 0; k < cmd->argc; k++)
			argv[k] = &cmd->argv[k];
		int found = cmd->argc ? unwrap(&c, &b, argv, cmd->argc, 0) : 0;
		free(argv);
		if (found <= 0) {
			build_free(&b);
			continue;
		}
		sl_service svc = b.svc;
		svc.launches = json_pack("[o]", launch_of(cmd, b.engine_word));
		sl_grow((void **)&c.svc_cmd, &c.svc_cmd_cap, c.model->nservices + 1, sizeof *c.svc_cmd);
		c.svc_cmd[c.model->nservices] = i;
		SL_PUSH(c.model->services, c.model->nservices, c.svc_cap, svc);
	}
	if (!c.failed) {
		sl_structure_services(&c, s);
		sl_structure_reads(&c, s, e->script);
	}
	if (!c.failed)
		sl_topology(&c, s);
	if (!c.failed)
		sl_extract_claims(&c, s);
	for (size_t i = 0; i < c.ninner; i++)
		sl_script_free(c.inner[i]);
	free(c.inner);
	free(c.svc_cmd);
	free(c.written);
	sl_config_free(&c);
	sl_script_free(s);
	sl_k8s_workloads_free(ws, nws);
	if (c.failed) {
		sl_model_free(c.model);
		return SL_ERR_INPUT;
	}
	*out = c.model;
	return SL_OK;
}

/* Whether a script's text has `name` as a word of its own (as a group
 * is found: sl_source_groups). */
static int names_word(const sl_source *src, const char *name)
{
	size_t nl = strlen(name);
	for (const char *p = strstr(src->text, name); p; p = strstr(p + 1, name)) {
		char b = p > src->text ? p[-1] : ' ', a = p[nl];
		int inner = (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9') || b == '_' ||
			    b == '-' || b == '.';
		int after = (a >= 'a' && a <= 'z') || (a >= 'A' && a <= 'Z') || (a >= '0' && a <= '9') || a == '_' ||
			    a == '-' || a == '.';
		if (!inner && !after)
			return 1;
	}
	return 0;
}

/* An entry of several scripts (a group: prefill.sh + decode.sh, a wrapper
 * and the script it runs): each read as its own, in the group's order, and
 * their services, notes, claims and inputs made one model (group.c). */
int sl_normalize_entry_script(const sl_entry *e, const sl_grammars *gs, sl_script *s, sl_model **out,
			      sl_error *err)
{
	if (!e->nscripts)
		return normalize_one(e, gs, s, NULL, out, err);
	sl_group_run grp;
	memset(&grp, 0, sizeof grp);
	int rc = normalize_one(e, gs, s, &grp, out, err);
	for (size_t k = 0; k < e->nscripts && !rc; k++) {
		/* a script that another of the group runs is read when this
		 * reading runs it (`case $FW in vllm) bash server_vllm.sh` gives
		 * one variant per server script, not all of them at once) */
		int run_by_other = 0, handed_here = 0;
		for (size_t q = 0; q <= e->nscripts && !run_by_other; q++) {
			const sl_source *o = q == e->nscripts ? e->script : e->scripts[q];
			run_by_other = q != k && names_word(o, e->scripts[k]->name);
		}
		for (size_t q = 0; q < grp.n && !handed_here; q++)
			handed_here = !strcmp(grp.v[q].script, e->scripts[k]->name);
		if (run_by_other && !handed_here)
			continue;
		/* the k-th script's view of the entry: the others are its group */
		sl_entry view = *e;
		view.script = e->scripts[k];
		view.metadata = NULL; /* the entry's claims are read once */
		view.scripts = sl_calloc(e->nscripts, sizeof *view.scripts);
		view.nscripts = 0;
		view.scripts[view.nscripts++] = e->script;
		for (size_t q = 0; q < e->nscripts; q++)
			if (q != k)
				view.scripts[view.nscripts++] = e->scripts[q];
		sl_model *m = NULL;
		rc = normalize_one(&view, gs, NULL, &grp, &m, err);
		free(view.scripts);
		if (rc)
			break;
		m->entry = e;
		sl_group_merge(*out, m, e->scripts[k]);
	}
	sl_group_run_free(&grp);
	if (rc) {
		sl_model_free(*out);
		*out = NULL;
		return rc;
	}
	sl_group_rename(*out);
	return SL_OK;
}
