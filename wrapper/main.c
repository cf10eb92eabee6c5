/*
 * lto-ld: a drop-in for GNU ld that drives GCC LTO itself.  One program,
 * several names: lto-ld, lto-ar, lto-nm, lto-ranlib, each optionally with a
 * target prefix (arm-linux-gnueabihf-lto-ld), and "ld" in a gcc -B directory.
 */
#include "cache/ltrans.h"
#include "link.h"
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

/* -V or --version: ar, nm and ranlib all take both. */
static bool is_version_option(const char *arg)
{
	return !strcmp(arg, "--version") || !strcmp(arg, "-V");
}

/*
 * --version: the real tool's text (ARGV), then lto-ld's line, as lto-ld
 * prints it after ld's; so lto-ld waits for the tool rather than
 * becoming it.
 */
static int version_after(char *const *argv)
{
	int rc;

	fflush(stdout);
	rc = run_wait(argv, NULL);
	fputs(LTO_LD_VERSION_LINE, stdout);
	return rc < 0 ? 1 : rc;
}

/* lto-ar, lto-nm, lto-ranlib: the real tool with GCC's LTO plugin added. */
static int binutils_main(int argc, char **argv, struct toolchain *tc)
{
	struct strvec args = STRVEC_INIT;
	bool has_plugin = false, version = false;
	int rc = 1;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--plugin") || starts_with(argv[i], "--plugin="))
			has_plugin = true;
		version = version || is_version_option(argv[i]);
	}
	strvec_push(&args, tc->real_tool);
	if (!has_plugin) {
		if (toolchain_find_lto(tc) == 0) {
			strvec_push(&args, "--plugin");
			strvec_push(&args, tc->gcc_plugin);
		} else {
			warning("running %s without the LTO plugin: GCC IR "
				"symbols will not be listed", tc->real_tool);
		}
	}
	for (int i = 1; i < argc; i++)
		strvec_push(&args, argv[i]);
	if (version)
		rc = version_after(args.v);
	else
		run_exec(args.v, NULL);
	strvec_clear(&args);
	return rc;
}

/*
 * Set for everything lto-ld runs, the real tool first.  An inode check
 * cannot see through a script that runs lto-ld again; this can.
 */
#define LOOP_GUARD "LTO_LD_RUNNING"

static int check_not_nested(void)
{
	const char *via = env_value(LOOP_GUARD);

	if (!via)
		return 0;
	return error("lto-ld was run again by what it ran as the real tool "
		     "(%s=%s): that program leads back to lto-ld; point "
		     "LTO_LD_REAL_LD (or PATH) at the real one",
		     LOOP_GUARD, via);
}

int main(int argc, char **argv)
{
	struct toolchain tc;
	int rc;

	progname = base_name(argv[0]);
	settings_read();
	progname = toolchain_message_name(argv[0]);	/* (it reads COLLECT_GCC) */
	run_install_signal_handlers();
	/* lto-wrapper runs lto-ld as COLLECT_GCC for a link with a cache */
	if (cache_ltrans_requested())
		return cache_ltrans_main(argc, argv);
	if (check_not_nested())
		return 1;
	setenv(LOOP_GUARD, argv[0], 1);	/* for what toolchain_init() asks */
	if (toolchain_init(&tc, argv[0]))
		return 1;
	setenv(LOOP_GUARD, tc.real_tool, 1);
	if (tc.tool == TOOL_LD)
		rc = link_main(argc, argv, &tc);
	else
		rc = binutils_main(argc, argv, &tc);
	tmp_cleanup();
	toolchain_free(&tc);
	return rc;
}
