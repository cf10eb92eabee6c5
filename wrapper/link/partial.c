/* ld -r with IR: which --lto-partial mode, and what each one writes. */
#include "partial.h"
#include "lto.h"
#include "thin.h"
#include "../inputs.h"
#include "../ldopts.h"
#include "../settings.h"
#include "tmp.h"
#include "util.h"

#include <stdlib.h>

/* An input that is neither an object nor an archive (NULL: none). */
static char *non_object_input(const struct ld_cmdline *cmd,
			      const struct inputs_info *info)
{
	for (size_t i = 0; i < cmd->ninputs; i++) {
		if (cmd->inputs[i].raw)
			return xasprintf("%s is raw data (-b)",
					 cmd->inputs[i].name);
		if (cmd->inputs[i].path && info->file[i].kind == FILE_OTHER)
			return xasprintf("%s is not an object or archive",
					 cmd->inputs[i].path);
	}
	return NULL;
}

/* Why thin mode cannot represent this ld -r (NULL when it can). */
static char *thin_blocker(const struct ld_cmdline *cmd,
			  const struct inputs_info *info)
{
	if (info->library_archive)
		return xasprintf("%s is an archive linked on demand",
				 info->library_archive);
	return non_object_input(cmd, info);
}

/* --lto-partial, else LTO_LD_PARTIAL, else fat. */
static int partial_mode(const struct ld_cmdline *cmd, enum partial_mode *mode)
{
	*mode = cmd->partial;
	if (*mode == PARTIAL_UNSET && settings.partial_error)
		return error("%s", settings.partial_error);
	if (*mode == PARTIAL_UNSET)
		*mode = settings.partial;
	if (*mode == PARTIAL_UNSET)
		*mode = PARTIAL_FAT;
	return 0;
}

/*
 * Why a fat output cannot carry this ld -r (NULL when it can): a later
 * LTO link claims a file with IR whole, so native code that is not also
 * in the IR would be lost there.
 */
static char *fat_blocker(const struct ld_cmdline *cmd,
			 const struct inputs_info *info)
{
	if (info->ir.first_native)
		return xasprintf("%s holds no GCC IR", info->ir.first_native);
	return non_object_input(cmd, info);
}

/* Fat mode: the merged IR first, then the native object that carries it. */
static int fat_link(const struct ld_cmdline *cmd, struct toolchain *tc,
		    const struct inputs_info *info)
{
	struct plugin_files none = { NULL, NULL };
	char *ir = tmp_file("ir.o");

	if (!ir || lto_run(cmd, tc, info, LINK_IR_REL, ir, &none, NULL))
		return 1;
	return lto_link(cmd, tc, info, LINK_NATIVE_REL, ir);
}

int partial_link(const struct ld_cmdline *cmd, struct toolchain *tc,
		 const struct inputs_info *info)
{
	enum partial_mode mode;
	char *blocker;

	if (partial_mode(cmd, &mode))
		return 1;
	trace("ld -r with GCC IR: %s mode", partial_mode_name(mode));
	switch (mode) {
	case PARTIAL_THIN:
		blocker = thin_blocker(cmd, info);
		if (!blocker) {
			if (cmd->report)
				warning("%s: no LTO report for a thin ld -r "
					"output (LTO runs when it is linked); "
					"%s not written", cmd->output, cmd->report);
			return thin_link(cmd, tc);
		}
		warning("%s: thin ld -r output is not possible (%s); "
			"running LTO now instead (--lto-partial=native)",
			cmd->output, blocker);
		free(blocker);
		break;
	case PARTIAL_FAT:
		/* whole-program: what it made internal is for no later link */
		if (cmd->whole_program) {
			trace("--lto-whole-program: a native object, no IR");
			break;
		}
		blocker = fat_blocker(cmd, info);
		if (!blocker)
			return fat_link(cmd, tc, info);
		warning("%s: the output cannot carry GCC IR (%s); a later "
			"link sees native code only (--lto-partial=native)",
			cmd->output, blocker);
		free(blocker);
		break;
	case PARTIAL_IR:
		if (info->ir.first_native)
			return error("%s: holds no GCC IR; --lto-partial=ir "
				     "writes one merged IR object, which cannot "
				     "carry native code (use --lto-partial="
				     "native or thin)", info->ir.first_native);
		return lto_link(cmd, tc, info, LINK_IR_REL, NULL);
	case PARTIAL_NATIVE:
	case PARTIAL_UNSET:
		break;
	}
	return lto_link(cmd, tc, info, LINK_NATIVE_REL, NULL);
}
