/*
 * lto-ld's decision, top to bottom (here; each kind of link in link/):
 *   1. parse the ld command line and scan every input for GCC IR;
 *   2. no IR: exec the real ld with the arguments as given;
 *   3. the gcc driver loaded GCC's plugin (the gcc -B route): the real
 *      ld, with what link/driver.c adds to the driver's LTO;
 *   4. final link with IR: the real ld with the LTO plugin and the
 *      environment lto-wrapper needs (link/lto.c, link/ltoenv.c);
 *   5. ld -r with IR (link/partial.c): a native object carrying the
 *      merged IR (fat, link/fat.c), a thin archive (link/thin.c), a
 *      native object or a merged IR object (--lto-partial /
 *      LTO_LD_PARTIAL).
 * Outputs lto-ld writes itself go to a temporary name and are renamed
 * (outputs.c); a failed link leaves none.
 */
#include "link.h"
#include "help.h"
#include "inputs.h"
#include "ldopts.h"
#include "link/driver.h"
#include "link/ldargs.h"
#include "link/lto.h"
#include "link/partial.h"
#include "outputs.h"
#include "run.h"
#include "settings.h"
#include "strvec.h"
#include "tmp.h"
#include "toolchain.h"
#include "util.h"
#include "version.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* -l inputs need their files before they can be scanned. */
static void resolve_libraries(struct ld_cmdline *cmd, struct toolchain *tc)
{
	char **dirs;

	ld_resolve_libraries(cmd, NULL);
	if (!ld_has_unresolved_libraries(cmd) || cmd->nostdlib)
		return;
	dirs = toolchain_default_libdirs(tc, cmd->emulation);
	ld_resolve_libraries(cmd, dirs);
	for (char **d = dirs; *d; d++)
		free(*d);
	free(dirs);
}

/*
 * ld refuses an output that is one of its inputs; lto-ld links to a
 * temporary name and renames it, which would hide that from ld, so it
 * checks first (and the --lto-report file the same way).
 */
static int check_outputs(const struct ld_cmdline *cmd)
{
	const char *report = cmd->report;

	for (size_t i = 0; i < cmd->ninputs; i++) {
		const char *in = cmd->inputs[i].path;

		/* a missing input is ld's to report ("cannot find") */
		if (!in || access(in, F_OK) != 0)
			continue;
		if (same_file(in, cmd->output))
			return error("input file '%s' is the same as output "
				     "file '%s': refusing to replace an input",
				     in, cmd->output);
		if (report && same_file(in, report))
			return error("--lto-report=%s: that is the input file "
				     "'%s': refusing to replace an input",
				     report, in);
	}
	if (report && same_file(report, cmd->output))
		return error("--lto-report=%s: that is the link's output "
			     "'%s'", report, cmd->output);
	return 0;
}

/*
 * Become the real tool (ARGV).  Arguments too long for exec go to a
 * response file; then lto-ld waits for ld instead, to remove the file.
 */
static int run_real_tool(struct strvec *argv)
{
	int rc;

	if (strvec_bytes(argv) <= ARGV_INLINE_MAX) {
		run_exec(argv->v, NULL);
		return 1;
	}
	rc = run_fit_argv(argv, 1, "ld-args.rsp");
	if (rc == 0)
		rc = run_wait(argv->v, NULL);
	return rc < 0 ? 1 : rc;
}

/* Run the real ld with CMD's arguments (lto-ld thin archives wrapped). */
static int plain_link(const struct ld_cmdline *cmd, struct toolchain *tc,
		      const struct inputs_info *info)
{
	struct strvec argv = STRVEC_INIT;
	bool driver_lto = cmd->caller_plugin && info->ir.any_ir;
	int rc;

	if (driver_lto) {
		trace("the caller loaded the LTO plugin: it runs LTO");
		if (driver_lto_options(cmd))
			return 1;
	}
	strvec_push(&argv, tc->real_tool);
	ldargs_push(&argv, cmd, info, true);
	if (driver_lto && cmd->cache)
		rc = driver_cached_link(cmd, tc, &argv);
	else
		rc = run_real_tool(&argv);
	strvec_clear(&argv);
	return rc;
}

/* No IR: the real ld gets exactly what we got (lto-ld's own options removed). */
static int passthrough(int argc, char **argv, const struct ld_cmdline *cmd,
		       struct toolchain *tc)
{
	struct strvec args = STRVEC_INIT;
	int rc;

	strvec_push(&args, tc->real_tool);
	if (cmd->had_own_options)
		strvec_pushv(&args, cmd->args.v);
	else
		for (int i = 1; i < argc; i++)
			strvec_push(&args, argv[i]);
	rc = run_real_tool(&args);
	strvec_clear(&args);
	return rc;
}

/* --print-cc-plugin: the path for gcc's -fplugin=, or an error. */
static int print_cc_plugin(struct toolchain *tc)
{
	char *path = toolchain_find_cc_plugin(tc, false);

	if (!path)
		return 1;
	printf("%s\n", path);
	free(path);
	return 0;
}

static int version_or_help(const struct ld_cmdline *cmd, struct toolchain *tc)
{
	struct strvec args = STRVEC_INIT;
	int rc;

	/* lto-ld's own options are not ld's: kbuild's ld-option probes with -v */
	if (cmd->help)
		help_print(stdout);
	strvec_push(&args, tc->real_tool);
	strvec_pushv(&args, cmd->args.v);
	fflush(stdout);
	rc = run_wait(args.v, NULL);
	strvec_clear(&args);
	fputs(LTO_LD_VERSION_LINE, stdout);
	return rc;
}

int link_main(int argc, char **argv, struct toolchain *tc)
{
	struct ld_cmdline cmd;
	struct inputs_info info;
	int rc;

	memset(&info, 0, sizeof(info));
	if (ld_parse(argc, argv, &cmd))
		return 1;
	settings_apply(&cmd);
	tmp_keep(cmd.save_temps);
	if (cmd.print_cc_plugin) {
		rc = print_cc_plugin(tc);
		goto out;
	}
	if (cmd.version || cmd.help) {
		rc = version_or_help(&cmd, tc);
		goto out;
	}
	if (cmd.missing_argument) {
		/* an invalid command line: ld's own message says what is wrong */
		trace("%s lacks its argument: running %s unchanged",
		      cmd.missing_argument, tc->real_tool);
		rc = passthrough(argc, argv, &cmd, tc);
		goto out;
	}
	resolve_libraries(&cmd, tc);
	/* (an output that is an input is refused, and left alone) */
	if (check_outputs(&cmd)) {
		rc = 1;
		goto out;
	}
	rc = inputs_scan(&cmd, &info);
	if (rc)
		goto failed;
	if (!info.ir.any_ir && !info.any_lto_ld_thin) {
		trace("no GCC IR in the inputs: running %s unchanged",
		      tc->real_tool);
		rc = passthrough(argc, argv, &cmd, tc);
	} else if (!info.ir.any_ir || cmd.caller_plugin) {
		/* The gcc driver already loaded the plugin (gcc -B route). */
		rc = plain_link(&cmd, tc, &info);
	} else if (toolchain_find_lto(tc) || inputs_check_ir_machines(&info, tc) ||
		   inputs_check_ir_versions(&info, tc)) {
		rc = 1;
	} else if (cmd.relocatable) {
		rc = partial_link(&cmd, tc, &info);
	} else {
		rc = lto_link(&cmd, tc, &info, LINK_FINAL, NULL);
	}
failed:
	if (rc != 0)
		output_remove_failed(cmd.output);
out:
	inputs_free(&info);
	ld_cmdline_free(&cmd);
	return rc;
}
