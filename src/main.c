/* main.c: servelint's entry point; it only dispatches to a subcommand. */
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "util/util.h"

#define SL_VERSION "0.1.0"

static void usage(FILE *f)
{
	fputs("usage: servelint <command> [options] [args]\n"
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
	      "\n"
	      "`servelint <command> --help` describes a command.\n",
	      f);
}

int main(int argc, char **argv)
{
	static const struct { const char *name; int (*fn)(int, char **); } cmds[] = {
		{"show", sl_cmd_show},
		{"import", sl_cmd_import},
		{"check", sl_cmd_check},
		{"rules", sl_cmd_rules},
		{"diff", sl_cmd_diff},
		{"matrix", sl_cmd_matrix},
		{"log", sl_cmd_log},
		{"review", sl_cmd_review},
		{"run", sl_cmd_run},
		{"audit", sl_cmd_audit},
	};
	/* the input's control characters never reach a terminal raw */
	sl_stdout_visible();
	if (argc < 2) {
		usage(stderr);
		return 3; /* usage, as in every command */
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return SL_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("servelint %s\n", SL_VERSION);
		return SL_EXIT_OK;
	}
	for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++)
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "servelint: unknown command `%s`\n", argv[1]);
	usage(stderr);
	return 3;
}
