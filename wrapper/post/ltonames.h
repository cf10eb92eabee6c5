/*
 * GCC's LTO renames each static it moves between partitions
 * NAME.lto_priv.N, global and hidden when two partitions share it.  No
 * source has those names, yet kallsyms, System.map, perf and modpost
 * read them: modpost's section checks allow a data symbol named *_ops
 * to refer to init code, not one named *_ops.lto_priv.0.  And identical
 * code folding leaves one body under the names of every copy it merged
 * (the same static inline helper of many files), which are one name
 * again once the suffixes go.
 *
 * So in an object its LTO wrote (ld -r), lto-ld makes those hidden
 * symbols local (no other object can name them), gives every local its
 * source name back, and keeps one symbol of each name and place.
 */
#ifndef LTO_LD_LTONAMES_H
#define LTO_LD_LTONAMES_H

/* The edit above of PATH, an ELF object, in place.  0, or 1 after an error. */
int lto_names_restore(const char *path);

#endif
