/*
 * Which toolchain an invocation belongs to, and where its parts are:
 * the real ld/ar/nm/ranlib, the gcc that wrote the IR, its lto-wrapper and
 * LTO plugin.  "arm-linux-gnueabihf-lto-ld" selects arm-linux-gnueabihf-ld
 * and arm-linux-gnueabihf-gcc; a plain "ld" run by the gcc driver (the
 * gcc -B route) takes the prefix from COLLECT_GCC.
 */
#ifndef LTO_LD_TOOLCHAIN_H
#define LTO_LD_TOOLCHAIN_H

#include <stdbool.h>

enum tool { TOOL_LD, TOOL_AR, TOOL_NM, TOOL_RANLIB };

struct toolchain {
	enum tool tool;
	char *prefix;		/* "arm-linux-gnueabihf-" or "" */
	char *real_tool;	/* absolute path of the real ld/ar/nm/ranlib */
	char *cc;		/* gcc to ask about LTO (LTO_LD_CC, COLLECT_GCC, PREFIXgcc) */
	char *lto_wrapper;	/* filled by toolchain_find_lto() */
	char *gcc_plugin;	/* GCC's liblto_plugin.so */
	char *plugin;		/* the plugin lto-ld loads (LTO_LD_PLUGIN or GCC's) */
	char *proxy;		/* lto-ld-plugin.so, in front of GCC's (or NULL) */
	int gcc_major;
	char *machine;		/* the gcc's -dumpmachine, once asked */
};

/*
 * Work out the tool and toolchain from ARGV0 and the environment, and find
 * the real program (never this one).  Returns 0, or 1 after an error.
 */
int toolchain_init(struct toolchain *tc, const char *argv0);

/*
 * The name messages go under: the one lto-ld was run by (ARGV0's last
 * part), but PREFIXlto-ld when that was "ld" from a gcc -B directory,
 * so that lto-ld's messages are not taken for GNU ld's.
 */
const char *toolchain_message_name(const char *argv0);

/* Find gcc's lto-wrapper and LTO plugin.  0, or 1 after an error. */
int toolchain_find_lto(struct toolchain *tc);

/*
 * lto-ld's GCC compiler plugin (lto-ld-asm-names.so) built for the gcc of
 * this toolchain, found by its -dumpmachine; NULL when there is none
 * (after an error message unless QUIET).
 */
char *toolchain_find_cc_plugin(struct toolchain *tc, bool quiet);

/* The gcc's target triple (-dumpmachine, asked once); NULL when unknown. */
const char *toolchain_machine(struct toolchain *tc);

/* GCC's major version (asked once; -1 when unknown). */
int toolchain_gcc_major(struct toolchain *tc);

/* The real tool's default library directories (SEARCH_DIR in ld --verbose). */
char **toolchain_default_libdirs(const struct toolchain *tc, const char *emulation);

void toolchain_free(struct toolchain *tc);

#endif
