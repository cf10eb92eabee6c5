/*
 * The LTRANS cache's compiles.  For a link with a cache, lto-ld puts
 * itself in COLLECT_GCC: lto-wrapper then runs every LTRANS compile
 * ("gcc -xlto -c ... -fltrans -o N.ltrans.o N.o") through lto-ld, which
 * answers it from the cache or runs gcc and stores what it wrote.  WPA
 * and anything else it is asked to run go to gcc untouched.  Each
 * compile says what it did in the link's log, a line each.
 */
#ifndef LTO_LD_CACHE_LTRANS_H
#define LTO_LD_CACHE_LTRANS_H

#include "strvec.h"

#include <stdbool.h>

/* Set by the linking lto-ld for what lto-wrapper runs as COLLECT_GCC. */
#define ENV_CC "LTO_LD_LTRANS_CC"		/* the real gcc */
#define ENV_DIR "LTO_LD_LTRANS_CACHE"		/* the cache */
#define ENV_COMPILER "LTO_LD_LTRANS_COMPILER"	/* the compiler's identity */
#define ENV_LOG "LTO_LD_LTRANS_LOG"		/* where each compile says what it did */
#define ENV_TMP "LTO_LD_LTRANS_TMPDIR"		/* the linking lto-ld's temporary folder */

/*
 * What the LTRANS compiles of one link did, as each logged it in ENV_LOG,
 * a line each: a hit, a miss, an entry corrupt or stale, an object not
 * cached or not stored, and the files the assembler read.
 */
struct ltrans_log {
	unsigned hits, misses, corrupt, stale, stores_failed;
	struct strvec deps;	/* the files the assembler read: "SHA-256 PATH" */
	char *uncached;		/* why an object was not cached (the first), or NULL */
	char *unstored;		/* why one was not stored (the first), or NULL */
};

/* The log PATH into LOG; a log that cannot be read holds nothing. */
void ltrans_log_read(const char *path, struct ltrans_log *log);
void ltrans_log_free(struct ltrans_log *log);

/* True when this process was started by lto-wrapper as COLLECT_GCC. */
bool cache_ltrans_requested(void);

/* Run (or answer from the cache) what lto-wrapper asked gcc to do. */
int cache_ltrans_main(int argc, char **argv);

#endif
