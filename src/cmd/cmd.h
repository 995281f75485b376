/* cmd.h: one function per subcommand (as git's builtin/); main.c dispatches. */
#ifndef SL_CMD_H
#define SL_CMD_H

/* Exit codes, the same in every command (docs/servelint.md, EXIT STATUS):
 * 0 clean or equal, 1 findings or differences, 2 an input (or output)
 * error, 3 a usage error. */
enum { SL_EXIT_OK = 0, SL_EXIT_FINDINGS = 1, SL_EXIT_ERROR = 2, SL_EXIT_USAGE = 3 };

/* `servelint VERSION` on standard output (--version, -V); SL_EXIT_OK. */
int sl_cmd_version(void);

int sl_cmd_show(int argc, char **argv);
int sl_cmd_import(int argc, char **argv);
int sl_cmd_check(int argc, char **argv);
int sl_cmd_rules(int argc, char **argv);
int sl_cmd_diff(int argc, char **argv);
int sl_cmd_matrix(int argc, char **argv);
int sl_cmd_log(int argc, char **argv);
int sl_cmd_review(int argc, char **argv);
int sl_cmd_run(int argc, char **argv);
int sl_cmd_audit(int argc, char **argv);
int sl_cmd_init(int argc, char **argv);


#endif
