/* lto-ld --help: lto-ld's own options, printed before the real ld's. */
#ifndef LTO_LD_HELP_H
#define LTO_LD_HELP_H

#include <stdio.h>

/*
 * lto-ld's own options and environment variables.  The option and
 * variable names here, in lto-ld.1 and in the README's tables are
 * compared by tests/toolchain/docs.sh, so a new option fails make check
 * until all three name it.
 */
void help_print(FILE *f);

#endif
