/* GCC's names for the copies it makes of a function or variable. */
#ifndef LTO_SIZEDIFF_SYMNAME_H
#define LTO_SIZEDIFF_SYMNAME_H

/*
 * NAME without the suffixes GCC adds to clones and privatized copies,
 * newly allocated: foo.lto_priv.0, foo.constprop.3, foo.isra.0,
 * foo.part.1, foo.cold, foo.cold.2, foo.localalias, foo.clone.4 and
 * combinations (foo.isra.0.constprop.1) all become foo.  A bare numeric
 * suffix (a function's static variable: __func__.3, buf.12) goes too,
 * since its number changes with the translation unit LTO puts it in.
 * A symbol version (@VER, @@VER) is kept as it is.
 */
char *symname_normalize(const char *name);

#endif
