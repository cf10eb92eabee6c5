/* Fat ld -r outputs: the merged IR added to the native object. */
#include "fat.h"
#include "../ldopts.h"
#include "../scan.h"
#include "../toolchain.h"
#include "progs.h"
#include "run.h"
#include "strvec.h"
#include "tmp.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* GCC's struct lto_section: two 16-bit versions, then the slim flag */
#define LTO_HEADER_SLIM_FLAG 4

static int visit_lto_header(const struct scan_object *obj, void *data)
{
	*(off_t *)data = obj->lto_header;
	return 0;
}

/*
 * Clear the "slim" flag of the LTO stream header of the IR object PATH,
 * as GCC writes it for -ffat-lto-objects: binutils reads it, and a slim
 * object linked without the plugin is "plugin needed to handle lto
 * object" even when native code is there.
 */
static int mark_fat(const char *path)
{
	off_t header = -1;
	int fd, rc = 0;

	if (scan_file(path, visit_lto_header, &header, NULL) < 0)
		return 1;
	if (header < 0)
		return error("%s: no LTO stream header", path);
	fd = open(path, O_WRONLY);
	if (fd < 0 || pwrite(fd, "", 1, header + LTO_HEADER_SLIM_FLAG) != 1)
		rc = error("%s: %s", path, strerror(errno));
	if (fd >= 0 && close(fd) != 0 && !rc)
		rc = error("%s: %s", path, strerror(errno));
	return rc;
}

/*
 * A fat ld -r output: OUT gets the native object NATIVE and the merged IR
 * object IR, as -ffat-lto-objects gives one object both.  Tools read the
 * native code; a later LTO link (lto-ld, or gcc -flto) claims the file
 * and reads only its IR.  The IR's slim marks go first (its header flag,
 * the __gnu_lto_slim symbol): ld without the plugin would take the file
 * for IR only.
 */
int fat_add_ir_part(const struct ld_cmdline *cmd, struct toolchain *tc,
		    const char *native, const char *ir, const char *out)
{
	struct strvec argv = STRVEC_INIT;
	char *objcopy = xasprintf("%sobjcopy", tc->prefix);
	char *fat_ir = tmp_file("ir-fat.o");
	int rc = 1;

	strvec_push_nodup(&argv, find_program(objcopy));
	if (!argv.v[0]) {
		rc = error("cannot find '%s' (needed to write the fat ld -r "
			   "output %s)", objcopy, cmd->output);
		goto done;
	}
	/* its early debug excluded from links without LTO, as in GCC's */
	strvec_pushl(&argv, "--strip-symbol=__gnu_lto_slim",
		     "--set-section-flags=.gnu.debuglto_*=contents,readonly,exclude",
		     "--set-section-flags=.gnu.debuglto_*str=contents,readonly,"
		     "exclude,merge,strings", ir, fat_ir, NULL);
	if (run_wait(argv.v, NULL) || mark_fat(fat_ir))
		goto done;
	strvec_clear(&argv);
	strvec_pushl(&argv, tc->real_tool, "-r", NULL);
	if (cmd->emulation)
		strvec_pushl(&argv, "-m", cmd->emulation, NULL);
	strvec_pushl(&argv, "-o", out, native, fat_ir, NULL);
	rc = run_wait(argv.v, NULL);
done:
	free(objcopy);
	strvec_clear(&argv);
	return rc;
}
