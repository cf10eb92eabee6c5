/*
 * The LTRANS cache (--lto-cache=DIR, LTO_LD_CACHE=DIR).  For a link with
 * a cache, lto-ld puts itself in COLLECT_GCC: lto-wrapper then runs every
 * LTRANS compile ("gcc -xlto -c ... -fltrans -o N.ltrans.o N.o") through
 * lto-ld, which answers it from the cache or runs gcc and stores what it
 * wrote.  WPA and anything else it is asked to run go to gcc untouched.
 * The link cache, in the same folder, goes one step further: a link
 * whose inputs are those of a cached one gets that link's outputs, and
 * neither WPA nor LTRANS runs.  Both kinds of entry keep the files the
 * assembler read for them (.incbin, .include), and are used only while
 * those files are unchanged.
 * Here: one link's use of the cache.  The LTRANS compiles lto-wrapper
 * runs through lto-ld are ltrans.h's; what an entry is filed under,
 * key.h's; the entries on disk, store.h's.
 */
#ifndef LTO_LD_CACHE_LINKCACHE_H
#define LTO_LD_CACHE_LINKCACHE_H

#include "strvec.h"

#include <stdbool.h>

struct toolchain;

/* One link's use of the cache (dir NULL: no cache). */
struct cache_link {
	char *dir;
	const char *log;	/* what each LTRANS compile did, a line each */
	char *compiler;		/* the compiler's identity, as hex */
	unsigned hits, misses, stores_failed, corrupt, stale;
	bool log_read;		/* the counts and the files below are read */
	char *deps;		/* the files the assembler read (asmdeps.h)... */
	char *deps_unknown;	/* ...or why they are not known (NULL: they are) */
	bool keyed;		/* the link cache could name this link: */
	unsigned char key[32];	/* ...by this */
	bool link_hit;		/* its outputs came from the cache */
	struct strvec outputs;	/* the files cache_link_store() keeps */
};

/*
 * Prepare DIR (NULL: no cache) for a link whose LTO runs gcc as CC
 * (COLLECT_GCC): create it, check that it takes files, and add to
 * SETTINGS what lto-wrapper's children need.  An unusable DIR gives one
 * warning and a link without the cache.  0, or 1 after an error.
 */
int cache_link_begin(struct cache_link *link, const char *dir,
		     struct toolchain *tc, const char *cc,
		     struct strvec *settings);

/*
 * After the link: count hits and misses, say them (LTO_LD_VERBOSE), warn
 * once when entries could not be stored, and keep the cache within
 * LTO_LD_CACHE_SIZE by removing the entries used longest ago.
 */
void cache_link_end(struct cache_link *link);
void cache_link_free(struct cache_link *link);

/*
 * The link cache, for a link that has the cache: before ld runs with
 * ARGV and SETTINGS (NAME=VALUE), name the link by everything it reads
 * (the files its arguments and settings name, thin archives' members,
 * IR by its contents, not GCC's random section names), and when the
 * cache holds its OUTPUTS (the output, then the plugin's side files; a
 * NULL ends them), write them: true, and ld need not run.  A link that
 * searches libraries (-l) or whose linker script names other files is
 * never answered from the cache.
 */
bool cache_link_fetch(struct cache_link *link, char *const *argv,
		      char *const *settings, char *const *outputs);

/*
 * Once the outputs cache_link_fetch() was given are final (ld wrote
 * them, and lto-ld tidied them: a hit then needs no tidying): keep them
 * for the next link with the same key.
 */
void cache_link_store(struct cache_link *link);

#endif
