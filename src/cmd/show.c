/*
 * show.c (cmd): `servelint show PATH...`: the normalized model of entries.
 *
 * All entries are read and normalized before anything is written, so an
 * input error never leaves half a report on stdout; each is rendered as it
 * comes, into a spool (memory, then a temporary file) written at the end.
 */
#define _GNU_SOURCE  /* fopencookie: a FILE that appends to our own buffer */
#include "cmd.h"
#include "options.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "normalize/normalize.h"
#include "report/report.h"
#include "entry/entry.h"

/* The report is spooled before anything reaches stdout, so that an input
 * error never leaves half a report there: in memory up to SPOOL_MEM bytes,
 * then in a temporary file (tmpfile: unlinked, gone with the process), so
 * that memory stays flat in the report's size. A cookie FILE over the
 * spool: glibc's open_memstream zero-fills each growth. 1 MiB: at 8 MiB
 * the spool itself was what grew with the input (show's peak RSS 6.4 MB
 * over 35 entries, 14.6 MB over 3,500: bench/memory.sh). */
#define SPOOL_MEM (1u << 20)

typedef struct {
	sl_buf mem;
	FILE *file;    /* once the report outgrew SPOOL_MEM, or NULL */
	int failed;    /* the temporary file could not be written */
	size_t skip;   /* bytes of the next dump to drop (json_entry) */
} spool;

/* Bytes the spool's memory keeps when it goes to the file: json_entry cuts
 * that many at the end of a dump. */
#define SPOOL_KEEP 8

static void spool_add(spool *sp, const char *data, size_t n)
{
	/* past SPOOL_MEM, memory is written to the file and filled again:
	 * the file takes chunks of that size, not each piece (jansson's
	 * dump writes a few bytes at a time) */
	if (sp->mem.len > SPOOL_KEEP && sp->mem.len + n > SPOOL_MEM) {
		size_t out = sp->mem.len - SPOOL_KEEP;
		if (!sp->file && !sp->failed && !(sp->file = tmpfile()))
			sp->failed = 1;
		if (!sp->failed && fwrite(sp->mem.data, 1, out, sp->file) != out)
			sp->failed = 1;
		memmove(sp->mem.data, sp->mem.data + out, SPOOL_KEEP);
		sp->mem.len = SPOOL_KEEP;
	}
	sl_buf_add(&sp->mem, data, n);
}

/* Writes the spool to stdout; 0, or -1. */
static int spool_out(spool *sp)
{
	if (sp->failed)
		return -1;
	if (sp->file) {
		char chunk[1 << 16];
		size_t got;
		if (fflush(sp->file) || fseek(sp->file, 0, SEEK_SET))
			return -1;
		while ((got = fread(chunk, 1, sizeof chunk, sp->file)) > 0)
			if (fwrite(chunk, 1, got, stdout) != got)
				return -1;
		if (ferror(sp->file))
			return -1;
	}
	return sp->mem.len && fwrite(sp->mem.data, 1, sp->mem.len, stdout) != sp->mem.len ? -1 : 0;
}

static void spool_free(spool *sp)
{
	if (sp->file)
		fclose(sp->file);
	sl_buf_free(&sp->mem);
}

static ssize_t spool_write(void *cookie, const char *data, size_t n)
{
	spool_add(cookie, data, n);
	return (ssize_t)n;
}

/* A piece of jansson's dump into the spool: most are of a few bytes (a
 * quote, a comma, a newline, a number), copied here without a call. The
 * first sp->skip bytes of the dump are dropped (json_entry). */
static int json_to_spool(const char *data, size_t n, void *p)
{
	spool *sp = p;
	if (sp->skip) {
		size_t k = n < sp->skip ? n : sp->skip;
		sp->skip -= k;
		data += k;
		n -= k;
	}
	sl_buf *b = &sp->mem;
	if (n > 8 || b->len + n >= b->cap || b->len + n > SPOOL_MEM) {
		spool_add(sp, data, n);
		return 0;
	}
	char *o = b->data + b->len;
	for (size_t i = 0; i < n; i++)
		o[i] = data[i];
	b->len += n;
	o[n] = '\0';
	return 0;
}

static FILE *spool_stream(spool *sp)
{
	cookie_io_functions_t io = {NULL, spool_write, NULL, NULL};
	FILE *f = fopencookie(sp, "w", io);
	if (f)
		setvbuf(f, NULL, _IOFBF, 1 << 16);
	return f;
}

#define JSON_FLAGS (JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15))

/* One entry's JSON, as the whole document's dump would write it inside its
 * "entries" array: two levels in (4 spaces), after a comma unless first.
 * Entries are dumped one by one instead of as one document at the end, so
 * that no more than one entry's values are held (738 MiB over 10 MB of
 * scripts, most of it jansson values). The entry is dumped inside two
 * arrays, [[ENTRY]], so that jansson indents it as it sits in the
 * document, and the arrays' own text is cut: WRAP_HEAD's bytes before
 * it, WRAP_TAIL's after. Indenting each newline here as the dump went
 * cost 38 instructions a piece (84 M for the 2.2 M pieces of 350 entries). */
/* a macro, not an array: only its length is used (clang: -Wunneeded-internal-declaration) */
#define WRAP_HEAD "[\n  [\n    "
static const char WRAP_TAIL[] = "\n  ]\n]";

static int json_entry(spool *sp, json_t *v, int first)
{
	spool_add(sp, first ? "\n    " : ",\n    ", first ? 5 : 6);
	json_t *wrap = json_pack("[[O]]", v);
	if (!wrap)
		return -1;
	sp->skip = sizeof WRAP_HEAD - 1;
	int rc = json_dump_callback(wrap, json_to_spool, sp, JSON_FLAGS);
	json_decref(wrap);
	/* the spool's memory keeps its last SPOOL_KEEP bytes: the tail is there */
	size_t tail = sizeof WRAP_TAIL - 1;
	if (rc || sp->skip || sp->mem.len < tail ||
	    memcmp(sp->mem.data + sp->mem.len - tail, WRAP_TAIL, tail))
		return -1;
	sp->mem.len -= tail;
	sp->mem.data[sp->mem.len] = '\0';
	return 0;
}

/* Whether PATH is a folder with no launch.sh that holds entries in
 * folders under it, or several of its own (pages): a catalogue, not an
 * entry. A folder whose one entry is a file of its own (a manifest) is
 * that entry, named by the folder. PATH is a folder. */
static int is_catalogue(const char *path)
{
	struct stat st;  /* PATH is a folder: the caller's stat said so */
	sl_buf ls = {0};
	sl_buf_printf(&ls, "%s/launch.sh", path);
	int launch = stat(ls.data, &st) == 0;
	sl_buf_free(&ls);
	if (launch)
		return 0;
	char **found = NULL;
	size_t nf = 0, cap = 0;
	sl_entry_input_discover(path, &found, &nf, &cap, 1);
	int deeper = 0;
	size_t plen = strlen(path);
	while (plen > 1 && path[plen - 1] == '/')
		plen--;
	for (size_t k = 0; k < nf; k++) {
		/* PATH/x/... rather than PATH/x */
		if (!strncmp(found[k], path, plen) && found[k][plen] == '/' &&
		    strchr(found[k] + plen + 1, '/'))
			deeper = 1;
		free(found[k]);
	}
	free(found);
	return nf >= 2 || deeper;
}

/* What every entry is shown with, and into. */
typedef struct show_ctx {
	const sl_grammars *gs;
	const sl_binds *binds;
	unsigned variant;
	int json, color;
	spool *text;
	FILE *mem;        /* tty: the spool's stream */
	size_t shown;     /* models rendered */
	int failed;
	int found;        /* the path at hand was found in a folder, not given */
	size_t helpers;   /* scripts found that start no service, left out */
	sl_error said;    /* why the first of them is none */
} show_ctx;

/* Whether PATH, found by a folder's search, is a file (a script found),
 * not a folder entry. */
static int found_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Renders the entries PATH holds into the spool, each model freed once
 * rendered. */
static void show_path(show_ctx *x, const char *path)
{
	sl_error err = {0};
	sl_entry_input in;
	if (sl_entry_input_open(&in, path, &err)) {
		sl_error_print(&err, "servelint");
		sl_error_clear(&err);
		x->failed = 1;
		return;
	}
	sl_entry *entry;
	int got;
	while ((got = sl_entry_input_next(&in, &entry, &err)) != 0) {
		/* one model per variant of the script's undecided if/case */
		sl_model **models = NULL;
		size_t nm = 0;
		if (got > 0 && sl_entry_models(entry, x->gs, x->binds, x->variant, &models, &nm, &err) &&
		    x->found && sl_entry_error_no_service(&err) && found_file(path)) {
			/* a script the search found that starts nothing (a helper,
			 * a tool beside the entries) is none of them, as check and
			 * audit leave it out */
			if (!x->helpers++)
				x->said = err;
			else
				sl_error_clear(&err);
			memset(&err, 0, sizeof err);
		} else if (got < 0 || err.msg) {
			sl_error_print(&err, "servelint");
			sl_error_clear(&err);
			x->failed = 1;
		}
		for (size_t k = 0; k < nm; k++) {
			if (!x->failed && x->json) {
				json_t *v = sl_report_model_json(models[k]);
				/* NULL, or a dump that fails: a path or value
				 * not UTF-8 (a folder's name, as the input's
				 * text is checked at read) */
				if (json_entry(x->text, v, !x->shown)) {
					fprintf(stderr, "servelint: %s: cannot be written as JSON: "
						"a path or value in it is not UTF-8 text\n",
						models[k]->entry->path);
					x->failed = 1;
				}
				json_decref(v);
			} else if (!x->failed) {
				if ((x->shown && fputc('\n', x->mem) == EOF) ||
				    sl_report_model_tty(x->mem, models[k], x->color)) {
					perror("servelint: rendering");
					x->failed = 1;
				}
			}
			x->shown++;
			sl_model_free(models[k]);
		}
		free(models);
		sl_entry_free(entry);
	}
	sl_entry_input_close(&in);
}

/* An entry a catalogue's search found: shown as it is found, so that no
 * path is kept past its entries (69,440 paths were 5 MB of show's peak,
 * issue 18). */
static void found_entry(void *ud, char *path)
{
	show_ctx *x = ud;
	x->found = 1;
	show_path(x, path);
	x->found = 0;
	free(path);
}

static void usage(FILE *f)
{
	fputs("usage: servelint show [--format tty|json] [--color auto|always|never] [--set NAME=VALUE]...\n"
	      "                      [--variant N] [--system TEXT] [--model-config FILE] PATH...\n"
	      "\n"
	      "Prints the normalized model of each entry (an entry folder, a launch script,\n"
	      "an entry in catalogue form, or a whole published catalogue page):\n"
	      "services, roles, replicas, GPUs, env and canonical settings, each value with\n"
	      "the file:line:col it came from; then the memory and shape plan when the model\n"
	      "and the accelerator are known (docs/memory-plan.md).\n"
	      "\n"
	      "  -f, --format FORMAT   tty (default) or json\n"
	      "      --color WHEN      auto (default: a terminal without NO_COLOR), always, never\n"
	      "      --set NAME=VALUE  a value for a variable the script reads but leaves unknown\n"
	      "                        (listed under `inputs`); repeatable. A condition it\n"
	      "                        decides picks its branch.\n"
	      "      --variant N       only the N-th variant: a script whose if/case depends on\n"
	      "                        something unknown has one per alternative (default: all)\n"
	      SL_PLAN_OPTS_USAGE
	      "      --version         servelint's version\n"
	      "  -h, --help            this help\n"
	      "\n"
	      "PATH - is standard input.\n"
	      "Exit status: 0 on success, 2 when an input cannot be read or parsed, 3 usage.\n",
	      f);
}

int sl_cmd_show(int argc, char **argv)
{
	static const struct option opts[] = {
		SL_OPTS_COMMON,
		{"format", required_argument, NULL, 'f'},
		{"color", required_argument, NULL, 'C'},
		{"set", required_argument, NULL, 's'},
		{"variant", required_argument, NULL, 'V'},
		{"system", required_argument, NULL, 'Y'},
		{"model-config", required_argument, NULL, 'M'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int json = 0, color = -1, c;
	sl_plan_options plan = {0};
	static sl_binds binds;
	unsigned variant = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "f:h", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (!strcmp(optarg, "json"))
				json = 1;
			else if (!strcmp(optarg, "tty"))
				json = 0;
			else {
				fprintf(stderr, "servelint show: unknown format `%s` (tty, json)\n", optarg);
				return SL_EXIT_USAGE;
			}
			break;
		case 'C':
			if (sl_opt_color("show", optarg, &color)) {
				sl_binds_free(&binds);
				return SL_EXIT_USAGE;
			}
			break;
		case 's':
			if (sl_binds_take(&binds, optarg, "show")) {
				sl_binds_free(&binds);
				return SL_EXIT_USAGE;
			}
			break;
		case 'V': {
			char *end;
			unsigned long v = strtoul(optarg, &end, 10);
			if (*end || v == 0 || v > SL_MAX_VARIANTS) {
				fprintf(stderr, "servelint show: --variant takes a number from 1 to %d\n",
					SL_MAX_VARIANTS);
				sl_binds_free(&binds);
				return SL_EXIT_USAGE;
			}
			variant = (unsigned)v;
			break;
		}
		case 'Y':
		case 'M':
			sl_plan_opts_take(&plan, c, optarg);
			break;
		case SL_OPT_VERSION:
			sl_binds_free(&binds);
			return sl_cmd_version();
		case 'h':
			sl_binds_free(&binds);
			usage(stdout);
			return SL_EXIT_OK;
		default:
			sl_binds_free(&binds);
			usage(stderr);
			return SL_EXIT_USAGE;
		}
	}
	if (optind >= argc || sl_opt_stdin_once(argc, argv, optind, "show")) {
		if (optind >= argc)
			fprintf(stderr, "servelint show: no entry given\n");
		sl_binds_free(&binds);
		usage(stderr);
		return SL_EXIT_USAGE;
	}
	color = sl_color_resolve(color);
	if (sl_plan_opts_apply(&plan)) {
		sl_binds_free(&binds);
		return SL_EXIT_ERROR;
	}

	sl_error err = {0};
	sl_grammars *gs;
	if (sl_normalize_grammars_load(&gs, &err)) {
		sl_error_print(&err, "servelint");
		sl_error_clear(&err);
		return SL_EXIT_ERROR;
	}
	/* Each entry is rendered as soon as it is normalized (to a memory
	 * buffer, or a JSON value) and its model freed, so memory stays flat
	 * over large catalogues; nothing reaches stdout unless all succeeded. */
	size_t n = (size_t)(argc - optind);
	spool text = {{0}, NULL, 0, 0};
	FILE *mem = json ? NULL : spool_stream(&text);
	int failed = !json && !mem;
	/* the JSON document around the entries: its dump with none, cut at
	 * the empty array */
	char *head = NULL;
	const char *tail = NULL;
	if (json) {
		json_t *doc = sl_report_json_doc(json_pack("{s:[]}", "entries"));
		head = json_dumps(doc, JSON_FLAGS);
		json_decref(doc);
		char *at = head ? strstr(head, "\"entries\": []") : NULL;
		if (!at) {
			fprintf(stderr, "servelint: rendering: no JSON document\n");
			failed = 1;
		} else {
			at += strlen("\"entries\": [");
			tail = at;  /* "]..." */
			spool_add(&text, head, (size_t)(at - head));
		}
	}
	show_ctx x = {gs, &binds, variant, json, color, &text, mem, 0, failed, 0, 0, {0}};
	/* a folder of several scripts is an entry per script (or group of
	 * them); a catalogue (entries in folders under it) an entry per one
	 * found, as check finds them */
	for (size_t i = 0; i < n; i++) {
		const char *a = argv[optind + (int)i];
		struct stat st;
		/* only a folder can hold several entries: a file costs one stat */
		if (!stat(a, &st) && S_ISDIR(st.st_mode) && (sl_entry_input_is_many(a) || is_catalogue(a)))
			sl_entry_input_discover_each(a, found_entry, &x);
		else
			show_path(&x, a);
	}
	if (!x.failed && !x.shown && x.helpers) {
		sl_error_print(&x.said, "servelint");
		fprintf(stderr, "servelint show: no entries found under %s (the files found start no service)\n",
			argv[optind]);
		x.failed = 1;
	}
	sl_error_clear(&x.said);
	failed = x.failed;
	size_t shown = x.shown;
	if (mem && fclose(mem)) {
		perror("servelint: rendering");
		failed = 1;
	}
	int rc = failed ? SL_EXIT_ERROR : SL_EXIT_OK;
	if (!failed) {
		if (json) {
			if (shown)
				spool_add(&text, "\n  ", 3);  /* before the array's `]` */
			spool_add(&text, tail, strlen(tail));
			spool_add(&text, "\n", 1);
		}
		if (spool_out(&text))
			rc = SL_EXIT_ERROR;
		if (fflush(stdout)) {
			perror("servelint: writing output");
			rc = SL_EXIT_ERROR;
		}
	}
	free(head);
	spool_free(&text);
	sl_normalize_grammars_free(gs);
	sl_binds_free(&binds);
	return rc;
}
