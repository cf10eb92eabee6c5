#include "tmp.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAX_TMP_FILES 64
#define MAX_OUTPUTS 4	/* the link's output and the --lto-report file */

static char *dir_path;
/* Outputs written under a temporary name, renamed when committed. */
static struct {
	char *final;
	char *volatile tmp;	/* NULL once committed or removed */
} outputs[MAX_OUTPUTS];
static volatile int noutputs;
static bool keep_files;
/* Files lto-ld itself created in dir_path, for the signal-safe cleanup. */
static char *own_files[MAX_TMP_FILES];
static volatile int own_count;

void tmp_keep(bool keep)
{
	keep_files = keep;
}

/* Whatever ends the run (exit, fatal(), a signal) cleans up once there is something. */
static void register_cleanup(void)
{
	static bool registered;

	if (!registered)
		exit_hook_add(tmp_cleanup, tmp_cleanup_from_signal);
	registered = true;
}

static void remove_tree(const char *path);

/*
 * What a killed run (SIGKILL: no cleanup) left in DIR: entries named
 * PREFIX, PID, SEP and SUFFIX_LEN characters, of type TYPE (S_IFDIR or
 * S_IFREG), owned by us, whose PID no longer runs.
 */
static void remove_stale(const char *dir, const char *prefix, char sep,
			 size_t suffix_len, mode_t type)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		const char *digits = de->d_name + strlen(prefix);
		char *end, *path;
		long pid;
		struct stat st;

		if (!starts_with(de->d_name, prefix))
			continue;
		pid = strtol(digits, &end, 10);
		if (end == digits || *end != sep || strlen(end + 1) != suffix_len ||
		    pid <= 0 || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;	/* not such a name, or its run is alive */
		path = path_join(dir, de->d_name);
		if (lstat(path, &st) == 0 && (st.st_mode & S_IFMT) == type &&
		    st.st_uid == getuid()) {
			trace("removing %s, left by a run that was killed", path);
			if (type == S_IFDIR)
				remove_tree(path);
			else
				unlink(path);
		}
		free(path);
	}
	closedir(d);
}

const char *tmp_dir(void)
{
	const char *base = getenv("TMPDIR");
	char *templ;

	if (dir_path)
		return dir_path;
	register_cleanup();
	if (!base || !*base)
		base = "/tmp";
	remove_stale(base, "lto-ld-", '.', 6, S_IFDIR);
	/* the PID tells a later run whether this one is still alive */
	templ = xasprintf("%s/lto-ld-%ld.XXXXXX", base, (long)getpid());
	if (!mkdtemp(templ)) {
		error("cannot create a temporary directory in %s: %s", base,
		      strerror(errno));
		free(templ);
		return NULL;
	}
	dir_path = templ;
	return dir_path;
}

char *tmp_file(const char *name)
{
	const char *dir = tmp_dir();
	char *path;

	if (!dir)
		return NULL;
	path = path_join(dir, name);
	if (own_count < MAX_TMP_FILES) {
		own_files[own_count] = path;
		own_count++;
	}
	return path;
}

static int output_slot(const char *output)
{
	for (int i = 0; i < noutputs; i++)
		if (!strcmp(outputs[i].final, output))
			return i;
	return -1;
}

/* Eight letters nobody can guess: the kernel's randomness, else time and PID. */
static void random_suffix(char *buf)
{
	static const char letters[] = "abcdefghijklmnopqrstuvwxyz0123456789";
	unsigned char bytes[8];

	if (getrandom(bytes, sizeof(bytes), GRND_NONBLOCK) != (ssize_t)sizeof(bytes)) {
		struct timespec ts;
		uint64_t mix;

		clock_gettime(CLOCK_REALTIME, &ts);
		mix = (uint64_t)ts.tv_nsec * 6364136223846793005u ^
		      (uint64_t)getpid() << 32 ^ (uint64_t)ts.tv_sec;
		memcpy(bytes, &mix, sizeof(bytes));
	}
	for (size_t i = 0; i < sizeof(bytes); i++)
		buf[i] = letters[bytes[i] % (sizeof(letters) - 1)];
	buf[sizeof(bytes)] = '\0';
}

/*
 * Create DIR/.BASE.lto-ld-PID-XXXXXXXX: O_EXCL and O_NOFOLLOW, so a file or
 * symbolic link planted under that name is never written through.
 */
static char *create_unique(const char *dir, const char *prefix, int *fd)
{
	for (int attempt = 0; attempt < 100; attempt++) {
		char suffix[9], *name, *path;

		random_suffix(suffix);
		name = xasprintf("%s%ld-%s", prefix, (long)getpid(), suffix);
		path = path_join(dir, name);
		free(name);
		*fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
				 O_CLOEXEC, 0666);
		if (*fd >= 0)
			return path;
		free(path);
		if (errno != EEXIST)
			break;
	}
	return NULL;
}

char *tmp_output_create(const char *output, int *fd_out)
{
	char *dir = dir_name(output);
	char *prefix = xasprintf(".%s.lto-ld-", base_name(output));
	int i = output_slot(output), fd;
	char *old, *tmp;

	register_cleanup();
	remove_stale(dir, prefix, '-', 8, S_IFREG);
	tmp = create_unique(dir, prefix, &fd);
	if (!tmp)
		error("cannot create a temporary file for %s in %s: %s",
		      output, dir, strerror(errno));
	free(prefix);
	free(dir);
	if (!tmp)
		return NULL;
	if (i < 0) {
		if (noutputs == MAX_OUTPUTS)
			fatal("more than %d outputs", MAX_OUTPUTS);
		i = noutputs;
		outputs[i].final = xstrdup(output);
		outputs[i].tmp = NULL;
		noutputs = i + 1;
	}
	old = outputs[i].tmp;
	outputs[i].tmp = tmp;	/* set before the old one is removed */
	if (old)
		unlink(old);
	free(old);
	if (fd_out)
		*fd_out = fd;
	else
		close(fd);
	return tmp;
}

int tmp_output_commit(const char *output)
{
	struct stat st;
	int i = output_slot(output);
	char *tmp;

	if (i < 0 || !outputs[i].tmp)
		return 0;
	tmp = outputs[i].tmp;
	/* what is renamed into place must still be the file the tool wrote */
	if (lstat(tmp, &st) != 0 || !S_ISREG(st.st_mode))
		return error("%s: the temporary file for %s was replaced or "
			     "removed; not renamed", tmp, output);
	if (rename(tmp, output) != 0)
		return error("cannot rename %s to %s: %s", tmp, output,
			     strerror(errno));
	outputs[i].tmp = NULL;
	free(tmp);
	return 0;
}

/* rm -r for the private directory: it holds files and lto-wrapper's subdirectories. */
static void remove_tree(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *de;

	if (!d) {
		unlink(path);
		return;
	}
	while ((de = readdir(d))) {
		char *child;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		child = path_join(path, de->d_name);
		if (de->d_type == DT_DIR)
			remove_tree(child);
		else
			unlink(child);
		free(child);
	}
	closedir(d);
	rmdir(path);
}

void tmp_cleanup(void)
{
	for (int i = 0; i < noutputs; i++) {
		char *tmp = outputs[i].tmp;

		if (tmp)
			unlink(tmp);	/* before the signal handler loses it */
		outputs[i].tmp = NULL;
		free(tmp);
	}
	if (!dir_path)
		return;
	if (keep_files)
		fprintf(stderr, "%s: temporary files kept in %s\n", progname,
			dir_path);
	else
		remove_tree(dir_path);
	for (int i = 0; i < own_count; i++)
		free(own_files[i]);
	own_count = 0;
	free(dir_path);
	dir_path = NULL;
}

void tmp_cleanup_from_signal(void)
{
	for (int i = 0; i < noutputs; i++)
		if (outputs[i].tmp)
			unlink(outputs[i].tmp);
	if (!dir_path || keep_files)
		return;
	for (int i = 0; i < own_count; i++)
		unlink(own_files[i]);
	rmdir(dir_path);
}
