/*
 * ts_parse_baseline.c: the bench's baseline. It reads each file named on the
 * command line and parses it with tree-sitter-bash, nothing more, so that
 * `servelint show` over the same bytes can be compared against the bare
 * parse in one run (bench/run.sh).
 */
#include <stdio.h>
#include <stdlib.h>
#include <tree_sitter/api.h>

const TSLanguage *tree_sitter_bash(void);

int main(int argc, char **argv)
{
	TSParser *p = ts_parser_new();
	ts_parser_set_language(p, tree_sitter_bash());
	unsigned long nodes = 0;
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		if (!f) {
			perror(argv[i]);
			return 2;
		}
		fseek(f, 0, SEEK_END);
		long n = ftell(f);
		fseek(f, 0, SEEK_SET);
		char *buf = malloc((size_t)n + 1);
		if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
			fclose(f);
			return 2;
		}
		fclose(f);
		TSTree *t = ts_parser_parse_string(p, NULL, buf, (uint32_t)n);
		nodes += ts_node_child_count(ts_tree_root_node(t));
		ts_tree_delete(t);
		free(buf);
	}
	ts_parser_delete(p);
	printf("%lu\n", nodes);
	return 0;
}
