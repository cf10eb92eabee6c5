#include "progs.h"
#include "run.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Is PATH this very program (same inode), reached through any name? */
static bool is_self(const char *path)
{
	struct stat self, other;

	if (stat("/proc/self/exe", &self) != 0 || stat(path, &other) != 0)
		return false;
	return self.st_dev == other.st_dev && self.st_ino == other.st_ino;
}

char *find_program(const char *name)
{
	const char *path_env = getenv("PATH");
	char *copy, *dir, *save = NULL, *found = NULL;

	if (strchr(name, '/')) {
		if (!is_executable(name) || is_self(name))
			return NULL;
		return xstrdup(name);
	}
	copy = xstrdup(path_env && *path_env ? path_env : "/usr/bin:/bin");
	for (dir = strtok_r(copy, ":", &save); dir && !found;
	     dir = strtok_r(NULL, ":", &save)) {
		char *candidate = path_join(*dir ? dir : ".", name);

		if (is_executable(candidate) && !is_self(candidate))
			found = candidate;
		else
			free(candidate);
	}
	free(copy);
	return found;
}

char *gcc_ask(const char *cc, const char *arg)
{
	char *argv[] = { (char *)cc, (char *)arg, NULL };
	char *out = NULL;
	size_t len;

	if (run_capture(argv, &out) != 0) {
		free(out);
		return NULL;
	}
	len = strcspn(out, "\n");
	out[len] = '\0';
	if (len == 0) {
		free(out);
		return NULL;
	}
	return out;
}

char *gcc_lto_plugin(const char *cc)
{
	char *path = gcc_ask(cc, "-print-file-name=liblto_plugin.so");

	/* Not found, gcc echoes the bare name back. */
	if (path && (path[0] != '/' || !is_regular_file(path))) {
		free(path);
		path = NULL;
	}
	return path;
}
