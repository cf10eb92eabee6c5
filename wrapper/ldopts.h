/*
 * The GNU ld command line, as ld itself reads it: getopt_long_only rules
 * (one or two dashes, unique prefixes, -xARG/-x ARG/--opt=ARG/--opt ARG),
 * @response files, and the positional state that decides how each input
 * is linked (--whole-archive, -Bstatic, -b FORMAT, --push-state, groups).
 */
#ifndef LTO_LD_LDOPTS_H
#define LTO_LD_LDOPTS_H

#include "strvec.h"

#include <stdbool.h>
#include <stddef.h>

#define RESPONSE_FILE_MAX_DEPTH 16
/* As ld (libiberty's expandargv refuses the 2,000th): @files in one command line. */
#define RESPONSE_FILE_MAX_COUNT 1999

enum partial_mode {
	PARTIAL_UNSET,
	PARTIAL_THIN,	/* ld -r writes a thin archive of its inputs */
	PARTIAL_NATIVE,	/* ld -r runs LTO now and writes a native object */
	PARTIAL_IR,	/* ld -r writes one merged IR object */
	PARTIAL_FAT,	/* ld -r writes a native object carrying the merged IR */
};

enum arg_role {
	ROLE_OPTION,	/* passed to ld untouched */
	ROLE_INPUT,	/* an input file, or -l */
	ROLE_OUTPUT,	/* -o FILE (one or two args): lto-ld substitutes it */
	ROLE_VALUE,	/* the separate argument of an option */
	ROLE_IGNORED,	/* "--" and everything after it: ld never reads them */
};

struct ld_input {
	size_t arg;		/* index in ld_cmdline.args */
	const char *name;	/* as written: a path, or "-lfoo" */
	char *path;		/* the file to read (for -l: as resolved, or NULL) */
	bool is_library;	/* given with -l */
	bool whole_archive;	/* under --whole-archive */
	bool dynamic;		/* -l may pick a shared library (-Bdynamic) */
	bool raw;		/* after -b FORMAT other than ELF: never scanned */
};

struct ld_cmdline {
	struct strvec args;	/* argv[1..], @files expanded, lto-ld options removed */
	enum arg_role *roles;	/* one per element of args */
	struct ld_input *inputs;
	size_t ninputs;
	const char *output;	/* the last -o, or "a.out" */
	const char *sysroot;
	const char *emulation;	/* -m */
	struct strvec libdirs;	/* -L, in order */
	bool relocatable;	/* -r, -i, -Ur, --relocatable */
	bool caller_plugin;	/* -plugin given: the gcc driver runs LTO */
	bool version;		/* --version, or -v/-V with no inputs */
	bool help;
	bool nostdlib;
	/* lto-ld's own options (never passed to ld) */
	enum partial_mode partial;
	bool save_temps;
	struct strvec lto_flags;	/* --lto-flags: options for the LTO step */
	bool whole_program;		/* --lto-whole-program */
	bool final_weak;		/* --lto-final-weak */
	bool print_cc_plugin;		/* --print-cc-plugin */
	struct strvec keep_files;	/* --lto-keep=FILE */
	struct strvec keep_symbols;	/* --lto-keep-symbol=GLOB */
	char *report;			/* --lto-report=FILE (or LTO_LD_REPORT) */
	char *exports;			/* --lto-exports=FILE (or LTO_LD_EXPORTS) */
	char *cache;			/* --lto-cache=DIR (or LTO_LD_CACHE) */
	bool had_own_options;	/* some were given: args differs from argv */
	const char *missing_argument;	/* the last option lacks its argument */
};

/*
 * Expand @file arguments into OUT the way libiberty does (quotes, backslash,
 * nesting); unreadable files stay literal.  Fails, naming the file, on
 * nesting beyond RESPONSE_FILE_MAX_DEPTH, on more than
 * RESPONSE_FILE_MAX_COUNT @files in all, and on a NUL byte.
 */
int ld_expand_args(int argc, char *const *argv, struct strvec *out);

/* Split a response file's text into arguments (libiberty's buildargv rules). */
void ld_split_response(const char *text, struct strvec *out);

/* Parse argv (argv[0] is skipped).  Returns 0, or 1 after printing an error. */
int ld_parse(int argc, char *const *argv, struct ld_cmdline *cmd);

/* Find the files behind -l inputs: -L dirs, then DEFAULT_DIRS (may be NULL). */
void ld_resolve_libraries(struct ld_cmdline *cmd, char *const *default_dirs);

/* True when some -l input was not found in the -L directories. */
bool ld_has_unresolved_libraries(const struct ld_cmdline *cmd);

void ld_cmdline_free(struct ld_cmdline *cmd);

const char *partial_mode_name(enum partial_mode mode);
/*
 * *MODE from TEXT, the value of SOURCE (--lto-partial, LTO_LD_PARTIAL):
 * NULL, or why TEXT is no mode, naming SOURCE (malloc'd).
 */
char *partial_mode_parse(const char *source, const char *text,
			 enum partial_mode *mode);

#endif
