/*
 * GCC's names for the copies it makes of a function or variable: the
 * one rule for its suffixes.  A suffix is one of the words lto_priv,
 * constprop, isra, part, cold, localalias and clone, each maybe
 * followed by a number (foo.lto_priv.0, foo.constprop.3, foo.cold,
 * foo.isra.0.constprop.1).  A bare number (name.N) is what GCC names a
 * function's static variable: whether it counts is the mode's choice.
 * A symbol version (@VER, @@VER) is never part of a suffix.
 */
#ifndef LTO_LD_SYMNAME_H
#define LTO_LD_SYMNAME_H

#include <stdbool.h>
#include <stddef.h>

enum symname_mode {
	/*
	 * Clones and privatized copies only: "buf.0" is another symbol than
	 * "buf" (lto-ld's report asks whether an output symbol is a copy of
	 * an IR definition).
	 */
	SYMNAME_CLONES,
	/*
	 * Statics' numbers too: "buf.12" is "buf", since the number changes
	 * with the translation unit LTO puts it in (lto-sizediff matches
	 * the symbols of two images).
	 */
	SYMNAME_STATICS,
};

/*
 * NAME without its GCC suffixes (MODE), newly allocated, its symbol
 * version kept: foo.isra.0.constprop.1@VER is foo@VER.
 */
char *symname_normalize(const char *name, enum symname_mode mode);

/*
 * Is NAME the first BASE characters of it followed by GCC suffixes only
 * (SYMNAME_CLONES)?  "foo.constprop.0" is a copy of "foo", "foo.0" is not.
 */
bool symname_is_copy(const char *name, size_t base);

/*
 * NAME without its ".lto_priv.N" suffixes, the source's name of a static
 * GCC's LTO moved between partitions, written to OUT (room for NAME);
 * its length.  Other suffixes stay: "foo.lto_priv.0.part.0" is
 * "foo.part.0", "foo.lto_priv.0.lto_priv.1" is "foo".
 */
size_t symname_unprivatize(const char *name, char *out);

/* Does NAME hold a ".lto_priv.N" that symname_unprivatize() removes? */
bool symname_is_privatized(const char *name);

/*
 * The suffix words, for the kernel checks' copy of the rule
 * (tests/kernel/gcc-suffixes.sh), which test-symname compares: N gets
 * their number.
 */
const char *const *symname_suffix_words(size_t *n);

#endif
