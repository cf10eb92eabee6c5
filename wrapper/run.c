#include "run.h"
#include "strvec.h"
#include "tmp.h"
#include "util.h"

#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static volatile sig_atomic_t caught_signal;
static volatile pid_t child_pid;

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
	tmp_cleanup_from_signal();
	signal(sig, SIG_DFL);
	raise(sig);
}

void run_install_signal_handlers(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct sigaction old;

		/* A signal ignored by our parent (nohup, background jobs) stays ignored. */
		if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;
		sigaction(sigs[i], &sa, NULL);
	}
}

/* After a child ended because we were signalled: clean up, then die the same way. */
static void die_if_signalled(void)
{
	int sig = caught_signal;

	if (!sig)
		return;
	tmp_cleanup();
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
	size_t len = 0, cap = 8192;
	char *buf = xmalloc(cap);

	for (;;) {
		ssize_t got;

		if (len + 1 >= cap) {
			cap *= 2;
			buf = xrealloc(buf, cap);
		}
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

/* Spawn ARGV; with OUT, its stdout goes to a pipe that is read into *OUT. */
static int spawn_and_wait(char *const *argv, char *const *envp, char **out)
{
	posix_spawn_file_actions_t actions;
	posix_spawnattr_t attr;
	int fds[2] = { -1, -1 };
	pid_t pid;
	int rc, status;

	if (out) {
		*out = NULL;
		if (pipe(fds) != 0)
			return error("pipe: %s", strerror(errno)), -1;
	}
	posix_spawn_file_actions_init(&actions);
	if (out) {
		posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
		posix_spawn_file_actions_addclose(&actions, fds[0]);
		posix_spawn_file_actions_addclose(&actions, fds[1]);
	}
	/* A process group of its own, so a signal reaches all it starts. */
	posix_spawnattr_init(&attr);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
	posix_spawnattr_setpgroup(&attr, 0);
	run_trace(argv);
	rc = posix_spawn(&pid, argv[0], &actions, &attr, argv,
			 envp ? envp : environ);
	posix_spawn_file_actions_destroy(&actions);
	posix_spawnattr_destroy(&attr);
	if (out)
		close(fds[1]);
	if (rc != 0) {
		if (out)
			close(fds[0]);
		error("cannot run %s: %s", argv[0], strerror(rc));
		return -1;
	}
	child_pid = pid;
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
