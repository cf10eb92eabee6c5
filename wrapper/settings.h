/*
 * lto-ld's settings from the environment, read once (settings_read() in
 * main), and merged with the command line's (settings_apply(): the
 * option wins over the variable that stands for it).  One rule for what
 * "set" means (lib/util.h): a variable set to "" is unset, and a flag is
 * on when set to anything but "0".  Values with a syntax (a mode, a
 * number, a size) are parsed here too, once.  The variables the LTRANS cache
 * passes to its own compiles (cache/ltrans.c) and those of other programs' protocols
 * (MAKEFLAGS, COLLECT_GCC_OPTIONS, TMPDIR) are not settings.
 */
#ifndef LTO_LD_SETTINGS_H
#define LTO_LD_SETTINGS_H

#include "ldopts.h"

#include <stdbool.h>
#include <stdint.h>

struct settings {
	const char *real_ld;	/* LTO_LD_REAL_LD */
	const char *cc;		/* LTO_LD_CC */
	const char *collect_gcc;	/* COLLECT_GCC: the gcc driver runs us */
	const char *plugin;	/* LTO_LD_PLUGIN */
	enum partial_mode partial;	/* LTO_LD_PARTIAL (PARTIAL_UNSET: unset) */
	long jobs;		/* LTO_LD_JOBS (0: unset) */
	const char *lto_flags;	/* LTO_LD_LTO_FLAGS */
	const char *report;	/* LTO_LD_REPORT */
	const char *exports;	/* LTO_LD_EXPORTS */
	const char *cache;	/* LTO_LD_CACHE */
	uint64_t cache_size;	/* LTO_LD_CACHE_SIZE, in bytes (0: unset) */
	bool whole_program;	/* LTO_LD_WHOLE_PROGRAM */
	bool final_weak;	/* LTO_LD_FINAL_WEAK */
	bool save_temps;	/* LTO_LD_SAVE_TEMPS */
	bool verbose;		/* LTO_LD_VERBOSE (also util.h's verbose) */
	/*
	 * Why LTO_LD_PARTIAL, LTO_LD_JOBS, LTO_LD_CACHE_SIZE hold no value
	 * (NULL: they do, or are unset), naming the variable.  The link that
	 * needs the value says it: a variable a run does not use stops none.
	 */
	char *partial_error;
	char *jobs_error;
	char *cache_size_error;
};

extern struct settings settings;

void settings_read(void);

/* What CMD's options left unset, its variable sets. */
void settings_apply(struct ld_cmdline *cmd);

#endif
