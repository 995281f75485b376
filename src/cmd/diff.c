/*
 * diff.c (cmd): `servelint diff A B`: the semantic difference of two
 * entries. A and B: entry folders or files, `-` for standard input, or
 * REV:path read from the git repository with libgit2 (no checkout).
 * `servelint diff REV1 REV2 [-- PATHSPEC...]`: every entry touched between
 * two revisions (libgit2 tree diff, renames by similarity).
 * Exit: 0 equal (explicit defaults apart), 1 different with --exit-code,
 * 2 unreadable input, 3 usage.
 */
#include "cmd.h"
#include "options.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "diff/diff.h"
#include "entry/entry.h"
#include "normalize/normalize.h"
#include "report/report.h"

static void usage(FILE *f)
{
	fputs("usage: servelint diff [--format tty|json|markdown] [--exit-code | --quiet]\n"
	      "                      [--ignore KEY-GLOB]... [--only KEY-GLOB]... A B\n"
	      "       servelint diff [OPTIONS] REV1 [REV2] [-- PATHSPEC...]\n"
	      "\n"
	      "The semantic difference of two entries: services paired by role, each\n"
	      "difference as canonical key, old and new value and both places. Flag order,\n"
	      "aliases, `=` or space, wrapping, JSON member order and YAML style never show;\n"
	      "a default written out on one side only shows as an explicit default.\n"
	      "A and B: entry folders or files, - for standard input, or REV:path from the\n"
	      "git repository around the current directory (read without a checkout).\n"
	      "With two revisions: every entry whose files differ between them, as\n"
	      "changed (with its diff), reformatted only, added, removed or renamed;\n"
	      "with one, between it and the working tree (uncommitted work), as git diff REV.\n"
	      "\n"
	      "  -f, --format FORMAT   tty (default), json, markdown (for a pull request)\n"
	      "      --exit-code       exit 1 when the entries differ\n"
	      "  -q, --quiet           print nothing on standard output; implies --exit-code\n"
	      "      --ignore GLOB     leave out keys matching GLOB (repeatable)\n"
	      "      --only GLOB       only keys matching GLOB (repeatable)\n"
	      "      --set NAME=VALUE  a value for a variable the scripts leave unknown, on both\n"
	      "                        sides (repeatable; A and B only)\n"
	      "      --variant N       the variant of a script with an undecided if/case: once\n"
	      "                        for both sides, twice for A then B (A and B only)\n"
	      "      --color WHEN      auto (default), always, never\n"
	      "      --stats           with two revisions: tell on stderr how many entries\n"
	      "                        were looked up and parsed (each object id once)\n"
	      "      --version         servelint's version\n"
	      "  -h, --help            this help\n"
	      "\n"
	      "Exit status: 0 equal (or without --exit-code), 1 different with --exit-code,\n"
	      "2 unreadable input, 3 usage.\n",
	      f);
}

/* `diff REV1 REV2 [-- PATHSPEC...]`: every entry touched between them. */
static int diff_revisions(const char *r1, const char *r2, char *const *ps, size_t nps, const char *format,
			  const sl_key_globs *keys, int exit_code, int color, int stats)
{
	sl_diff_opts opts = sl_key_globs_opts(keys);
	const sl_diff_opts *o = &opts;
	unsigned char seen[2 * SL_MAX_KEY_GLOBS] = {0};
	size_t hidden = 0;
	sl_error err = {0};
	sl_grammars *gs = NULL;
	sl_touched *ts = NULL;
	size_t nt = 0, count[7] = {0};
	int rc = SL_EXIT_OK, differ = 0;
	if (sl_normalize_grammars_load(&gs, &err) || sl_git_touched(r1, r2, ps, nps, &ts, &nt, &err)) {
		sl_error_print(&err, "servelint");
		sl_error_clear(&err);
		sl_normalize_grammars_free(gs);
		return SL_EXIT_ERROR;
	}
	int json = !strcmp(format, "json"), md = !strcmp(format, "markdown");
	json_t *entries = json_array();
	sl_entry_cache *cache = sl_entry_cache_new(gs);
	if (md)
		fprintf(stdout, "### servelint diff %s %s\n\n", r1, r2 ? r2 : "(the working tree)");
	for (size_t i = 0; i < nt && rc == SL_EXIT_OK; i++) {
		if (!ts[i].in_old && !ts[i].in_new)
			continue;
		sl_touched_cmp cmp;
		int st = sl_diff_touched_compare(r1, r2, &ts[i], cache, o, &cmp, &err);
		if (st < 0) {
			sl_error_print(&err, "servelint");
			sl_error_clear(&err);
			rc = SL_EXIT_ERROR;
		} else if (sl_diff_touched_no_service(&cmp)) {
			/* read at both sides and nothing starts a service: no entry,
			 * never "reformatted only" */
			const char *p = st == 5 ? ts[i].new_path : ts[i].old_path;
			if (json)
				json_array_append_new(entries, json_pack("{s:s, s:s}", "status", "not an entry", "path", p));
			else
				printf(md ? "- **not an entry** `%s` (nothing in it starts a service)\n"
					  : "not an entry (nothing in it starts a service): %s\n", p);
		} else {
			const sl_model *both[] = {cmp.a.model, cmp.b.model};
			sl_key_globs_mark(keys, both, 2, seen);
			if (cmp.hidden)
				hidden++;
			else
				count[st]++;
			differ |= st != 1 && st != 5; /* a move is a change */
			if (json) {
				json_t *e = json_pack("{s:s, s:s, s:b}", "status",
						      cmp.hidden ? sl_report_touched_label(&cmp) : sl_diff_touched_status[st], "path",
						      st == 2 ? ts[i].new_path : ts[i].old_path, "claims_only",
						      sl_report_touched_label(&cmp) != sl_diff_touched_status[st]);
				if (st >= 4)
					json_object_set_new(e, "new_path", json_string(ts[i].new_path));
				if (st == 0 || st == 4) {
					json_t *dj = sl_report_diff_json(&cmp.diff, cmp.na, cmp.nb);
					sl_report_json_split_revision(dj, r1, r2);
					json_object_set_new(e, "diff", dj);
				}
				json_array_append_new(entries, e);
			} else {
				sl_report_touched(&cmp, &ts[i], md, color);
			}
		}
		sl_diff_touched_free(&cmp);
	}
	if (rc == SL_EXIT_OK && (keys->ni || keys->no))
		sl_key_globs_warn_seen(keys, seen, "diff");
	if (rc == SL_EXIT_OK) {
		size_t total = count[0] + count[1] + count[2] + count[3] + count[4] + count[5] + count[6] + hidden;
		if (json) {
			json_t *doc = sl_report_json_doc(json_pack("{s:s, s:o, s:o}", "from", r1, "to", r2 ? json_string(r2) : json_null(),
								    "entries", entries));
			entries = NULL;
			if (json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15)))
				rc = SL_EXIT_ERROR;
			fputc('\n', stdout);
			json_decref(doc);
		} else {
			fprintf(stdout, "%s%zu entr%s touched: %zu changed, %zu reformatted only, %zu added, %zu removed, %zu renamed",
				md ? "\n" : "", total, total == 1 ? "y" : "ies", count[0], count[1], count[2], count[3],
				count[4] + count[5] + count[6]);
			if (hidden)
				fprintf(stdout, ", %zu with no change in the keys shown", hidden);
			fputc('\n', stdout);
		}
		if (fflush(stdout) || ferror(stdout))
			rc = SL_EXIT_ERROR;
		else if (exit_code && differ)
			rc = SL_EXIT_FINDINGS;
	}
	json_decref(entries);
	if (stats)
		sl_entry_cache_print_stats("diff", cache);
	sl_entry_cache_free(cache);
	sl_touched_free(ts, nt);
	sl_normalize_grammars_free(gs);
	return rc;
}

/* The whole of a file for the line diff (the driver's fallback), at most
 * the size an entry file may have. */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	sl_buf b = {0};
	char chunk[65536];
	size_t n;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0 && b.len < SL_MAX_FILE_BYTES)
		sl_buf_add(&b, chunk, n);
	int bad = ferror(f) || b.len >= SL_MAX_FILE_BYTES;
	fclose(f);
	if (bad) {
		sl_buf_free(&b);
		return NULL;
	}
	*len = b.len;
	return b.data ? sl_buf_detach(&b) : sl_strdup("");
}

static int ends_with(const char *s, const char *tail)
{
	size_t a = strlen(s), b = strlen(tail);
	return a >= b && !strcmp(s + a - b, tail);
}

/* ---- a file of an entry, as git's driver and difftool give it ---------------- */

static const char *base_of(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

/* The entry the file PATH (a repository path, from the top: where git runs
 * its drivers) belongs to: its folder in the working tree, else at the
 * newest commit that has the blob HEX at PATH. *where tells which (caller
 * frees). NULL when there is none. */
static sl_entry *context_entry(const char *path, const char *hex, char **where)
{
	sl_entry *e = NULL;
	sl_error err = {0};
	char *owner = sl_entry_input_owner(path);
	if (owner && !sl_entry_load(owner, &e, &err))
		*where = sl_strdup("in the working tree");
	free(owner);
	sl_error_clear(&err);
	char id[SL_GIT_ID_SIZE];
	if (!e && hex && sl_git_find_blob(path, hex, id)) {
		sl_buf spec = {0};
		sl_buf_printf(&spec, "%s:%s", id, path);
		char *dir = sl_entry_input_owner_git(spec.data);
		if (dir && !sl_entry_from_git(dir, &e, &err)) {
			sl_entry_rename(e, strchr(dir, ':') + 1);
			sl_buf w = {0};
			sl_buf_printf(&w, "as at commit %.12s", id);
			*where = sl_buf_detach(&w);
		}
		free(dir);
		sl_buf_free(&spec);
		sl_error_clear(&err);
	}
	return e;
}

/* Puts the text of FILE in e's place for its file named BASE (the script,
 * or a YAML file), under the same name. 0, or -1. */
static int swap_in(sl_entry *e, const char *base, const char *file)
{
	sl_source **slot = NULL;
	if (e->script && !strcmp(e->script->name, base))
		slot = &e->script;
	if (e->metadata && !strcmp(e->metadata->name, base))
		slot = &e->metadata;
	for (size_t i = 0; i < e->nfiles && !slot; i++)
		if (!strcmp(e->files[i]->name, base))
			slot = &e->files[i];
	sl_source *s = NULL;
	sl_error err = {0};
	if (!slot || sl_source_load(file, &s, &err)) {
		sl_error_clear(&err);
		return -1;
	}
	free(s->path);
	free(s->name);
	s->path = sl_strdup((*slot)->path);
	s->name = sl_strdup((*slot)->name);
	sl_source_free(*slot);
	*slot = s;
	return 0;
}

/* One model of an entry: its first variant; no service is an error. */
static int first_model(const sl_entry *e, const sl_grammars *gs, sl_model **out, sl_error *err)
{
	sl_model **ms = NULL;
	size_t n = 0;
	*out = NULL;
	if (sl_entry_models(e, gs, NULL, 0, &ms, &n, err))
		return -1;
	*out = ms[0];
	for (size_t i = 1; i < n; i++)
		sl_model_free(ms[i]);
	free(ms);
	return 0;
}

/* The two versions FA and FB of a file (PATH before, NEWPATH after) diffed
 * as part of its entry, whose other files are read once for both sides
 * (context_entry), so what shows is the file's change and only it. 0 with
 * the diff printed (*differ set), 1 when the file has no entry to be part
 * of, -1 when a side cannot be read (*why says why). */
static int diff_in_entry(const char *path, const char *newpath, const char *fa, const char *fb, const char *hexa,
			 const char *hexb, const char *format, const sl_diff_opts *o, int color, int *differ,
			 char *why, size_t nwhy)
{
	char *where = NULL;
	const char *at = newpath, *hex = hexb;
	sl_entry *ea = NULL, *eb = context_entry(newpath, hexb, &where);
	if (!eb) {
		at = path;
		hex = hexa;
		eb = context_entry(path, hexa, &where);
	}
	if (!eb)
		return 1;
	char *where_a = NULL;
	ea = context_entry(at, hex, &where_a);
	free(where_a);
	int rc = -1;
	sl_error err = {0};
	sl_grammars *gs = NULL;
	sl_model *ma = NULL, *mb = NULL;
	if (!ea || swap_in(ea, base_of(at), fa) || swap_in(eb, base_of(at), fb)) {
		snprintf(why, nwhy, "its entry %s cannot take this version of it", eb->path);
	} else if (sl_normalize_grammars_load(&gs, &err) || first_model(ea, gs, &ma, &err) ||
		   first_model(eb, gs, &mb, &err)) {
		snprintf(why, nwhy, "cannot be read as part of its entry %s: %s:%u:%u: %s", eb->path,
			 err.file ? err.file : "-", err.line, err.col, err.msg ? err.msg : "");
	} else {
		sl_diff d;
		sl_diff_models(ma, mb, o, &d);
		sl_buf na = {0}, nb = {0};
		sl_buf_printf(&na, "a/%s", path);
		sl_buf_printf(&nb, "b/%s", newpath);
		printf("servelint diff %s %s\nnote: compared as part of its entry %s (its other files %s)\n", na.data,
		       nb.data, eb->path, where);
		rc = sl_report_diff(stdout, format, &d, na.data, nb.data, color) ? -2 : 0;
		*differ = !sl_diff_equal(&d);
		sl_diff_free(&d);
		sl_buf_free(&na);
		sl_buf_free(&nb);
	}
	sl_error_clear(&err);
	sl_model_free(ma);
	sl_model_free(mb);
	sl_entry_free(ea);
	sl_entry_free(eb);
	sl_normalize_grammars_free(gs);
	free(where);
	return rc;
}

/* git's external diff protocol (GIT_EXTERNAL_DIFF, diff.<driver>.command):
 * PATH OLD-FILE OLD-HEX OLD-MODE NEW-FILE NEW-HEX NEW-MODE [NEW-PATH
 * HEADER] (the last two for a rename; see git's diff docs). A file of an
 * entry (its script, or a YAML file it names) is compared semantically as
 * part of that entry; a launch script of no entry folder alone; anything
 * else (a YAML file of no entry, an added or deleted file, a side that
 * cannot be read) gets a plain line diff with a note saying why. Exits 0
 * unless writing fails: git stops at a driver's non-zero exit. */
static int git_driver(char **a, int renamed, const char *format, const sl_diff_opts *o, int color)
{
	/* a rename adds NEW-PATH and git's extended header lines */
	const char *path = a[0], *fa = a[1], *fb = a[4], *newpath = renamed ? a[7] : a[0];
	sl_buf na = {0}, nb = {0};
	sl_buf_printf(&na, "a/%s", path);
	sl_buf_printf(&nb, "b/%s", newpath);
	const char *why = NULL;
	char whybuf[1024];
	int rc = SL_EXIT_OK, differ = 0, in;
	/* the files git hands over must be there: a missing one is git's
	 * failure (or a driver misused), an error, not a diff of nothing */
	for (int k = 0; k < 2; k++) {
		const char *f = k ? fb : fa;
		struct stat st;
		if (!strcmp(f, "/dev/null"))
			continue;
		int gone = stat(f, &st) != 0;
		if (gone || !S_ISREG(st.st_mode)) {
			fprintf(stderr, "servelint diff: %s: cannot read %s: %s\n", path, f,
				gone ? strerror(errno) : "not a regular file");
			sl_buf_free(&na);
			sl_buf_free(&nb);
			return SL_EXIT_ERROR;
		}
	}
	if (!strcmp(fa, "/dev/null") || !strcmp(fb, "/dev/null")) {
		why = !strcmp(fa, "/dev/null") ? "a new file" : "a deleted file";
	} else if ((in = diff_in_entry(path, newpath, fa, fb, a[2], a[5], format, o, color, &differ, whybuf,
				       sizeof whybuf)) != 1) {
		why = in == -1 ? whybuf : NULL;
		rc = in == -2 ? SL_EXIT_ERROR : SL_EXIT_OK;
	} else if (!ends_with(path, ".sh")) {
		why = "not a file of an entry (no launch script names it, in the working tree or in a commit that has this version of it)";
	} else {
		sl_error err = {0};
		sl_grammars *gs = NULL;
		sl_entry *ea = NULL, *eb = NULL;
		sl_model *ma = NULL, *mb = NULL;
		if (sl_normalize_grammars_load(&gs, &err) || sl_entry_load(fa, &ea, &err) ||
		    first_model(ea, gs, &ma, &err) || sl_entry_load(fb, &eb, &err) ||
		    first_model(eb, gs, &mb, &err)) {
			snprintf(whybuf, sizeof whybuf, "cannot be read as an entry: %s", err.msg);
			why = whybuf;
			sl_error_clear(&err);
		} else {
			sl_diff d;
			sl_diff_models(ma, mb, o, &d);
			printf("servelint diff %s %s\n", na.data, nb.data);
			if (sl_report_diff(stdout, format, &d, na.data, nb.data, color))
				rc = SL_EXIT_ERROR;
			sl_diff_free(&d);
		}
		sl_model_free(ma);
		sl_model_free(mb);
		sl_entry_free(ea);
		sl_entry_free(eb);
		sl_normalize_grammars_free(gs);
	}
	if (why) {
		size_t la = 0, lb = 0;
		char *ta = slurp(fa, &la), *tb = slurp(fb, &lb), *patch = NULL;
		int same_text = ta && tb && la == lb && !memcmp(ta, tb, la);
		printf("servelint diff %s %s\nnote: %s; %s\n", na.data, nb.data, why,
		       same_text ? "the text is the same" : "a line diff follows");
		if (same_text)
			;
		else if (ta && tb && !sl_git_line_diff(ta, la, path, tb, lb, newpath, &patch))
			fputs(patch, stdout);
		else
			fprintf(stderr, "servelint: %s: cannot read %s or %s\n", path, fa, fb);
		free(patch);
		free(ta);
		free(tb);
	}
	sl_buf_free(&na);
	sl_buf_free(&nb);
	if (fflush(stdout) || ferror(stdout))
		rc = SL_EXIT_ERROR;
	return rc;
}

/* `git difftool --extcmd 'servelint diff'` gives two files and exports
 * BASE, the path in the working tree: a file of an entry is compared as
 * part of it. -1 when it is not that (the two files are diffed as they
 * are); else the exit status. */
static int difftool(const char *fa, const char *fb, const char *format, const sl_diff_opts *o, int exit_code,
		    int color)
{
	const char *base = getenv("BASE");
	struct stat st;
	if (!base || !*base || *base == '/' || !ends_with(base_of(fa), base_of(base)) ||
	    !ends_with(base_of(fb), base_of(base)) || stat(fa, &st) || !S_ISREG(st.st_mode) || stat(fb, &st) ||
	    !S_ISREG(st.st_mode))
		return -1;
	/* the files' blob ids find the commits they are of, when the entry is
	 * not in the working tree */
	char why[1024], ha[SL_GIT_ID_SIZE], hb[SL_GIT_ID_SIZE];
	int differ = 0, in = diff_in_entry(base, base, fa, fb, sl_git_hash_file(fa, ha) ? NULL : ha,
					   sl_git_hash_file(fb, hb) ? NULL : hb, format, o, color, &differ, why, sizeof why);
	if (in == 1)
		return -1;
	if (in == -1) {
		fprintf(stderr, "servelint: %s: %s\n", base, why);
		return SL_EXIT_ERROR;
	}
	if (in == -2 || fflush(stdout))
		return SL_EXIT_ERROR;
	return exit_code && differ ? SL_EXIT_FINDINGS : SL_EXIT_OK;
}

/* A revision, not a file: no such path, no colon, and git knows it. */
static int is_rev(const char *s)
{
	struct stat st;
	return strcmp(s, "-") && !strchr(s, ':') && stat(s, &st) != 0 && sl_git_is_revision(s);
}

int sl_cmd_diff(int argc, char **argv)
{
	static const struct option opts[] = {
		SL_OPTS_COMMON,
		{"format", required_argument, NULL, 'f'},
		{"exit-code", no_argument, NULL, 'x'},
		{"quiet", no_argument, NULL, 'q'},
		{"ignore", required_argument, NULL, 'i'},
		{"only", required_argument, NULL, 'O'},
		{"color", required_argument, NULL, 'C'},
		{"set", required_argument, NULL, 's'},
		{"variant", required_argument, NULL, 'V'},
		{"stats", no_argument, NULL, 'S'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	static sl_binds binds;   /* --set, for both sides; static: reachable on every return */
	unsigned variant[2] = {0, 0};  /* --variant: for A, then for B (one: both) */
	size_t nvariant = 0;
	const char *format = "tty";
	int exit_code = 0, color = -1, stats = 0, quiet = 0, c;
	sl_key_globs keys = {0};
	/* `-- PATHSPEC...` is kept from getopt: it only limits REV REV */
	char **ps = NULL;
	size_t nps = 0;
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--")) {
			ps = argv + i + 1;
			nps = (size_t)(argc - i - 1);
			argc = i;
			break;
		}
	optind = 1;
	while ((c = getopt_long(argc, argv, "f:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (strcmp(optarg, "tty") && strcmp(optarg, "json") && strcmp(optarg, "markdown")) {
				fprintf(stderr, "servelint diff: unknown format `%s` (tty, json, markdown)\n", optarg);
				return SL_EXIT_USAGE;
			}
			format = optarg;
			break;
		case 'x': exit_code = 1; break;
		case 'q': quiet = exit_code = 1; break;
		case 's':
			if (sl_binds_take(&binds, optarg, "diff"))
				return SL_EXIT_USAGE;
			break;
		case 'V': {
			char *end;
			unsigned long v = strtoul(optarg, &end, 10);
			if (*end || v == 0 || v > SL_MAX_VARIANTS || nvariant == 2) {
				fprintf(stderr, "servelint diff: --variant takes a number from 1 to %d, at most twice\n",
					SL_MAX_VARIANTS);
				return SL_EXIT_USAGE;
			}
			variant[nvariant++] = (unsigned)v;
			break;
		}
		case 'S': stats = 1; break;
		case 'i':
		case 'O':
			if (sl_key_globs_take(&keys, c, optarg, "diff") < 0)
				return SL_EXIT_USAGE;
			break;
		case 'C':
			if (sl_opt_color("diff", optarg, &color))
				return SL_EXIT_USAGE;
			break;
		case SL_OPT_VERSION: return sl_cmd_version();
		case 'h': usage(stdout); return SL_EXIT_OK;
		default: usage(stderr); return SL_EXIT_USAGE;
		}
	}
	color = sl_color_resolve(color);
	if (quiet && sl_opt_quiet())
		return SL_EXIT_ERROR;
	if ((argc - optind == 7 || argc - optind == 9) && !ps) {
		sl_diff_opts o = sl_key_globs_opts(&keys);
		return git_driver(argv + optind, argc - optind == 9, format, &o, color);
	}
	int one_rev = argc - optind == 1 && is_rev(argv[optind]);
	if (argc - optind != 2 && !one_rev) {
		fprintf(stderr, "servelint diff: two entries are needed, or one or two revisions\n");
		usage(stderr);
		return SL_EXIT_USAGE;
	}
	const char *na = argv[optind], *nb = one_rev ? NULL : argv[optind + 1];
	if (one_rev || (is_rev(na) && is_rev(nb))) {
		/* REV alone: against the working tree, as `git diff REV` */
		/* pathspecs are from the current folder, as git takes them */
		char **rel = sl_calloc(nps + 1, sizeof *rel);
		for (size_t i = 0; i < nps; i++)
			rel[i] = sl_git_path_from_cwd(ps[i]);
		int rc = diff_revisions(na, nb, rel, nps, format, &keys, exit_code, color, stats);
		for (size_t i = 0; i < nps; i++)
			free(rel[i]);
		free(rel);
		return rc;
	}
	if (ps) {
		fprintf(stderr, "servelint diff: `-- PATHSPEC` needs two revisions\n");
		return SL_EXIT_USAGE;
	}
	sl_diff_opts dto = sl_key_globs_opts(&keys);
	int dt = difftool(na, nb, format, &dto, exit_code, color);
	if (dt >= 0)
		return dt;
	if (!strcmp(na, "-") && !strcmp(nb, "-")) {
		fprintf(stderr, "servelint diff: only one side can be standard input\n");
		return SL_EXIT_USAGE;
	}
	/* a side that is neither a file nor REV:path nor a revision: say both
	 * (`v9.9` may be a tag that is not there) */
	for (int k = 0; k < 2; k++) {
		const char *side = k ? nb : na;
		struct stat st;
		if (strcmp(side, "-") && !strchr(side, ':') && stat(side, &st) != 0 && !is_rev(side)) {
			fprintf(stderr, "servelint diff: %s: no such file, and not a revision git knows here\n", side);
			return SL_EXIT_ERROR;
		}
	}
	for (int k = 0; k < 2; k++) {
		const char *side = k ? nb : na;
		size_t n = sl_entry_input_count(side);
		if (n > 1) {
			fprintf(stderr,
				"servelint diff: %s holds %zu entries; diff two entries (`servelint import` makes a folder of each), or put a page's entries side by side with `servelint matrix`\n",
				side, n);
			return SL_EXIT_ERROR;
		}
	}
	sl_error err = {0};
	sl_grammars *gs = NULL;
	sl_entry *ea = NULL, *eb = NULL;
	sl_model *ma = NULL, *mb = NULL;
	int rc = SL_EXIT_OK;
	if (sl_normalize_grammars_load(&gs, &err) || sl_entry_input_load_one(na, &ea, &err) ||
	    sl_entry_model_one(ea, gs, &binds, variant[0], &ma, &err) || sl_entry_input_load_one(nb, &eb, &err) ||
	    sl_entry_model_one(eb, gs, &binds, nvariant > 1 ? variant[1] : variant[0], &mb, &err)) {
		sl_error_print(&err, "servelint");
		sl_error_clear(&err);
		rc = SL_EXIT_ERROR;
	} else {
		sl_diff_opts o = sl_key_globs_opts(&keys);
		sl_diff d;
		const sl_model *both[] = {ma, mb};
		sl_key_globs_warn(&keys, both, 2, "diff");
		sl_diff_models(ma, mb, &o, &d);
		/* a variant of a script is named with what it assumes */
		sl_buf la = {0}, lb = {0};
		sl_buf_puts(&la, na);
		sl_buf_puts(&lb, nb);
		if (ma->variant)
			sl_buf_printf(&la, " [variant %u: %s]", ma->variant_index, ma->variant);
		if (mb->variant)
			sl_buf_printf(&lb, " [variant %u: %s]", mb->variant_index, mb->variant);
		if (sl_report_diff(stdout, format, &d, la.data, lb.data, color) || fflush(stdout))
			rc = SL_EXIT_ERROR;
		else if (exit_code && !sl_diff_equal(&d))
			rc = SL_EXIT_FINDINGS;
		sl_buf_free(&la);
		sl_buf_free(&lb);
		sl_diff_free(&d);
	}
	sl_model_free(ma);
	sl_model_free(mb);
	sl_entry_free(ea);
	sl_entry_free(eb);
	sl_normalize_grammars_free(gs);
	return rc;
}
