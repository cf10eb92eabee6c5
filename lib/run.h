/* Running other programs: argv arrays only, never a shell. */
#ifndef LTO_LD_RUN_H
#define LTO_LD_RUN_H

#include <stddef.h>

struct strvec;

/*
 * Catch SIGINT, SIGTERM, SIGHUP and SIGQUIT: forward them to the running
 * child's process group and, once it is gone, remove the temporary files
 * and die by the same signal.  The child's group is killed when lto-ld
 * dies of SIGKILL too.
 */
void run_install_signal_handlers(void);

/*
 * Run ARGV (argv[0] is a path) with environment ENVP (NULL: inherit) and
 * wait.  Returns the exit status, 128+N when killed by signal N, or -1 when
 * it could not be started (the reason is printed).
 */
int run_wait(char *const *argv, char *const *envp);

/* Like run_wait, but stdout is collected into *OUT (NUL-terminated, malloc'd). */
int run_capture(char *const *argv, char **out);

/* Replace this process by ARGV; only returns after printing why it failed. */
void run_exec(char *const *argv, char *const *envp);

/* Copy of the current environment with NAME=VALUE settings applied. */
void env_with(struct strvec *env, char *const *settings);

/* Print ARGV as one line on stderr when LTO_LD_VERBOSE is set. */
void run_trace(char *const *argv);

/*
 * Response files, as ld, ar and objcopy read them (libiberty's rules;
 * ld_split_response in wrapper/ldopts.c reads them back).
 */
/* Past this many bytes of arguments, they go to a response file. */
#define ARGV_INLINE_MAX (64 * 1024)
/* Quote one argument so that the response-file reader gives it back unchanged. */
char *run_quote_arg(const char *arg);
/* Write ARGS (NULL-terminated) to PATH, one quoted per line; returns "@PATH". */
char *run_response_file(const char *path, char *const *args);
/*
 * When ARGV is longer than ARGV_INLINE_MAX, move ARGV[FIRST..] into the
 * temporary response file NAME (tmp.h) and put "@FILE" in their place.
 * 0, or 1 after an error.
 */
int run_fit_argv(struct strvec *argv, size_t first, const char *name);

#endif
