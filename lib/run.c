#include "run.h"
#include "strvec.h"
#include "tmp.h"
#include "util.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static volatile sig_atomic_t caught_signal;
static volatile pid_t child_pid;

/* What lto-ld forwards to the tool's process group, then dies of. */
static const int forwarded[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
#define NFORWARDED (sizeof(forwarded) / sizeof(forwarded[0]))
/* Those our caller left ignored (nohup, background jobs): the tools inherit that. */
static sigset_t ignored_by_caller;

static void on_signal(int sig)
{
	caught_signal = sig;
	if (child_pid > 0) {
		/*
		 * The child and what it started (lto-wrapper, make, lto1) form
		 * their own process group: they die first, then
		 * spawn_and_wait() cleans up after them.
		 */
		kill(-child_pid, sig);
		return;
	}
	exit_hooks_run_from_signal();
	signal(sig, SIG_DFL);
	raise(sig);
}

void run_install_signal_handlers(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigemptyset(&ignored_by_caller);
	for (size_t i = 0; i < NFORWARDED; i++) {
		struct sigaction old;

		/* A signal ignored by our parent (nohup, background jobs) stays ignored. */
		if (sigaction(forwarded[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN) {
			sigaddset(&ignored_by_caller, forwarded[i]);
			continue;
		}
		sigaction(forwarded[i], &sa, NULL);
	}
}

/* After a child ended because we were signalled: clean up, then die the same way. */
static void die_if_signalled(void)
{
	int sig = caught_signal;

	if (!sig)
		return;
	exit_hooks_run();
	signal(sig, SIG_DFL);
	raise(sig);
	_exit(128 + sig);
}

void run_trace(char *const *argv)
{
	if (!verbose)
		return;
	fprintf(stderr, "%s: running:", progname);
	for (; *argv; argv++)
		fprintf(stderr, " %s", *argv);
	fputc('\n', stderr);
}

/* Read FD to EOF into a malloc'd, NUL-terminated buffer. */
static char *read_all(int fd)
{
	size_t len = 0, cap = 0;
	char *buf = NULL;

	for (;;) {
		ssize_t got;

		ALLOC_GROW(buf, len + 8192, cap);	/* room to read, and the NUL */
		got = read(fd, buf + len, cap - len - 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		len += (size_t)got;
	}
	buf[len] = '\0';
	return buf;
}

/* ---- the keeper: a process group that dies with lto-ld ---- */

static void kill_own_group(int sig)
{
	(void)sig;
	kill(0, SIGKILL);
}

static void block_forwarded(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	for (size_t i = 0; i < NFORWARDED; i++)
		sigaddset(&set, forwarded[i]);
	sigprocmask(SIG_BLOCK, &set, old);
}

/* In the tool's process, before exec: the dispositions and mask lto-ld got. */
static void restore_signals(const sigset_t *mask)
{
	for (size_t i = 0; i < NFORWARDED; i++)
		signal(forwarded[i], sigismember(&ignored_by_caller, forwarded[i])
				     ? SIG_IGN : SIG_DFL);
	signal(SIGUSR1, SIG_DFL);
	sigprocmask(SIG_SETMASK, mask, NULL);
}

/* Die the way the tool did, so lto-ld sees the same status. */
static _Noreturn void exit_like(int status)
{
	struct rlimit no_core = { 0, 0 };

	if (WIFSIGNALED(status)) {
		setrlimit(RLIMIT_CORE, &no_core);	/* the tool's core is enough */
		signal(WTERMSIG(status), SIG_DFL);
		raise(WTERMSIG(status));
		_exit(128 + WTERMSIG(status));
	}
	_exit(WEXITSTATUS(status));
}

/*
 * The keeper, lto-ld's child: leader of a new process group, it runs the
 * tool in it and waits.  Signals lto-ld forwards reach the whole group
 * (the keeper ignores them and waits for the tool); when lto-ld itself is
 * killed (SIGKILL of its caller's group), PR_SET_PDEATHSIG tells the
 * keeper, which kills the group: nothing runs on without lto-ld.
 */
static _Noreturn void keeper(char *const *argv, char *const *envp, int out_fd,
			     pid_t lto_ld, const sigset_t *mask)
{
	struct sigaction sa;
	pid_t tool;
	int status;

	setpgid(0, 0);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = kill_own_group;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	prctl(PR_SET_PDEATHSIG, SIGUSR1);
	if (getppid() != lto_ld)
		kill(0, SIGKILL);	/* lto-ld died before prctl() */
	for (size_t i = 0; i < NFORWARDED; i++)
		signal(forwarded[i], SIG_IGN);
	if (out_fd >= 0 && out_fd != STDOUT_FILENO) {
		dup2(out_fd, STDOUT_FILENO);
		close(out_fd);
	}
	tool = fork();
	if (tool == 0) {
		restore_signals(mask);
		execve(argv[0], argv, envp);
		error("cannot run %s: %s", argv[0], strerror(errno));
		_exit(127);
	}
	if (tool < 0) {
		error("cannot run %s: %s", argv[0], strerror(errno));
		_exit(127);
	}
	sigprocmask(SIG_SETMASK, mask, NULL);
	while (waitpid(tool, &status, 0) < 0)
		if (errno != EINTR)
			_exit(127);
	exit_like(status);
}

/*
 * Start ARGV under a keeper; the PID recorded for the signal handler is
 * the keeper's, its process group's.  Forwarded signals stay blocked
 * until it is recorded: one arriving in between is handled after that.
 */
static pid_t start_keeper(char *const *argv, char *const *envp, int out_fd,
			  int close_fd)
{
	pid_t lto_ld = getpid(), pid;
	sigset_t old;

	fflush(stdout);
	block_forwarded(&old);
	pid = fork();
	if (pid == 0) {
		if (close_fd >= 0)
			close(close_fd);
		keeper(argv, envp ? envp : environ, out_fd, lto_ld, &old);
	}
	if (pid > 0) {
		setpgid(pid, pid);	/* whichever of the two runs first */
		child_pid = pid;
	} else {
		error("cannot run %s: %s", argv[0], strerror(errno));
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return pid;
}

/* Spawn ARGV; with OUT, its stdout goes to a pipe that is read into *OUT. */
static int spawn_and_wait(char *const *argv, char *const *envp, char **out)
{
	int fds[2] = { -1, -1 };
	pid_t pid;
	int status;

	if (out) {
		*out = NULL;
		if (pipe(fds) != 0)
			return error("pipe: %s", strerror(errno)), -1;
	}
	run_trace(argv);
	pid = start_keeper(argv, envp, fds[1], fds[0]);
	if (out)
		close(fds[1]);
	if (pid < 0) {
		if (out)
			close(fds[0]);
		return -1;
	}
	if (out) {
		*out = read_all(fds[0]);
		close(fds[0]);
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			child_pid = 0;
			error("waiting for %s: %s", argv[0], strerror(errno));
			return -1;
		}
	}
	child_pid = 0;
	die_if_signalled();
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

int run_wait(char *const *argv, char *const *envp)
{
	return spawn_and_wait(argv, envp, NULL);
}

int run_capture(char *const *argv, char **out)
{
	return spawn_and_wait(argv, NULL, out);
}

void run_exec(char *const *argv, char *const *envp)
{
	run_trace(argv);
	execve(argv[0], argv, envp ? envp : environ);
	error("cannot run %s: %s", argv[0], strerror(errno));
}

void env_with(struct strvec *env, char *const *settings)
{
	for (char **e = environ; *e; e++) {
		bool replaced = false;

		for (char *const *s = settings; *s; s++) {
			size_t name_len = strcspn(*s, "=") + 1;

			if (!strncmp(*e, *s, name_len))
				replaced = true;
		}
		if (!replaced)
			strvec_push(env, *e);
	}
	strvec_pushv(env, settings);
}

char *run_quote_arg(const char *arg)
{
	char *quoted = xmalloc(2 * strlen(arg) + 3), *q = quoted;

	if (!*arg) {
		strcpy(quoted, "''");
		return quoted;
	}
	for (; *arg; arg++) {
		if (strchr(" \t\n\r\f\v\\'\"", *arg))
			*q++ = '\\';
		*q++ = *arg;
	}
	*q = '\0';
	return quoted;
}

char *run_response_file(const char *path, char *const *args)
{
	FILE *f = fopen(path, "w");

	if (!f) {
		error("cannot write the response file %s: %s", path,
		      strerror(errno));
		return NULL;
	}
	for (; *args; args++) {
		char *q = run_quote_arg(*args);

		fprintf(f, "%s\n", q);
		free(q);
	}
	if (fclose(f) != 0) {
		error("cannot write the response file %s: %s", path,
		      strerror(errno));
		return NULL;
	}
	return xasprintf("@%s", path);
}

int run_fit_argv(struct strvec *argv, size_t first, const char *name)
{
	struct strvec rest = STRVEC_INIT;
	char *rsp, *at;

	if (strvec_bytes(argv) <= ARGV_INLINE_MAX)
		return 0;
	rsp = tmp_file(name);
	at = rsp ? run_response_file(rsp, argv->v + first) : NULL;
	if (!at)
		return 1;
	for (size_t i = 0; i < first; i++)
		strvec_push(&rest, argv->v[i]);
	strvec_push_nodup(&rest, at);
	strvec_clear(argv);
	*argv = rest;
	return 0;
}
