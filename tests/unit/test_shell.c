/* test_shell.c: the shell layer (parse stage) on the forms the corpus uses. */
#include "helpers.h"
#include "parse/parse.h"
#include "parse/shell/internal.h" /* sh_symbols_init, sh_sym */

static sl_script *parse_ok(sl_entry *e)
{
	sl_script *s = NULL;
	sl_error err = {0};
	int rc = sl_shell_parse(e->script, &s, &err);
	if (rc)
		fprintf(stderr, "unexpected error: %s:%u:%u: %s\n", err.file, err.line, err.col, err.msg);
	assert_int_equal(rc, 0);
	sl_error_clear(&err);
	return s;
}

static void test_quotes_and_expansion(void **st)
{
	(void)st;
	sl_entry *e = entry_from("X=1\ncmd 'a b' \"c $X\" d\\ e ${X} ${NOPE:-dflt} $UNSET\n");
	sl_script *s = parse_ok(e);
	assert_int_equal(s->ncmds, 1);
	sl_command *c = &s->cmds[0];
	assert_int_equal(c->argc, 7);
	assert_string_equal(c->argv[1].text, "a b");
	assert_true(c->argv[1].flags & SL_WORD_QUOTED);
	assert_string_equal(c->argv[2].text, "c 1");
	assert_string_equal(c->argv[3].text, "d e");
	assert_string_equal(c->argv[4].text, "1");
	assert_string_equal(c->argv[5].text, "dflt");
	assert_string_equal(c->argv[6].text, "$UNSET");
	assert_true(c->argv[6].flags & SL_WORD_SYMBOLIC);
	/* the value of $X points at the assignment, not at the use */
	assert_string_equal(pos_of(e->script, c->argv[4].offs[0]), "1:3");
	assert_int_equal(s->nassigns, 1);
	sl_script_free(s);
	sl_entry_free(e);
}


/* Blanks between two expansions in a double-quoted string are the
 * string's: tree-sitter-bash puts them into the second expansion's `$`
 * token ("$A $C" has no string_content), and they were lost ("ab"). */
static void test_blanks_between_expansions(void **st)
{
	(void)st;
	sl_entry *e = entry_from("A=a\nC=b\nX=\"$A $C\"\n"
				 "cmd \"$A $C\" \"$A ${C}\t$((1 + 2)) $(f)\" \"$X\" \"$U $V\" \"$A\n$C\"\n");
	sl_script *s = parse_ok(e);
	sl_command *c = &s->cmds[0];
	assert_int_equal(c->argc, 6);
	assert_string_equal(c->argv[1].text, "a b");
	assert_string_equal(c->argv[2].text, "a b\t3 $(f)");
	assert_string_equal(c->argv[3].text, "a b");
	/* unknown: as written, one blank */
	assert_string_equal(c->argv[4].text, "$U $V");
	assert_string_equal(c->argv[5].text, "a\nb");
	/* $C's value points at its assignment, the blank at the string */
	assert_string_equal(pos_of(e->script, c->argv[1].offs[2]), "2:3");
	assert_string_equal(pos_of(e->script, c->argv[1].offs[1]), "4:8");
	sl_script_free(s);
	sl_entry_free(e);
}

/* Unquoted expansions split into words, each keeping the offsets where its
 * bytes are written; quoted ones do not; an unquoted empty one vanishes. */
static void test_word_splitting(void **st)
{
	(void)st;
	sl_entry *e = entry_from("ARGS=\"--a 1  --b\"\nE=\"\"\ncmd $ARGS \"$ARGS\" $E x\n");
	sl_script *s = parse_ok(e);
	sl_command *c = &s->cmds[0];
	assert_int_equal(c->argc, 6);
	assert_string_equal(c->argv[1].text, "--a");
	assert_string_equal(c->argv[2].text, "1");
	assert_string_equal(c->argv[3].text, "--b");
	assert_string_equal(c->argv[4].text, "--a 1  --b");
	assert_string_equal(c->argv[5].text, "x");
	/* --b is written on line 1, column 14 */
	assert_string_equal(pos_of(e->script, c->argv[3].start), "1:14");
	sl_script_free(s);
	sl_entry_free(e);
}

static void test_arrays(void **st)
{
	(void)st;
	sl_entry *e = entry_from("M=org/m\nCMD=( vllm serve \"$M\" --tp 8 )\nCMD+=( \"--x y\" )\n"
				 "\"${CMD[@]}\" ${#CMD[@]} ${CMD[1]} \"${CMD[*]}\"\n");
	sl_script *s = parse_ok(e);
	assert_int_equal(s->ncmds, 1);
	sl_command *c = &s->cmds[0];
	assert_int_equal(c->argc, 9);
	assert_string_equal(c->argv[0].text, "vllm");
	assert_string_equal(c->argv[2].text, "org/m");
	/* a whole element keeps its own place in the array */
	assert_string_equal(pos_of(e->script, c->argv[2].start), "2:18");
	assert_string_equal(c->argv[5].text, "--x y");
	assert_string_equal(c->argv[6].text, "6");
	assert_string_equal(c->argv[7].text, "serve");
	assert_string_equal(c->argv[8].text, "vllm serve org/m --tp 8 --x y");
	sl_script_free(s);
	sl_entry_free(e);
}

static void test_arithmetic_and_defaults(void **st)
{
	(void)st;
	sl_entry *e = entry_from("TP=4\nN=${N:-2}\n: ${Z:=7}\n"
				 "cmd $((TP * 64)) $(( (TP + N) % 4 )) $((CONC * 2)) $((1 << 4)) ${TP:+on} ${U:+on} $Z\n");
	sl_script *s = parse_ok(e);
	sl_command *c = &s->cmds[1];
	assert_int_equal(c->argc, 8);
	assert_string_equal(c->argv[1].text, "256");
	assert_string_equal(c->argv[2].text, "2");
	assert_string_equal(c->argv[3].text, "$((CONC * 2))");
	assert_true(c->argv[3].flags & SL_WORD_SYMBOLIC);
	assert_string_equal(c->argv[4].text, "16");
	assert_string_equal(c->argv[5].text, "on");
	assert_string_equal(c->argv[6].text, "${U:+on}");
	assert_true(c->argv[6].flags & SL_WORD_SYMBOLIC);
	assert_string_equal(c->argv[7].text, "7");
	/* inputs: N (default used), CONC and U unknown */
	assert_int_equal(s->ninputs, 4);
	assert_string_equal(s->inputs[0].name, "N");
	assert_true(s->inputs[0].defaulted);
	sl_script_free(s);
	sl_entry_free(e);
}

static void test_set_bindings(void **st)
{
	(void)st;
	char *names[] = {"CONC", "TP", "CC"}, *values[] = {"32", "2", "10.0"};
	sl_binds b = {names, values, 3};
	sl_entry *e = entry_from("TP=8\nCC=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader)\n"
				 "cmd $((CONC / 2)) $TP $CC ${CONC}\n");
	sl_script *s = NULL;
	sl_error err = {0};
	sl_shell_opts o = {&b, NULL, 0, NULL, 0, NULL, NULL, 0};
	assert_int_equal(sl_shell_parse_with(e->script, &o, &s, &err), 0);
	sl_command *c = &s->cmds[0];
	assert_string_equal(c->argv[1].text, "16");
	assert_true(c->argv[1].flags & SL_WORD_BOUND);
	/* what the script knows is not replaced */
	assert_string_equal(c->argv[2].text, "8");
	assert_false(c->argv[2].flags & SL_WORD_BOUND);
	/* what it cannot know is */
	assert_string_equal(c->argv[3].text, "10.0");
	assert_string_equal(c->argv[4].text, "32");
	sl_script_free(s);
	sl_entry_free(e);
}

static void test_heredocs(void **st)
{
	(void)st;
	sl_entry *e = entry_from("TP=8\ncat > /tmp/c.yaml <<EOF\ntp: $TP\nq: \\$HOME \"x\"\nEOF\n"
				 "cat <<'END' > d.yaml\nraw: $TP\nEND\ncat <<EOF\nnot: a file\nEOF\n");
	sl_script *s = parse_ok(e);
	assert_int_equal(s->nheredocs, 2);
	assert_string_equal(s->heredocs[0].target, "/tmp/c.yaml");
	assert_string_equal(s->heredocs[0].body.text, "tp: 8\nq: $HOME \"x\"\n");
	assert_string_equal(pos_of(e->script, s->heredocs[0].body_start), "3:1");
	assert_string_equal(s->heredocs[1].target, "d.yaml");
	assert_string_equal(s->heredocs[1].body.text, "raw: $TP\n");
	assert_false(s->heredocs[1].symbolic);
	sl_script_free(s);
	sl_entry_free(e);
}

/* Bash lets a redirection stand anywhere among a command's words and ends
 * it at its target; every word that is not part of one is an argument, in
 * order (tree-sitter-bash puts the words after a target into the
 * redirection). Each form in the middle of the words and at their end. */
static void test_redirect_words(void **st)
{
	(void)st;
	static const char *const forms[] = {
		"> out.log", ">> out.log", "2>&1", "&> out.log", "&>> out.log", "< /dev/null", "<<< \"text\"",
		"3>&2", ">| out.log", "2> err.log", "2>/dev/null", "1> out.log", "2> >(tee err)",
	};
	for (size_t i = 0; i < sizeof forms / sizeof *forms; i++) {
		char text[256];
		/* in the middle, then at the end, then both (two redirections) */
		snprintf(text, sizeof text, "TP=2\nvllm serve m %s --port 8000 --tp $TP\n"
			 "vllm serve m --port 8000 --tp $TP %s\nvllm serve m %s --port 8000 2>&1 --tp $TP &\n",
			 forms[i], forms[i], forms[i]);
		sl_entry *e = entry_from(text);
		sl_script *s = parse_ok(e);
		assert_int_equal(s->ncmds, 3);
		for (size_t k = 0; k < 3; k++) {
			const sl_command *c = &s->cmds[k];
			if (c->argc != 7)
				fprintf(stderr, "form `%s`, line %zu: %zu words\n", forms[i], k + 2, c->argc);
			assert_int_equal(c->argc, 7);
			assert_string_equal(c->argv[2].text, "m");
			assert_string_equal(c->argv[3].text, "--port");
			assert_string_equal(c->argv[4].text, "8000");
			assert_string_equal(c->argv[5].text, "--tp");
			assert_string_equal(c->argv[6].text, "2");
		}
		/* --port, after the redirection, where it is written */
		char at[32];
		snprintf(at, sizeof at, "2:%zu", strlen("vllm serve m ") + strlen(forms[i]) + 2);
		assert_string_equal(pos_of(e->script, s->cmds[0].argv[3].start), at);
		assert_true(s->cmds[2].background);
		sl_script_free(s);
		sl_entry_free(e);
	}
	/* before the command's name; the words on a here-document's line and
	 * after a redirection written there; the document still a file */
	sl_entry *e = entry_from("> a.log vllm serve m --port 1\n"
				 "vllm serve m <<EOF --port 2 --tp 4\nbody\nEOF\n"
				 "vllm serve m <<EOF 2>&1 --port 2 --tp 4\nbody\nEOF\n"
				 "cat <<EOF > c.yaml\ntp: 8\nEOF\n"
				 "vllm serve m 2>&1 --port 3 | tee x.log\n");
	sl_script *s = parse_ok(e);
	assert_int_equal(s->ncmds, 6);
	assert_int_equal(s->cmds[0].argc, 5);
	assert_string_equal(s->cmds[0].argv[3].text, "--port");
	for (size_t k = 1; k <= 2; k++) {
		assert_int_equal(s->cmds[k].argc, 7);
		assert_string_equal(s->cmds[k].argv[3].text, "--port");
		assert_string_equal(s->cmds[k].argv[4].text, "2");
		assert_string_equal(s->cmds[k].argv[5].text, "--tp");
		assert_string_equal(s->cmds[k].argv[6].text, "4");
	}
	assert_string_equal(pos_of(e->script, s->cmds[1].argv[5].start), "2:29");
	assert_string_equal(pos_of(e->script, s->cmds[2].argv[5].start), "5:34");
	assert_int_equal(s->nheredocs, 1);
	assert_string_equal(s->heredocs[0].target, "c.yaml");
	assert_int_equal(s->cmds[3].argc, 1);
	assert_int_equal(s->cmds[4].argc, 5);
	assert_string_equal(s->cmds[4].argv[4].text, "3");
	assert_string_equal(s->cmds[5].argv[0].text, "tee");
	sl_script_free(s);
	sl_entry_free(e);
}

static void test_script_errors(void **st)
{
	(void)st;
	static const struct { const char *text, *want; } cases[] = {
		{"A=B\nB=A\necho $((A))\n", "3:9"},
		{"X=( a b\n", "1:8"},
		{"cat > f <<EOF\nx: 1\n", "3:1"},
		{"echo $((1 / 0))\n", "3:0"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		sl_entry *e = entry_from(cases[i].text);
		sl_script *s = NULL;
		sl_error err = {0};
		assert_int_not_equal(sl_shell_parse(e->script, &s, &err), 0);
		assert_null(s);
		char at[32];
		snprintf(at, sizeof at, "%u:%u", err.line, err.col);
		if (i < 3)
			assert_string_equal(at, cases[i].want);
		else
			assert_non_null(strstr(err.msg, "division by zero"));
		sl_error_clear(&err);
		sl_entry_free(e);
	}
}

/* A new value read from the variable's own old one is reassignment, never
 * an error: T keeps its old value, unknown, spelled $T. */
static void test_reassign_from_self(void **st)
{
	(void)st;
	sl_entry *e = entry_from("X=\"${H:-$T}\"\nT=\"$X\"\nA=$B\nB=$A\ncmd $T $B\n");
	sl_script *s = parse_ok(e);
	assert_int_equal(s->ncmds, 1);
	assert_int_equal(s->cmds[0].argc, 3);
	assert_string_equal(s->cmds[0].argv[1].text, "$T");
	assert_true(s->cmds[0].argv[1].flags & SL_WORD_SYMBOLIC);
	assert_string_equal(s->cmds[0].argv[2].text, "$B");
	sl_script_free(s);
	sl_entry_free(e);
}

/* A while/case/shift loop over a function's arguments is followed turn by
 * turn (break ends it); over the script's own it leaves what it sets
 * unknown, not at the value from before it. */
static void test_argument_loop(void **st)
{
	(void)st;
	sl_entry *e = entry_from("f() { M=agg; P=1; while [ $# -gt 0 ]; do case \"$1\" in --mode) M=$2; shift 2 ;;\n"
				 "--p=*) P=${1#*=}; shift ;; --) shift; break ;; *) shift ;; esac; done; cmd $M $P $#; }\n"
				 "f --mode prefill -x --p=3 -- y\n"
				 "T=4\nwhile [ -n \"$1\" ]; do T=$1; shift; done\ncmd $T\n");
	sl_script *s = parse_ok(e);
	const sl_command *c[2] = {NULL, NULL};
	size_t k = 0;
	for (size_t i = 0; i < s->ncmds; i++)
		if (!strcmp(s->cmds[i].argv[0].text, "cmd") && k < 2)
			c[k++] = &s->cmds[i];
	assert_int_equal(k, 2);
	assert_int_equal(c[0]->argc, 4);
	assert_string_equal(c[0]->argv[1].text, "prefill");
	assert_string_equal(c[0]->argv[2].text, "3");
	assert_string_equal(c[0]->argv[3].text, "1");
	assert_string_equal(c[1]->argv[1].text, "$T");
	assert_true(c[1]->argv[1].flags & SL_WORD_SYMBOLIC);
	sl_script_free(s);
	sl_entry_free(e);
}

/* A top-level `unset NAME` is a node of its own (unset_command): after it
 * the name expands empty and takes its ${NAME:-default}, whatever the
 * caller's environment or --set gives; `unset -f` removes functions only. */
static void test_unset(void **st)
{
	(void)st;
	sl_entry *e = entry_from("EXTRA=--enforce-eager\nB=2\nunset EXTRA\nunset -f B\n"
				 "unset CUDA_VISIBLE_DEVICES\n"
				 "cmd x $EXTRA \"${EXTRA:-d}\" $B ${CUDA_VISIBLE_DEVICES+y} $((CUDA_VISIBLE_DEVICES + 1))\n");
	sl_script *s = parse_ok(e);
	assert_int_equal(s->ncmds, 1);
	const sl_command *c = &s->cmds[0];
	assert_int_equal(c->argc, 5);
	assert_string_equal(c->argv[1].text, "x");
	assert_string_equal(c->argv[2].text, "d");
	assert_string_equal(c->argv[3].text, "2");
	assert_string_equal(c->argv[4].text, "1");
	for (size_t i = 1; i < c->argc; i++)
		assert_false(c->argv[i].flags & SL_WORD_SYMBOLIC);
	assert_int_equal(s->ninputs, 0);
	sl_script_free(s);
	sl_entry_free(e);
}

/* `source NAME` of a script offered beside it (a folder at a revision) is
 * read in place: its values keep offsets past the script's text, which
 * sl_source_at and sl_source_pos place in the sourced file; a name that is
 * not offered is not read (the fallback: unknown after it). */
static void test_source_reads_sibling(void **st)
{
	(void)st;
	sl_entry *e = entry_from("TP=2\nsource ./env.sh\n. ./missing.sh\ncmd $TP $PORT\n");
	sl_source_offer(e->script, "env.sh", "# env\nTP=8\n", 11);
	sl_script *s = parse_ok(e);
	const sl_command *c = &s->cmds[s->ncmds - 1];
	assert_string_equal(c->argv[0].text, "cmd");
	/* missing.sh is not read: TP, known before it, is unknown after it */
	assert_string_equal(c->argv[1].text, "$TP");
	sl_script_free(s);
	sl_entry_free(e);

	e = entry_from("TP=2\nsource ./env.sh\ncmd $TP\n");
	sl_source_offer(e->script, "env.sh", "# env\nTP=8\n", 11);
	s = parse_ok(e);
	c = &s->cmds[s->ncmds - 1];
	assert_string_equal(c->argv[1].text, "8");
	uint32_t off = c->argv[1].offs[0];
	assert_true(off > e->script->len);
	const sl_source *f = sl_source_at(e->script, &off);
	assert_ptr_not_equal(f, e->script);
	assert_string_equal(f->name, "env.sh");
	assert_int_equal(off, 9);
	unsigned line, col;
	sl_source_pos(e->script, c->argv[1].offs[0], &line, &col);
	assert_int_equal(line, 2);
	assert_int_equal(col, 4);
	assert_int_equal(s->ncomments, 0);  /* the sourced file's comments are no claims */
	sl_script_free(s);
	sl_entry_free(e);
}

/* `source FILE`/`. FILE` is not read: every variable known before it may
 * be set by the file, so it is $NAME after it (an exported one stays
 * exported); what is set after it is known again.
 * The note names the file and the variables. */
static void test_source_forgets(void **st)
{
	(void)st;
	sl_entry *e = entry_from("TP=8\nexport PORT=9000\n"
				 "source \"$(dirname \"$0\")/env.sh\"\n"
				 "SEQS=64\ncmd $TP $PORT $SEQS\n. ./more.sh\ncmd $SEQS\n");
	sl_script *s = parse_ok(e);
	const sl_command *c[2] = {NULL, NULL};
	size_t k = 0;
	for (size_t i = 0; i < s->ncmds; i++)
		if (!strcmp(s->cmds[i].argv[0].text, "cmd") && k < 2)
			c[k++] = &s->cmds[i];
	assert_int_equal(k, 2);
	assert_int_equal(c[0]->argc, 4);
	assert_string_equal(c[0]->argv[1].text, "$TP");
	assert_true(c[0]->argv[1].flags & SL_WORD_SYMBOLIC);
	assert_string_equal(c[0]->argv[2].text, "$PORT");
	assert_string_equal(c[0]->argv[3].text, "64");
	assert_false(c[0]->argv[3].flags & SL_WORD_SYMBOLIC);
	assert_int_equal(c[0]->nexported, 1);
	assert_string_equal(c[0]->exported[0].name, "PORT");
	assert_string_equal(c[1]->argv[1].text, "$SEQS");
	int named = 0;
	/* a break of kind source_not_read (check's SL0003), at the `source` */
	for (size_t i = 0; i < s->nbreaks; i++)
		named += !strcmp(s->breaks[i].kind, "source_not_read") &&
			 strstr(s->breaks[i].msg, "env.sh`: env.sh is not read (") && strstr(s->breaks[i].msg, "`TP`, `PORT`");
	assert_int_equal(named, 1);
	sl_script_free(s);
	sl_entry_free(e);
}

/* A conditional whose alternatives only run commands is stateless (the
 * entry may fix it when they serve the same); one that assigns what a
 * server reads is not, one that assigns only what no server reads (a log
 * name the client takes) is as good as stateless (relevant.c); a default
 * inside a condition leaves it undecided; a fixed conditional is no point. */
static void test_stateless_points(void **st)
{
	(void)st;
	sl_entry *e = entry_from("if [ -n \"$JOB\" ]; then echo \"$JOB\" | tee -a log; fi\n"
				 "if [ \"$Y\" = 1 ]; then A=1; fi\n"
				 "case \"${MODE:-agg}\" in agg) echo a ;; *) B=1 ;; esac\n"
				 "if [ \"$Z\" = 1 ]; then OUT=/tmp/z; fi\n"
				 "vllm serve m --max-num-seqs $A $B\n"
				 "run_benchmark_serving --port 8000 --result-dir \"$OUT\"\n");
	sl_script *s = parse_ok(e);
	assert_int_equal(s->npoints, 4);
	assert_true(s->points[0].stateless);
	assert_false(s->points[1].stateless);
	assert_false(s->points[2].stateless);
	assert_true(s->points[3].stateless);
	uint32_t fixed[] = {s->points[0].off};
	sl_script_free(s);
	sl_shell_opts o = {NULL, NULL, 0, fixed, 1, NULL, NULL, 0};
	sl_error err = {0};
	assert_int_equal(sl_shell_parse_with(e->script, &o, &s, &err), 0);
	assert_int_equal(s->npoints, 3);
	sl_script_free(s);
	sl_entry_free(e);
	/* an alternative that only fails (a message, exit 1) is no variant */
	e = entry_from("if [ -z \"$TOKEN\" ]; then echo missing >&2; exit 1; fi\ncmd\n");
	s = parse_ok(e);
	assert_int_equal(s->npoints, 0);
	assert_false(s->exited);
	sl_script_free(s);
	sl_entry_free(e);
}

/* An export after the last command that may serve reaches no server: a
 * conditional of such exports (the eval arm after the server is up) is as
 * good as stateless; one before a server, or in a loop body (run again),
 * is not; an exit after it starts nothing. */
static void test_late_exports(void **st)
{
	(void)st;
	sl_entry *e = entry_from("if [ \"$A\" = 1 ]; then export VLLM_X=1; fi\n"
				 "vllm serve m --port 8000 &\n"
				 "wait_for_server_ready --port 8000\n"
				 "if [ \"$E\" = 1 ]; then export W=32; export VLLM_Y=1; run_eval --port 8000; fi\n"
				 "for k in 1; do if [ \"$F\" = 1 ]; then export G=1; fi; done\n"
				 "if [ \"$H\" = 1 ]; then export Z=1; Z2=$Z; export Z2; fi\n"
				 "exit 0\n");
	sl_script *s = parse_ok(e);
	assert_int_equal(s->npoints, 4);
	assert_false(s->points[0].stateless);
	assert_true(s->points[1].stateless);
	assert_false(s->points[2].stateless);
	assert_true(s->points[3].stateless);
	sl_script_free(s);
	sl_entry_free(e);
	/* the same export before a server starts is read by it */
	e = entry_from("if [ \"$E\" = 1 ]; then export W=32; fi\nvllm serve m\n");
	s = parse_ok(e);
	assert_int_equal(s->npoints, 1);
	assert_false(s->points[0].stateless);
	sl_script_free(s);
	sl_entry_free(e);
}

/* A poll (`for ...; do if curl .../health; then READY=1; break; fi; sleep
 * 2; done`) reads its probe as succeeding, with a note: no point; so does
 * a test of what the loop read from a program. A test of anything else in
 * the same place, a loop that does not sleep, a branch that does more than
 * assign and break (or, for a test, assigns what depends on the turn), or
 * a tested loop whose body does more than wait, is a point as before. */
static void test_poll_probe(void **st)
{
	(void)st;
	static const char *const polls[] = {
		"for i in $(seq 1 60); do\n  if curl -sf \"http://127.0.0.1:$P/health\"; then READY=1; break; fi\n"
		"  sleep 2\ndone\n",
		"for i in $(seq 1 60); do\n  if nc -z localhost 8000 > /dev/null 2>&1; then echo up; break; fi\n"
		"  sleep 5\ndone\n",
		"for i in 1 2 3; do\n  sleep 1\n  if curl -s localhost:8000/v1/models | grep -q m; then break; fi\ndone\n",
	};
	for (size_t i = 0; i < sizeof polls / sizeof *polls; i++) {
		sl_buf b = {0};
		sl_buf_puts(&b, polls[i]);
		sl_buf_puts(&b, "if [ \"$READY\" != 1 ]; then FALLBACK=1; fi\nvllm serve m $FALLBACK\n");
		sl_entry *e = entry_from(b.data);
		sl_script *s = parse_ok(e);
		/* the READY test after it: decided in the first (READY=1 with
		 * the probe's success), a point in the others (READY never
		 * set); the probe is never one */
		assert_int_equal(s->npoints, i == 0 ? 0 : 1);
		int noted = 0;
		for (size_t k = 0; k < s->nnotes; k++)
			noted += strstr(s->notes[k], "a poll: `if ") != NULL;
		assert_int_equal(noted, 1);
		sl_script_free(s);
		sl_entry_free(e);
		sl_buf_free(&b);
	}
	/* a test of what the loop read from a program (InferenceX's VRAM and
	 * health loops): the same, in a for loop, in a while loop of a
	 * function given its arguments, with the command inside the test */
	static const char *const tested[] = {
		"OK=false\nfor i in $(seq 1 90); do\n  V=$(rocm-smi --showmemuse 2>/dev/null | awk '{print $NF}')\n"
		"  if [ \"${V:-0}\" -le 10 ]; then echo \"clean after $((i * 10))s\"; OK=\"true\"; break; fi\n"
		"  echo \"waiting: $V\"; sleep 10\ndone\n[ \"$OK\" = true ] || { echo draining >&2; exit 1; }\n",
		"w() {\n  local limit=$1 waited=0\n  while true; do\n    local used\n"
		"    used=$(nvidia-smi --query-gpu=memory.used --format=csv,noheader | sort -rn | head -1)\n"
		"    if [[ -z \"$used\" || \"$used\" -lt \"$limit\" ]]; then break; fi\n"
		"    sleep 3; waited=$((waited + 3))\n  done\n}\nw 2000\n",
		"for i in 1 2 3; do\n  if [ \"$(curl -s localhost:8000/health)\" = ok ]; then\n    break\n  fi\n"
		"  sleep 5\ndone\n",
	};
	for (size_t i = 0; i < sizeof tested / sizeof *tested; i++) {
		sl_buf b = {0};
		sl_buf_puts(&b, tested[i]);
		sl_buf_puts(&b, "vllm serve m\n");
		sl_entry *e = entry_from(b.data);
		sl_script *s = parse_ok(e);
		assert_int_equal(s->npoints, 0);
		assert_false(s->exited);
		int noted = 0;
		for (size_t k = 0; k < s->nnotes; k++)
			noted += strstr(s->notes[k], "a poll: `if [") != NULL;
		assert_int_equal(noted, 1);
		sl_script_free(s);
		sl_entry_free(e);
		sl_buf_free(&b);
	}
	/* an until loop on what a program says waits without a point, in a
	 * function given its arguments too (its condition is not decided:
	 * the loop is not read) */
	static const char *const untils[] = {
		"until [ \"$(curl -s localhost:8000/health)\" = ok ]; do sleep 5; done\nvllm serve m\n",
		"w() {\n  until [ \"$(curl -s \"localhost:$1/health\")\" = ok ]; do sleep 5; done\n}\nw 8000\nvllm serve m\n",
	};
	for (size_t i = 0; i < sizeof untils / sizeof *untils; i++) {
		sl_entry *e = entry_from(untils[i]);
		sl_script *s = parse_ok(e);
		assert_int_equal(s->npoints, 0);
		sl_script_free(s);
		sl_entry_free(e);
	}
	static const char *const not_polls[] = {
		/* a test, not a probe */
		"for i in 1 2; do if [ \"$X\" = 1 ]; then break; fi; sleep 1; done\nvllm serve m\n",
		/* no sleep: not a retry */
		"for i in 1 2; do if curl -sf localhost:8000/health; then break; fi; done\nvllm serve m\n",
		/* the branch starts something */
		"for i in 1 2; do if curl -sf localhost:8000/health; then vllm serve m; break; fi; sleep 1; done\n",
		/* an else */
		"for i in 1 2; do if curl -sf x/health; then break; else X=1; fi; sleep 1; done\nvllm serve m $X\n",
		/* a test of what the loop read, whose branch keeps the turn it ended at */
		"P=8000\nfor p in 8000 8001; do F=$(ss -ltn | grep -c \":$p \"); if [ \"$F\" = 0 ]; then P=$p; break; fi; "
		"sleep 1; done\nvllm serve m --port $P\n",
		/* a test of what the loop read, in a body that does more than wait */
		"for i in 1 2; do U=$(nvidia-smi); A+=(--x); if [ \"$U\" -lt 10 ]; then break; fi; sleep 1; done\n"
		"vllm serve m \"${A[@]}\"\n",
		/* a test of a variable the loop does not read from a program */
		"for i in 1 2; do U=$X; if [ \"$U\" -lt 10 ]; then break; fi; sleep 1; done\nvllm serve m\n",
	};
	for (size_t i = 0; i < sizeof not_polls / sizeof *not_polls; i++) {
		sl_entry *e = entry_from(not_polls[i]);
		sl_script *s = parse_ok(e);
		/* the if is a point (met again at the loop's next turn) */
		assert_true(s->npoints >= 1);
		for (size_t k = 0; k < s->nnotes; k++)
			assert_null(strstr(s->notes[k], "a poll"));
		sl_script_free(s);
		sl_entry_free(e);
	}
}

/* Thresholds of one variable are one decision: `[[ $CONC -ge 16 ]]`,
 * `-ge 256`, `-ge 1024` give the four intervals, not eight combinations;
 * tests of another variable, or after it is assigned, are their own. A
 * break in an unrolled for loop ends it. */
static void test_numeric_thresholds(void **st)
{
	(void)st;
	sl_entry *e = entry_from("B=1\n"
				 "if [[ $CONC -ge 16 ]]; then B=2; fi\n"
				 "if [ \"$CONC\" -ge 256 ]; then B=3; fi\n"
				 "if [[ ${CONC} -gt 1023 ]]; then B=4; fi\n"
				 "if [ \"${CONC}\" -lt 8 ]; then B=0; fi\n"
				 "vllm serve m --max-num-seqs $B\n");
	sl_variant *v;
	size_t n;
	int trunc;
	size_t cov;
	sl_error err = {0};
	assert_int_equal(sl_shell_variants(e->script, NULL, &v, &n, &trunc, &cov, &err), 0);
	/* >= 1024; [256, 1024); [16, 256); then < 16: < 8, and [8, 16) */
	assert_int_equal(n, 5);
	static const char *const want[] = {"4", "3", "2", "0", "1"};
	for (size_t i = 0; i < n; i++) {
		const sl_command *c = &v[i].script->cmds[v[i].script->ncmds - 1];
		assert_string_equal(c->argv[c->argc - 1].text, want[i]);
	}
	sl_variants_free(v, n);
	sl_entry_free(e);
	/* another variable, and the same one assigned in between: not implied */
	e = entry_from("if [ \"$A\" -ge 16 ]; then X=1; fi\nif [ \"$C\" -ge 32 ]; then Y=1; fi\n"
		       "A=$C\nif [ \"$A\" -ge 32 ]; then Z=1; fi\nvllm serve m $X $Y $Z\n");
	assert_int_equal(sl_shell_variants(e->script, NULL, &v, &n, &trunc, &cov, &err), 0);
	/* A's first test x2, C's x2; the third, on the new A, is C's test in
	 * other words but its text differs: x2 again only where not implied */
	assert_int_equal(n, 8);
	sl_variants_free(v, n);
	sl_entry_free(e);
	/* -eq and -ne */
	e = entry_from("if [ \"$N\" -eq 1 ]; then X=1; fi\nif [ \"$N\" -ne 1 ]; then Y=1; fi\n"
		       "if [ \"$N\" -le 1 ]; then Z=1; fi\nvllm serve m $X $Y $Z\n");
	assert_int_equal(sl_shell_variants(e->script, NULL, &v, &n, &trunc, &cov, &err), 0);
	/* -eq 1 true decides the other two (X, Z); false leaves a hole, no
	 * interval: -ne is a point, and -le 1 after -ne true, but -ne false
	 * says N = 1 (-le true): four */
	assert_int_equal(n, 4);
	assert_string_equal(v[0].label, "if [ \"$N\" -eq 1 ] (line 1)");
	sl_variants_free(v, n);
	sl_entry_free(e);
	/* break ends an unrolled for: one turn, not three */
	e = entry_from("for i in 1 2 3; do vllm serve m$i & break; done\n");
	sl_script *s = parse_ok(e);
	assert_int_equal(s->ncmds, 2);
	assert_string_equal(s->cmds[0].argv[2].text, "m1");
	sl_script_free(s);
	sl_entry_free(e);
}

/* The labels of a script's variants, "|"-joined in order: what a test
 * compares. */
static char *labels_of(const sl_variant *v, size_t n)
{
	sl_buf b = {0};
	for (size_t i = 0; i < n; i++)
		sl_buf_printf(&b, "%s%s", i ? "|" : "", v[i].label ? v[i].label : "");
	return sl_buf_detach(&b);
}

static void test_implied_strings(void **st)
{
	(void)st;
	sl_variant *v;
	size_t n, cov;
	int trunc;
	sl_error err = {0};
	/* a case taken says its value: a later test of it is decided (the
	 * `*` that exits is no variant) */
	sl_entry *e = entry_from("case \"$KV\" in\n\"\") A=1 ;;\nlmcache) A=2 ;;\n*) exit 1 ;;\nesac\n"
				 "if [ \"$KV\" != \"lmcache\" ]; then B=--enforce-eager; fi\n"
				 "vllm serve m --max-num-seqs $A $B\n");
	assert_int_equal(sl_shell_variants(e->script, NULL, &v, &n, &trunc, &cov, &err), 0);
	char *l = labels_of(v, n);
	assert_string_equal(l, "case \"$KV\" in \"\" (line 2)|case \"$KV\" in lmcache (line 3)");
	free(l);
	sl_variants_free(v, n);
	sl_entry_free(e);
	/* a conjunction taken says each of its string tests; taken false it
	 * says nothing of either; a variable the script set decides its test */
	e = entry_from("D=false\nif [ \"$DP\" = true ] && [ \"$TP\" -eq 8 ]; then D=true; fi\n"
		       "if [[ $DP == \"true\" ]]; then X=1; fi\n"
		       "if [ \"${KV:-}\" = lm ] && [ \"$D\" != true ]; then Y=1; fi\n"
		       "vllm serve m $X $Y\n");
	assert_int_equal(sl_shell_variants(e->script, NULL, &v, &n, &trunc, &cov, &err), 0);
	l = labels_of(v, n);
	/* DP && TP8: X=1 follows, D is true (Y's test false); else DP alone
	 * x2, then KV x2 with D false */
	assert_string_equal(l, "if [ \"$DP\" = true ] && [ \"$TP\" -eq 8 ] (line 2)|"
			       "no branch of the if (line 2), if [[ $DP == \"true\" ]] (line 3), if [ \"${KV:-}\" = lm ] && [ \"$D\" != true ] (line 4)|"
			       "no branch of the if (line 2), if [[ $DP == \"true\" ]] (line 3), no branch of the if (line 4)|"
			       "no branch of the if (line 2), no branch of the if (line 3), if [ \"${KV:-}\" = lm ] && [ \"$D\" != true ] (line 4)|"
			       "no branch of the if (line 2), no branch of the if (line 3), no branch of the if (line 4)");
	free(l);
	sl_variants_free(v, n);
	sl_entry_free(e);
	/* -z taken says empty, so -n is false; a test of the variable after
	 * it is assigned an unknown value is not decided; [[ == ]] with an
	 * unquoted glob is no literal */
	e = entry_from("if [ -z \"$M\" ]; then A=1; fi\nif [[ -n $M ]]; then B=1; fi\n"
		       "if [[ $G == b2* ]]; then C=1; fi\nif [ \"$G\" = b200 ]; then C=2; fi\n"
		       "vllm serve m $A $B $C\n");
	assert_int_equal(sl_shell_variants(e->script, NULL, &v, &n, &trunc, &cov, &err), 0);
	/* M: 2 (the -n follows the -z); G: the glob x2, then b200 x2: 8 */
	assert_int_equal(n, 8);
	for (size_t i = 0; i < n; i++)
		assert_null(strstr(v[i].label, "line 2)"));
	sl_variants_free(v, n);
	sl_entry_free(e);
	e = entry_from("case \"$KV\" in a) A=1 ;; *) A=2 ;; esac\nKV=$OTHER\n"
		       "if [ \"$KV\" = a ]; then B=1; fi\nvllm serve m $A $B\n");
	assert_int_equal(sl_shell_variants(e->script, NULL, &v, &n, &trunc, &cov, &err), 0);
	assert_int_equal(n, 4);  /* KV assigned since the case: its test is a decision */
	sl_variants_free(v, n);
	sl_entry_free(e);
	/* alternatives known not to run before the first one not known are
	 * none of the point's: KV not a leaves b and * */
	e = entry_from("if [ \"$KV\" = a ]; then X=1; fi\n"
		       "case \"$KV\" in a) A=1 ;; b) A=2 ;; *) A=3 ;; esac\nvllm serve m $X $A\n");
	assert_int_equal(sl_shell_variants(e->script, NULL, &v, &n, &trunc, &cov, &err), 0);
	l = labels_of(v, n);
	assert_string_equal(l, "if [ \"$KV\" = a ] (line 1)|"
			       "no branch of the if (line 1), case \"$KV\" in b (line 2)|"
			       "no branch of the if (line 1), case \"$KV\" in * (line 2)");
	free(l);
	for (size_t i = 0; i < n; i++) {
		const sl_command *c = &v[i].script->cmds[v[i].script->ncmds - 1];
		assert_string_equal(c->argv[c->argc - 1].text, i == 0 ? "1" : i == 1 ? "2" : "3");
	}
	sl_variants_free(v, n);
	sl_entry_free(e);
}

/* Past the limit, a covering set: eight independent two-way decisions
 * (256 combinations) are read in fewer than 64 readings, every combination
 * of alternatives of any three of them among them. */
static void test_covering(void **st)
{
	(void)st;
	sl_buf b = {0};
	for (int i = 0; i < 8; i++)
		sl_buf_printf(&b, "if [ \"$F%d\" = 1 ]; then A%d=1; else A%d=2; fi\n", i, i, i);
	sl_buf_puts(&b, "vllm serve m $A0 $A1 $A2 $A3 $A4 $A5 $A6 $A7\n");
	sl_entry *e = entry_from(b.data);
	sl_buf_free(&b);
	sl_variant *v;
	size_t n, cov;
	int trunc;
	sl_error err = {0};
	assert_int_equal(sl_shell_variants(e->script, NULL, &v, &n, &trunc, &cov, &err), 0);
	assert_false(trunc);
	assert_int_equal(cov, 8);
	assert_true(n >= 8 && n < 64);
	for (int i = 0; i < 8; i++)
		for (int j = i + 1; j < 8; j++)
			for (int k = j + 1; k < 8; k++)
				for (unsigned c = 0; c < 8; c++) {
					int found = 0;
					for (size_t r = 0; r < n && !found; r++) {
						assert_int_equal(v[r].nchoice, 8);
						found = v[r].choice[i] == (c >> 2 & 1) && v[r].choice[j] == (c >> 1 & 1) &&
							v[r].choice[k] == (c & 1);
					}
					assert_true(found);
				}
	/* the readings are distinct */
	for (size_t r = 0; r < n; r++)
		for (size_t q = r + 1; q < n; q++)
			assert_string_not_equal(v[r].label, v[q].label);
	sl_variants_free(v, n);
	sl_entry_free(e);
	/* three five-way cases: 125 combinations of three, past the limit even
	 * covered */
	b = (sl_buf){0};
	for (int i = 0; i < 3; i++)
		sl_buf_printf(&b, "case \"$C%d\" in 1) A%d=1 ;; 2) A%d=2 ;; 3) A%d=3 ;; 4) A%d=4 ;; *) A%d=5 ;; esac\n", i, i,
			      i, i, i, i);
	sl_buf_puts(&b, "vllm serve m $A0 $A1 $A2\n");
	e = entry_from(b.data);
	sl_buf_free(&b);
	assert_int_equal(sl_shell_variants(e->script, NULL, &v, &n, &trunc, &cov, &err), 0);
	assert_true(trunc);
	assert_int_equal(n, 64);
	sl_variants_free(v, n);
	sl_entry_free(e);
	/* more decisions than a covering set is made for (its making grows as
	 * their cube): the first 64 combinations, as before */
	b = (sl_buf){0};
	for (int i = 0; i < 70; i++)
		sl_buf_printf(&b, "if [ \"$F%d\" = 1 ]; then A%d=1; fi\n", i, i);
	sl_buf_puts(&b, "vllm serve m");
	for (int i = 0; i < 70; i++)
		sl_buf_printf(&b, " $A%d", i);
	sl_buf_puts(&b, "\n");
	e = entry_from(b.data);
	sl_buf_free(&b);
	assert_int_equal(sl_shell_variants(e->script, NULL, &v, &n, &trunc, &cov, &err), 0);
	assert_true(trunc);
	assert_int_equal(cov, 0);
	assert_int_equal(n, 64);
	sl_variants_free(v, n);
	sl_entry_free(e);
}

static void test_variants(void **st)
{
	(void)st;
	/* X unknown: two alternatives, the second holding a nested unknown if
	 * (two more); G known: its case is decided; TP known: decided */
	sl_entry *e = entry_from("G=b200\nTP=8\nif [ \"$X\" = 1 ]; then A=1; else if [[ $Y == y* ]]; then A=2; fi; fi\n"
				 "case $G in b*) B=1 ;; *) B=2 ;; esac\n"
				 "if [ \"$TP\" -ge 4 ] && [ -n \"$G\" ]; then C=1; fi\n"
				 "cmd $A $B $C\n");
	sl_variant *v;
	size_t n;
	int trunc;
	size_t cov;
	sl_error err = {0};
	assert_int_equal(sl_shell_variants(e->script, NULL, &v, &n, &trunc, &cov, &err), 0);
	assert_int_equal(n, 3);
	assert_false(trunc);
	assert_string_equal(v[0].label, "if [ \"$X\" = 1 ] (line 3)");
	assert_string_equal(v[1].label, "not [ \"$X\" = 1 ] (line 3), if [[ $Y == y* ]] (line 3)");
	assert_string_equal(v[2].label, "not [ \"$X\" = 1 ] (line 3), no branch of the if (line 3)");
	/* A is never set in the third: it stays symbolic, $A */
	static const char *const want[] = {"1", "2", "$A"};
	for (size_t i = 0; i < n; i++) {
		sl_shell_opts o = {NULL, v[i].choice, v[i].nchoice, NULL, 0, NULL, NULL, 0};
		sl_script *s;
		assert_int_equal(sl_shell_parse_with(e->script, &o, &s, &err), 0);
		const sl_command *c = &s->cmds[s->ncmds - 1];
		/* $A, then B=1 and C=1 always */
		assert_int_equal(c->argc, 4);
		assert_string_equal(c->argv[1].text, want[i]);
		assert_string_equal(c->argv[c->argc - 2].text, "1");
		assert_string_equal(c->argv[c->argc - 1].text, "1");
		sl_script_free(s);
	}
	sl_variants_free(v, n);
	/* --set decides the condition: one reading */
	char *names[] = {"X"}, *values[] = {"1"};
	sl_binds b = {names, values, 1};
	sl_shell_opts bo = {&b, NULL, 0, NULL, 0, NULL, NULL, 0};
	assert_int_equal(sl_shell_variants(e->script, &bo, &v, &n, &trunc, &cov, &err), 0);
	assert_int_equal(n, 1);
	assert_null(v[0].label);
	sl_variants_free(v, n);
	sl_entry_free(e);
}

static void test_functions(void **st)
{
	(void)st;
	sl_entry *e = entry_from("run() {\n  local p=$1\n  shift\n  serve --port $p \"$@\"\n}\nrun 8000 --a \"b c\"\nrun 9000\n");
	sl_script *s = parse_ok(e);
	/* run, serve, run, serve */
	assert_int_equal(s->ncmds, 6);
	const sl_command *c = &s->cmds[2];
	assert_string_equal(c->argv[0].text, "serve");
	assert_int_equal(c->argc, 5);
	assert_string_equal(c->argv[2].text, "8000");
	assert_string_equal(c->argv[4].text, "b c");
	/* the argument keeps the place it is written at the call */
	assert_string_equal(pos_of(e->script, c->argv[3].start), "6:10");
	c = &s->cmds[5];
	assert_int_equal(c->argc, 3);
	assert_string_equal(c->argv[2].text, "9000");
	sl_script_free(s);
	sl_entry_free(e);
}

static void test_placeholders(void **st)
{
	(void)st;
	/* unquoted, bash would read these as redirections */
	sl_entry *e = entry_from("trtllm-serve <model-path> --config x.yaml\n"
				 "sglang serve --node-rank <0..1> --dist-init-addr <head-ip>:20000\n"
				 "etcd --data-dir <host-path>\n");
	sl_script *s = parse_ok(e);
	assert_int_equal(s->ncmds, 3);
	assert_string_equal(s->cmds[0].argv[1].text, "<model-path>");
	assert_true(s->cmds[0].argv[1].flags & SL_WORD_PLACEHOLDER);
	assert_string_equal(s->cmds[1].argv[3].text, "<0..1>");
	assert_string_equal(s->cmds[1].argv[5].text, "<head-ip>:20000");
	assert_string_equal(s->cmds[2].argv[2].text, "<host-path>");
	assert_false(s->cmds[0].argv[2].flags & SL_WORD_PLACEHOLDER);
	sl_script_free(s);
	sl_entry_free(e);
}

static void test_env_forms(void **st)
{
	(void)st;
	sl_entry *e = entry_from("export A=1\nexport B=2\nB=3\nC=4 D=5 \\\n  run --flag\n");
	sl_script *s = parse_ok(e);
	assert_int_equal(s->ncmds, 1);
	sl_command *c = &s->cmds[0];
	assert_int_equal(c->nprefix, 2);
	assert_string_equal(c->prefix[0].name, "C");
	assert_string_equal(c->prefix[1].value.text, "5");
	/* B was exported, then reassigned: still exported, with the new value */
	assert_int_equal(c->nexported, 2);
	assert_string_equal(c->exported[0].name, "A");
	assert_string_equal(c->exported[1].name, "B");
	assert_string_equal(c->exported[1].value.text, "3");
	assert_string_equal(c->argv[1].text, "--flag");
	assert_string_equal(pos_of(e->script, c->argv[1].start), "5:7");
	sl_script_free(s);
	sl_entry_free(e);
}

static void test_for_loop_unrolled(void **st)
{
	(void)st;
	sl_entry *e = entry_from("# 3x decode workers\nfor g in 1 2 3; do\n"
				 "  CUDA_VISIBLE_DEVICES=$g worker --port 900$g &\ndone\nsleep 1\n");
	sl_script *s = parse_ok(e);
	assert_int_equal(s->ncmds, 4);
	for (unsigned i = 0; i < 3; i++) {
		sl_command *c = &s->cmds[i];
		assert_int_equal(c->iterations, 3);
		assert_int_equal(c->iteration, i);
		assert_true(c->background);
		assert_int_equal(c->stmt, s->cmds[0].stmt);
		char want[8];
		snprintf(want, sizeof want, "%u", i + 1);
		assert_string_equal(c->prefix[0].value.text, want);
		assert_string_equal(c->loop_var, "g");
		/* the header comment sits above the loop, and applies to its body */
		assert_int_equal(c->block, 0);
	}
	assert_string_equal(s->cmds[2].argv[2].text, "9003");
	assert_false(s->cmds[3].background);
	assert_int_equal(s->cmds[3].iterations, 1);
	assert_int_equal(s->cmds[3].block, -1);
	sl_script_free(s);
	sl_entry_free(e);
}

static void test_comment_blocks(void **st)
{
	(void)st;
	sl_entry *e = entry_from("#!/bin/bash\n# header one\n\n# env block\n#   A_B=1\n\n"
				 "# Worker:\nrun x # trailing\n");
	sl_script *s = parse_ok(e);
	assert_int_equal(s->ncomments, 6);
	assert_int_equal(s->nblocks, 3);
	assert_int_equal(s->blocks[0].count, 2);
	assert_false(s->blocks[0].attached);
	assert_int_equal(s->blocks[1].count, 2);
	assert_true(s->blocks[2].attached);
	assert_int_equal(s->cmds[0].block, 2);
	assert_false(s->comments[5].own_line);
	sl_script_free(s);
	sl_entry_free(e);
}

static void test_bash_c_origins(void **st)
{
	(void)st;
	const char *text = "docker run img \\\n  -c \"exec vllm serve m \\\n"
			   "    --cfg '{\\\"a\\\":1}'\"\n";
	sl_entry *e = entry_from(text);
	sl_script *s = parse_ok(e);
	assert_int_equal(s->ncmds, 1);
	const sl_word *str = &s->cmds[0].argv[4];
	assert_string_equal(str->text, "exec vllm serve m     --cfg '{\"a\":1}'");
	sl_script *in = NULL;
	sl_error err = {0};
	/* without a cache, then twice with one: the second tree is the
	 * cache's, found by the string's text in another copy of it, and
	 * places the words alike */
	sl_shell_cache *cache = sl_shell_cache_new();
	for (int round = 0; round < 3; round++) {
		sl_word copy;
		sl_word_copy(&copy, str);
		assert_int_equal(sl_shell_parse_word(e->script, &copy, round ? cache : NULL, &in, &err), 0);
		sl_word_free(&copy);
		assert_int_equal(in->ncmds, 1);
		const sl_word *cfg = &in->cmds[0].argv[5];
		assert_string_equal(cfg->text, "{\"a\":1}");
		/* `--cfg` sits on line 3, column 5 of the outer file */
		assert_string_equal(pos_of(e->script, in->cmds[0].argv[4].start), "3:5");
		/* the "a" member: line 3, at the backslash of its escaped quote */
		const char *a = strstr(cfg->text, "\"a\"");
		assert_string_equal(pos_of(e->script, cfg->offs[a - cfg->text]), "3:13");
		sl_script_free(in);
	}
	/* another string with the same cache is its own */
	sl_word other;
	sl_word_slice(&other, str, 0, 16);
	assert_string_equal(other.text, "exec vllm serve ");
	assert_int_equal(sl_shell_parse_word(e->script, &other, cache, &in, &err), 0);
	assert_int_equal(in->ncmds, 1);
	assert_int_equal(in->cmds[0].argc, 3);
	sl_script_free(in);
	sl_word_free(&other);
	sl_shell_cache_free(cache);
	sl_script_free(s);
	sl_entry_free(e);
}

static void expect_error(const char *text, const char *where, const char *needle)
{
	sl_entry *e = entry_from(text);
	sl_script *s = NULL;
	sl_error err = {0};
	assert_int_not_equal(sl_shell_parse(e->script, &s, &err), 0);
	assert_null(s);
	char got[32];
	snprintf(got, sizeof got, "%u:%u", err.line, err.col);
	if (strcmp(got, where) || !strstr(err.msg, needle))
		fprintf(stderr, "got %s: %s\n", got, err.msg);
	assert_string_equal(got, where);
	assert_non_null(strstr(err.msg, needle));
	sl_error_clear(&err);
	sl_entry_free(e);
}

static void test_errors(void **st)
{
	(void)st;
	expect_error("vllm serve m \\\n  --x \"unterminated\n", "2:7", "unterminated double quote");
	expect_error("vllm serve m --x 'open\n", "1:18", "unterminated single quote");
	sl_buf b = {0};
	sl_buf_puts(&b, "echo ");
	for (int i = 0; i < 200; i++)
		sl_buf_puts(&b, "\"$(echo ");
	sl_buf_puts(&b, "x");
	for (int i = 0; i < 200; i++)
		sl_buf_puts(&b, ")\"");
	sl_buf_puts(&b, "\n");
	sl_entry *e = entry_from(b.data);
	sl_script *s = NULL;
	sl_error err = {0};
	assert_int_not_equal(sl_shell_parse(e->script, &s, &err), 0);
	assert_non_null(strstr(err.msg, "nesting deeper than the limit"));
	assert_int_equal(err.line, 1);
	sl_error_clear(&err);
	sl_entry_free(e);
	sl_buf_free(&b);
}

static void test_json_error_position(void **st)
{
	(void)st;
	sl_entry *e = entry_from("x --c '{\"a\":1,,}'\n");
	sl_script *s = parse_ok(e);
	json_t *j = NULL;
	sl_error err = {0};
	assert_int_not_equal(sl_json_parse_word(e->script, &s->cmds[0].argv[2], &j, &err), 0);
	assert_null(j);
	char got[32];
	snprintf(got, sizeof got, "%u:%u", err.line, err.col);
	/* the second comma, column 15 */
	assert_string_equal(got, "1:15");
	assert_non_null(strstr(err.msg, "invalid JSON"));
	sl_error_clear(&err);
	sl_script_free(s);
	sl_entry_free(e);
}

/* The holes of a JSON value the script knows in part: a hole inside a
 * string leaves that string unknown, one where a value is that value. */
static void test_json_holes(void **st)
{
	(void)st;
	sl_entry *e = entry_from("x --c '{\"role\":\"kv_producer\",\"ip\":\"'\"$IP\"'\",\"n\":{\"port\":'$PORT'},"
				 "\"l\":['$L'],\"cmd\":\"'$(f \"a}\" ')')'\"}' "
				 "\"{\\\"a\\\":\\$X}\"\n");
	sl_script *s = parse_ok(e);
	const sl_word *w = &s->cmds[0].argv[2];
	assert_true(w->flags & SL_WORD_SYMBOLIC);
	json_t *j = NULL;
	sl_json_holes h;
	assert_int_equal(sl_json_parse_holes(e->script, w, &j, &h), 0);
	assert_int_equal(h.n, 4);
	assert_string_equal(h.holes[0].text, "$IP");
	assert_false(h.holes[0].bare);
	assert_string_equal(h.holes[1].text, "$PORT");
	assert_true(h.holes[1].bare);
	assert_string_equal(h.holes[3].text, "$(f \"a}\" ')')");
	/* known members are known, whatever the holes around them */
	assert_string_equal(json_string_value(json_object_get(j, "role")), "kv_producer");
	assert_int_equal(sl_json_holes_in(&h, json_object_get(j, "role")), 0);
	json_t *ip = json_object_get(j, "ip");
	assert_int_equal(sl_json_holes_in(&h, ip), SL_WORD_SYMBOLIC);
	char *r = NULL;
	sl_json_holes_str(&h, json_string_value(ip), &r);
	assert_string_equal(r, "$IP");
	free(r);
	assert_int_equal(sl_json_holes_in(&h, json_object_get(j, "n")), SL_WORD_SYMBOLIC);
	char *t = sl_json_holes_text(&h, json_object_get(j, "n"));
	assert_string_equal(t, "{\"port\":$PORT}");
	free(t);
	t = sl_json_holes_text(&h, json_object_get(j, "l"));
	assert_string_equal(t, "[$L]");
	free(t);
	json_decref(j);
	sl_json_holes_free(&h);
	/* `\$X` escaped in double quotes is no hole: not JSON, read whole */
	w = &s->cmds[0].argv[3];
	assert_string_equal(w->text, "{\"a\":$X}");
	assert_int_not_equal(sl_json_parse_holes(e->script, w, &j, &h), 0);
	assert_null(j);
	assert_int_equal(h.n, 0);
	sl_script_free(s);
	sl_entry_free(e);
}

/* Malformed JSON with holes never reads, never crashes: each is refused
 * with nothing left to free. */
static void test_json_holes_malformed(void **st)
{
	(void)st;
	static const char *const bad[] = {
		"'{\"a\":'$X",                    /* unbalanced: no closing brace */
		"'{\"a\":{\"b\":'$X'}'",          /* nested, one brace short */
		"'{\"a\":1,'$MORE'}'",            /* a hole for members */
		"'{\"a\":1'$X'}'",                /* a hole glued to a number */
		"'{\"a\":\"'$X",                  /* a string left open */
		"'{\"a\":'$(f)$Y'}'",             /* two holes side by side */
		"'{\"a\":'\"$(f '(')\"",         /* a command holding a bracket, then nothing */
		"'{\"a\":\"\\ue000'$X'\"}'",      /* the marker's own characters */
		"'{'$K'}'",                       /* a key without a value */
		"'['$X','",                       /* an array left open */
		"'\"'$X",                         /* a lone string */
		"'}'$X'{'",
		"'$'$X",
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		char text[128];
		snprintf(text, sizeof text, "x --c %s\n", bad[i]);
		sl_entry *e = entry_from(text);
		sl_script *s = parse_ok(e);
		json_t *j = NULL;
		sl_json_holes h;
		int rc = sl_json_parse_holes(e->script, &s->cmds[0].argv[2], &j, &h);
		if (!rc)
			fail_msg("read as JSON: %s (%s)", bad[i], s->cmds[0].argv[2].text);
		assert_null(j);
		assert_int_equal(h.n, 0);
		sl_script_free(s);
		sl_entry_free(e);
	}
	/* a hole as a key, and nested deep: read, the key unknown */
	sl_entry *e = entry_from("x --c '{'$K':1,\"a\":{\"b\":{\"c\":[{\"d\":\"'$X'\"}]}}}'\n");
	sl_script *s = parse_ok(e);
	json_t *j = NULL;
	sl_json_holes h;
	assert_int_equal(sl_json_parse_holes(e->script, &s->cmds[0].argv[2], &j, &h), 0);
	assert_int_equal(json_object_size(j), 2);
	assert_int_equal(sl_json_holes_in(&h, j), SL_WORD_SYMBOLIC);
	char *t = sl_json_holes_text(&h, j);
	assert_string_equal(t, "{$K:1,\"a\":{\"b\":{\"c\":[{\"d\":\"$X\"}]}}}");
	free(t);
	json_decref(j);
	sl_json_holes_free(&h);
	sl_script_free(s);
	sl_entry_free(e);
}

/* A random JSON value with holes into b (depth-bounded). */
static unsigned long lcg(unsigned long *r)
{
	*r = *r * 6364136223846793005UL + 1442695040888963407UL;
	return *r >> 33;
}

static void random_value(sl_buf *b, unsigned long *r, int depth)
{
	static const char *const leaves[] = {"1", "-2.5e3", "true", "null", "\"s\"", "\"x$Y\"", "$X", "${Z}",
					     "\"$(f \\\"a}\\\")\"", "$((1+2))", "`g`", "<port>", "\"a\\\"$Q\""};
	unsigned long c = lcg(r) % (depth > 3 ? 1 : 4);
	if (c == 0) {
		sl_buf_puts(b, leaves[lcg(r) % (sizeof leaves / sizeof *leaves)]);
	} else if (c == 1 || c == 2) {
		sl_buf_putc(b, '{');
		for (unsigned long i = 0, n = lcg(r) % 4; i < n; i++) {
			sl_buf_printf(b, "%s%s:", i ? "," : "", lcg(r) % 5 ? "\"k\"" : "$K");
			random_value(b, r, depth + 1);
		}
		sl_buf_putc(b, '}');
	} else {
		sl_buf_putc(b, '[');
		for (unsigned long i = 0, n = lcg(r) % 4; i < n; i++) {
			if (i)
				sl_buf_putc(b, ',');
			random_value(b, r, depth + 1);
		}
		sl_buf_putc(b, ']');
	}
}

/* Random JSON values with holes, thousands of them, half of them broken
 * (a byte dropped, a piece put in): each is refused or read as a value
 * whose holes all write back, never a crash (under the sanitizers, never
 * a bad read). Deterministic: a fixed LCG. */
static void test_json_holes_random(void **st)
{
	(void)st;
	static const char *const junk[] = {"{", "}", "[", "]", "\"", ":", ",", "\\", "$", "(", ")", "'",
					   "$X", "\xEE\x80\x80", "\\ue000", "<", ">"};
	unsigned long r = 12345;
	size_t read = 0, refused = 0;
	for (int t = 0; t < 4000; t++) {
		sl_buf b = {0};
		random_value(&b, &r, 0);
		if (lcg(&r) % 2 && b.len) {
			size_t at = lcg(&r) % b.len;
			const char *p = junk[lcg(&r) % (sizeof junk / sizeof *junk)];
			sl_buf m = {0};
			sl_buf_add(&m, b.data, at);
			if (lcg(&r) % 2)
				sl_buf_puts(&m, p);
			sl_buf_puts(&m, b.data + at + 1);
			sl_buf_free(&b);
			b = m;
		}
		char *text = sl_buf_detach(&b);
		sl_word w = {text, strlen(text), NULL, 0, (uint32_t)strlen(text), SL_WORD_SYMBOLIC | SL_WORD_PLACEHOLDER};
		json_t *j = NULL;
		sl_json_holes h;
		if (sl_json_parse_holes(NULL, &w, &j, &h)) {
			assert_null(j);
			assert_int_equal(h.n, 0);
			refused++;
		} else {
			read++;
			assert_non_null(j);
			assert_true(h.n > 0);
			char *back = sl_json_holes_text(&h, j);
			/* no marker is left in what is written back */
			assert_null(strstr(back, "\xEE\x80\x80"));
			free(back);
			json_decref(j);
			sl_json_holes_free(&h);
		}
		free(text);
	}
	/* the generator makes both, or the test holds nothing */
	assert_true(read > 500);
	assert_true(refused > 500);
}

static void test_source_rejects(void **st)
{
	(void)st;
	sl_source *s = NULL;
	sl_error err = {0};
	assert_int_not_equal(sl_source_from_memory("e.sh", "", 0, &s, &err), 0);
	assert_non_null(strstr(err.msg, "empty"));
	assert_int_not_equal(sl_source_from_memory("b.sh", "ab\0cd", 5, &s, &err), 0);
	assert_non_null(strstr(err.msg, "binary"));
	assert_int_equal(err.col, 3);
	assert_int_not_equal(sl_source_from_memory("u.sh", "ok\n\xff\n", 4, &s, &err), 0);
	assert_non_null(strstr(err.msg, "UTF-8"));
	assert_int_equal(err.line, 2);
	/* a multi-byte character counts as one column */
	assert_int_equal(sl_source_from_memory("m.sh", "# \xe2\x80\x94 x\n", 8, &s, &err), 0);
	unsigned l, c;
	sl_source_pos(s, 6, &l, &c);
	assert_int_equal(c, 5);
	sl_source_free(s);
	sl_error_clear(&err);
}

static void test_yaml(void **st)
{
	(void)st;
	sl_source *src;
	sl_error err = {0};
	const char *good = "a: 1\nb:\n  - x\n  - y\nc: {d: true}\n";
	assert_int_equal(sl_source_from_memory("g.yaml", good, strlen(good), &src, &err), 0);
	sl_yaml_doc *d;
	assert_int_equal(sl_yaml_load(src, &d, &err), 0);
	const sl_yaml_node *b = sl_yaml_get(d->root, "b");
	assert_int_equal(b->kind, SL_YAML_SEQ);
	assert_int_equal(b->n, 2);
	assert_int_equal(b->items[1]->line, 4);
	assert_int_equal(b->items[1]->col, 5);
	sl_yaml_free(d);
	sl_source_free(src);

	/* several documents, tags and styles */
	const char *multi = "a: 'x'\nb: !!str 8\n---\n- [1, 2]\n";
	assert_int_equal(sl_source_from_memory("m.yaml", multi, strlen(multi), &src, &err), 0);
	assert_int_equal(sl_yaml_load(src, &d, &err), 0);
	assert_int_equal(d->ndocs, 2);
	assert_false(sl_yaml_get(d->root, "a")->plain);
	assert_string_equal(sl_yaml_get(d->root, "b")->tag, "tag:yaml.org,2002:str");
	assert_int_equal(d->roots[1]->kind, SL_YAML_SEQ);
	assert_int_equal(d->roots[1]->line, 4);
	sl_yaml_free(d);
	sl_source_free(src);

	const char *dup = "a: 1\nb: 2\na: 3\n";
	assert_int_equal(sl_source_from_memory("d.yaml", dup, strlen(dup), &src, &err), 0);
	assert_int_not_equal(sl_yaml_load(src, &d, &err), 0);
	assert_non_null(strstr(err.msg, "duplicate YAML key `a`"));
	assert_int_equal(err.line, 3);
	sl_source_free(src);

	/* a billion-laughs document stops at the expansion limit */
	sl_buf bomb = {0};
	sl_buf_puts(&bomb, "a: &a [x, x, x, x, x, x, x, x, x, x]\n");
	for (char k = 'b'; k <= 'h'; k++)
		sl_buf_printf(&bomb, "%c: &%c [*%c, *%c, *%c, *%c, *%c, *%c, *%c, *%c, *%c, *%c]\n", k, k,
			      k - 1, k - 1, k - 1, k - 1, k - 1, k - 1, k - 1, k - 1, k - 1, k - 1);
	assert_int_equal(sl_source_from_memory("bomb.yaml", bomb.data, bomb.len, &src, &err), 0);
	assert_int_not_equal(sl_yaml_load(src, &d, &err), 0);
	assert_non_null(strstr(err.msg, "alias expansion limit"));
	sl_source_free(src);
	sl_buf_free(&bomb);
	sl_error_clear(&err);
}
/* The breaks of structure the reader records, each at its place: a blank
 * after a backslash, a comment line ending a continued command, a variable
 * set after a command read it (and not for a function's $1), and the
 * background of commands inside a statement run with &. */
static void test_structure_breaks(void **st)
{
	(void)st;
	sl_entry *e = entry_from("serve a \\ \n  --port 1\n"        /* 1, 2 */
				 "serve b \\\n  # --x \\\n  --port 2\n"  /* 3, 4, 5 */
				 "serve c --port $P &\nP=3\n"                /* 6, 7 */
				 "f() { serve d $1; }\nf 9 &\n"              /* 8, 9 */
				 "( serve e ) &\nserve f | tee log &\n");     /* 10, 11 */
	sl_script *s = parse_ok(e);
	assert_int_equal(s->nbreaks, 3);
	assert_string_equal(s->breaks[0].kind, "blank_after_backslash");
	assert_string_equal(pos_of(e->script, s->breaks[0].off), "1:9");
	assert_string_equal(s->breaks[1].kind, "comment_in_command");
	assert_string_equal(pos_of(e->script, s->breaks[1].off), "4:3");
	assert_string_equal(s->breaks[2].kind, "export_after_use");
	assert_string_equal(pos_of(e->script, s->breaks[2].off), "7:1");
	assert_string_equal(pos_of(e->script, s->breaks[2].cmd), "6:1");
	/* `f 9 &`, `( serve e ) &` and `serve f | tee log &` run their commands in the background */
	size_t bg = 0;
	for (size_t i = 0; i < s->ncmds; i++)
		if (s->cmds[i].argc > 1 && !strcmp(s->cmds[i].argv[0].text, "serve") && s->cmds[i].background)
			bg++;
	assert_int_equal(bg, 4);  /* c, d, e, f */
	sl_script_free(s);
	sl_entry_free(e);
}

/* symbols.c's one pass gives each node kind the id tree-sitter's own
 * lookup by name gives (the id ts_node_symbol returns), and finds every one */
static void test_symbols(void **st)
{
	(void)st;
	sh_symbols_init();
	const TSLanguage *l = tree_sitter_bash();
#define K(n)                                                                                   \
	do {                                                                                   \
		assert_int_not_equal(sh_sym.n, 0);                                              \
		assert_int_equal(sh_sym.n, ts_language_symbol_for_name(l, #n, sizeof #n - 1, true)); \
	} while (0)
	K(ansi_c_string);
	K(arithmetic_expansion);
	K(array);
	K(binary_expression);
	K(brace_expression);
	K(c_style_for_statement);
	K(case_item);
	K(case_statement);
	K(command);
	K(command_name);
	K(command_substitution);
	K(comment);
	K(compound_statement);
	K(concatenation);
	K(declaration_command);
	K(do_group);
	K(elif_clause);
	K(else_clause);
	K(expansion);
	K(file_redirect);
	K(for_statement);
	K(function_definition);
	K(heredoc_body);
	K(heredoc_redirect);
	K(heredoc_start);
	K(herestring_redirect);
	K(if_statement);
	K(list);
	K(number);
	K(parenthesized_expression);
	K(pipeline);
	K(process_substitution);
	K(program);
	K(raw_string);
	K(redirected_statement);
	K(simple_expansion);
	K(special_variable_name);
	K(string);
	K(string_content);
	K(subscript);
	K(subshell);
	K(ternary_expression);
	K(test_command);
	K(translated_string);
	K(unary_expression);
	K(unset_command);
	K(variable_assignment);
	K(variable_name);
	K(while_statement);
	K(word);
#undef K
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_symbols),
		cmocka_unit_test(test_quotes_and_expansion),
		cmocka_unit_test(test_placeholders),
		cmocka_unit_test(test_env_forms),
		cmocka_unit_test(test_for_loop_unrolled),
		cmocka_unit_test(test_comment_blocks),
		cmocka_unit_test(test_bash_c_origins),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_json_error_position),
		cmocka_unit_test(test_json_holes),
		cmocka_unit_test(test_json_holes_malformed),
		cmocka_unit_test(test_json_holes_random),
		cmocka_unit_test(test_source_rejects),
		cmocka_unit_test(test_yaml),
		cmocka_unit_test(test_word_splitting),
		cmocka_unit_test(test_arrays),
		cmocka_unit_test(test_arithmetic_and_defaults),
		cmocka_unit_test(test_set_bindings),
		cmocka_unit_test(test_heredocs),
		cmocka_unit_test(test_redirect_words),
		cmocka_unit_test(test_script_errors),
		cmocka_unit_test(test_reassign_from_self),
		cmocka_unit_test(test_argument_loop),
		cmocka_unit_test(test_unset),
		cmocka_unit_test(test_source_reads_sibling),
		cmocka_unit_test(test_source_forgets),
		cmocka_unit_test(test_stateless_points),
		cmocka_unit_test(test_blanks_between_expansions),
		cmocka_unit_test(test_late_exports),
		cmocka_unit_test(test_poll_probe),
		cmocka_unit_test(test_numeric_thresholds),
		cmocka_unit_test(test_variants),
		cmocka_unit_test(test_implied_strings),
		cmocka_unit_test(test_covering),
		cmocka_unit_test(test_functions),
		cmocka_unit_test(test_structure_breaks),
	};
	return cmocka_run_group_tests_name("shell", tests, NULL, NULL);
}
