/*
 * What a cache entry is filed under.  An LTRANS entry is one LTRANS
 * object, filed under the SHA-256 of what the compile read:
 *   - the partition, section by section (names, types, flags, contents),
 *     with the temporary paths of its option record taken out: GCC 12
 *     writes WPA's own -fltrans-output-list there;
 *   - the options, but for the input, -o, -dumpbase and -dumpdir and
 *     anything naming lto-ld's temporary directory;
 *   - the contents of every file an option names (-fplugin=...);
 *   - the working directory (debug information names it);
 *   - the compiler: its version, and the path, size and time of gcc,
 *     lto-wrapper and lto1 (and of lto-ld), and the variables gcc reads
 *     that may change the code (GCC_EXEC_PREFIX, COMPILER_PATH...), read
 *     once per link by the lto-ld that links.
 * What the assembler reads besides (.incbin, .include: the IR only names
 * those files) cannot be known before the compile: the entry keeps the
 * list the assembler wrote (asmdeps.h), and is a hit only while every
 * file on it holds what it held.
 */
#ifndef LTO_LD_CACHE_KEY_H
#define LTO_LD_CACHE_KEY_H

#include "../sha256.h"

#include <stddef.h>
#include <stdint.h>

/* S with its NUL: one string can never run into the next. */
void key_text(struct sha256 *h, const char *s);
void key_number(struct sha256 *h, uint64_t v);

/*
 * How many of the options from ARGS[I] on name this link's temporary
 * files rather than say how to compile (0: none).
 */
int key_temporary_names(char *const *args, size_t n, size_t i, const char *tmpdir);

/* An ELF object by its sections, GCC's random section names left out. */
int key_object(struct sha256 *h, const char *path, const char *tmpdir);

/*
 * The file an option names after its last '=' by its contents; -1 when
 * a plugin cannot be read.
 */
int key_option_file(struct sha256 *h, const char *option);

#endif
