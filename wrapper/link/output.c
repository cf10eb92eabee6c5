#include "output.h"
#include "tmp.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * The name the real tool should write: a temporary file next to OUTPUT,
 * renamed on success, so a failed link leaves nothing behind.  Outputs that
 * are not regular files (/dev/null) are written directly.
 */
const char *prepare_output(const char *output)
{
	struct stat st;
	char *dir;

	if (stat(output, &st) == 0 && !S_ISREG(st.st_mode))
		return output;
	dir = dir_name(output);
	if (access(dir, W_OK | X_OK) != 0) {
		error("cannot write %s: %s", output, strerror(errno));
		free(dir);
		return NULL;
	}
	free(dir);
	return tmp_output_create(output, NULL);
}

int finish_output(int rc, const char *output)
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
void remove_failed_output(const char *output)
{
	struct stat st;

	if (lstat(output, &st) == 0 && (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode)) &&
	    unlink(output) == 0)
		trace("the link failed: %s removed", output);
}
