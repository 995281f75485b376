/* main.c: servelint's entry point; it only dispatches to a subcommand. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "util/util.h"

static void usage(FILE *f)
{
	fputs("usage: servelint <command> [options] [args]\n"
	      "       servelint help <command> | --help | --version\n"
	      "\n"
	      "A static analyzer for LLM-serving launch configurations (vLLM, SGLang,\n"
	      "TensorRT-LLM, NVIDIA Dynamo; under docker, mpirun, bash).\n"
	      "\n"
	      "commands:\n"
	      "  show      print the normalized model of entries\n"
	      "  check     check entries against the rules\n"
	      "  rules     list the rules, or explain one\n"
	      "  diff      the semantic difference of two entries (files, folders, REV:path)\n"
	      "  matrix    entries side by side: the keys whose values differ\n"
	      "  log       the semantic history of an entry through git commits\n"
	      "  review    a change's semantic diffs and only the findings it introduces\n"
	      "  audit     a whole catalogue: every entry, entries against each other, HTML report\n"
	      "  import    split published catalogue pages into entry folders\n"
	      "  run       start an entry (or some of its services) and time it\n"
	      "  init      write a commented starter .servelint.yaml\n"
	      "\n"
	      "`servelint help <command>` (or `servelint <command> --help`) describes a command.\n"
	      "Exit status: 0 clean, 1 findings or differences, 2 input errors, 3 usage errors.\n",
	      f);
}

typedef struct {
	const char *name;
	int (*fn)(int, char **);
} command;

static const command cmds[] = {
	{"show", sl_cmd_show},     {"import", sl_cmd_import}, {"check", sl_cmd_check},
	{"rules", sl_cmd_rules},   {"diff", sl_cmd_diff},     {"matrix", sl_cmd_matrix},
	{"log", sl_cmd_log},       {"review", sl_cmd_review}, {"run", sl_cmd_run},
	{"audit", sl_cmd_audit},   {"init", sl_cmd_init},
};

static const command *find(const char *name)
{
	for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++)
		if (!strcmp(name, cmds[i].name))
			return &cmds[i];
	return NULL;
}

/* Whether `man -w PAGE` finds the page: it is installed. */
static int man_page_installed(const char *page)
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0)
		return 0;
	if (pid == 0) {
		/* descriptors, not streams: stdout is the control-character
		 * filter's stream (sl_stdout_visible), which freopen cannot reopen */
		int dn = open("/dev/null", O_WRONLY);
		if (dn < 0 || dup2(dn, 1) < 0 || dup2(dn, 2) < 0)
			_exit(127);
		execlp("man", "man", "-w", page, (char *)NULL);
		_exit(127);
	}
	int st;
	while (waitpid(pid, &st, 0) < 0)
		;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

/* `servelint help CMD`: its man page when installed (as git help), else
 * its --help. */
static int help(const char *name)
{
	const command *c = find(name);
	if (!c) {
		fprintf(stderr, "servelint help: unknown command `%s`\n", name);
		usage(stderr);
		return SL_EXIT_USAGE;
	}
	char page[64];
	snprintf(page, sizeof page, "servelint-%s", name);
	if (man_page_installed(page)) {
		execlp("man", "man", page, (char *)NULL);
		perror("servelint help: man"); /* fall back to the short help */
	}
	char *args[] = {(char *)name, "--help", NULL};
	return c->fn(2, args);
}

int main(int argc, char **argv)
{
	/* the input's control characters never reach a terminal raw */
	sl_stdout_visible();
	if (argc < 2) {
		usage(stderr);
		return SL_EXIT_USAGE;
	}
	const char *a = argv[1];
	if (!strcmp(a, "-h") || !strcmp(a, "--help") || (!strcmp(a, "help") && argc == 2)) {
		usage(stdout);
		return SL_EXIT_OK;
	}
	if (!strcmp(a, "help")) {
		if (argc > 3) {
			fprintf(stderr, "servelint help: one command at a time\n");
			return SL_EXIT_USAGE;
		}
		return help(argv[2]);
	}
	if (!strcmp(a, "-V") || !strcmp(a, "--version") || !strcmp(a, "version"))
		return sl_cmd_version();
	const command *c = find(a);
	if (c)
		return c->fn(argc - 1, argv + 1);
	fprintf(stderr, "servelint: unknown %s `%s`\n", a[0] == '-' ? "option" : "command", a);
	usage(stderr);
	return SL_EXIT_USAGE;
}
