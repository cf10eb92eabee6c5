/*
 * A string -> index map (open addressing, FNV-1a): lto-sizediff interns
 * symbol names, directories and object definitions with it, and keeps
 * what belongs to a key in its own arrays under the same index.
 */
#ifndef LTO_SIZEDIFF_STRMAP_H
#define LTO_SIZEDIFF_STRMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define STRMAP_NONE SIZE_MAX

struct strmap {
	char **keys;		/* owned copies, by index */
	size_t n;
	size_t keys_alloc;
	size_t *slots;		/* index + 1; 0 is an empty slot */
	size_t cap;		/* a power of two, or 0 before the first key */
};

#define STRMAP_INIT { NULL, 0, 0, NULL, 0 }

/* KEY's index, adding it (ADDED set) when it is new. */
size_t strmap_intern(struct strmap *m, const char *key, bool *added);
/* KEY's index, or STRMAP_NONE. */
size_t strmap_find(const struct strmap *m, const char *key);
void strmap_free(struct strmap *m);

#endif
