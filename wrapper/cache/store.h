/*
 * The cache's entries on disk: DIR/KK/EY..., K and EY... the hex of
 * the key, kept within LTO_LD_CACHE_SIZE by removing those used longest
 * ago.  The entry file is a header (magic, key, the lengths of the list and of
 * the object, the SHA-256 of both), the list and the object.  It is
 * written to a temporary file and renamed, so that links sharing a cache
 * only see whole entries; one that is truncated, corrupt or not ours is
 * removed and compiled again.
 */
#ifndef LTO_LD_CACHE_STORE_H
#define LTO_LD_CACHE_STORE_H

#include "../sha256.h"

#include <stdbool.h>
#include <stddef.h>

enum fetch { FETCH_MISS, FETCH_HIT, FETCH_CORRUPT, FETCH_STALE };

/*
 * Write the object of ENTRY (under KEY) to OUTPUT, checking it on the
 * way, when the files the assembler read for it still hold what they
 * held.  *DEPS gets their list on a hit (malloc'd), *WHY (malloc'd) the
 * file that changed for FETCH_STALE.
 */
enum fetch entry_fetch(const char *entry, const unsigned char *key,
		       const char *output, char **deps, char **why);

/*
 * Store OBJECT as ENTRY, with DEPS, the list of the files the assembler
 * read for it.  0, or -1 with errno set.
 */
int entry_store(const char *entry, const unsigned char *key,
		const char *deps, const char *object);

/* The entry for KEY in the cache DIR. */
char *entry_path(const char *dir, const unsigned char key[SHA256_LEN]);

/* Keep DIR within LTO_LD_CACHE_SIZE: the entries used longest ago go first. */
void store_trim(const char *dir);

#endif
