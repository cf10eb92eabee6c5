/*
 * The files an LTRANS compile reads besides its partition: what asm text
 * (top-level or in a function) names with .incbin and .include.  The IR
 * only names them, so a cache keyed by the IR would hand back the old
 * code when one changes (the kernel's CONFIG_IKCONFIG .incbin's its
 * .config).  GNU as lists the files it read (--MD FILE); the cache keeps
 * them with each entry as a list of "SHA-256 PATH" lines and checks the
 * list before it calls an entry a hit.
 */
#ifndef LTO_LD_ASMDEPS_H
#define LTO_LD_ASMDEPS_H

#include "strvec.h"

#include <stddef.h>
#include <time.h>

/*
 * The directories the assembler searches for .include and .incbin (after
 * the working directory), from the -Wa,-I and -Xassembler -I options of
 * the compile ARGV.
 */
void asmdeps_include_dirs(char *const *argv, struct strvec *dirs);

/*
 * The files DEPFILE (as --MD: make's syntax) lists, into READ, but for
 * those below one of SKIP_DIRS (temporary folders: the assembler's own
 * input is there; a NULL ends them); and into
 * ABSENT, the names it lists that are no file (as lists .file names too:
 * "<artificial>") and the files the assembler would have read instead
 * of one it read had they existed: the same name in the working
 * directory or another of DIRS.  All as absolute paths.  0, or -1 when
 * DEPFILE cannot be read.
 */
int asmdeps_read(const char *depfile, char *const *skip_dirs, char *const *dirs,
		 struct strvec *read, struct strvec *absent);

/*
 * *LIST gets a line "SHA-256 PATH\n" for each file of READ, and a line
 * of 64 '-' and PATH for each of ABSENT (malloc'd, "" for none).  A file
 * changed at or after SINCE (the compile that read it had started) may
 * not be what the compile read: -1 then, as when one cannot be read,
 * with *WHY saying which (malloc'd).
 */
int asmdeps_record(char *const *read, char *const *absent,
		   const struct timespec *since, char **list, char **why);

/*
 * NULL when every file of LIST (LEN bytes of asmdeps_record's lines)
 * still holds what it held, and none that was absent exists; else why
 * not (malloc'd): the file that changed, appeared or cannot be read, or
 * that LIST is malformed.
 */
char *asmdeps_check(const char *list, size_t len);

/* The time now, as the file system stamps a change (for SINCE above). */
void asmdeps_now(struct timespec *now);

#endif
