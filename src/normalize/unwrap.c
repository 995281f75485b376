/*
 * unwrap.c: unwrapping launchers. Each launcher of a command is peeled off
 * in turn (recording what it contributes: env, GPUs, image, ranks) until an
 * engine command remains, whose arguments flags.c reads: docker and its
 * image's entrypoint, mpirun and srun, `bash -c "..."` and eval read as
 * scripts of their own, a script another runs, `python3 -m MODULE` (the
 * interpreter perhaps in a variable: the module says it is one), and
 * what is plumbing around an engine (env, numactl, ...). Uses flags.c,
 * misplaced.c (where a docker command's misplaced engine flags go) and
 * build.c; normalize.c uses it.
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flags.h"
#include "misplaced.h"
#include "structure.h"
#include "unwrap.h"


/* -c, or a cluster of single-letter options holding it (`bash -lc`,
 * `sh -ec`, `bash -euxc`): the next word is the command string. */
static int shell_c_option(const char *o)
{
	if (o[0] != '-' || !o[1] || o[1] == '-')
		return 0;
	for (const char *p = o + 1; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')))
			return 0;
	return strchr(o + 1, 'c') != NULL;
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
	static const char *const load[] = {"--num-prompts", "--max-concurrency", "--request-rate",
					   "--dataset-name", "--dataset-path", "--backend", "--endpoint",
					   "--input-len", "--output-len", "--result-filename", "--tasks", NULL};
	if (sl_shell_client_name(name, strlen(name)))
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
 * docker.yaml's `images:` (by repository, whatever the registry and tag;
 * *entry set to it), else an engine its name says (`myorg/vllm-custom`:
 * *guessed set), else NULL. "command": the entrypoint runs the command it
 * is given.
 */
static const char *image_runs(const sl_grammar *docker, const char *image, const char **prog,
			      int *guessed, const json_t **entry)
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
	*entry = NULL;
	size_t k;
	json_t *e;
	json_array_foreach(docker->images, k, e) {
		const char *im = json_string_value(json_object_get(e, "image"));
		size_t l = im ? strlen(im) : 0;
		if (!l || l > n || strncmp(image + n - l, im, l) || (l < n && image[n - l - 1] != '/'))
			continue;
		const char *p = json_string_value(json_object_get(e, "program"));
		*prog = p ? p : im;
		*entry = e;
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

/* A word that starts a command servelint reads (an engine, a launcher, a
 * shell, an interpreter): after an image it is taken as the command
 * written, not as an argument of the image's entrypoint. */
static int names_command(sl_ctx *c, const char *w)
{
	static const char *const names[] = {"vllm", "sglang", "trtllm-serve", "bash", "sh", "zsh", "env",
					    "exec", "nohup", "time", "eval", "etcd", "mpirun", "mpiexec",
					    "trtllm-llmapi-launch", "docker", "podman"};
	const char *a0 = base(w);
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (!strcmp(a0, names[i]))
			return 1;
	return is_python(a0) || is_plumbing(a0) || sl_grammar_by_program(c->gs, a0, 0) != NULL;
}

/* A word shaped as a model's name on a hub (`org/name`: one slash, not a
 * path, no expansion) and not a command servelint reads. */
static int model_id(sl_ctx *c, const sl_word *w)
{
	const char *t = w->text, *sl = strchr(t, '/');
	if ((w->flags & SL_WORD_SYMBOLIC) || !sl || sl == t || !sl[1] || strchr(sl + 1, '/') || t[0] == '.' ||
	    sl_ends_with(t, ".sh") || sl_ends_with(t, ".py"))
		return 0;
	return !names_command(c, t);
}

/*
 * `docker run IMAGE WORD ...` (WORD not a flag) where IMAGE's entrypoint
 * is an engine. An image docker.yaml lists (not one guessed from its
 * name) is given its arguments, the first of them the model: the
 * entrypoint of vllm/vllm-openai is `vllm serve`, whose first positional
 * is the model. Returns 1 when WORD is read so; 0 when
 * WORD is read as the command written (a command servelint reads, which
 * on such an image would reach the entrypoint as an argument: a note
 * says so); -1 when WORD is left unread, with a note: the image is only
 * guessed to be an engine, or WORD is an unquoted unknown expansion
 * (`$ARGS`), which may be several words.
 */
static int model_first(sl_ctx *c, const sl_word *image, const sl_word *first, int guessed)
{
	const sl_source *src = c->entry->script;
	if (!(first->flags & SL_WORD_SYMBOLIC) && names_command(c, first->text)) {
		if (!guessed)
			sl_note_add(c, src, first->start,
				    "the entrypoint of image `%s` is the engine: `%s` after it is read as the command written, "
				    "though without --entrypoint the image hands it to the engine as an argument",
				    image->text, first->text);
		return 0;
	}
	if (guessed) {
		sl_note_add(c, src, first->start,
			    "the entrypoint of image `%s` is not known: `%s` after it is not read as a model or a command",
			    image->text, first->text);
		return -1;
	}
	if ((first->flags & SL_WORD_SYMBOLIC) && !(first->flags & SL_WORD_QUOTED)) {
		sl_note_add(c, src, first->start,
			    "`%s` after image `%s` depends on an unknown value and is not quoted: it may be several words, not read as the model",
			    first->text, image->text);
		return -1;
	}
	return 1;
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

void sl_unwrap_env_from(sl_build *b, const sl_assign *a, size_t n, const char *via,
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
	b->svc.defaults = json_incref((json_t *)sl_grammar_defaults(c->gs, g));
	b->svc.program = sl_strdup(program);
	sl_origin_set(&b->svc.command_origin, c->entry->script, argv[first]->start, program);
	b->svc.argv = json_array();
	for (size_t i = first; i < argc; i++)
		json_array_append_new(b->svc.argv, json_stringn(argv[i]->text, argv[i]->len));
	if (sl_parse_engine_args(c, b, g, argv + args_at, argc - args_at, positionals))
		return -1;
	return 1;
}

/* The index of `-m` in `PYTHON [OPTIONS] -m MODULE ...` (argv[i] the
 * interpreter), or 0 when the command names no module. */
static size_t module_at(sl_word *const *argv, size_t argc, size_t i)
{
	size_t k = i + 1;
	while (k < argc && argv[k]->text[0] == '-' && strcmp(argv[k]->text, "-m"))
		k += !strcmp(argv[k]->text, "-X") || !strcmp(argv[k]->text, "-W") ? 2 : 1;
	return k + 1 < argc && !strcmp(argv[k]->text, "-m") ? k : 0;
}

static const char *module_of(sl_word *const *argv, size_t argc, size_t i)
{
	size_t k = module_at(argv, argc, i);
	return k && !(argv[k + 1]->flags & SL_WORD_SYMBOLIC) ? argv[k + 1]->text : NULL;
}

/* A module servelint reads as an engine: the table above, or a grammar's
 * program (`python3 -m atom.entrypoints.openai_server`). */
static int known_module(sl_ctx *c, const char *mod)
{
	for (size_t q = 0; q < sizeof modules / sizeof *modules; q++)
		if (!strcmp(mod, modules[q].module))
			return 1;
	return sl_grammar_by_program(c->gs, mod, 1) != NULL;
}

/*
 * `python3 [OPTIONS] -m MODULE ARGS`: the module names the engine. `py` is
 * the interpreter as written; `symbolic` when it is held in a variable
 * (`"$SGLANG_PYTHON"`, `${PY:-python3}` left unknown), which is said in a
 * note: the caller only comes here then for a module it knows.
 */
static int run_python(sl_ctx *c, sl_build *b, sl_word *const *argv, size_t argc, size_t i,
		      const char *py, int symbolic)
{
	const sl_source *src = c->entry->script;
	size_t k = module_at(argv, argc, i);
	if (!k) {
		sl_note_add(c, src, argv[i]->start, "python script: not an engine servelint knows");
		return 0;
	}
	const char *mod = argv[k + 1]->text;
	if (symbolic)
		sl_note_add(c, src, argv[i]->start,
			    "interpreter `%s` depends on an unknown value: read as python, since it runs `-m %s`",
			    py, mod);
	sl_buf prog = {0};
	sl_buf_printf(&prog, "%s -m %s", py, mod);
	int rc = 0;
	const sl_grammar *mg = NULL;
	size_t q = 0;
	while (q < sizeof modules / sizeof *modules && strcmp(mod, modules[q].module))
		q++;
	if (q < sizeof modules / sizeof *modules)
		rc = engine_found(c, b, modules[q].grammar, prog.data, argv, argc, i, k + 2,
				  modules[q].positionals);
	else if ((mg = sl_grammar_by_program(c->gs, mod, 1)))
		rc = engine_found(c, b, mg->id, prog.data, argv, argc, i, k + 2, 0);
	else if (serves_model(argv + k + 2, argc - k - 2, mod)) {
		sl_note_add(c, src, argv[k + 1]->start,
			    "python module `%s` takes --model and --port: read as an unknown engine", mod);
		rc = engine_found(c, b, "unknown", prog.data, argv, argc, i, k + 2, 0);
	} else
		sl_note_add(c, src, argv[k + 1]->start, "python module `%s` is not an engine servelint knows",
			    mod);
	sl_buf_free(&prog);
	return rc;
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

/* The string of `bash -c "..."` or `eval "$CMD"` read as a script of its
 * own (origins mapped back into the file): its first engine command. */
static int run_string(sl_ctx *c, sl_build *b, const sl_word *str, unsigned depth)
{
	const sl_source *src = c->entry->script;
	sl_script *in;
	if (sl_shell_parse_word(src, str, c->cache, &in, c->err)) {
		c->failed = 1;
		return -1;
	}
	SL_PUSH(c->inner, c->ninner, c->inner_cap, in);
	sl_note_breaks(c, in, src);
	int found = 0;
	for (size_t j = 0; j < in->ncmds && !found; j++) {
		const sl_command *ic = &in->cmds[j];
		size_t mark = b->svc.nenv;
		sl_unwrap_env_from(b, ic->exported, ic->nexported, "export", src);
		sl_unwrap_env_from(b, ic->prefix, ic->nprefix, "inline", src);
		sl_word **nargv = sl_calloc(ic->argc + 1, sizeof *nargv);
		for (size_t q = 0; q < ic->argc; q++)
			nargv[q] = &ic->argv[q];
		found = sl_unwrap(c, b, nargv, ic->argc, depth + 1);
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
void sl_unwrap_handed(sl_ctx *c, sl_build *b)
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
int sl_unwrap(sl_ctx *c, sl_build *b, sl_word *const *argv, size_t argc, unsigned depth)
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
			/* `"$SGLANG_PYTHON" -m sglang.launch_server`: only an interpreter
			 * takes -m MODULE, and the module names the engine */
			const char *mod = module_of(argv, argc, i);
			if (mod && known_module(c, mod))
				return run_python(c, b, argv, argc, i, w->text, 1);
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
			size_t host_env = b->svc.nenv, first_note = c->model->nnotes;
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
			 * (`docker run vllm/vllm-openai:TAG --model m` is `vllm serve`);
			 * a word first: the model, for an image known to have an engine
			 * as its entrypoint (model_first) */
			const char *runs = NULL, *prog = NULL;
			const json_t *listed = NULL;
			int guessed = 0, flags_only = nn == 0 || nargv[0]->text[0] == '-', first = 0;
			if (!ep.len)
				runs = image_runs(g, argv[k]->text, &prog, &guessed, &listed);
			if (runs && strcmp(runs, "command") && !flags_only) {
				first = model_first(c, argv[k], nargv[0], guessed);
				if (first <= 0)
					runs = NULL;  /* the command written, or nothing read */
			}
			if (first < 0) {
				/* noted: nothing read */
			} else if (runs && strcmp(runs, "command")) {
				const char *why = json_string_value(json_object_get(listed, "assumed"));
				/* what `run --native` starts in the image's place: the
				 * entrypoint docker.yaml lists (none when only guessed) */
				const json_t *epv = json_object_get(listed, "entrypoint");
				if (guessed) {
					sl_note_add(c, src, argv[k]->start,
						    "the entrypoint of image `%s` is not known: assumed to be %s (its name says so)",
						    argv[k]->text, prog);
				} else if (why) {
					sl_buf ev = {0};
					for (size_t q = 0; q < json_array_size(epv); q++)
						sl_buf_printf(&ev, "%s%s", q ? " " : "", json_string_value(json_array_get(epv, q)));
					sl_note_add(c, src, argv[k]->start, "the entrypoint of image `%s` is assumed to be `%s` (%s)",
						    argv[k]->text, ev.data ? ev.data : runs, why);
					sl_buf_free(&ev);
				}
				if (epv)
					json_object_set_new(wr->detail, "_entrypoint", json_deep_copy(epv));
				if (epv && why)
					json_object_set_new(wr->detail, "_entrypoint_assumed", json_string(why));
				rc = engine_found(c, b, runs, prog, argv, argc, k, k + 1, 1);
			} else if (runs && flags_only && nn) {
				sl_note_add(c, src, argv[k]->start,
					    "image `%s` runs the command it is given, and is given only flags: engine unknown (write the engine's command after the image)",
					    argv[k]->text);
			} else if (runs && !flags_only && model_id(c, nargv[0])) {
				sl_note_add(c, src, nargv[0]->start,
					    "image `%s` runs the command it is given, and `%s` after it looks like a model's name, not a command: engine unknown (write the engine's command after the image)",
					    argv[k]->text, nargv[0]->text);
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
				rc = sl_unwrap(c, b, nargv, nn, depth + 1);
			/* engine flags written before the image: where they go */
			if (rc == 1) {
				const sl_word **ws = sl_calloc(nn + 1, sizeof *ws);
				ws[0] = argv[k];
				for (size_t j = 0; j < nn; j++)
					ws[j + 1] = nargv[j];
				sl_misplaced_docker_place(c, b, first_note, ws, nn + 1);
				free(ws);
			}
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
			while (k < argc && argv[k]->text[0] == '-' && !shell_c_option(argv[k]->text))
				k += (!strcmp(argv[k]->text, "-o") && k + 1 < argc) ? 2 : 1;
			if (k + 1 >= argc || !shell_c_option(argv[k]->text)) {
				if (k < argc && hand_off(c, b, argv[k]->text))
					return 0;
				if (k >= argc) {
					sl_note_add(c, src, w->start,
						    "`%s` without a script or -c starts an interactive shell: nothing it runs is known", a0);
					return 0;
				}
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
		if (is_python(a0))
			return run_python(c, b, argv, argc, i, a0, 0);
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
