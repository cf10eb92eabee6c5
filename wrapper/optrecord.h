/*
 * GCC's option record: the section .gnu.lto_.opts of an IR object holds
 * the options of the compile that wrote it ('-O2' '-p' '-mfentry' ...),
 * quoted as in COLLECT_GCC_OPTIONS, with a NUL after the record.  A plain
 * ld -r of IR objects concatenates their records; lto-wrapper reads each.
 * One reader for every use: the cache's keys, the options the LTO step
 * takes from its inputs.
 */
#ifndef LTO_LD_OPTRECORD_H
#define LTO_LD_OPTRECORD_H

#include "strvec.h"

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define OPTRECORD_SECTION ".gnu.lto_.opts"
/* far beyond any compile's options: a larger section is not read as one */
#define OPTRECORD_MAX (1 << 20)

/*
 * The options of the LEN bytes of TEXT, appended to OPTS as lto-wrapper
 * reads them: quotes removed, '\'' a quote, each NUL ends a record.
 */
void optrecord_split(const char *text, size_t len, struct strvec *opts);

/*
 * The options of the record of SIZE bytes at OFFSET of FD, appended to
 * OPTS.  -1 when SIZE is beyond OPTRECORD_MAX or the bytes are not all
 * there (OPTS unchanged); prints nothing.
 */
int optrecord_read(int fd, off_t offset, uint64_t size, struct strvec *opts);

#endif
