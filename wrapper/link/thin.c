/* Thin ld -r outputs: a thin archive of the inputs, LTO when it is linked. */
#include "thin.h"
#include "../outputs.h"
#include "../ldopts.h"
#include "../thinar.h"
#include "strvec.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Options a thin archive cannot carry: they take effect at the final link. */
static bool harmless_in_thin(const char *opt)
{
	static const char *const ok[] = {
		"-r", "-i", "--relocatable", "-relocatable", "-m", "-EL", "-EB",
		"--whole-archive", "-whole-archive", "--no-whole-archive",
		"-no-whole-archive", "--push-state", "--pop-state",
		"--start-group", "--end-group", "-(", "-)", "-L",
		"--library-path", "-plugin", "--plugin", "--sysroot",
		"-nostdlib", "-Bstatic", "-Bdynamic", "-static", "-dn", "-dy",
		"-g", "-O", "-flto", "-fuse-ld", "-s", "-S", "--strip",
		"-x", "-X", "--discard",
	};

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		if (starts_with(opt, ok[i]))
			return true;
	return false;
}

/*
 * A symbolic link handed over in place (outputs.h) is replaced, as ld
 * replaces one: a thin archive names its members from where it is, so
 * it must be at the name given, not where the link leads.  0, or 1
 * after an error.
 */
static int replace_link(const char *path)
{
	struct stat st;
	int fd;

	if (lstat(path, &st) != 0 || !S_ISLNK(st.st_mode))
		return 0;
	if (unlink(path) != 0)
		return error("cannot write %s: %s", path, strerror(errno));
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
	if (fd < 0)
		return error("cannot write %s: %s", path, strerror(errno));
	close(fd);
	return 0;
}

int thin_link(const struct ld_cmdline *cmd, struct toolchain *tc)
{
	struct strvec members = STRVEC_INIT;
	const char *out = output_prepare(cmd->output, "");
	int rc;

	if (!out || (out == cmd->output && replace_link(out)))
		return 1;
	for (size_t i = 0; i < cmd->args.n; i++)
		if (cmd->roles[i] == ROLE_OPTION && !harmless_in_thin(cmd->args.v[i]))
			warning("--lto-partial=thin: '%s' does not apply to the "
				"thin archive %s (it takes effect when the "
				"archive is linked)", cmd->args.v[i], cmd->output);
	for (size_t i = 0; i < cmd->ninputs; i++)
		if (cmd->inputs[i].path)
			strvec_push(&members, cmd->inputs[i].path);
	if (!members.n) {
		strvec_clear(&members);
		return error("no input files");
	}
	rc = output_finish(thinar_write(tc, out, members.v), cmd->output);
	strvec_clear(&members);
	return rc;
}
