/* The outputs lto-ld writes: prepared, renamed, removed after a failure. */
#include "outputs.h"
#include "tmp.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * One rule for every output: only a regular file, not reached through a
 * symbolic link, or a name that does not exist yet, is replaced by a
 * rename; anything else is handed to its writer in place.  A symbolic
 * link may lead anywhere: /dev/stdout leads to a regular file when
 * stdout is redirected, and renaming onto its name would replace the
 * link in /dev.  In place, each writer keeps its own habit: the report
 * goes through the link (to whatever stdout is); ld replaces a link to
 * a non-empty file, as it does without lto-ld, and the thin ld -r
 * writer does as ld.  A device (/dev/null) or a FIFO cannot be renamed
 * onto.
 */
const char *output_prepare(const char *path, const char *what)
{
	struct stat st;
	char *dir;

	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		error("cannot write %s%s: %s", what, path, strerror(EISDIR));
		return NULL;
	}
	if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return path;
	dir = dir_name(path);
	if (access(dir, W_OK | X_OK) != 0) {
		error("cannot write %s%s: %s", what, path, strerror(errno));
		free(dir);
		return NULL;
	}
	free(dir);
	return tmp_output_create(path, NULL);
}

int output_finish(int rc, const char *output)
{
	if (rc != 0)
		return rc > 0 ? rc : 1;
	return tmp_output_commit(output);
}

/*
 * A link that failed leaves no output, as GNU ld's (its
 * unlink_if_ordinary): not the one from before, which a make would take
 * for this link's.  A device (/dev/null) or FIFO is left alone.
 */
void output_remove_failed(const char *output)
{
	struct stat st;

	if (lstat(output, &st) == 0 && (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode)) &&
	    unlink(output) == 0)
		trace("the link failed: %s removed", output);
}
