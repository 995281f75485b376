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
	fputs("usage: servelint diff [--format tty|json|markdown] [--exit-code]\n"
	      "                      [--ignore KEY-GLOB]... [--only KEY-GLOB]... A B\n"
	      "       servelint diff [OPTIONS] REV1 REV2 [-- PATHSPEC...]\n"
	      "\n"
	      "The semantic difference of two entries: services paired by role, each\n"
	      "difference as canonical key, old and new value and both places. Flag order,\n"
	      "aliases, `=` or space, wrapping, JSON member order and YAML style never show;\n"
	      "a default written out on one side only shows as an explicit default.\n"
	      "A and B: entry folders or files, - for standard input, or REV:path from the\n"
	      "git repository around the current directory (read without a checkout).\n"
	      "With two revisions: every entry whose files differ between them, as\n"
	      "changed (with its diff), reformatted only, added, removed or renamed.\n"
	      "\n"
	      "  -f, --format FORMAT   tty (default), json, markdown (for a pull request)\n"
	      "      --exit-code       exit 1 when the entries differ\n"
	      "      --ignore GLOB     leave out keys matching GLOB (repeatable)\n"
	      "      --only GLOB       only keys matching GLOB (repeatable)\n"
	      "      --set NAME=VALUE  a value for a variable the scripts leave unknown, on both\n"
	      "                        sides (repeatable; A and B only)\n"
	      "      --variant N       the variant of a script with an undecided if/case: once\n"
	      "                        for both sides, twice for A then B (A and B only)\n"
	      "      --color WHEN      auto (default), always, never\n"
	      "      --stats           with two revisions: tell on stderr how many entries\n"
	      "                        were looked up and parsed (each object id once)\n",
	      f);
}

/* `diff REV1 REV2 [-- PATHSPEC...]`: every entry touched between them. */
static int diff_revisions(const char *r1, const char *r2, char *const *ps, size_t nps, const char *format,
			  const sl_diff_opts *o, int exit_code, int color, int stats)
{
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
		fprintf(stdout, "### servelint diff %s %s\n\n", r1, r2);
	for (size_t i = 0; i < nt && rc == SL_EXIT_OK; i++) {
		if (!ts[i].in_old && !ts[i].in_new)
			continue;
		sl_touched_cmp cmp;
		int st = sl_diff_touched_compare(r1, r2, &ts[i], cache, o, &cmp, &err);
		if (st < 0) {
			sl_error_print(&err, "servelint");
			sl_error_clear(&err);
			rc = SL_EXIT_ERROR;
		} else {
			count[st]++;
			differ |= st != 1 && st != 5; /* a move is a change */
			if (json) {
				json_t *e = json_pack("{s:s, s:s}", "status", sl_diff_touched_status[st], "path",
						      st == 2 ? ts[i].new_path : ts[i].old_path);
				if (st >= 4)
					json_object_set_new(e, "new_path", json_string(ts[i].new_path));
				if (st == 0 || st == 4)
					json_object_set_new(e, "diff", sl_report_diff_json(&cmp.diff, cmp.na, cmp.nb));
				json_array_append_new(entries, e);
			} else {
				sl_report_touched(&cmp, &ts[i], md, color);
			}
		}
		sl_diff_touched_free(&cmp);
	}
	if (rc == SL_EXIT_OK) {
		size_t total = count[0] + count[1] + count[2] + count[3] + count[4] + count[5] + count[6];
		if (json) {
			json_t *doc = json_pack("{s:s, s:s, s:o}", "from", r1, "to", r2, "entries", entries);
			entries = NULL;
			if (json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15)))
				rc = SL_EXIT_ERROR;
			fputc('\n', stdout);
			json_decref(doc);
		} else {
			fprintf(stdout, "%s%zu entr%s touched: %zu changed, %zu reformatted only, %zu added, %zu removed, %zu renamed\n",
				md ? "\n" : "", total, total == 1 ? "y" : "ies", count[0], count[1], count[2], count[3],
				count[4] + count[5] + count[6]);
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

/* git's external diff protocol (GIT_EXTERNAL_DIFF, diff.<driver>.command):
 * PATH OLD-FILE OLD-HEX OLD-MODE NEW-FILE NEW-HEX NEW-MODE [NEW-PATH
 * HEADER] (the last two for a rename; see git's diff docs). A launch
 * script on both sides is compared semantically; anything else (a YAML
 * file alone, an added or deleted file, a side that cannot be read as an
 * entry) gets a plain line diff with a note saying why. Exits 0 unless
 * writing fails: git stops at a driver's non-zero exit. */
static int git_driver(char **a, int renamed, const char *format, const sl_diff_opts *o, int color)
{
	/* a rename adds NEW-PATH and git's extended header lines */
	const char *path = a[0], *fa = a[1], *fb = a[4], *newpath = renamed ? a[7] : a[0];
	sl_buf na = {0}, nb = {0};
	sl_buf_printf(&na, "a/%s", path);
	sl_buf_printf(&nb, "b/%s", newpath);
	const char *why = NULL;
	char whybuf[512];
	int rc = SL_EXIT_OK;
	if (!strcmp(fa, "/dev/null") || !strcmp(fb, "/dev/null")) {
		why = !strcmp(fa, "/dev/null") ? "a new file" : "a deleted file";
	} else if (!ends_with(path, ".sh")) {
		why = "not a launch script (its entry is compared as a whole by `servelint diff REV1 REV2`)";
	} else {
		sl_error err = {0};
		sl_grammars *gs = NULL;
		sl_entry *ea = NULL, *eb = NULL;
		sl_model *ma = NULL, *mb = NULL;
		if (sl_normalize_grammars_load(&gs, &err) || sl_entry_load(fa, &ea, &err) ||
		    sl_normalize_entry(ea, gs, &ma, &err) || sl_entry_load(fb, &eb, &err) ||
		    sl_normalize_entry(eb, gs, &mb, &err)) {
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

/* A revision, not a file: no such path, no colon, and git knows it. */
static int is_rev(const char *s)
{
	struct stat st;
	return strcmp(s, "-") && !strchr(s, ':') && stat(s, &st) != 0 && sl_git_is_revision(s);
}

int sl_cmd_diff(int argc, char **argv)
{
	static const struct option opts[] = {
		{"format", required_argument, NULL, 'f'},
		{"exit-code", no_argument, NULL, 'x'},
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
	int exit_code = 0, color = -1, stats = 0, c;
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
	while ((c = getopt_long(argc, argv, "f:h", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (strcmp(optarg, "tty") && strcmp(optarg, "json") && strcmp(optarg, "markdown")) {
				fprintf(stderr, "servelint diff: unknown format `%s` (tty, json, markdown)\n", optarg);
				return 3;
			}
			format = optarg;
			break;
		case 'x': exit_code = 1; break;
		case 's':
			if (sl_binds_take(&binds, optarg, "diff"))
				return 3;
			break;
		case 'V': {
			char *end;
			unsigned long v = strtoul(optarg, &end, 10);
			if (*end || v == 0 || v > SL_MAX_VARIANTS || nvariant == 2) {
				fprintf(stderr, "servelint diff: --variant takes a number from 1 to %d, at most twice\n",
					SL_MAX_VARIANTS);
				return 3;
			}
			variant[nvariant++] = (unsigned)v;
			break;
		}
		case 'S': stats = 1; break;
		case 'i':
		case 'O':
			if (sl_key_globs_take(&keys, c, optarg, "diff") < 0)
				return 3;
			break;
		case 'C':
			if ((color = sl_color_parse(optarg)) == -2) {
				fprintf(stderr, "servelint diff: --color takes auto, always or never\n");
				return 3;
			}
			break;
		case 'h': usage(stdout); return SL_EXIT_OK;
		default: usage(stderr); return 3;
		}
	}
	color = sl_color_resolve(color);
	if ((argc - optind == 7 || argc - optind == 9) && !ps) {
		sl_diff_opts o = sl_key_globs_opts(&keys);
		return git_driver(argv + optind, argc - optind == 9, format, &o, color);
	}
	if (argc - optind != 2) {
		fprintf(stderr, "servelint diff: two entries are needed\n");
		usage(stderr);
		return 3;
	}
	const char *na = argv[optind], *nb = argv[optind + 1];
	if (is_rev(na) && is_rev(nb)) {
		sl_diff_opts o = sl_key_globs_opts(&keys);
		return diff_revisions(na, nb, ps, nps, format, &o, exit_code, color, stats);
	}
	if (ps) {
		fprintf(stderr, "servelint diff: `-- PATHSPEC` needs two revisions\n");
		return 3;
	}
	if (!strcmp(na, "-") && !strcmp(nb, "-")) {
		fprintf(stderr, "servelint diff: only one side can be standard input\n");
		return 3;
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
