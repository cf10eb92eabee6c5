/*
 * The environment of lto-wrapper, which GCC's LTO plugin runs: its
 * COLLECT_GCC_OPTIONS, the LTRANS parallelism, make's jobserver.
 */
#ifndef LTO_LD_LINK_LTOENV_H
#define LTO_LD_LINK_LTOENV_H

#include "../outputs.h"

/*
 * lto-ld's channel to its compiler plugin in the LTO step
 * (gcc-plugin/asm-names.cc): the list of exports to keep.  Only lto-ld
 * sets it (empty: keep them all); the user's setting is LTO_LD_EXPORTS.
 */
#define EXPORTS_CHANNEL "LTO_LD_INTERNAL_EXPORTS_FILE"

struct inputs_info;
struct ld_cmdline;
struct toolchain;

/* *FLAG: the -flto=N (or -flto=jobserver) LTRANS runs with.  0, or 1 after an error. */
int ltoenv_jobs(char **flag);

/*
 * COLLECT_GCC_OPTIONS for the LTO of CMD, a link of KIND whose inputs
 * hold INFO (malloc'd).
 */
char *ltoenv_collect_gcc_options(const struct ld_cmdline *cmd, struct toolchain *tc,
				 const struct inputs_info *info,
				 const char *jobs_flag, enum link_kind kind);

/*
 * "MAKEFLAGS=..." without its jobserver, for lto-wrapper's make when
 * lto-ld did not find the jobserver usable (NULL: nothing to take out).
 */
char *ltoenv_makeflags_without_jobserver(void);

#endif
