/* cmd.h: one function per subcommand (as git's builtin/); main.c dispatches. */
#ifndef SL_CMD_H
#define SL_CMD_H

/* Exit codes, as ShellCheck and the DESIGN say: 0 clean, 1 findings or
 * differences, 2 usage or input errors. */
enum { SL_EXIT_OK = 0, SL_EXIT_FINDINGS = 1, SL_EXIT_ERROR = 2 };

int sl_cmd_show(int argc, char **argv);
int sl_cmd_import(int argc, char **argv);
int sl_cmd_check(int argc, char **argv);
int sl_cmd_rules(int argc, char **argv);
int sl_cmd_diff(int argc, char **argv);
int sl_cmd_matrix(int argc, char **argv);
int sl_cmd_log(int argc, char **argv);
int sl_cmd_review(int argc, char **argv);
int sl_cmd_run(int argc, char **argv);


#endif
